import WorldSweep
import WorldSweepResults
import Yams

/// Reads the `measure:` section: NAME → a metric written in the file (WrittenMetric), each key
/// checked where it is written.
struct MeasureParser {
    let reader: NodeReader
    let scene: SceneFile
    /// The items' and behaviors' names and where they are defined: a metric's name is a path's
    /// `NAME` too (`NAME.KEY` for sweeps and --set), so it may not be one of them.
    let names: [String: (noun: String, location: SceneLocation)]

    /// Every key a written metric may have.
    static let keys = ["item", "items", "max", "min", "mean", "final", "at", "first", "crossings", "time_within",
                       "time", "below", "above", "value", "direction", "range", "to", "from", "until"]
    /// The keys that say what is made of the quantity: exactly one per metric.
    static let measureKeys = ["max", "min", "mean", "final", "at", "first", "crossings", "time_within"]
    static let expected = "a mapping such as {item: top, max: y}, {items: [a, b], min: distance} or "
        + "{item: view, first: distance, to: [160, 284], below: 1}"

    func parse(_ node: Node) throws(SceneError) -> [WrittenMetric] {
        let entries = try reader.namedEntries(node, what: "'measure'", expected: "a mapping of NAME to a metric such as {item: top, max: y}")
        guard !entries.isEmpty else { throw reader.error(node, "expected at least one metric in 'measure' (leave the key out for none)") }
        var metrics: [WrittenMetric] = []
        for entry in entries {
            let name = try reader.name(entry.keyNode, "a metric's name in 'measure'")
            if let earlier = metrics.first(where: { $0.name == name }) {
                throw reader.error(entry.keyNode, "metric '\(name)' is already written at \(earlier.location)")
            }
            if let other = names[name] {
                throw reader.error(entry.keyNode, "name '\(name)' is already used by the \(other.noun) at \(other.location); "
                                   + "a metric's name names its numbers too (NAME.KEY)")
            }
            if name.hasPrefix("never_") {
                throw reader.error(entry.keyNode, "'never_' begins the never-shares' columns (ITEM.never_NAME); choose another name")
            }
            if MetricDeclaration.named(name) != nil || MetricDeclaration.counted(byNever: "never_" + name) != nil {
                throw reader.error(entry.keyNode, "'\(name)' names a built-in metric's column; choose another name")
            }
            metrics.append(try parseMetric(entry, name: name))
        }
        return metrics
    }

