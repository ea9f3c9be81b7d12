import Testing
import WorldSweep
@testable import WorldSweepScene

/// `minimalScene` plus item behavior `bouncy` (line 10), push `shove` (line 11) and the sweep lines.
func sweepScene(_ sweepLines: String...) -> String {
    ([minimalScene,
      "  bouncy: {type: item, items: [bottom], elasticity: 0.9}",
      "  shove: {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}",
      "sweep:"] + sweepLines).joined(separator: "\n")
}
// Sweep lines start at line 13.

@Suite("Sweeps: counts, points, draws and errors")
struct SweepTests {
    @Test func gridCountsEveryCombinationTimesReplicas() throws {
        let scene = try parse(sweepScene("  replicas: 3", "  parameters:", "    bouncy.elasticity: {linspace: [0, 1, 5]}",
                                         "    bouncy.density: [0.5, 1]", "    shove.magnitude: {range: [0, 1, 0.25]}"))
        let sweep = try #require(scene.sweep)
        #expect(sweep.kind == .grid)
        #expect(sweep.pointCount == 5 * 2 * 5)
        #expect(sweep.worldCount == 150)
        #expect(scene.worldCount == 150)
        // The last parameter varies fastest.
        #expect(sweep.values(atPoint: 0).map(\.value) == [0, 0.5, 0])
        #expect(sweep.values(atPoint: 1).map(\.value) == [0, 0.5, 0.25])
        #expect(sweep.values(atPoint: 5).map(\.value) == [0, 1, 0])
        #expect(sweep.values(atPoint: 49).map(\.value) == [1, 1, 1])
        #expect(sweep.values(atPoint: 0).map(\.path) == ["bouncy.elasticity", "bouncy.density", "shove.magnitude"])
        #expect(sweep.position(ofWorld: 7) == (point: 2, replica: 1))
    }

    @Test func gridWithoutParametersIsOnePoint() throws {
        let sweep = try #require(try parse(sweepScene("  replicas: 4")).sweep)
        #expect(sweep.pointCount == 1)
        #expect(sweep.worldCount == 4)
        #expect(sweep.firstPointOverrides().isEmpty)
    }

