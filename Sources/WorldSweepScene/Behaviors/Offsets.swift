import WorldSweep
import Yams

// Per-item offsets `offset: {ITEM: [dx, dy]}` (push and attachment): their numeric keys
// `offset.ITEM.x` / `offset.ITEM.y`, and how they parse and are set.

enum OffsetKeys {
    /// `offset.ITEM.x` and `offset.ITEM.y` for each item (each once): where a push acts on it, or
    /// where an attachment holds it, from its centre in its own frame (points).
    static func numeric(_ items: [String]) -> [(key: String, rule: ValueRule)] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }.flatMap { [("offset.\($0).x", ValueRule.any), ("offset.\($0).y", .any)] }
    }

    /// The item and axis of an `offset.ITEM.x` / `offset.ITEM.y` key (nil for any other key).
    static func parse(_ key: String) -> (item: String, vertical: Bool)? {
        guard key.hasPrefix("offset."), key.hasSuffix(".x") || key.hasSuffix(".y"), key.count > 9 else { return nil }
        return (String(key.dropFirst(7).dropLast(2)), key.hasSuffix(".y"))
    }

    /// One item's offset along one axis in `offsets` (the last entry for it, as the engine reads it).
    static func read(_ item: String, vertical: Bool, in offsets: [(item: String, offset: Offset)]) -> Double {
        let offset = offsets.last { $0.item == item }?.offset ?? .zero
        return vertical ? offset.vertical : offset.horizontal
    }

    /// `offsets` with one item's offset set along one axis (the last entry for it, as the engine reads
    /// it; a new entry from (0, 0) when it has none).
    static func setting(_ value: Double, vertical: Bool, of item: String,
                        in offsets: [(item: String, offset: Offset)]) -> [(item: String, offset: Offset)] {
        var offsets = offsets
        if offsets.lastIndex(where: { $0.item == item }) == nil { offsets.append((item, .zero)) }
        let i = offsets.lastIndex { $0.item == item }!
        if vertical { offsets[i].offset.vertical = value } else { offsets[i].offset.horizontal = value }
        return offsets
    }
}

extension SceneParser {
    /// Per-item offsets `{item: [dx, dy]}` (push and attachment), each naming one of the behavior's items.
    func parseOffsets(_ node: Node, _ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> [(item: String, offset: Offset)] {
        let entries = try reader.namedEntries(node, what: "'offset'", expected: "a mapping of item names to [dx, dy]")
        var offsets: [(item: String, offset: Offset)] = []
        for entry in entries {
            guard itemNames.contains(entry.key) else {
                throw reader.error(entry.keyNode, "\(fields.owner) sets an offset for '\(entry.key)', which is not "
                                   + "one of its items (\(itemNames.joined(separator: ", ")))"
                                   + suggestion(for: entry.key, in: itemNames))
            }
            let v = try reader.numbers(entry.value, "the offset of '\(entry.key)'", labels: ["dx", "dy"])
            offsets.append((entry.key, Offset(horizontal: v[0], vertical: v[1])))
        }
        return offsets
    }
}
