import Testing
@testable import WorldSweepScene

/// Issue 30, item 2: values reached through sweep axes, zip lists, distributions and jitter spans
/// are checked by the file's rules at parse time (`validate`), at the sweep entry that makes them;
/// and every world of a file that parses builds.
@Suite struct SweepReachTests {
    /// `minimalScene` with a rail (line 10) and a hinge (line 11), then `sweep:` lines from line 12.
    private func railScene(rail: String = "axis: [1, 0]", hinge: String = "range: [-0.01, 0.01]", _ sweep: String...) -> String {
        minimalScene(adding: ["  rail: {type: attachment, kind: sliding, items: [top], anchor: [100, 0], \(rail)}",
                              "  hinge: {type: attachment, kind: pin, items: [top, bottom], anchor: [100, 25], \(hinge)}",
                              "sweep:"] + sweep)
    }

    /// Every world of the file builds (what `run` does with each).
    private func everyWorldBuilds(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let scene = try parse(yaml)
        for world in 0..<scene.worldCount { _ = try scene.world(world) }
    }

    @Test func aSweepAxisThatZeroesTheRailAxisIsRefusedAtItsEntry() throws {
        expectError(railScene("  parameters:", "    rail.axis.x: [1, 0]"), at: 14, 5,
                    "expected a non-zero 'axis' of translation for attachment 'rail' in every world")
        // Zip pairs values: (1, 0) then (0, 1) never zeroes both parts.
        try everyWorldBuilds(railScene("  kind: zip", "  parameters:", "    rail.axis.x: [1, 0]", "    rail.axis.y: [0, 1]"))
        // A grid makes (0, 0) from the same lists.
        expectError(railScene("  parameters:", "    rail.axis.x: [1, 0]", "    rail.axis.y: [0, 1]"), at: 14, 5, "can make it [0, 0]")
    }

    @Test func jitterThatCrossesARangeIsRefused() throws {
        // ±1 on both ends of [-0.01, 0.01]: min can reach 0.99 while max reaches -0.99.
        expectError(railScene("  replicas: 20", "  jitter: {hinge.range: [1, 1]}"), at: 14, 12,
                    "expected 'range' min ≤ max for attachment 'hinge'", "min 0.99 and max -0.99")
        // ±0.005 keeps min ≤ -0.005 < 0.005 ≤ max.
        try everyWorldBuilds(railScene("  replicas: 20", "  jitter: {hinge.range: [0.005, 0.005]}"))
        // A swept max under the file's min.
        expectError(railScene("  parameters:", "    hinge.range.max: [0.5, -0.5]"), at: 14, 5, "min -0.01 and max -0.5")
    }

    @Test func aDistributionsSupportObeysTheFloor() throws {
        // Uniform in ±1e-5 draws values under the 1e-6 floor of an axis part; the rule says what it is.
        expectError(railScene(rail: "axis: [1, 1]", "  kind: random", "  samples: 20", "  parameters:",
                              "    rail.axis.x: {uniform: [-1e-5, 1e-5]}"), at: 16, 18,
                    "expected 0, or a number of size 1e-06 to 1000000", "but the sweep reaches 5e-07")
        try everyWorldBuilds(railScene(rail: "axis: [1, 1]", "  kind: random", "  samples: 20", "  parameters:",
                                       "    rail.axis.x: {uniform: [1e-5, 1]}"))
    }

    @Test func jitterSpansObeyTheFloorAroundEachBase() throws {
        // ±2 around axis.x = 1 runs through 0: parts inside the floor.
        expectError(railScene(rail: "axis: [1, 1]", "  replicas: 4", "  jitter: {rail.axis.x: 2}"), at: 14, 25,
                    "jitter of ±2 can take 'rail.axis.x' to 5e-07", "0, or a number of size 1e-06")
        // ±1 around the swept values -5 and 5 stays clear of 0 (one span over both would not).
        try everyWorldBuilds(railScene(rail: "axis: [1, 1]", "  replicas: 4", "  parameters:", "    rail.axis.x: [-5, 5]",
                                       "  jitter: {rail.axis.x: 1}"))
    }
}