    @Test func zipCountsTheCommonLength() throws {
        let sweep = try #require(try parse(sweepScene("  kind: zip", "  replicas: 2", "  parameters:",
                                                      "    bouncy.elasticity: {linspace: [0, 1, 4]}",
                                                      "    shove.angle: {values: [0, 1, 2, 3]}")).sweep)
        #expect(sweep.worldCount == 8)
        #expect(sweep.values(atPoint: 2).map(\.value) == [2.0 / 3.0, 2])
    }

    @Test func zipWithMismatchedCountsIsAnError() {
        expectError(sweepScene("  kind: zip", "  parameters:", "    bouncy.elasticity: {linspace: [0, 1, 4]}",
                               "    shove.angle: {values: [0, 1, 2]}"), at: 16, 5,
                    "'kind: zip' needs the same number of values for every parameter: 'shove.angle' has 3, "
                        + "'bouncy.elasticity' has 4")
    }

    @Test func randomCountsSamplesTimesReplicas() throws {
        let yaml = sweepScene("  kind: random", "  samples: 100", "  replicas: 5", "  seed: 9", "  parameters:",
                              "    bouncy.elasticity: {uniform: [0.2, 0.4]}",
                              "    bouncy.density: {loguniform: [0.1, 10]}",
                              "    shove.angle: [1, 2, 3]")
        let sweep = try #require(try parse(yaml).sweep)
        #expect(sweep.worldCount == 500)
        for point in 0..<100 {
            let values = sweep.values(atPoint: point).map(\.value)
            #expect(values[0] >= 0.2 && values[0] < 0.4)
            #expect(values[1] >= 0.1 && values[1] <= 10)
            #expect([1, 2, 3].contains(values[2]))
        }
        // A pure function of (seed, point): the same from a fresh parse, different between points.
        let again = try #require(try parse(yaml).sweep)
        #expect(again.values(atPoint: 17).map(\.value) == sweep.values(atPoint: 17).map(\.value))
        #expect(sweep.values(atPoint: 17).map(\.value) != sweep.values(atPoint: 18).map(\.value))
        #expect(sweep.firstPointOverrides().map(\.value) == sweep.values(atPoint: 0).map(\.value))
        // Another seed, other draws.
        let reseeded = try #require(try parse(yaml.replacingOccurrences(of: "seed: 9", with: "seed: 10")).sweep)
        #expect(reseeded.values(atPoint: 17).map(\.value) != sweep.values(atPoint: 17).map(\.value))
    }

    @Test func randomNeedsSamples() {
        expectError(sweepScene("  kind: random", "  parameters:", "    bouncy.elasticity: {uniform: [0, 1]}"), at: 12, 1,
                    "missing required key 'samples' in 'sweep'")
    }

    @Test func distributionsNeedKindRandom() {
        expectError(sweepScene("  parameters:", "    bouncy.elasticity: {uniform: [0, 1]}"), at: 14, 25,
                    "'uniform' draws random values, so it needs 'kind: random' (this sweep is grid)")
    }

    @Test func rangesAndSpaces() throws {
        #expect(ParameterRange.range(start: 0, stop: 1.5, step: 0.1).count == 16)
        // 3 × 0.3 is 0.8999999999999999 in binary; the grid holds the 0.9 a person writes.
        #expect(ParameterRange.range(start: 0, stop: 1, step: 0.3).allValues == [0, 0.3, 0.6, 0.9])
        #expect(ParameterRange.range(start: 1, stop: 0, step: -0.5).allValues == [1, 0.5, 0])
        #expect(ParameterRange.linspace(from: 0, to: 1, count: 3).allValues == [0, 0.5, 1])
        #expect(ParameterRange.linspace(from: 2, to: 5, count: 1).allValues == [2])
        let log = try #require(ParameterRange.logspace(from: 0.01, to: 1, count: 3).allValues)
        #expect(log == [0.01, 0.1, 1])
    }

    @Test func gridValuesAreTheDecimalsAPersonWrites() throws {
        // Binary arithmetic gives 0.30000000000000004, 0.6000000000000001, 1.2000000000000002 …
        let tenths = (0...15).map { Double("\($0 / 10).\($0 % 10)")! }
        #expect(ParameterRange.range(start: 0, stop: 1.5, step: 0.1).allValues == tenths)
        // … and 0.15000000000000002, 0.35000000000000003: the start's decimals count too.
        #expect(ParameterRange.range(start: 0.05, stop: 0.45, step: 0.1).allValues == [0.05, 0.15, 0.25, 0.35, 0.45])
        #expect(ParameterRange.range(start: 2, stop: 12, step: 2.5).allValues == [2, 4.5, 7, 9.5, 12])
        // linspace's step (1.5 / 15 = 0.1) has one decimal: so do its values.
        #expect(ParameterRange.linspace(from: 0, to: 1.5, count: 16).allValues == tenths)
        #expect(ParameterRange.linspace(from: -1, to: 1, count: 9).allValues == [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1])
        // A step with no short decimal (1/15) leaves the values as computed: 1/15, 2/15, … (correctly rounded).
        let fifteenths = try #require(ParameterRange.linspace(from: 0, to: 1, count: 16).allValues)
        #expect(fifteenths[1] == 1.0 / 15 && fifteenths[2] == 2.0 / 15 && fifteenths[7] == 7.0 / 15)
        // logspace: 1000^(1/3) is 9.999999999999998 in binary, 10 as written; √10 has no short decimal.
        #expect(ParameterRange.logspace(from: 1, to: 1000, count: 4).allValues == [1, 10, 100, 1000])
        #expect(ParameterRange.logspace(from: 0.001, to: 1, count: 4).allValues == [0.001, 0.01, 0.1, 1])
        let roots = try #require(ParameterRange.logspace(from: 1, to: 100, count: 5).allValues)
        #expect(roots[1] == 10.0.squareRoot() && roots[2] == 10)
        // Random sweeps drawing from a discrete range draw the written values too.
        #expect(ParameterRange.range(start: 0, stop: 1.5, step: 0.1).draw(0.2) == 0.3)
        // No −0 from rounding a value just below zero.
        #expect(ParameterRange.range(start: -0.3, stop: 0.3, step: 0.1).allValues!.allSatisfy { $0 != 0 || $0.sign == .plus })
    }

    @Test func writtenDecimalsFindTheTypedPrecision() {
        #expect(WrittenDecimals.places(0.25) == 2)
        #expect(WrittenDecimals.places(1e-05) == 5)
        #expect(WrittenDecimals.places(40) == 0)
        #expect(WrittenDecimals.places(0.1 + 0.2) == 17)
        #expect(WrittenDecimals.places(ofComputed: 1.5 / 15, digits: 6) == 1)
        #expect(WrittenDecimals.places(ofComputed: 1.0 / 15, digits: 6) == nil)
        #expect(WrittenDecimals.places(ofComputed: 0, digits: 6) == 0)
    }

    @Test func unknownParameterKey() {
        expectError(sweepScene("  parameters:", "    bouncy.elastcity: {values: [0.1]}"), at: 14, 5,
                    "unknown parameter 'bouncy.elastcity': item behavior 'bouncy' has no numeric key 'elastcity'",
                    "did you mean 'elasticity'?")
    }

    @Test func unknownParameterName() {
        expectError(sweepScene("  parameters:", "    bouncey.elasticity: {values: [0.1]}"), at: 14, 5,
                    "unknown parameter 'bouncey.elasticity': there is no item or behavior named 'bouncey'",
                    "did you mean 'bouncy'?")
    }

    @Test func parameterOfABehaviorWithoutNumbers() {
        expectError(minimalScene(adding: "  walls: {type: collision, items: [top]}", "sweep:", "  parameters:",
                                 "    walls.mode: [1]"), at: 13, 5,
                    "unknown parameter 'walls.mode': collision behavior 'walls' has no numeric keys")
    }

    @Test func parameterPathWithoutKey() {
        expectError(sweepScene("  parameters:", "    bouncy: [1]"), at: 14, 5, "expected a parameter path NAME.KEY")
    }

    @Test func sweptValuesMustSuitTheKey() {
        expectError(sweepScene("  parameters:", "    bouncy.density: {linspace: [0, 2, 3]}"), at: 14, 21,
                    "expected a positive number for 'bouncy.density', but the sweep reaches 0")
        expectError(sweepScene("  parameters:", "    top.size.width: [10, -1]"), at: 14, 21,
                    "expected a positive number for 'top.size.width', but the sweep reaches -1")
    }

    @Test func rangeStepMustLeadToStop() {
        expectError(sweepScene("  parameters:", "    shove.angle: {range: [0, 1, -0.1]}"), at: 14, 26,
                    "expected a 'step' that leads from 0 to 1 for 'range' of 'shove.angle', got -0.1")
    }

    @Test func logspaceTakesValuesNotExponents() {
        expectError(sweepScene("  parameters:", "    bouncy.density: {logspace: [-2, 0, 3]}"), at: 14, 32,
                    "expected positive end points for 'logspace' of 'bouncy.density' (they are values, not exponents")
    }

    @Test func oneRangePerParameter() {
        expectError(sweepScene("  parameters:", "    shove.angle: {values: [1], linspace: [0, 1, 2]}"), at: 14, 18,
                    "expected exactly one of values, linspace, logspace, range, uniform, loguniform for parameter "
                        + "'shove.angle', got 2")
    }

    @Test func unknownSweepKind() {
        expectError(sweepScene("  kind: product"), at: 13, 9,
                    "expected one of grid, zip, random for 'kind' of 'sweep', got \"product\"")
    }

    @Test func replicasMustBePositive() {
        expectError(sweepScene("  replicas: 0"), at: 13, 13, "expected a positive whole number for 'replicas', got 0")
    }

    @Test func jitterExpandsPairsAndIsDeterministic() throws {
        let scene = try parse(sweepScene("  replicas: 3", "  seed: 5", "  jitter: {top.center: [2, 3], bouncy.elasticity: 0.05}"))
        let sweep = try #require(scene.sweep)
        #expect(sweep.jitter.map(\.path) == ["top.center.x", "top.center.y", "bouncy.elasticity"])
        #expect(sweep.jitter.map(\.amplitude) == [2, 3, 0.05])
        let first = sweep.jitterOffsets(point: 0, replica: 0)
        #expect(first.map(\.delta) == sweep.jitterOffsets(point: 0, replica: 0).map(\.delta))
        #expect(first.map(\.delta) != sweep.jitterOffsets(point: 0, replica: 1).map(\.delta))
        for replica in 0..<3 {
            let world = try scene.world(replica)
            let offsets = sweep.jitterOffsets(point: 0, replica: replica)
            #expect(abs(world.items[0].center.x - 100) <= 2)
            #expect(abs(world.items[0].center.y - 0) <= 3)
            #expect(world.items[0].center.x == 100 + offsets[0].delta)
            #expect(try world.value(at: "bouncy.elasticity") == 0.9 + offsets[2].delta)
        }
    }

    @Test func jitterMustNotLeaveTheKeysRange() {
        expectError(sweepScene("  jitter: {top.size: [60, 1]}"), at: 13, 22,
                    "jitter of ±60 can take 'top.size.width' to -10; it must stay positive")
    }

    @Test func jitterOfAnUnknownPath() {
        expectError(sweepScene("  jitter: {top.centre: [2, 2]}"), at: 13, 12,
                    "unknown parameter 'top.centre': item 'top' has no numeric key 'centre'")
    }

    @Test func worldAppliesPointValues() throws {
        let scene = try parse(sweepScene("  parameters:", "    bouncy.density: [0.5, 2]", "    top.center.x: [10, 20, 30]"))
        let world = try scene.world(4)  // density index 1, center index 1
        #expect(try world.value(at: "bouncy.density") == 2)
        #expect(world.items[0].center.x == 20)
        #expect(scene.firstPointOverrides().map(\.value) == [0.5, 10])
    }
}
