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
}
