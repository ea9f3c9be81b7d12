import Testing
@testable import WorldSweep

/// The broad phase's memory (`BroadPhaseMemory`, used by `PhysicsWorld.findNewContacts`): a pass
/// after few boxes changed tests only those bodies against every body, and the pairs whose
/// contact parted since; a pass that forgets everything sorts and sweeps every box. Both must
/// make the same contacts in the same order, so the same bits. A pile whose columns land at
/// different times has passes with every box moving and passes with a few moving.
@Suite struct BroadPhaseMemoryTests {
    /// 3 rows of 15 boxes of 10 × 10 pt, each column starting 25 pt higher than the last (so the
    /// columns land, come to rest and fall asleep one after another), elasticity 0.2.
    func pile() -> (items: [View], animator: DynamicAnimator) {
        var items: [View] = []
        for row in 0..<3 {
            for column in 0..<15 {
                let y = 400 + 20 * Double(row) - 25 * Double(column)
                items.append(View(name: "b\(row)-\(column)", center: Point(20 + 20 * Double(column), y),
                                  size: Size(width: 10, height: 10)))
            }
        }
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let bouncy = DynamicItemBehavior(items: items)
        bouncy.elasticity = 0.2
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(collision)
        animator.addBehavior(bouncy)
        return (items, animator)
    }

    @Test func rememberingPassesMakeTheContactsOfPassesThatTestEveryPair() {
        let remembering = pile(), forgetting = pile()
        // One tick through the animators builds their worlds; from then on the worlds step alone.
        remembering.animator.tick()
        forgetting.animator.tick()
        let a = remembering.animator.world, b = forgetting.animator.world
        var stepsWithFewMoving = 0, stepsWithAllMoving = 0
        for step in 0..<1_200 {
            let moving = a.bodies.filter { $0.alive && $0.isDynamic && $0.awake }.count
            let resting = a.bodies.filter { $0.alive && $0.isDynamic && !$0.awake }.count
            if moving > 0 && moving <= BroadPhaseMemory.mostChanged { stepsWithFewMoving += 1 }
            if resting == 0 { stepsWithAllMoving += 1 }
            b.broadPhaseMemory.forget()
            a.step(EngineSettings.subStep)
            b.step(EngineSettings.subStep)
            let livePairs = { (w: PhysicsWorld) in w.pairs.indices.filter { w.contacts[$0] != nil }.map { w.pairs[$0] } }
            let serials = { (w: PhysicsWorld) in w.contacts.compactMap { $0?.serial } }
            #expect(livePairs(a) == livePairs(b), "step \(step)")
            #expect(serials(a) == serials(b), "step \(step)")
            let same = zip(a.bodies, b.bodies).allSatisfy {
                $0.sweep.c.x.bitPattern == $1.sweep.c.x.bitPattern && $0.sweep.c.y.bitPattern == $1.sweep.c.y.bitPattern
                    && $0.sweep.a.bitPattern == $1.sweep.a.bitPattern && $0.awake == $1.awake
            }
            #expect(same, "step \(step)")
            if !same { return }
        }
        // Both kinds of pass ran: every box moving (sort and sweep), a few moving (those alone).
        #expect(stepsWithAllMoving > 0)
        #expect(stepsWithFewMoving > 0)
    }
}
