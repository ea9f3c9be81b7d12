import Foundation
import Testing
@testable import WorldSweepRun
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

/// Issue 17 item 7: memory is estimated before anything is allocated.
@Suite struct MemoryPlanTests {
    @Test func pairsAreCountedFromTheFile() throws {
        // 2 000 items colliding with each other (n(n − 1)/2) and with the 4 edges of the bounds.
        let plan = MemoryPlan(scene: try scene(crowdScene(2000)))
        #expect(plan.pairs == 2000 * 1999 / 2 + 2000 * 4)
        // One box and the 4 edges of the bounds.
        let twin = MemoryPlan(scene: try scene(dropScene(elasticity: 0.5)))
        #expect(twin.pairs == 4)
    }

    @Test func bigWorldsLeaveTheBatchAndSmallOnesStay() throws {
        #expect(!MemoryPlan(scene: try scene(crowdScene(2000))).batchFits)
        #expect(MemoryPlan(scene: try scene(crowdScene(50))).batchFits)
        for name in ["twin-drop", "ledge-squares", "push-offset", "spinner", "million-drops"] {
            let file = packageRoot.appendingPathComponent("Sweeps/\(name).yaml").path
            #expect(MemoryPlan(scene: try SceneFile.load(path: file)).batchFits, "\(name)")
        }
    }

    @Test func worldsThatFitFollowTheEstimate() throws {
        let plan = MemoryPlan(scene: try scene(crowdScene(2000)))
        // 32 MiB + 2 007 000 × 370 bytes ≈ 776 MB a world.
        #expect(abs(plan.singleWorldBytes - (32 * 1024 * 1024 + 2_007_000 * 370)) < 1)
        #expect(plan.worldsThatFit(in: 0.5e9, batched: true) == 0)
        #expect(plan.worldsThatFit(in: 4e9, batched: true) == 5)
        #expect(plan.worldsThatFit(in: 4e9, batched: false) == 5)
    }
}

/// The package root, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
