import Testing
import WorldSweep
import WorldSweepResults
@testable import WorldSweepScene

// Line numbers refer to `minimalScene` (SceneErrorTests) with `measure:` at line 10 and the tested
// entry at line 11.

@Suite("measure: metrics written in the file")
struct MeasureParserTests {
    static func scene(_ entry: String, extra: [String] = []) -> String {
        minimalScene(adding: ["measure:", "  " + entry] + extra)
    }

    @Test func everyKindParses() throws {
        let scene = try parse(minimalScene(adding: [
            "measure:",
            "  a: {item: top, max: x}",
            "  b: {item: top, min: y, from: {contact: 2}, until: 0.5}",
            "  c: {item: bottom, mean: speed, from: 0.25}",
            "  d: {item: top, final: angular_velocity, until: {contact: 1}}",
            "  e: {item: top, at: kinetic_energy, time: 0.5}",
            "  f: {item: top, first: distance, to: [100, 300], below: 1}",
            "  g: {item: top, crossings: vy, value: 0, direction: up}",
            "  h: {items: [bottom, top], time_within: distance, range: [0, 60]}",
            "  i: {item: top, first: y, above: 400}",
        ]))
        #expect(scene.measures.map(\.name) == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
        let m = Dictionary(uniqueKeysWithValues: scene.measures.map { ($0.name, $0) })
        #expect(m["b"]!.from == .contact(2) && m["b"]!.until == .time(0.5))
        #expect(m["e"]!.measure == .at(time: 0.5) && m["e"]!.quantity == .kineticEnergy)
        #expect(m["f"]!.measure == .first(value: 1, direction: .down) && m["f"]!.point == Point(x: 100, y: 300))
        #expect(m["i"]!.measure == .first(value: 400, direction: .up))
        #expect(m["g"]!.measure == .crossings(value: 0, direction: .up))
        #expect(m["h"]!.item == 1 && m["h"]!.other == 0 && m["h"]!.measure == .timeWithin(low: 0, high: 60))
        // Columns: each item's written metrics after its built-in ones, in file order.
        let written = scene.writtenDeclarations
        #expect(written[0].map(\.name) == ["a", "b", "d", "e", "f", "g", "i"] && written[1].map(\.name) == ["c", "h"])
        #expect(written[1].map(\.field) == [.written(index: 0), .written(index: 1)])
        // Declared like built-in metrics: a first time is censored at the run's length with its
        // never-share; a window an event opens may stay empty; counts are whole numbers.
        let f = written[0][4], b = written[0][1], g = written[0][5]
        #expect(f.kind == .time && f.unit == "s" && f.censoring.neverKey == "never_f" && f.isCounted)
        #expect(b.isCounted && b.censoring.neverKey == nil && b.unit == "pt")
        #expect(g.isInteger && g.kind == .count && !g.isCounted)
        #expect(written[0][3].unit == "J" && written[1][0].isNonNegative && !written[0][0].isNonNegative)
    }

    @Test func aWantCanNameAWrittenMetric() throws {
        let scene = try parse(minimalScene(adding: [
            "measure:", "  lowest: {item: top, max: y}",
            "tune:", "  parameters: {fall.magnitude: {min: 0.5, max: 2}}", "  want: {top.lowest: maximize}",
        ]).replacingOccurrences(of: "type: gravity,", with: "type: gravity, magnitude: 1,"))
        #expect(scene.tune?.wants.map(\.metric) == ["top.lowest"])
        expectError(minimalScene(adding: [
            "measure:", "  lowest: {item: top, max: y}",
            "tune:", "  parameters: {fall.magnitude: {min: 0.5, max: 2}}", "  want: {bottom.lowest: maximize}",
        ]).replacingOccurrences(of: "type: gravity,", with: "type: gravity, magnitude: 1,"), at: 14, 10,
                    "unknown metric 'lowest'", "oscillations)")
    }

    @Test func errorsSayWhereAndWhat() {
        expectError(Self.scene("peak: {item: nobody, max: y}"), at: 11, 16, "no item named 'nobody'")
        expectError(Self.scene("peak: {item: top}"), at: 11, 3, "missing what to measure in metric 'peak'")
        expectError(Self.scene("peak: {item: top, max: y, min: y}"), at: 11, 29, "already measures 'max'")
        expectError(Self.scene("peak: {item: top, max: height}"), at: 11, 26, "expected one of x, y, angle")
        expectError(Self.scene("peak: {item: top, max: y, to: [1, 2]}"), at: 11, 29, "'to' does not apply")
        expectError(Self.scene("peak: {item: top, max: distance}"), at: 11, 3, "missing required key 'to'")
        expectError(Self.scene("peak: {items: [top, bottom], max: y}"), at: 11, 37, "a pair of items measures 'distance'")
        expectError(Self.scene("peak: {items: [top, top], min: distance}"), at: 11, 23, "two different items")
        expectError(Self.scene("peak: {item: top, first: y}"), at: 11, 3, "missing 'below: V' or 'above: V'")
        expectError(Self.scene("peak: {item: top, at: y}"), at: 11, 3, "missing required key 'time'")
        expectError(Self.scene("peak: {item: top, at: y, time: 2}"), at: 11, 34, "within the run's 1 s")
        expectError(Self.scene("peak: {item: top, at: y, time: 0.5, from: 0.1}"), at: 11, 39, "'from' does not apply")
        expectError(Self.scene("peak: {item: top, max: y, from: 3}"), at: 11, 35, "within the run's 1 s")
        expectError(Self.scene("peak: {item: top, max: y, from: {contact: 0}}"), at: 11, 45, "positive whole number")
        expectError(Self.scene("peak: {item: top, max: y, from: 0.5, until: 0.25}"), at: 11, 47, "'until' at or after 'from'")
        expectError(Self.scene("peak: {item: top, crossings: y, value: 1, direction: sideways}"), at: 11, 56, "up, down, both")
        expectError(Self.scene("peak: {item: top, time_within: y, range: [2, 1]}"), at: 11, 44, "low ≤ high")
        expectError(Self.scene("rest_time: {item: top, max: y}"), at: 11, 3, "built-in metric")
        expectError(Self.scene("never_x: {item: top, max: y}"), at: 11, 3, "'never_' begins the never-shares' columns")
        expectError(Self.scene("top: {item: top, max: y}"), at: 11, 3, "already used by the item at 6:3")
        expectError(Self.scene("a: {item: top, max: y}", extra: ["  a: {item: top, min: y}"]), at: 11, 3, "appears more than once")
        expectError(Self.scene("peak: {item: top, max: y, colour: red}"), at: 11, 29, "unknown key 'colour'")
    }
}
