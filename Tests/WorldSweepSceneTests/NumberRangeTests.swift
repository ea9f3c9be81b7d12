import Foundation
import TestScratch
import Testing
@testable import WorldSweepScene

/// Line and column (1-based, in characters) of the first `needle` in `text`: where a refusal
/// must point, found from the text itself rather than from the parser.
func position(of needle: String, in text: String) -> (line: Int, column: Int) {
    for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if let r = line.range(of: needle) { return (i + 1, line.distance(from: line.startIndex, to: r.lowerBound) + 1) }
    }
    Issue.record("'\(needle)' is not in the text")
    return (0, 0)
}

/// Checks that `yaml` is refused at the first `needle` with a message holding every fragment.
func expectRefused(_ yaml: String, at needle: String, _ fragments: String...,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard let error = parseError(yaml, sourceLocation: sourceLocation) else { return }
    let (line, column) = position(of: needle, in: yaml)
    #expect(error.line == line && error.column == column, "at \(error.line):\(error.column), not \(line):\(column): \(error.message)",
            sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(error.message.contains(fragment), "message: \(error.message)", sourceLocation: sourceLocation)
    }
}

/// Issue 17: every number a file can produce is checked before use, at the value that made it.
@Suite("Numbers: counts before conversion, the engine's range, located refusals")
struct NumberRangeTests {
    @Test func aRangeWithMoreValuesThanIntHoldsIsRefusedNotATrap() {
        // 1e19 values: Int(span) would trap (SIGILL) before the 2⁴⁰ check.
        expectRefused(sweepScene("  parameters:", "    shove.angle: {range: [0, 1, 1e-19]}"), at: "[0, 1, 1e-19]",
                      "fewer values")
        // An infinite count: the span overflows Double.
        expectRefused(sweepScene("  parameters:", "    shove.angle: {range: [0, 1000000, 5e-324]}"), at: "[0, 1000000, 5e-324]",
                      "fewer values")
    }

    @Test func generatedValuesStayInTheEngineRange() {
        // (to - from) = inf made `inf` the middle value of this linspace.
        expectRefused(sweepScene("  parameters:", "    shove.angle: {linspace: [-1e308, 1e308, 3]}"), at: "-1e308",
                      "in [-1000000, 1000000]", "got -1e308")
        // to / from = inf made the middle value of this logspace infinite.
        expectRefused(sweepScene("  parameters:", "    top.size.width: {logspace: [5e-324, 1, 3]}"), at: "[5e-324",
                      "whose ratio is a finite number")
        // On a size, a value below what a Float item can have.
        expectRefused(sweepScene("  parameters:", "    top.size.width: {logspace: [1e-5, 1, 3]}"), at: "{logspace",
                      "a positive number in [0.001, 1000000]", "but the sweep reaches 1e-05")
        // On a key that takes tiny values too (fuzz seed 7, case 4753: inf reached summary.json).
        expectRefused(sweepScene("  parameters:", "    bouncy.elasticity: {logspace: [5e-324, 1, 3]}"), at: "[5e-324",
                      "whose ratio is a finite number")
        expectRefused(sweepScene("  parameters:", "    bouncy.density: {uniform: [1, 1e7]}", "  kind: random", "  samples: 3"),
                      at: "1e7", "got 1e7")
    }

