import Testing
import TestScratch
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// A lanes batch's metrics folded eight worlds at a time (LaneMetricFold.swift) against the same
/// batch folded world by world (MetricTracks.fold, as a solo batch folds): every result of every
/// world the same, over sweeps that bounce, rest, push, touch item to item, fold springs and
/// written metrics, and fail.
@Suite struct LaneMetricFoldTests {
    static let sweeps = Repository.path("Sweeps")

    /// The worlds run both ways, in batches of 61 (a last group with padding lanes).
    func agree(_ scene: SceneFile, worlds: [Int]? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> [WorldResult] {
        var lanes = WorldRunner(scene: scene)
        lanes.layout = .lanes
        var byWorld = lanes
        byWorld.foldsLanes = false
        let worlds = worlds ?? Array(0..<scene.worldCount)
        var results: [WorldResult] = []
        for start in stride(from: 0, to: worlds.count, by: 61) {
            let chunk = Array(worlds[start..<min(worlds.count, start + 61)])
            let got = lanes.runBatched(chunk, integrator: .simd), expected = byWorld.runBatched(chunk, integrator: .simd)
            for (g, e) in zip(got, expected) {
                #expect(g == e, "\(scene.name) world \(e.world): \(g.items) against \(e.items)", sourceLocation: sourceLocation)
            }
            results += got
        }
        return results
    }

    @Test(arguments: ["twin-drop.yaml", "twin-drop-measures.yaml", "ledge-squares.yaml", "push-offset.yaml", "spinner.yaml",
                      "spring-card.yaml", "snap-arrival.yaml", "pendulum.yaml"])
    func examplesFoldTheSameEitherWay(_ name: String) throws {
        let scene = try SceneFile.load(path: "\(Self.sweeps)/\(name)")
        let worlds = Array(stride(from: 0, to: scene.worldCount, by: max(1, scene.worldCount / 130)))
        let results = agree(scene, worlds: worlds)
        #expect(results.contains { !$0.failed }, "\(name): some world runs")
        // What each sweep is here for happens in some world.
        if ["twin-drop.yaml", "twin-drop-measures.yaml", "ledge-squares.yaml", "push-offset.yaml"].contains(name) {
            #expect(results.contains { r in r.items.contains { $0.contacts > 0 } }, "\(name): some world touches something")
        }
        if ["twin-drop-measures.yaml", "snap-arrival.yaml"].contains(name) {
            #expect(results.contains { r in r.items.contains { !$0.written.isEmpty } }, "\(name): written metrics")
        }
        if name == "spring-card.yaml" { #expect(results.contains { r in r.items.contains { $0.spring != nil } }) }
    }

    /// Bounces that end at rest (worlds stop as they fall asleep, at different ticks), beside
    /// worlds that fail (too fast for the speed limit) and worlds that run to their last tick.
    @Test func restsFailuresAndLastTicksFoldTheSame() throws {
        let scene = try SceneFile.parse(yaml: """
            name: rests
            world: {bounds: [200, 400], ticks: 240}
            items:
              a: {center: [50, 100], size: [10, 10]}
              b: {center: [120, 300], size: [20, 20]}
            behaviors:
              fall: {type: gravity, items: [a, b]}
              walls: {type: collision, items: [a, b], reference_bounds: true}
              bouncy: {type: item, items: [a, b], elasticity: 0.6}
              kick: {type: push, items: [a], mode: instantaneous, magnitude: 1, angle: 0.5}
            sweep:
              parameters: {fall.magnitude: [0.5, 1, 4], kick.magnitude: [0, 3, 4000]}
              replicas: 8
              jitter: {a.center: [20, 20]}
            """, path: "rests.yaml")
        var runner = WorldRunner(scene: scene)
        runner.speedLimit = 2_000
        let results = agreeWith(runner)
        #expect(results.contains { $0.failed } && results.contains { !$0.failed })
        #expect(results.contains { r in r.items.contains { $0.restTime != nil } })
        #expect(results.contains { r in r.items.contains { $0.bounceHeights.count >= 2 } })
    }

    func agreeWith(_ runner: WorldRunner) -> [WorldResult] {
        var lanes = runner
        lanes.layout = .lanes
        var byWorld = lanes
        byWorld.foldsLanes = false
        let worlds = Array(0..<runner.worldCount)
        let got = lanes.runBatched(worlds, integrator: .simd), expected = byWorld.runBatched(worlds, integrator: .simd)
        for (g, e) in zip(got, expected) { #expect(g == e, "world \(e.world): \(g.items) against \(e.items)") }
        return got
    }
}
