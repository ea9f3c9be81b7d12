// Which swept elasticities and frictions cannot matter, by the engine's mixing rule (UIKit's,
// Box2D's): a contact's elasticity is the larger of its two sides' (`mixedRestitution`), its
// friction their geometric mean (`mixedFriction`), and the boundaries (reference bounds and
// explicit boundaries) have their own fixed values (`EngineSettings.boundaryElasticity`,
// `.boundaryFriction`). So a swept elasticity below every partner's does nothing, and a friction
// against partners of friction 0 does nothing; the report says so.
import WorldSweep

extension SceneFile {
    /// Per swept `NAME.elasticity` or `NAME.friction` of an item behavior whose values (some or
    /// all) cannot matter because of what its items touch, one sentence saying which and why;
    /// empty when every swept value can matter. Only partners whose value is fixed are judged: a
    /// partner under a swept (or the same) behavior, or an item under two behaviors setting the
    /// key, makes no note.
    /// `touched`: per item, the partners it touched in the run (summary.json's `partners`: item
    /// names, boundary identifiers, `bounds`); nil judges every partner it can touch. A note names
    /// only partners touched, and says the values each leaves idle: a contact's elasticity is the
    /// larger of its sides', so a swept value at or below a partner's changes no contact with it.
    public func mixingNotes(touched: [String: [String]]? = nil) -> [String] {
        guard let sweep else { return [] }
        var notes: [String] = []
        for parameter in sweep.parameters {
            let parts = parameter.path.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1] == "elasticity" || parts[1] == "friction",
                  let behavior = behavior(named: parts[0]), case .item = behavior.kind else { continue }
            let key = parts[1]
            guard var partners = fixedPartnerValues(of: behavior, key: key, sweep: sweep) else { continue }
            if let touched {
                let met = Set(behavior.items.flatMap { touched[$0] ?? [] })
                let itemNames = Set(items.map(\.name))
                partners = partners.filter { p in
                    p.name == "the boundaries" ? met.contains { !itemNames.contains($0) } : met.contains(p.name)
                }
            }
            guard !partners.isEmpty else { continue }
            let (low, high) = parameter.range.bounds
            let who = behavior.items.joined(separator: ", ")
            let verb = touched == nil ? "touch\(behavior.items.count == 1 ? "es" : "") only" : "touched only"
            let described = partners.map { "\($0.name) \(formatNumber($0.value))" }.joined(separator: ", ")
            let fixed = partners.contains { $0.name == "the boundaries" } ? " (the boundaries' \(formatNumber(EngineSettings.boundaryElasticity)) is fixed by UIKit)" : ""
            if key == "elasticity" {
                // Each partner's elasticity is a value up to which the swept one changes no contact
                // with that partner: the lowest leaves every contact alone.
                let floors = Array(Set(partners.map(\.value))).sorted().filter { low < $0 }
                guard let floor = floors.first else { continue }
                let mixing = "a contact's elasticity is the larger of its two sides' (UIKit mixes by maximum), and \(who) \(verb) partners of elasticity \(described)\(fixed)"
                if high <= floor {
                    notes.append("\(parameter.path): no swept value (\(formatNumber(low)) … \(formatNumber(high))) changes a contact: \(mixing).")
                    continue
                }
                var text = "\(parameter.path): values up to \(formatNumber(floor)) change no contact"
                for f in floors.dropFirst() where f < high {
                    let names = partners.filter { $0.value == f }.map(\.name).joined(separator: " and ")
                    text += "; values up to \(formatNumber(f)) change no contact with \(names)"
                }
                notes.append(text + ": " + mixing + ".")
            } else if partners.allSatisfy({ $0.value == 0 }) {
                notes.append("\(parameter.path): its values change nothing: a contact's friction is the geometric mean "
                             + "of the two sides', and every partner of \(who) \(touched == nil ? "has" : "it touched has") friction 0.")
            }
        }
        return notes
    }

    /// What the items of an item behavior can touch, each with its fixed value of `key` (items by
    /// name, the boundaries as one partner); nil when some partner's value is not fixed.
    private func fixedPartnerValues(of behavior: BehaviorSpec, key: String, sweep: SweepSpec) -> [(name: String, value: Double)]? {
        let sweptBehaviors = Set(sweep.parameters.compactMap { p -> String? in
            let parts = p.path.split(separator: ".", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[1] == key ? parts[0] : nil
        })
        // Sets and per-item lists, so that the work grows with the items listed, not their square.
        let own = Set(behavior.items)
        var partnerItems: [String] = [], isPartner: Set<String> = []
        var touchesBoundaries = false
        // Items of the behavior that can touch each other mix its value with itself: it matters.
        let mutual = behaviors.contains { b in
            guard case .collision(let collision) = b.kind, collision.mode != .boundaries else { return false }
            var shared = 0
            for item in b.items where own.contains(item) { shared += 1; if shared >= 2 { return true } }
            return false
        }
        if mutual { return nil }
        for case (let other, .collision(let collision)) in behaviors.map({ ($0, $0.kind) })
        where other.items.contains(where: own.contains) {
            if collision.mode != .boundaries {
                for item in other.items where !own.contains(item) && isPartner.insert(item).inserted {
                    partnerItems.append(item)
                }
            }
            if collision.mode != .items, collision.referenceBounds || !collision.boundaries.isEmpty { touchesBoundaries = true }
        }
        // Per item, the item behaviors that set `key` for it, in behavior order, each once.
        var settersOf: [String: [BehaviorSpec]] = [:]
        for b in behaviors {
            guard case .item(let p) = b.kind, (key == "elasticity" ? p.elasticity : p.friction) != nil else { continue }
            for item in Set(b.items) where isPartner.contains(item) { settersOf[item, default: []].append(b) }
        }
        var partners: [(name: String, value: Double)] = []
        for item in partnerItems {
            let setters = settersOf[item] ?? []
            guard setters.count <= 1 else { return nil }
            guard let setter = setters.first else {
                partners.append((item, key == "elasticity" ? DynamicItemBehavior.Defaults.elasticity : DynamicItemBehavior.Defaults.friction))
                continue
            }
            guard !sweptBehaviors.contains(setter.name), setter.name != behavior.name,
                  let value = try? self.value(at: "\(setter.name).\(key)") else { return nil }
            partners.append((item, value))
        }
        if touchesBoundaries {
            partners.append(("the boundaries", key == "elasticity" ? EngineSettings.boundaryElasticity : EngineSettings.boundaryFriction))
        }
        return partners
    }
}
