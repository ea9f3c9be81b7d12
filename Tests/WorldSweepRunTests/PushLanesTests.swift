import Foundation
import Testing
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// Continuous pushes act eight lanes per instruction in a plan batch (`applyContinuousPush`):
/// each lane's push with its own vector and point, none where the vector is zero, and a body that
/// fell asleep woken by its push first. These scenes make every one of those happen side by side
/// in one batch, and every world must be bitwise what it is alone.
@Suite struct PushLanesTests {
    /// Two boxes resting on a ledge, each held by friction against a small continuous push (so it
    /// falls asleep, and its push wakes it the next tick), one push with two targets and an offset
    /// point, magnitudes from zero up, plus an instantaneous push on one box.
    static let scene = """
        name: resting-pushes
        world: {bounds: [320, 200], ticks: 150}
        items:
          a: {center: [80, 155], size: [30, 30]}
          b: {center: [220, 155], size: [40, 20]}
        behaviors:
          fall: {type: gravity, items: [a, b]}
          floor: {type: collision, items: [a, b], mode: boundaries, boundaries: {ledge: {from: [0, 170], to: [320, 170]}}}
          grip: {type: item, items: [a, b], friction: 1}
          shove: {type: push, items: [a, b], mode: continuous, magnitude: 0.01, angle: 0, offset: {a: [0, 5]}}
          nudge: {type: push, items: [b], mode: continuous, magnitude: 0, angle: 3}
          kick: {type: push, items: [a], mode: instantaneous, magnitude: 0.2, angle: 1.5}
        sweep:
          parameters:
            shove.magnitude: [0, 0.002, 0.01, 0.05, 3]
            nudge.magnitude: [0, 0.003, 0.2]
            kick.magnitude: [0, 0.2]
        """

    @Test func everyWorldIsBitwiseItsSingleWorld() throws {
        let scene = try SceneFile.parse(yaml: Self.scene, path: "resting-pushes.yaml")
        #expect(scene.worldCount == 30)
        let (expected, batched) = singleWorldsAndBatchedRunner(scene)
        let got = batched.runBatched(Array(0..<scene.worldCount), integrator: .simd)
        #expect(got.count == expected.count)
        for (e, g) in zip(expected, got) { #expect(e == g, "world \(e.world): batched differs from the single world") }
    }

    /// The batch really meets the cases the lanes handle apart: a pushed body asleep before a tick
    /// (its push wakes it) beside lanes whose push is zero or whose body is awake.
    @Test func pushedBodiesFallAsleepAndAreWokenInTheBatch() throws {
        let plans = try worldPlans(yaml: Self.scene, path: "resting-pushes.yaml")
        let batch = try PlanBatch(plans)
        let bodies = plans[0].bodyOfItem.compactMap { $0 }
        var woken = 0
        for _ in 0..<150 {
            let asleep = (0..<plans.count).map { k in bodies.map { batch.itemState(k, body: $0).isAsleep } }
            batch.tick(1.0 / 60)
            for k in 0..<plans.count where batch.isRunning(k) {
                for (j, b) in bodies.enumerated() where asleep[k][j] && !batch.itemState(k, body: b).isAsleep { woken += 1 }
            }
        }
        #expect(woken > 10, "pushed bodies woken after sleeping: \(woken)")
    }
}
