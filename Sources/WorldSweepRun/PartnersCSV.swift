import WorldSweepScene

/// Who each item can touch, by the collision rule: the other items of a collision behavior whose
/// mode includes items, and the boundaries (identifiers, `bounds` for the reference bounds) of one
/// whose mode includes boundaries. Held per behavior, not per pair: 2 000 items colliding with each
/// other are 2 000 names here, not 4 M pairs.
public struct PartnerRule: Sendable, Hashable {
    /// One collision behavior: the items that touch each other through it (none when its mode is
    /// boundaries only) and the boundaries its items touch (none when its mode is items only).
    public struct Group: Sendable, Hashable {
        public var items: Set<String>
        public var boundaries: Set<String>
        public init(items: [String], boundaries: [String]) {
            self.items = Set(items); self.boundaries = Set(boundaries)
        }
    }

    public let groups: [Group]
    /// The groups each item belongs to (by any mode).
    private let groupsOfItem: [String: [Int]]

    /// `groups` with, per group, every item it names (`members`, which may touch boundaries only).
    public init(groups: [(group: Group, members: [String])]) {
        self.groups = groups.map(\.group)
        var of: [String: [Int]] = [:]
        for (g, entry) in groups.enumerated() { for item in entry.members { of[item, default: []].append(g) } }
        groupsOfItem = of
    }

    public init(scene: SceneFile) {
        var groups: [(Group, [String])] = []
        for behavior in scene.behaviors {
            guard case .collision(let spec) = behavior.kind else { continue }
            var boundaries: [String] = []
            if spec.mode != .items {
                boundaries = spec.boundaries.map(\.identifier)
                if spec.referenceBounds { boundaries.append(SceneFile.referenceBoundsPartner) }
            }
            groups.append((Group(items: spec.mode != .boundaries ? behavior.items : [], boundaries: boundaries), behavior.items))
        }
        self.init(groups: groups)
    }

    /// Every partner `item` can touch (`canTouch`), or nil when there could be more than `most`
    /// (a pile of a thousand items in one behavior: a million pairs, not worth listing).
    func partners(of item: String, most: Int) -> Set<String>? {
        let of = groupsOfItem[item] ?? []
        guard of.reduce(0, { $0 + groups[$1].items.count + groups[$1].boundaries.count }) <= most else { return nil }
        var found = Set<String>()
        for g in of {
            found.formUnion(groups[g].boundaries)
            if groups[g].items.contains(item) { found.formUnion(groups[g].items) }
        }
        found.remove(item)
        return found
    }

    /// Whether `item` can report a contact with `partner` (another item, or a boundary).
    public func canTouch(_ item: String, _ partner: String) -> Bool {
        guard item != partner else { return false }
        return (groupsOfItem[item] ?? []).contains { g in
            groups[g].boundaries.contains(partner) || (groups[g].items.contains(item) && groups[g].items.contains(partner))
        }
    }
}

/// partners.csv: the contacts per partner that worlds.csv sums into `ITEM.contacts`, in long
/// ("tidy") form, `world,item,partner,contacts`: one row per world, item and partner it touched
/// (contacts > 0), worlds in order, then items in file order, then partners by name. A pair that
/// never touched has no row (its count is 0), nor does a failed world: the file grows with the
/// contacts that happened, not with the pairs that could.
extension CSVLayout {
    public var partnersHeader: String { "world,item,partner,contacts" }

    /// The rows of one world, newlines included ("" when it touched nothing or failed).
    public func partnersRows(_ r: WorldResult) -> String {
        var bytes: [UInt8] = []
        appendPartnersRows(r, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `partnersRows(r)`'s bytes appended to `bytes` (a chunk's rows in one buffer).
    public func appendPartnersRows(_ r: WorldResult, to bytes: inout [UInt8]) {
        guard !r.failed else { return }
        for (i, item) in r.items.enumerated() where !item.contactsByPartner.isEmpty {
            func row(_ partner: String, _ n: Int) {
                guard n > 0 else { return }
                appendDecimalDigits(of: r.world, to: &bytes)
                // The collision rule names every partner the engine can report.
                if listsPartners {
                    guard partnerSlots[i].appendRowMiddle(of: partner, to: &bytes) else { preconditionFailure("\(items[i]) touched \(partner), which it cannot") }
                } else {
                    precondition(partners.canTouch(items[i], partner), "\(items[i]) touched \(partner), which it cannot")
                    bytes.append(UInt8(ascii: ","))
                    bytes.append(contentsOf: items[i].utf8)
                    bytes.append(UInt8(ascii: ","))
                    bytes.append(contentsOf: partner.utf8)
                    bytes.append(UInt8(ascii: ","))
                }
                appendDecimalDigits(of: n, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            // In name order; one or two partners (most items of most worlds) need no sorted copy.
            let touched = item.contactsByPartner
            if touched.count == 1, let only = touched.first {
                row(only.key, only.value)
            } else if touched.count == 2 {
                let a = touched[touched.startIndex], b = touched[touched.index(after: touched.startIndex)]
                let (first, second) = a.key < b.key ? (a, b) : (b, a)
                row(first.key, first.value); row(second.key, second.value)
            } else {
                for (partner, n) in item.contactsByPartner.sorted(by: { $0.key < $1.key }) { row(partner, n) }
            }
        }
    }

    /// One partners.csv row (no newline) read back; nil unless it names an item of this file, a
    /// partner it can touch, and a positive count.
    public func parsePartnersRow(_ line: Substring) -> (world: Int, item: Int, partner: String, contacts: Int)? {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 4, let world = Int(cells[0]), world >= 0, let item = itemIndex[String(cells[1])],
              let n = Int(cells[3]), n > 0 else { return nil }
        let partner = String(cells[2])
        guard partners.canTouch(items[item], partner) else { return nil }
        return (world, item, partner, n)
    }
}
