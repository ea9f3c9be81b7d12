import Testing
@testable import WorldSweep

/// A bundle whose eight lanes are eight consecutive entries of a column (neighbouring worlds
/// solving the same row in the same round) reads and writes them as one vector; every other
/// bundle goes lane by lane. Both must give each world what it gets alone, bit for bit.
@Suite struct BundleRunsTests {
    @Test func aRunIsEightIndicesCountingUpByOne() {
        func consecutive(_ list: [Int32]) -> Bool {
            var list = list
            return list.withUnsafeMutableBufferPointer { BundleRuns.consecutive($0.baseAddress!) }
        }
        #expect(consecutive([40, 41, 42, 43, 44, 45, 46, 47]))
        #expect(consecutive([0, 1, 2, 3, 4, 5, 6, 7]))
        #expect(!consecutive([40, 41, 42, 43, 44, 45, 46, 48]))   // the last one off
        #expect(!consecutive([41, 41, 42, 43, 44, 45, 46, 47]))   // the first one off
        #expect(!consecutive([40, 40, 40, 40, 40, 40, 40, 40]))   // a part bundle's repeated lane 0
        #expect(!consecutive([47, 46, 45, 44, 43, 42, 41, 40]))   // counting down
    }

    /// Two 10 pt boxes dropped from `height` pt above the floor, bouncing (elasticity 0.5) until
    /// they rest: two contacts with the floor, each box its own island.
    func world(height: Double) -> (boxes: [View], animator: DynamicAnimator) {
        let boxes = [View(name: "a", center: Point(60, 560 - height), size: Size(width: 10, height: 10)),
                     View(name: "b", center: Point(80, 560 - height), size: Size(width: 10, height: 10))]
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let walls = CollisionBehavior(items: boxes)
        walls.translatesReferenceBoundsIntoBoundary = true
        let bouncy = DynamicItemBehavior(items: boxes)
        bouncy.elasticity = 0.5
        for b in [GravityBehavior(items: boxes), walls, bouncy] as [DynamicBehavior] { animator.addBehavior(b) }
        return (boxes, animator)
    }

    @Test func worldsSideBySideAgreeWithEachWorldAlone() throws {
        // Lanes 0-7 drop from one height, so their bundles are runs; lanes 8-15 from eight
        // heights, so their contacts begin, bounce and rest at different sub-steps and their
        // bundles mix rows and lanes.
        let heights = Array(repeating: 300.0, count: 8) + (0..<8).map { 100 + 37 * Double($0) }
        let alone = heights.map(world), batched = heights.map(world)
        let batch = try BatchAnimator(batched.map(\.animator))
        for tick in 1...240 {
            for w in alone { w.animator.tick() }
            batch.tick()
            for k in heights.indices {
                for (a, b) in zip(alone[k].boxes, batched[k].boxes) {
                    #expect(batched[k].animator.itemState(for: b) == alone[k].animator.itemState(for: a), "world \(k) tick \(tick): \(b.name)")
                }
            }
        }
        // Both kinds of bundle were solved.
        let bundles = batch.lanes.bundles
        #expect(bundles.runBundlesSetUp > 0 && bundles.runBundlesSetUp < bundles.bundlesSetUp,
                "\(bundles.runBundlesSetUp) of \(bundles.bundlesSetUp) bundles set up as runs")
    }
}
