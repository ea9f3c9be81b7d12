import Foundation
import Testing
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// One big world's sub-steps split over threads (WorldThreads.swift: the contact update's
/// refreshes, the islands' solves): every world gets the same bits at any thread count, tick by
/// tick, and the scheduler gives a big world the threads its workers leave spare.
@Suite struct WorldThreadsTests {
    /// `count` boxes of 10 pt in rows of `perRow` on a 12 pt grid just above the floor of a
    /// 400 × 300 pt world, bouncing and settling into columns (each column an island: the floor
    /// is static and joins none), with a push and a sweep of the elasticity.
    /// `spacing` 10: the boxes touch side by side and row on row, one island from the start.
    static func stack(_ count: Int, perRow: Int = 30, spacing: Int = 12, ticks: Int) -> String {
        let names = (0..<count).map { "b\($0)" }.joined(separator: ", ")
        let rows = (count + perRow - 1) / perRow
        var lines = ["name: threads-stack", "world: {bounds: [400, 300], ticks: \(ticks)}", "items:"]
        for i in 0..<count {
            lines.append("  b\(i): {center: [\(20 + spacing * (i % perRow)), \(294 - spacing * rows + spacing * (i / perRow))], size: [10, 10]}")
        }
        lines += [
            "behaviors:",
            "  fall: {type: gravity, items: [\(names)]}",
            "  walls: {type: collision, items: [\(names)], mode: everything, reference_bounds: true}",
            "  bouncy: {type: item, items: [\(names)], elasticity: 0.5}",
            "  shove: {type: push, items: [b0, b\(count - 1)], mode: continuous, magnitude: 0.02, angle: 0.3}",
            "sweep:",
            "  parameters: {bouncy.elasticity: [0.2, 0.6]}",
        ]
        return lines.joined(separator: "\n")
    }

    static func plans(_ count: Int, ticks: Int) throws -> [WorldPlan] {
        try worldPlans(yaml: stack(count, ticks: ticks), path: "threads-stack.yaml")
    }

    /// A world of 600 boxes alone (past the lanes' crossover: solo) at 1, 2 and 4 threads, side
    /// by side: every body's state, every contact change in order and every pause, each tick;
    /// and the stages did split (with one thread they never do).
    @Test func aBigWorldGetsTheSameBitsAtOneTwoAndFourThreads() throws {
        let plan = try Self.plans(600, ticks: 1)[0]
        let batches = try [1, 2, 4].map { try PlanBatch([plan], threadsPerWorld: $0) }
        #expect(batches.allSatisfy { $0.layout == .solo })
        let bodies = plan.bodyOfItem.compactMap { $0 }
        var changes = 0
        for tick in 1...40 {
            for batch in batches { batch.tick(1.0 / 60) }
            let states = batches.map { batch in bodies.flatMap { batch.itemState(0, body: $0).bitPattern } }
            #expect(states[1] == states[0] && states[2] == states[0], "tick \(tick)")
            let heard = batches.map { batch in
                var heard: [String] = []
                batch.takeContactChanges(0) { a, b, began in heard.append("\(a)-\(b) \(began)") }
                return heard
            }
            #expect(heard[1] == heard[0] && heard[2] == heard[0], "tick \(tick)")
            #expect(batches.allSatisfy { $0.isAsleep(0) == batches[0].isAsleep(0) })
            changes += heard[0].count
        }
        #expect(changes > 600, "contact changes heard: \(changes)")
        let split = batches.map { $0.soloWorld(0).stagesSplit }
        #expect(split[0] == 0 && split[1] > 0 && split[2] == split[1], "stages split per thread count: \(split)")
    }

