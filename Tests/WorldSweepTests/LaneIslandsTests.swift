import Testing
@testable import WorldSweep

/// The batch's islands stage keeps a lane's last walk while nothing the walk reads has changed,
/// and the solve stage its bundles' packing while no walk, renumbering or stop changed it.
/// Worlds that settle, fall asleep and are woken again (a pushed box sliding into a sleeping one),
/// run by each animator alone, by a BatchAnimator (pushes applied on the animators' worlds) and by
/// a PlanBatch (pushes applied on the lanes), must agree bit for bit after every tick.
@Suite struct LaneIslandsTests {
    /// Box `rest` dropped near the right wall settles and sleeps; box `slider`, frictionless,
    /// is pushed along the floor from the left (harder for larger `k`) until it hits `rest`.
    func world(_ k: Int) -> (rest: View, slider: View, animator: DynamicAnimator) {
        let rest = View(name: "rest", center: Point(260, 530 - 2 * Double(k)), size: Size(width: 40, height: 40))
        let slider = View(name: "slider", center: Point(40, 548), size: Size(width: 20, height: 20))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let walls = CollisionBehavior(items: [rest, slider])
        walls.translatesReferenceBoundsIntoBoundary = true
        let slippery = DynamicItemBehavior(items: [slider])
        slippery.friction = 0
        slippery.elasticity = 0
        let dull = DynamicItemBehavior(items: [rest])
        dull.elasticity = 0
        let shove = PushBehavior(items: [slider], mode: .continuous)
        shove.setAngle(0, magnitude: 0.008 + 0.002 * Double(k))
        for b in [GravityBehavior(items: [rest, slider]), walls, slippery, dull, shove] as [DynamicBehavior] { animator.addBehavior(b) }
        return (rest, slider, animator)
    }

    @Test func sleepingAndWokenWorldsAgreeWorldByWorld() throws {
        let count = 11
        let alone = (0..<count).map(world), viaAnimators = (0..<count).map(world), viaPlans = (0..<count).map(world)
        let animatorBatch = try BatchAnimator(viaAnimators.map(\.animator))
        for w in viaPlans { _ = w.animator.preparedWorld() }
        let plans = viaPlans.map { $0.animator.plan! }
        let planBatch = try PlanBatch(plans, layout: .lanes)
        let restBody = viaPlans[0].animator.bodyIndex(of: viaPlans[0].rest)!, sliderBody = viaPlans[0].animator.bodyIndex(of: viaPlans[0].slider)!
        var slept = Set<Int>(), wokenAfterSleep = Set<Int>()
        for tick in 1...300 {
            for w in alone { w.animator.tick() }
            animatorBatch.tick()
            planBatch.tick()
            for k in 0..<count {
                let rest = alone[k].animator.itemState(for: alone[k].rest)!, slider = alone[k].animator.itemState(for: alone[k].slider)!
                #expect(viaAnimators[k].animator.itemState(for: viaAnimators[k].rest) == rest, "world \(k) tick \(tick): rest (animators)")
                #expect(viaAnimators[k].animator.itemState(for: viaAnimators[k].slider) == slider, "world \(k) tick \(tick): slider (animators)")
                #expect(planBatch.itemState(k, body: restBody) == rest, "world \(k) tick \(tick): rest (plans)")
                #expect(planBatch.itemState(k, body: sliderBody) == slider, "world \(k) tick \(tick): slider (plans)")
                if rest.isAsleep { slept.insert(k) } else if slept.contains(k) { wokenAfterSleep.insert(k) }
                // The sweep runner's rule: a world whose bodies all sleep stops (its animator pauses).
                if planBatch.isRunning(k) && planBatch.isAsleep(k) { planBatch.stop(k) }
            }
        }
        // What the scene is for: the resting box fell asleep and the slider woke it, in most worlds.
        #expect(slept.count == count, "worlds whose resting box never slept: \(Set(0..<count).subtracting(slept).sorted())")
        #expect(wokenAfterSleep.count >= count / 2, "woken after sleeping: \(wokenAfterSleep.sorted())")
        // Both batches kept walks (sub-steps with nothing new) and walked again (touches, sleep, wakes),
        // and so kept their bundles' packing in some sub-steps and packed again in others (walks,
        // renumbered islands, worlds stopped).
        for lanes in [animatorBatch.lanes, planBatch.lanes] {
            #expect(lanes.islandReuses > lanes.islandWalks && lanes.islandWalks > 0,
                    "\(lanes.islandWalks) walks, \(lanes.islandReuses) reused")
            #expect(lanes.bundleReuses > 0 && lanes.bundlePackings > 0,
                    "\(lanes.bundlePackings) packings, \(lanes.bundleReuses) reused")
        }
    }
}
