import Foundation
import Testing
import TestScratch
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// Issue 28 item 3: the lane stores state their bytes before they are allocated, MemoryPlan sums
/// those figures, and an allocated batch reports exactly what they said.
@Suite struct LaneStoreBytesTests {
    private static func sweep(_ name: String) throws -> SceneFile {
        try SceneFile.load(path: Repository.root.appendingPathComponent("Sweeps/\(name).yaml").path)
    }

    /// LaneBodies by hand: 5 bodies × 8 lanes = 40 entries of 15 Float columns (cx … scratch),
    /// and 2 gravity columns of 8 lanes: 15 × 40 × 4 + 2 × 8 × 4 = 2 464 bytes.
    @Test func laneBodiesByHand() {
        #expect(LaneBodies.bytes(bodyCount: 5, lanes: 8) == 2464)
        #expect(LaneBodies(bodyCount: 5, lanes: 8).byteCount == 2464)
        // An empty batch still gets one entry per column (an address to index from).
        #expect(LaneBodies.bytes(bodyCount: 0, lanes: 8) == 15 * 4 + 2 * 8 * 4)
    }

    /// The scenes cover every store: small worlds whose pairs all have rows (twin-drop), joints
    /// (snap: four per snapped item; spring-hang), a field (radial-gravity), and a 90-item crowd
    /// whose rows come and go. MemoryPlan's sizes are the allocated batch's, and the bytes the
    /// batch's stores report are what the sizes' figures sum to.
    @Test(arguments: ["twin-drop", "snap", "spring-hang", "radial-gravity", "crowd"])
    func anAllocatedBatchReportsWhatMemoryPlanSums(_ name: String) throws {
        let file = name == "crowd" ? try scene(crowdScene(90)) : try Self.sweep(name)
        let plan = MemoryPlan(scene: file)
        let batch = try PlanBatch([file.worldPlan()], layout: .lanes)
        #expect(batch.lanes.lanes == BatchAnimator.laneWidth)
        #expect(plan.laneSizes == batch.lanes.storeSizes)
        #expect(batch.lanes.columnByteCount == plan.laneSizes.bytes, "\(name)")
        if name == "snap" || name == "spring-hang" { #expect(plan.laneSizes.jointCount > 0) }
        if name == "radial-gravity" { #expect(!plan.laneSizes.fieldMemberCounts.isEmpty) }
        if name == "twin-drop" { #expect(batch.lanes.rows.fixed) }
    }

    /// The estimate's row capacity: stores grown to `rowsPerBody` rows per body take exactly the
    /// bytes MemoryPlan counts for them.
    @Test func grownRowStoresMatchTheEstimate() throws {
        let file = try scene(crowdScene(90))
        let plan = MemoryPlan(scene: file)
        let batch = try PlanBatch([file.worldPlan()], layout: .lanes)
        let start = batch.lanes.columnByteCount
        batch.lanes.growRows(to: MemoryPlan.rowsPerBody * plan.laneSizes.bodyCount)
        #expect(batch.lanes.contacts.capacity == 8 * 94)   // 90 items and the 4 edges of the bounds
        #expect(Double(batch.lanes.columnByteCount) == plan.laneStoreBytes)
        #expect(batch.lanes.columnByteCount > start)
    }
}
