import Foundation
import Testing
import TestScratch
@testable import WorldSweep
import WorldSweepScene

/// `PlanBatch.readRunning` (what the sweep's metrics read of a block of worlds after each tick)
/// says what the one-world questions say: running, asleep, item states, contact changes waiting.
@Suite struct BatchReadingTests {
    @Test func aBlockReadsAsEachWorldAlone() throws {
        let scene = try SceneFile.load(path: Repository.path("Sweeps/twin-drop.yaml"))
        let worlds = SweepWorlds(scene)
        let plans = try (0..<20).map { try worlds.world($0 * 37).worldPlan() }
        let batch = try PlanBatch(plans)
        let bodies = plans[0].bodyOfItem, n = bodies.count
        let range = 3..<17   // a block that starts and ends inside the batch
        let states = UnsafeMutablePointer<ItemState>.allocate(capacity: range.count * n)
        let readings = UnsafeMutablePointer<PlanBatch.WorldReading>.allocate(capacity: range.count)
        defer { states.deallocate(); readings.deallocate() }
        var seen = (asleep: 0, changes: 0, stopped: 0)
        for tick in 1...240 {
            batch.tick(1.0 / 60)
            batch.readRunning(range, bodies: bodies, states: states, readings: readings)
            for k in range {
                let reading = readings[k - range.lowerBound]
                #expect(reading.contains(.running) == batch.isRunning(k), "world \(k), tick \(tick)")
                guard batch.isRunning(k) else { continue }
                #expect(reading.contains(.asleep) == batch.isAsleep(k), "world \(k), tick \(tick)")
                for (i, b) in bodies.enumerated() {
                    guard let b else { continue }
                    #expect(states[(k - range.lowerBound) * n + i] == batch.itemState(k, body: b), "world \(k) item \(i), tick \(tick)")
                }
                var changes = 0
                batch.takeContactChanges(k) { _, _, _ in changes += 1 }
                #expect(reading.contains(.contactChanges) == (changes > 0), "world \(k), tick \(tick)")
                if reading.contains(.asleep) { seen.asleep += 1 }
                if changes > 0 { seen.changes += 1 }
                // Stop some worlds along the way, as the metrics do.
                if tick == 30 + 10 * k { batch.stop(k); seen.stopped += 1 }
            }
        }
        // Not a run where nothing happens: contacts came and went, worlds stopped.
        #expect(seen.changes > 20 && seen.stopped > 5, "\(seen)")
    }

    /// Contact changes a time-of-impact pass records (in the lane's own world, handed the lane's
    /// state) are waiting too: boxes that fall fast onto the floor, as in the box curve.
    @Test func changesOfATimeOfImpactPassAreSeen() throws {
        let scene = try SceneFile.parse(yaml: """
            name: fast-boxes
            world: {bounds: [2100, 2100], tick: 1/60, ticks: 200}
            items:
              b0: {center: [60, 200], size: [10, 10]}
              b1: {center: [80, 200], size: [10, 10]}
            behaviors:
              fall: {type: gravity, items: [b0, b1], magnitude: 4}
              walls: {type: collision, items: [b0, b1], mode: everything, reference_bounds: true}
              bouncy: {type: item, items: [b0, b1], elasticity: 0.5}
            sweep: {parameters: {bouncy.elasticity: [0.2, 0.5, 0.8]}, replicas: 4}
            """, path: "fast-boxes.yaml")
        let worlds = SweepWorlds(scene)
        let plans = try (0..<12).map { try worlds.world($0).worldPlan() }
        let batch = try PlanBatch(plans)
        let bodies = plans[0].bodyOfItem, n = bodies.count
        let states = UnsafeMutablePointer<ItemState>.allocate(capacity: plans.count * n)
        let readings = UnsafeMutablePointer<PlanBatch.WorldReading>.allocate(capacity: plans.count)
        defer { states.deallocate(); readings.deallocate() }
        var changeTicks = 0
        for tick in 1...200 {
            batch.tick(1.0 / 60)
            batch.readRunning(0..<plans.count, bodies: bodies, states: states, readings: readings)
            for k in 0..<plans.count where batch.isRunning(k) {
                var changes = 0
                batch.takeContactChanges(k) { _, _, _ in changes += 1 }
                #expect(readings[k].contains(.contactChanges) == (changes > 0), "world \(k), tick \(tick)")
                if changes > 0 { changeTicks += 1 }
            }
        }
        #expect(batch.lanes.timeOfImpactHandOvers > 0 && changeTicks > 12, "\(batch.lanes.timeOfImpactHandOvers) hand-overs, \(changeTicks)")
    }
}
