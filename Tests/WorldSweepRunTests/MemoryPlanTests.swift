import Foundation
import Testing
import TestScratch
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// `n` small items in a grid, all falling inside the reference bounds.
func crowdScene(_ n: Int) -> String {
    let columns = Int(Double(n).squareRoot()) + 1
    var lines = ["name: crowd", "world: {bounds: [4000, 4000], ticks: 2}", "items:"]
    for k in 0..<n { lines.append("  i\(k): {center: [\(20 + k % columns * 20), \(20 + k / columns * 20)], size: [6, 6]}") }
    let names = (0..<n).map { "i\($0)" }.joined(separator: ", ")
    lines += ["behaviors:", "  fall: {type: gravity, items: [\(names)]}",
              "  walls: {type: collision, items: [\(names)], reference_bounds: true}"]
    return lines.joined(separator: "\n")
}

/// Issue 17 item 7: memory is estimated before anything is allocated, and the engines' memory
/// grows with bodies and contacts, not with the square of the items.
@Suite struct MemoryPlanTests {
    @Test func countsAreTakenFromTheFile() throws {
        // 2 000 items colliding with each other and the 4 edges of the bounds: 2 004 bodies; one
        // world, so the run holds its result (the point in progress) and the report's sample of it.
        let plan = MemoryPlan(scene: try scene(crowdScene(2000)))
        #expect(plan.bodies == 2004 && plan.items == 2000 && plan.heldWorlds == 2)
        // One box and the 4 edges of the bounds.
        let twin = MemoryPlan(scene: try scene(dropScene(elasticity: 0.5)))
        #expect(twin.bodies == 5 && twin.items == 1)
    }

    @Test func onlyHugeWorldsLeaveTheBatch() throws {
        // 8 worlds of 2 004 bodies × 4 KiB and their lane stores at 8 rows per body (the stores'
        // figures: about 73 MB) ≈ 138 MB: a batch; 10 004 bodies: about 690 MB, over 512 MiB.
        #expect(MemoryPlan(scene: try scene(crowdScene(2000))).batchFits)
        #expect(!MemoryPlan(scene: try scene(crowdScene(10000))).batchFits)
        for name in ["twin-drop", "ledge-squares", "push-offset", "spinner", "million-drops"] {
            let file = packageRoot.appendingPathComponent("Sweeps/\(name).yaml").path
            #expect(MemoryPlan(scene: try SceneFile.load(path: file)).batchFits, "\(name)")
        }
    }

    @Test func worldsThatFitFollowTheEstimate() throws {
        let plan = MemoryPlan(scene: try scene(crowdScene(2000)))
        // The run's output: 32 MiB + 2 000 items × (16 384 for a point + 2 held results × 512) ≈
        // 68.4 MB, once; a world: 2 004 × 4 096 bytes ≈ 8.2 MB on the single engine, a batch
        // eight of them and the lane stores (what their figures sum to: LaneStoreBytesTests).
        let run = 32.0 * 1024 * 1024 + 2000 * (16384 + 2 * 512), world = 2004.0 * 4096
        let batch = 8 * world + plan.laneStoreBytes
        #expect(abs(plan.runBytes - run) < 1 && abs(plan.singleWorldBytes - world) < 1 && abs(plan.batchBytes - batch) < 1)
        #expect(plan.worldsThatFit(in: 150e6, batched: true) == 0)
        #expect(plan.worldsThatFit(in: 4e9, batched: true) == Int(((4e9 - run) / batch).rounded(.down)))
        #expect(plan.worldsThatFit(in: 4e9, batched: false) == Int(((4e9 - run) / world).rounded(.down)))
        // A trace writes no output files: one world fits in 50 MB.
        #expect(plan.worldsThatFit(in: 50e6, batched: false, outputs: false) >= 1)
    }