    private func parseMetric(_ entry: MappingEntry, name: String) throws(SceneError) -> WrittenMetric {
        let owner = "metric '\(name)'"
        let fields = try reader.mapping(entry.value, owner: owner, ownerLocation: entry.keyNode.location,
                                        expected: Self.expected, allowed: Self.keys)
        // The item, or the pair.
        let item: Int, other: Int?
        switch (fields.entry("item"), fields.entry("items")) {
        case (nil, nil): throw reader.error(at: fields.ownerLocation, "missing 'item' (or 'items: [A, B]' for a pair) in \(owner)")
        case (_?, let pair?): throw reader.error(pair.keyNode, "give either 'item' or 'items' in \(owner), not both")
        case (let one?, nil): (item, other) = (try itemIndex(one.value, "'item' of \(owner)"), nil)
        case (nil, let pair?):
            let elements = try reader.list(pair.value, "'items' of \(owner)", expected: "a list of two item names")
            guard elements.count == 2 else {
                throw reader.error(pair.value, "expected two items in 'items' of \(owner), got \(elements.count)")
            }
            let a = try itemIndex(elements[0], "'items' of \(owner)"), b = try itemIndex(elements[1], "'items' of \(owner)")
            guard a != b else { throw reader.error(elements[1], "expected two different items in 'items' of \(owner)") }
            (item, other) = (a, b)
        }
        // What is made of which quantity.
        let given = fields.entries.filter { Self.measureKeys.contains($0.key) }
        guard let chosen = given.first else {
            throw reader.error(at: fields.ownerLocation, "missing what to measure in \(owner): one of "
                               + Self.measureKeys.joined(separator: ", ") + " with a quantity (e.g. max: y)")
        }
        if given.count > 1 {
            throw reader.error(given[1].keyNode, "\(owner) already measures '\(chosen.key)': give one of "
                               + Self.measureKeys.joined(separator: ", "))
        }
        let quantity = try reader.choice(chosen.value, "'\(chosen.key)' of \(owner)", WrittenMetric.Quantity.self)
        var allowed: Set<String> = ["item", "items", chosen.key, "from", "until"]
        let duration = scene.world.duration
        let measure: WrittenMetric.Measure
        switch chosen.key {
        case "max": measure = .max
        case "min": measure = .min
        case "mean": measure = .mean
        case "final": measure = .final
        case "at":
            allowed = ["item", "items", "at", "time"]
            let time = try reader.number(try reader.required("time", in: fields, hint: " (the time 'at' reads, in seconds)"),
                                         "'time' of \(owner)", .positive)
            guard time <= duration + scene.world.tick / 2 else {
                throw reader.error(fields["time"]!, "expected a 'time' within the run's \(formatNumber(duration)) s for \(owner)")
            }
            measure = .at(time: time)
        case "first":
            allowed.formUnion(["below", "above"])
            switch (fields.entry("below"), fields.entry("above")) {
            case (nil, nil):
                throw reader.error(at: fields.ownerLocation, "missing 'below: V' or 'above: V' in \(owner) (the value "
                                   + "whose first crossing it times)")
            case (_?, let above?): throw reader.error(above.keyNode, "give either 'below' or 'above' in \(owner), not both")
            case (let below?, nil): measure = .first(value: try reader.number(below.value, "'below' of \(owner)"), direction: .down)
            case (nil, let above?): measure = .first(value: try reader.number(above.value, "'above' of \(owner)"), direction: .up)
            }
        case "crossings":
            allowed.formUnion(["value", "direction"])
            let value = try reader.number(try reader.required("value", in: fields, hint: " (the value whose crossings it counts)"),
                                          "'value' of \(owner)")
            let direction = try fields["direction"].map { n throws(SceneError) in
                try reader.choice(n, "'direction' of \(owner)", WrittenMetric.Direction.self)
            } ?? .both
            measure = .crossings(value: value, direction: direction)
        default:
            allowed.insert("range")
            let v = try reader.numbers(try reader.required("range", in: fields, hint: " (e.g. range: [0, 1])"),
                                       "'range' of \(owner)", labels: ["low", "high"])
            guard v[0] <= v[1] else { throw reader.error(fields["range"]!, "expected low ≤ high in 'range' of \(owner)") }
            measure = .timeWithin(low: v[0], high: v[1])
        }
        // The point a distance is measured from.
        var point: Point?
        if quantity == .distance && other == nil {
            allowed.insert("to")
            point = try reader.point(try reader.required("to", in: fields, hint: " (the point [x, y] the distance is measured from)"),
                                     "'to' of \(owner)")
        } else if other != nil && quantity != .distance {
            throw reader.error(chosen.value, "a pair of items measures 'distance' (between their centres), not '\(quantity.rawValue)'")
        }
        // The window.
        let from = try fields.entry("from").map { e throws(SceneError) in try edge(e, owner: owner) }
        let until = try fields.entry("until").map { e throws(SceneError) in try edge(e, owner: owner) }
        if case .time(let a)? = from, case .time(let b)? = until, b < a {
            throw reader.error(fields["until"]!, "expected 'until' at or after 'from' in \(owner)")
        }
        if let stray = fields.entries.first(where: { !allowed.contains($0.key) }) {
            throw reader.error(stray.keyNode, "'\(stray.key)' does not apply to \(owner) (it measures '\(chosen.key): "
                               + "\(quantity.rawValue)'\(other != nil ? " of a pair" : ""))")
        }
        return WrittenMetric(name: name, item: item, other: other, quantity: quantity, point: point, measure: measure,
                             from: from, until: until, location: entry.keyNode.location)
    }

    private func itemIndex(_ node: Node, _ what: String) throws(SceneError) -> Int {
        let name = try reader.name(node, what)
        guard let index = scene.items.firstIndex(where: { $0.name == name }) else {
            throw reader.error(node, "no item named '\(name)' in the file" + suggestion(for: name, in: scene.items.map(\.name)))
        }
        return index
    }

    /// A window's end: a time in seconds within the run, or `{contact: K}`.
    private func edge(_ entry: MappingEntry, owner: String) throws(SceneError) -> WrittenMetric.Edge {
        let what = "'\(entry.key)' of \(owner)"
        if case .mapping = entry.value {
            let fields = try reader.mapping(entry.value, owner: what, expected: "a time in seconds or {contact: K}", allowed: ["contact"])
            return .contact(try reader.integer(try reader.required("contact", in: fields), "'contact' of \(what)", minimum: 1))
        }
        let time = try reader.number(entry.value, what, .nonNegative)
        guard time <= scene.world.duration + scene.world.tick / 2 else {
            throw reader.error(entry.value, "expected \(what) within the run's \(formatNumber(scene.world.duration)) s, got "
                               + entry.value.shortDescription)
        }
        return .time(time)
    }
}