    /// A pile of 600 boxes touching side by side and row on row: one island of hundreds of
    /// contacts, whose warm start and velocity iterations are shared between threads
    /// (IslandVelocityThreads.swift; helpers and parts waited for however long they take). At 1, 2
    /// and 4 threads every body's state and every contact change is the same each tick; the
    /// passes were shared at 2 and 4 threads, as often, and never run again one at a time.
    @Test func aBigIslandsSharedVelocityPassesGiveTheSameBits() throws {
        let plan = try worldPlans(yaml: Self.stack(600, spacing: 10, ticks: 1), path: "threads-pile.yaml")[0]
        let batches = try [1, 2, 4].map { try PlanBatch([plan], threadsPerWorld: $0) }
        for batch in batches {
            batch.soloWorld(0).threads.longestJoinNanoseconds = .max
            batch.soloWorld(0).threads.longestWaitNanoseconds = .max
        }
        let bodies = plan.bodyOfItem.compactMap { $0 }
        for tick in 1...30 {
            for batch in batches { batch.tick(1.0 / 60) }
            let states = batches.map { batch in bodies.flatMap { batch.itemState(0, body: $0).bitPattern } }
            #expect(states[1] == states[0] && states[2] == states[0], "tick \(tick)")
            let heard = batches.map { batch in
                var heard: [String] = []
                batch.takeContactChanges(0) { a, b, began in heard.append("\(a)-\(b) \(began)") }
                return heard
            }
            #expect(heard[1] == heard[0] && heard[2] == heard[0], "tick \(tick)")
        }
        let parts = batches.map { $0.soloWorld(0).islandScratches.first?.velocityParts }
        let shared = parts.map { $0?.sharedSolves ?? 0 }
        #expect(shared[0] == 0 && shared[1] >= 30 && shared[2] == shared[1], "islands shared per thread count: \(shared)")
        #expect(parts.allSatisfy { ($0?.rerunSolves ?? 0) == 0 })
    }

    /// The same pile with parts that give up at their first wait: the passes, abandoned, are run
    /// again one contact at a time from where they started, the same bits as one thread.
    @Test func abandonedSharedPassesAreRunAgainToTheSameBits() throws {
        let plan = try worldPlans(yaml: Self.stack(600, spacing: 10, ticks: 1), path: "threads-pile.yaml")[0]
        let batches = try [1, 2].map { try PlanBatch([plan], threadsPerWorld: $0) }
        batches[1].soloWorld(0).threads.longestJoinNanoseconds = .max
        batches[1].soloWorld(0).threads.longestWaitNanoseconds = 0
        let bodies = plan.bodyOfItem.compactMap { $0 }
        for tick in 1...10 {
            for batch in batches { batch.tick(1.0 / 60) }
            let states = batches.map { batch in bodies.flatMap { batch.itemState(0, body: $0).bitPattern } }
            #expect(states[1] == states[0], "tick \(tick)")
        }
        let rerun = batches[1].soloWorld(0).islandScratches.first?.velocityParts?.rerunSolves ?? 0
        #expect(rerun > 0, "islands run again: \(rerun)")
    }

    /// The whole batched run, metrics included, at 1, 2 and 4 threads a world: a world of 600
    /// boxes (solo, split) and worlds of 400 (lanes, which never split) each give what one
    /// thread gives.
    @Test(arguments: [400, 600])
    func theRunsResultsAreTheSameAtAnyThreadCount(count: Int) throws {
        let scene = try SceneFile.parse(yaml: Self.stack(count, ticks: 30), path: "threads-stack.yaml")
        var runner = WorldRunner(scene: scene)
        let worlds = count > PlanBatchLayout.mostLaneBodies ? [0] : Array(0..<scene.worldCount)
        let results = [1, 2, 4].map { threads in
            runner.threadsPerWorld = threads
            return runner.runBatched(worlds, integrator: .simd)
        }
        #expect(results[0].count == worlds.count && results[0].allSatisfy { !$0.failed })
        #expect(results[1] == results[0] && results[2] == results[0])
    }

    /// The scheduler's spare threads go to the worlds: one world on two threads gets both; as
    /// many chunks as threads, one each.
    @Test func theSchedulerGivesABigWorldItsSpareThreads() {
        #expect(Scheduler(threads: 2).threadsPerWorld(0..<1) == 2)
        #expect(Scheduler(threads: 4).threadsPerWorld(0..<1) == 4)
        #expect(Scheduler(threads: 4, chunkSize: 8).threadsPerWorld(0..<16) == 2)
        #expect(Scheduler(threads: 2).threadsPerWorld(0..<4096) == 1)
        #expect(Scheduler(threads: 1).threadsPerWorld(0..<1) == 1)
    }

