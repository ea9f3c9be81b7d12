import Testing
import Yams
@testable import WorldSweepScene

/// `NodeReader.numbers` reads a list of numbers without making its messages' words unless it
/// throws: every list must give the values, or the error (message, line, column), it gave when
/// each element went through `number` with its words made first.
@Suite struct NumbersReadingTests {
    /// The reading as it was: the list's shape and each element's words made before reading.
    static func numbersAsBefore(_ reader: NodeReader, _ node: Node, _ what: String, labels: [String],
                                _ rule: ValueRule) throws(SceneError) -> [Double] {
        let shape = "[\(labels.joined(separator: ", "))]"
        let elements = try reader.list(node, what, expected: shape)
        guard elements.count == labels.count else {
            throw reader.error(node, "expected \(shape) for \(what), got a list of \(elements.count) "
                               + (elements.count == 1 ? "value" : "values"))
        }
        var values: [Double] = []
        for (element, label) in zip(elements, labels) {
            values.append(try reader.number(element, "\(what) \(label)", rule))
        }
        return values
    }

    static let lists = [
        "[1, 2]", "[0, 0]", "[-0.0, 5]", "[-1, 2]", "[1, -2]", "[1e3, 2.5e-3]", "[.inf, 1]", "[1, -.inf]", "[.nan, 1]",
        "[1e400, 1]", "[1e-400, 1]", "['1', 2]", "[\"1\", 2]", "[1, true]", "[1, ~]", "[1, null]", "[1, [2]]", "[1, {a: 2}]",
        "[1]", "[1, 2, 3]", "[]", "5", "'[1, 2]'", "{x: 1, y: 2}", "~", "[0x10, 0o7]", "[1_000, +5]", "[01, 00.5]",
        "[1e15, 9e15]", "[1e20, -1e20]", "[0.0001, 0.00001]", "[2100, 2100]", "[10, 10]", "[3.5e-7, 1]",
    ]

    @Test func everyListReadsAsBefore() throws {
        let reader = NodeReader(path: "scene.yaml")
        for rule in [ValueRule.any, .length, .positive, .nonNegative, .frequency, .axis] {
            for labels in [["x", "y"], ["width", "height"], ["a", "b", "c"]] {
                for text in Self.lists {
                    let node = try #require(try Yams.compose(yaml: "\n  value: \(text)\n")?.mapping?.values.first)
                    let now = Result { () throws(SceneError) in try reader.numbers(node, "'size'", labels: labels, rule) }
                    let before = Result { () throws(SceneError) in try Self.numbersAsBefore(reader, node, "'size'", labels: labels, rule) }
                    switch (now, before) {
                    case let (.success(a), .success(b)):
                        #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(text) \(labels)")
                    case let (.failure(a), .failure(b)):
                        #expect(a == b, "\(text) \(labels)")
                    default:
                        Issue.record("\(text) \(labels) \(rule): \(now) against \(before)")
                    }
                }
            }
        }
    }

    @Test func aBadElementIsNamedByItsLabelAtItsPosition() throws {
        let node = try #require(try Yams.compose(yaml: "size: [10, -3]\n")?.mapping?.values.first)
        do {
            _ = try NodeReader(path: "f.yaml").numbers(node, "'size'", labels: ["width", "height"], .length)
            Issue.record("a negative height was read")
        } catch {
            #expect(error.path == "f.yaml" && error.line == 1 && error.column == 12, "\(error)")
            #expect(error.message.contains("for 'size' height, got -3"), "\(error)")
        }
    }
}