    /// The run's own part grows linearly with the items (it was n(n − 1) partner columns before):
    /// doubling the items doubles it, and the replicas and the report's sample scale the results held.
    @Test func theRunsPartIsLinearInItems() throws {
        let base = MemoryPlan.baseBytes
        let small = MemoryPlan(scene: try scene(crowdScene(1000))), large = MemoryPlan(scene: try scene(crowdScene(4000)))
        #expect(abs((large.runBytes - base) - 4 * (small.runBytes - base)) < 1)
        // 10 000 items: 32 MiB + 10 000 × 17 408 bytes ≈ 208 MB, no longer 64 GB.
        #expect(MemoryPlan(scene: try scene(crowdScene(10000))).runBytes < 210e6)
        // A sweep of 100 points × 50 replicas of one box holds 50 + 5 000 results (the sample keeps all).
        let sweep = MemoryPlan(scene: try scene(dropScene(elasticity: 0.5) + """

            sweep:
              parameters: {stuff.elasticity: {linspace: [0, 1, 100]}}
              replicas: 50
              seed: 1
              jitter: {box.center.x: 1}
            """))
        #expect(sweep.heldWorlds == 50 + 5000)
    }

    /// One world of 2 000 small items (6 × 6 pt on a 20 pt grid, so each item's box, grown by the
    /// 10 pt margin, overlaps its neighbours'): the contacts are those of overlapping boxes, a
    /// few per item, and what the engines hold for them is linear in that. Before, the single
    /// world held a slot per allowed pair (2 007 000) and a batch a column entry per pair and lane.
    @Test func twoThousandItemsHoldMemoryByContactsNotByPairs() throws {
        let plan = try scene(crowdScene(2000)).worldPlan()
        let world = plan.makeWorld()
        for _ in 0..<3 { world.step(EngineSettings.subStep) }
        let bodies = world.bodies.count, contacts = world.contacts.count
        // Each item's box meets its up to 8 neighbours' (4 of them counted by each of the two)
        // and at most the edges: more than one contact per item, at most 8 per body.
        #expect(contacts > 2000 && contacts <= 8 * bodies, "\(contacts) contacts")
        // Per contact: the slot (pair, order, contact), the live-pair set and two list entries,
        // well under 512 bytes; per body its box, sort position, rule and lists, under 256.
        #expect(world.contactByteCount <= 512 * contacts + 256 * bodies, "\(world.contactByteCount) bytes")
        #expect(world.contactByteCount < 10_000_000)

        let batch = try PlanBatch([plan], layout: .lanes)
        for _ in 0..<2 { batch.tick() }
        let lanes = batch.lanes
        #expect(!lanes.rows.fixed)
        // Rows: only pairs with a contact in some lane (one world here), the stores sized by rows.
        #expect(lanes.rows.count <= 8 * bodies && lanes.contacts.capacity <= 2 * max(lanes.rows.count, 2 * bodies + 8))
        #expect(lanes.rowStoreByteCount <= 8 * 1024 * lanes.lanes * bodies, "\(lanes.rowStoreByteCount) bytes")
        #expect(lanes.rowStoreByteCount < 200_000_000)
    }

    /// 10 000 items: the run's output is linear now (about 208 MB), and a batch of them is over
    /// its budget, so a run goes one world at a time: a few tens of MB per world beside the output.
    @Test func tenThousandItemsFitAsOneWorldAtATime() throws {
        let crowd = try scene(crowdScene(10000))
        let plan = MemoryPlan(scene: crowd)
        #expect(!plan.batchFits && plan.oneWorldBytes(outputs: true) < 250e6)
        #expect(plan.worldsThatFit(in: 1e9, batched: true) >= 1)
        #expect(plan.oneWorldBytes(outputs: false) < 100e6)
        var runner = WorldRunner(scene: crowd)
        runner.engine = .single
        let result = runner.run(world: 0)   // 2 ticks
        #expect(!result.failed && result.items.count == 10000)
    }
}

/// The package root, from this file's path.
private let packageRoot = Repository.root