    /// A stage's chunks cover its items once each, in order, whatever the counts.
    @Test(arguments: [(1, 1), (7, 3), (1000, 8), (5, 8)])
    func chunksCoverEveryItemOnce(items: Int, chunks: Int) {
        let covered = (0..<chunks).flatMap { Array(WorldThreads.chunk($0, of: chunks, items: items)) }
        #expect(covered == Array(0..<items))
    }

    /// Every chunk runs exactly once, on any number of threads, the worker index within range.
    @Test(arguments: [1, 2, 4])
    func everyChunkRunsOnce(threads: Int) {
        let ran = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { ran.deallocate() }
        ran.initialize(repeating: 0)
        WorldThreads(count: threads).run(chunks: 64) { k, worker in
            precondition(worker < threads)
            ran[k] += 1
        }
        #expect(Array(ran) == Array(repeating: 1, count: 64))
    }

    /// Stages handed to held helpers (`holdingHelpers`, WorldCrew.swift), many in a row of every
    /// size: every chunk of every stage runs once, on a worker in range; the crew is the world's
    /// only while held.
    @Test(arguments: [2, 4])
    func heldHelpersRunEveryChunkOfEveryStageOnce(threads: Int) throws {
        let world = try Self.plans(300, ticks: 1)[0].makeWorld()
        world.threads.count = threads
        let ran = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { ran.deallocate() }
        var stages = 0
        world.holdingHelpers {
            #expect(world.threads.crew != nil)
            for stage in 0..<500 {
                let chunks = 1 + stage % 64
                ran.initialize(repeating: 0)
                world.threads.run(chunks: chunks) { k, worker in
                    precondition(worker < threads)
                    ran[k] += 1
                }
                if ran[0..<chunks].allSatisfy({ $0 == 1 }) && ran[chunks...].allSatisfy({ $0 == 0 }) { stages += 1 }
            }
        }
        #expect(stages == 500)
        #expect(world.threads.crew == nil)
    }

    /// The bounding boxes computed in chunks over held helpers are, bit for bit, those computed
    /// on one thread, swept and not, in a world whose boxes move and turn.
    @Test func theBoxesOverThreadsAreTheBoxesOnOne() throws {
        let world = try Self.plans(600, ticks: 1)[0].makeWorld()
        for _ in 0..<90 { world.step(EngineSettings.subStep) }
        for swept in [false, true] {
            world.threads.count = 1
            world.computeBoxes(swept: swept)
            let one = world.boxes.map { [$0.lower.x.bitPattern, $0.lower.y.bitPattern, $0.upper.x.bitPattern, $0.upper.y.bitPattern] }
            // Static bodies' boxes are made once and never computed again: only the others cleared.
            world.boxes = zip(world.bodies, world.boxes).map { $0.isDynamic ? AABB(lower: Vec2(0, 0), upper: Vec2(0, 0)) : $1 }
            world.threads.count = 2
            let splitBefore = world.stagesSplit
            world.holdingHelpers { world.computeBoxes(swept: swept) }
            let two = world.boxes.map { [$0.lower.x.bitPattern, $0.lower.y.bitPattern, $0.upper.x.bitPattern, $0.upper.y.bitPattern] }
            #expect(two == one, "swept: \(swept)")
            #expect(world.stagesSplit == splitBefore + 1)
            #expect(Set(one).count > 500, "boxes that differ: \(Set(one).count)")
        }
    }
}

private extension ItemState {
    /// Every number's bits, so −0 and 0 differ and NaNs compare.
    var bitPattern: [UInt64] {
        [center.x.bitPattern, center.y.bitPattern, angle.bitPattern, velocity.dx.bitPattern, velocity.dy.bitPattern,
         angularVelocity.bitPattern, isAsleep ? 1 : 0]
    }
}
