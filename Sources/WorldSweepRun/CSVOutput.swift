/// worlds.csv (the contract's columns) and partners.csv (per-partner contact counts, one row per
/// world, which worlds.csv leaves out): formatting rows, and reading them back exactly for
/// resume and merge.
public struct CSVLayout: Sendable, Hashable {
    public static let itemColumns = ["contacts", "bounces"] + (1...8).map { "bounce\($0)" }
        + ["rest_time", "x", "y", "angle", "vx", "vy", "angular_velocity"]
    public static let partnersHeader = "world,contacts_by_partner"

    public let parameters: [String]
    public let items: [String]

    public init(parameters: [String], items: [String]) {
        self.parameters = parameters
        self.items = items
    }

    /// Metric column names, as in worlds.csv and summary.json (`ITEM.contacts`, …).
    public var metricColumns: [String] { items.flatMap { item in Self.itemColumns.map { "\(item).\($0)" } } }

    public var header: String { (["world", "point", "replica"] + parameters + metricColumns).joined(separator: ",") }

    /// One worlds.csv line, newline included. A failed world leaves every metric cell empty.
    public func row(_ r: WorldResult) -> String {
        var s = "\(r.world),\(r.point),\(r.replica)"
        for p in r.parameters { s += ","; s += NumberText.double(p) }
        for item in r.items {
            if r.failed {
                s += String(repeating: ",", count: Self.itemColumns.count)
                continue
            }
            s += ",\(item.contacts),\(item.bounceHeights.count)"
            for k in 0..<8 { s += ","; if k < item.bounceHeights.count { s += NumberText.float(item.bounceHeights[k]) } }
            s += ","; if let t = item.restTime { s += NumberText.float(t) }
            for v in [item.x, item.y, item.angle, item.vx, item.vy, item.angularVelocity] { s += ","; s += NumberText.float(v) }
        }
        s += "\n"
        return s
    }

    /// One partners.csv line: `world,ITEM.contacts.PARTNER=N ...` (items in file order, partners sorted).
    public func partnersRow(_ r: WorldResult) -> String {
        var entries: [String] = []
        for (i, item) in r.items.enumerated() {
            for partner in item.contactsByPartner.keys.sorted() {
                entries.append("\(items[i]).contacts.\(partner)=\(item.contactsByPartner[partner]!)")
            }
        }
        return "\(r.world),\(entries.joined(separator: " "))\n"
    }

    /// Reads a worlds.csv line (no newline) back into a result; nil if it is not a complete row.
    public func parseRow(_ line: Substring) -> WorldResult? {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        let width = Self.itemColumns.count
        guard cells.count == 3 + parameters.count + items.count * width,
              let world = Int(cells[0]), let point = Int(cells[1]), let replica = Int(cells[2]) else { return nil }
        var parameters: [Double] = []
        // Every number finite: a `nan` or `inf` typed into a file is not a result.
        for c in cells[3..<(3 + self.parameters.count)] {
            guard let v = Double(c), v.isFinite else { return nil }
            parameters.append(v)
        }
        var results: [ItemResult] = []
        var failed = false
        for i in items.indices {
            let base = 3 + self.parameters.count + i * width
            let c = Array(cells[base..<(base + width)])
            if c.allSatisfy(\.isEmpty) { failed = true; results.append(ItemResult()); continue }
            guard let contacts = Int(c[0]), let bounces = Int(c[1]), (0...8).contains(bounces) else { return nil }
            var heights: [Double] = []
            for k in 0..<bounces {
                guard let h = Float(c[2 + k]), h.isFinite else { return nil }
                heights.append(Double(h))
            }
            let rest: Double?
            if c[10].isEmpty { rest = nil } else { guard let t = Float(c[10]), t.isFinite else { return nil }; rest = Double(t) }
            var state: [Double] = []
            for k in 11..<17 {
                guard let v = Float(c[k]), v.isFinite else { return nil }
                state.append(Double(v))
            }
            results.append(ItemResult(contacts: contacts, bounceHeights: heights, restTime: rest, x: state[0], y: state[1],
                                      angle: state[2], vx: state[3], vy: state[4], angularVelocity: state[5]))
        }
        if failed { results = Array(repeating: ItemResult(), count: items.count) }
        return WorldResult(world: world, point: point, replica: replica, parameters: parameters, items: results, failed: failed)
    }

    /// Reads a partners.csv line back: the world and per item its partner counts; nil if malformed.
    public func parsePartnersRow(_ line: Substring) -> (world: Int, counts: [[String: Int]])? {
        guard let comma = line.firstIndex(of: ","), let world = Int(line[..<comma]) else { return nil }
        var counts = Array(repeating: [String: Int](), count: items.count)
        let index = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, $0) })
        for entry in line[line.index(after: comma)...].split(separator: " ") {
            guard let eq = entry.firstIndex(of: "="), let n = Int(entry[entry.index(after: eq)...]) else { return nil }
            let key = entry[..<eq]
            guard let dot = key.firstIndex(of: "."), let i = index[String(key[..<dot])] else { return nil }
            let rest = key[key.index(after: dot)...]
            guard rest.hasPrefix("contacts.") else { return nil }
            counts[i][String(rest.dropFirst("contacts.".count))] = n
        }
        return (world, counts)
    }
}

/// Number text that reads back exactly: engine values as the shortest text of their Float,
/// parameters as the shortest text of their Double; integers without a fraction, no −0.
public enum NumberText {
    public static func float(_ x: Double) -> String {
        let f = Float(x)
        if f == 0 { return "0" }
        let s = f.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    public static func double(_ x: Double) -> String {
        if x == 0 { return "0" }
        let s = x.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }
}