    @Test func valuesThatFitADoubleButNotTheEngineAreRefused() {
        expectRefused(minimalScene(adding: "  heavy: {type: item, items: [top], density: 1e39}"), at: "1e39",
                      "a positive number in [1e-06, 1000000]", "'density'")
        expectRefused(minimalScene(adding: "  heavy: {type: item, items: [top], density: 1e-9}"), at: "1e-9",
                      "a positive number in [1e-06, 1000000]", "'density'")
        expectRefused(minimalScene(line: 6, "  top: {center: [100, 0], size: [1e-300, 50]}"), at: "1e-300",
                      "a positive number in [0.001, 1000000]", "'size' width")
        expectRefused(minimalScene(line: 6, "  top: {center: [100, 0], size: [1e39, 50]}"), at: "1e39", "'size' width")
        expectRefused(minimalScene(line: 9, "  fall: {type: gravity, items: [top, bottom], magnitude: 1e30}"), at: "1e30",
                      "'magnitude'")
        expectRefused(minimalScene(adding: "  flick: {type: push, items: [top], mode: instantaneous, magnitude: 1e30}"),
                      at: "1e30", "'magnitude'")
        expectRefused(minimalScene(line: 3, "  bounds: [320, 1e-300]"), at: "1e-300", "'bounds' height")
        // The ends of the ranges are accepted.
        #expect(throws: Never.self) {
            _ = try parse(minimalScene(adding: "  m: {type: item, items: [top], density: 1000000, elasticity: 0}"))
            _ = try parse(minimalScene(line: 6, "  top: {center: [-1000000, 1000000], size: [0.001, 1000000]}"))
        }
    }

    @Test func jitterMayNotCarryAValuePastTheRange() {
        expectRefused(sweepScene("  jitter: {top.center.x: 999950}"), at: "999950", "can take 'top.center.x' to 1000050")
        expectRefused(sweepScene("  parameters:", "    bouncy.density: [1, 999999.75]", "  jitter: {bouncy.density: 0.5}"),
                      at: "0.5}", "can take 'bouncy.density' to 1000000.25")
    }

    @Test func ticksAreCappedBeforeConversion() {
        expectRefused(minimalScene(line: 4, "  ticks: 10000001"), at: "10000001", "at most 10000000 'ticks'")
        expectRefused(minimalScene(line: 4, "  duration: 200000"), at: "200000", "at most 10000000 ticks")
        expectRefused(minimalScene(line: 4, "  ticks: 9223372036854775807"), at: "9223372036854775807", "positive whole number")
    }

    @Test func aValueSetInCodeIsCheckedAgainstTheSameRange() throws {
        var scene = try parse(sweepScene("  parameters:", "    bouncy.elasticity: [0.5]"))
        #expect(throws: SceneError.self) { try scene.setValue(1e39, at: "bouncy.density") }
        #expect(throws: SceneError.self) { try scene.setValue(1e-300, at: "top.size.width") }
        try scene.setValue(2, at: "bouncy.density")
        #expect(try scene.value(at: "bouncy.density") == 2)
    }
}

/// Issue 17: what a file holds is reported at its line and column, shown escaped and short.
@Suite("Messages: non-UTF-8 bytes located, file text escaped")
struct MessageTextTests {
    private func write(_ bytes: [UInt8]) throws -> String {
        let path = Scratch.directory("scene") + "/scene.yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aNonUTF8FileIsReportedAtItsFirstBadByte() throws {
        // Line 2, after "  é: " (5 characters; é is two bytes): column 6.
        let path = try write(Array("name: t\n  é: ".utf8) + [0xFF] + Array(" x\n".utf8))
        let error = try #require(throws: SceneError.self) { try SceneFile.load(path: path) }
        #expect(error.line == 2 && error.column == 6, "\(error)")
        #expect(error.message.contains("0xFF"))
        // An overlong encoding and a lone surrogate are not UTF-8 either.
        #expect(TextPosition.firstInvalidUTF8(in: Data([0x61, 0xC0, 0x80]))?.location == SceneLocation(line: 1, column: 2))
        #expect(TextPosition.firstInvalidUTF8(in: Data([0x0A, 0xED, 0xA0, 0x80]))?.location == SceneLocation(line: 2, column: 1))
        #expect(TextPosition.firstInvalidUTF8(in: Data("ok é 🙂\n".utf8)) == nil)
    }

    @Test func foldersAndEmptyDevicesKeepTheLineColumnForm() throws {
        let folder = Scratch.directory("folder")
        let error = try #require(throws: SceneError.self) { try SceneFile.load(path: folder) }
        #expect(error.description == "\(folder):1:1: error: expected a scene file, got a folder")
        let empty = try #require(throws: SceneError.self) { try SceneFile.load(path: "/dev/null") }
        #expect(empty.description.hasPrefix("/dev/null:1:1: error: ") && empty.message.contains("empty file"))
    }

    @Test func textFromTheFileIsEscapedAndShortened() throws {
        let error = try #require(parseError(minimalScene(line: 1, "name: \"a\\nb\\e[31m\"")))
        #expect(error.description.contains("got \"a\\nb\\u{1B}[31m\""), "\(error)")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        let long = String(repeating: "x", count: 5000)
        let tooLong = try #require(parseError(minimalScene(adding: "metrics: [\(long)]")))
        #expect(tooLong.description.count < 400 && tooLong.description.contains("xxx…"), "\(tooLong.description.count)")
    }
}
