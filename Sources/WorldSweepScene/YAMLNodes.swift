import Foundation
import WorldSweep
import Yams

// Reading composed YAML nodes by hand rather than through Codable, so that every complaint can
// point at the exact node (line and column) it is about.

extension Node {
    /// The resolved tag (plain `1.5` is a float, `"1.5"` a str); Yams keeps `Tag.name` internal.
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }

    var location: SceneLocation {
        guard let mark else { return .none }
        return SceneLocation(line: mark.line, column: mark.column)
    }

    /// How a node reads in "got ..." messages: the text for scalars, the kind for collections.
    var shortDescription: String {
        switch self {
        case .scalar(let scalar):
            switch tagName {
            case .null: return scalar.string.isEmpty ? "nothing" : TextPosition.shown(scalar.string)
            case .str: return "\"\(TextPosition.shown(scalar.string))\""
            default: return TextPosition.shown(scalar.string)
            }
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }
}

/// Shortest faithful spelling of a number in messages: `0`, `-2.5`, `1e+300`.
func formatNumber(_ value: Double) -> String {
    if value.isNaN { return ".nan" }
    if value.isInfinite { return value > 0 ? ".inf" : "-.inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}

let namePattern = "[A-Za-z0-9_-]+"

func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.unicodeScalars.allSatisfy { s in
        (s >= "A" && s <= "Z") || (s >= "a" && s <= "z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
    }
}

/// One key of a mapping with the nodes of both sides.
struct MappingEntry {
    let key: String
    let keyNode: Node
    let value: Node
}

/// A mapping whose keys have been checked against the allowed ones.
struct CheckedMapping {
    let node: Node
    let entries: [MappingEntry]
    /// "item 'top'", "the world", ...: for messages.
    let owner: String
    /// Where "missing key" errors point: the owner's name in the file, else the mapping itself.
    let ownerLocation: SceneLocation

    subscript(key: String) -> Node? { entries.first { $0.key == key }?.value }

    func entry(_ key: String) -> MappingEntry? { entries.first { $0.key == key } }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }
}

/// Turns nodes into values, throwing `SceneError`s located at the offending node.
struct NodeReader {
    let path: String

    func error(_ node: Node, _ message: String) -> SceneError {
        SceneError(path: path, at: node.location, message)
    }

    func error(at location: SceneLocation, _ message: String) -> SceneError {
        SceneError(path: path, at: location, message)
    }

    /// A mapping with string keys, each one of `allowed`.
    func mapping(_ node: Node, owner: String, ownerLocation: SceneLocation? = nil, expected: String,
                 allowed: [String]) throws(SceneError) -> CheckedMapping {
        guard case .mapping(let mapping) = node else {
            throw error(node, "expected \(expected) for \(owner), got \(node.shortDescription)")
        }
        var entries: [MappingEntry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let keyScalar) = keyNode else {
                throw error(keyNode, "expected a key name in \(owner), got \(keyNode.shortDescription)")
            }
            let key = keyScalar.string
            if !allowed.contains(key) {
                let expectedKeys = allowed.joined(separator: ", ")
                throw error(keyNode, "unknown key '\(TextPosition.shown(key))' in \(owner) (expected one of: \(expectedKeys))"
                            + suggestion(for: key, in: allowed))
            }
            entries.append(MappingEntry(key: key, keyNode: keyNode, value: value))
        }
        return CheckedMapping(node: node, entries: entries, owner: owner,
                              ownerLocation: ownerLocation ?? node.location)
    }

    /// A mapping whose keys are names chosen by the user (items, behaviors, boundaries...).
    func namedEntries(_ node: Node, what: String, expected: String) throws(SceneError) -> [MappingEntry] {
        guard case .mapping(let mapping) = node else {
            throw error(node, "expected \(expected) for \(what), got \(node.shortDescription)")
        }
        var entries: [MappingEntry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let keyScalar) = keyNode else {
                throw error(keyNode, "expected a name as key in \(what), got \(keyNode.shortDescription)")
            }
            entries.append(MappingEntry(key: keyScalar.string, keyNode: keyNode, value: value))
        }
        return entries
    }

    func required(_ key: String, in mapping: CheckedMapping, hint: String = "") throws(SceneError) -> Node {
        guard let node = mapping[key] else {
            throw error(at: mapping.ownerLocation, "missing required key '\(key)' in \(mapping.owner)\(hint)")
        }
        return node
    }

    /// A finite number obeying `rule`. YAML numbers only: a quoted "0.5" is text, not a number.
    func number(_ node: Node, _ what: String, _ rule: ValueRule = .any) throws(SceneError) -> Double {
        guard let value = numericValue(node) else {
            throw error(node, "expected \(rule == .any ? "a number" : rule.expectation) for \(what), "
                        + "got \(node.shortDescription)")
        }
        guard value.isFinite else {
            throw error(node, "expected a finite number for \(what), got \(node.shortDescription)")
        }
        guard rule.acceptsSign(value) else {
            throw error(node, "expected \(rule.expectation) for \(what), got \(node.shortDescription)")
        }
        guard rule.accepts(value) else {
            throw error(node, "expected \(rule.rangeText) for \(what), got \(node.shortDescription)")
        }
        return value
    }

    /// The value of a plain scalar that YAML resolves to an int or a float, including ±.inf and .nan.
    func numericValue(_ node: Node) -> Double? {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any else { return nil }
        // Nearly every number in a file is a plain decimal: read straight, it skips the YAML
        // resolver's regular expressions, which cost far more than the number (a big file's run
        // would spend a visible share resolving them).
        if let value = Self.plainDecimal(scalar.string) { return value }
        switch node.tagName {
        case .int:
            if let int = Int.construct(from: scalar) { return Double(int) }
            return Double(scalar.string.replacingOccurrences(of: "_", with: ""))
        case .float:
            return Double.construct(from: scalar)
        default:
            return nil
        }
    }

    /// The value of `text` when it is `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, which YAML resolves to an
    /// int (no point) or a float (a point) whose value is the decimal's; nil for anything else
    /// (a plus sign, exponents, underscores, leading zeros, `.inf`: left to the resolver).
    static func plainDecimal(_ text: String) -> Double? {
        var utf8 = text.utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        guard let first = utf8.first, (48...57).contains(first) else { return nil }
        var digits = 0, fraction = -1
        for byte in utf8 {
            if (48...57).contains(byte) {
                if fraction >= 0 { fraction += 1 } else { digits += 1 }
            } else if byte == UInt8(ascii: "."), fraction < 0 {
                fraction = 0
            } else {
                return nil
            }
        }
        guard fraction != 0, first != 48 || digits == 1 else { return nil }
        return Double(text)
    }

    /// A whole number at least `minimum`; `1e3` and `300.0` count as whole.
    func integer(_ node: Node, _ what: String, minimum: Int) throws(SceneError) -> Int {
        let expectation = minimum == 1 ? "a positive whole number" : minimum == 0 ? "a non-negative whole number"
            : "a whole number ≥ \(minimum)"
        guard let value = numericValue(node), value.isFinite, value == value.rounded() else {
            throw error(node, "expected \(expectation) for \(what), got \(node.shortDescription)")
        }
        // A whole number, but past what counts hold exactly: say so rather than "not whole".
        guard abs(value) < 9.0e15 else {
            throw error(node, "expected \(expectation) below 9e15 for \(what) (counts past it lose exactness), "
                        + "got \(node.shortDescription), which is too large")
        }
        guard Int(value) >= minimum else {
            throw error(node, "expected \(expectation) for \(what), got \(node.shortDescription)")
        }
        return Int(value)
    }

    func bool(_ node: Node, _ what: String) throws(SceneError) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
              node.tagName == .bool, let value = Bool.construct(from: scalar) else {
            throw error(node, "expected true or false for \(what), got \(node.shortDescription)")
        }
        return value
    }

    /// Any non-empty scalar's text.
    func text(_ node: Node, _ what: String) throws(SceneError) -> String {
        guard case .scalar(let scalar) = node, node.tagName != .null || !scalar.string.isEmpty else {
            throw error(node, "expected text for \(what), got \(node.shortDescription)")
        }
        return scalar.string
    }

    /// One of the raw values of `E`.
    func choice<E: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _: E.Type) throws(SceneError) -> E
    where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        guard case .scalar(let scalar) = node, let value = E(rawValue: scalar.string) else {
            throw error(node, "expected one of \(names.joined(separator: ", ")) for \(what), got \(node.shortDescription)"
                        + (node.scalar.map { suggestion(for: $0.string, in: names) } ?? ""))
        }
        return value
    }

    func list(_ node: Node, _ what: String, expected: String) throws(SceneError) -> [Node] {
        guard case .sequence(let sequence) = node else {
            throw error(node, "expected \(expected) for \(what), got \(node.shortDescription)")
        }
        return Array(sequence)
    }

    /// A list of exactly `labels.count` numbers, e.g. `[x, y]`; each element is checked on its own
    /// so a bad one is pointed at directly ("'size' height").
    func numbers(_ node: Node, _ what: String, labels: [String], _ rule: ValueRule = .any) throws(SceneError) -> [Double] {
        // The messages' words are made only for a message: a big file reads thousands of these.
        guard case .sequence(let elements) = node, elements.count == labels.count else {
            let shape = "[\(labels.joined(separator: ", "))]"
            let elements = try list(node, what, expected: shape)
            throw error(node, "expected \(shape) for \(what), got a list of \(elements.count) "
                        + (elements.count == 1 ? "value" : "values"))
        }
        var values: [Double] = []
        values.reserveCapacity(labels.count)
        for (element, label) in zip(elements, labels) {
            if let value = numericValue(element), value.isFinite, rule.acceptsSign(value), rule.accepts(value) {
                values.append(value)
            } else {
                values.append(try number(element, "\(what) \(label)", rule))
            }
        }
        return values
    }

    func point(_ node: Node, _ what: String) throws(SceneError) -> Point {
        let v = try numbers(node, what, labels: ["x", "y"])
        return Point(x: v[0], y: v[1])
    }

    func vector(_ node: Node, _ what: String, labels: [String] = ["dx", "dy"]) throws(SceneError) -> Vector {
        let v = try numbers(node, what, labels: labels)
        return Vector(dx: v[0], dy: v[1])
    }

    /// A user-chosen name (item, behavior, boundary) matching `[A-Za-z0-9_-]+`.
    func name(_ node: Node, _ what: String) throws(SceneError) -> String {
        guard case .scalar(let scalar) = node, isValidName(scalar.string) else {
            throw error(node, "expected a name made of letters, digits, '_' and '-' (\(namePattern)) for \(what), "
                        + "got \(node.shortDescription)")
        }
        return scalar.string
    }
}
