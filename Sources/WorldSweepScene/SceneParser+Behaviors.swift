import Foundation
import WorldSweep
import Yams

// The scene's behaviors: the type decides the allowed keys and how they parse (its declaration,
// Behaviors/); the items are checked here, for every type alike.
extension SceneParser {
    /// The `type:` values a file may give.
    static var behaviorTypes: [String] { BehaviorTypes.names }

    /// The keys a behavior of `type` takes.
    static func allowedKeys(forType type: String) -> [String] { BehaviorTypes.named(type)!.fileKeys }

    mutating func parseBehaviors(_ node: Node, items: [ItemSpec]) throws(SceneError) -> [BehaviorSpec] {
        let entries = try reader.namedEntries(node, what: "'behaviors'", expected: "a mapping of behavior names to behaviors")
        var behaviors: [BehaviorSpec] = []
        for entry in entries {
            let name = try reader.name(entry.keyNode, "a behavior name")
            try define(name, noun: "behavior", at: entry.keyNode)
            behaviors.append(try parseBehavior(entry, name: name, items: items))
            if case .field = behaviors.last!.kind, behaviors.count(where: { if case .field = $0.kind { true } else { false } }) > Self.maximumFields {
                throw reader.error(entry.keyNode, "field behavior '\(name)' is one too many: an animator holds at most "
                                   + "\(Self.maximumFields) fields (UIKit's limit)")
            }
        }
        return behaviors
    }

    private func parseBehavior(_ entry: MappingEntry, name: String, items: [ItemSpec]) throws(SceneError) -> BehaviorSpec {
        let types = Self.behaviorTypes.joined(separator: ", ")
        // The type decides which keys are allowed, so it is read before the keys are checked.
        guard case .mapping(let raw) = entry.value else {
            throw reader.error(entry.value, "expected a mapping with 'type' and 'items' for behavior '\(name)', "
                               + "got \(entry.value.shortDescription)")
        }
        guard let typeNode = raw["type"] else {
            throw reader.error(entry.keyNode, "missing required key 'type' in behavior '\(name)' (expected one of: \(types))")
        }
        guard case .scalar(let typeScalar) = typeNode, Self.behaviorTypes.contains(typeScalar.string) else {
            throw reader.error(typeNode, "unknown behavior type \(typeNode.shortDescription) for behavior '\(name)' "
                               + "(expected one of: \(types))"
                               + (typeNode.scalar.map { suggestion(for: $0.string, in: Self.behaviorTypes) } ?? ""))
        }
        let type = BehaviorTypes.named(typeScalar.string)!
        let owner = "\(type.name) behavior '\(name)'"
        let fields = try reader.mapping(entry.value, owner: owner, ownerLocation: entry.keyNode.location,
                                        expected: "a mapping", allowed: type.fileKeys)
        let itemNames: [String]
        let takesOneItem = type.keys.contains { $0.key == "item" }
        if takesOneItem, let single = fields.entry("item") {
            // UISnapBehavior(item:snapTo:) takes one item: `item: NAME` reads as UIKit does.
            if let both = fields.entry("items") {
                throw reader.error(both.keyNode, "give either 'item' or 'items' in \(owner), not both")
            }
            itemNames = try parseItemList(.sequence(Node.Sequence([single.value])), behavior: name, items: items)
        } else {
            itemNames = try parseItemList(try reader.required("items", in: fields, hint: takesOneItem ? " (or 'item')" : ""),
                                          behavior: name, items: items)
        }
        let kind = try type.parse(fields, itemNames: itemNames, items: items, parser: self)
        return BehaviorSpec(name: name, items: itemNames, kind: kind, location: entry.keyNode.location)
    }

    private func parseItemList(_ node: Node, behavior: String, items: [ItemSpec]) throws(SceneError) -> [String] {
        let elements = try reader.list(node, "'items'", expected: "a list of item names")
        guard !elements.isEmpty else { throw reader.error(node, "expected at least one item name in 'items' of behavior '\(behavior)'") }
        // Sets, not lists: a behavior over a thousand items made these look-ups quadratic.
        let known = Set(items.lazy.map(\.name))
        var names: [String] = [], listed = Set<String>()
        for element in elements {
            guard case .scalar(let scalar) = element, isValidName(scalar.string) else {
                throw reader.error(element, "expected an item name in 'items' of behavior '\(behavior)', "
                                   + "got \(element.shortDescription)")
            }
            let itemName = scalar.string
            guard known.contains(itemName) else {
                if definitions[itemName]?.noun == "behavior" {
                    throw reader.error(element, "behavior '\(behavior)' names '\(itemName)', which is a behavior, not an item")
                }
                throw reader.error(element, "behavior '\(behavior)' names unknown item '\(itemName)'"
                                   + suggestion(for: itemName, in: items.map(\.name)))
            }
            guard listed.insert(itemName).inserted else {
                throw reader.error(element, "behavior '\(behavior)' lists item '\(itemName)' more than once")
            }
            names.append(itemName)
        }
        return names
    }
}
