import Testing
@testable import WorldSweep

/// BatchAnimator at the API level: events, pauses and structure checks as each animator alone.
@Suite struct BatchAnimatorTests {
    /// A box dropped from `height` pt above the bottom of the bounds, with `elasticity`.
    func drop(height: Double, elasticity: Double) -> (View, DynamicAnimator, EventLog) {
        let view = View(name: "box", center: Point(160, 568 - 25 - height), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = EventLog()
        collision.collisionDelegate = log
        animator.delegate = log
        let props = DynamicItemBehavior(items: [view])
        props.elasticity = elasticity
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        animator.addBehavior(props)
        return (view, animator, log)
    }

    @Test func eventsStatesAndPausesMatchEachAnimatorAlone() throws {
        // Nine worlds (two lane groups, one lane of padding short of two full groups).
        let settings = (0..<9).map { (height: 100 + 40 * Double($0), elasticity: 0.1 * Double($0)) }
        let alone = settings.map { drop(height: $0.height, elasticity: $0.elasticity) }
        let batched = settings.map { drop(height: $0.height, elasticity: $0.elasticity) }
        let batch = try BatchAnimator(batched.map(\.1))
        for tick in 1...240 {
            for (_, animator, log) in alone { log.tick = tick; animator.tick() }
            for (_, _, log) in batched { log.tick = tick }
            batch.tick()
        }
        for (a, b) in zip(alone, batched) {
            #expect(a.0.center == b.0.center && a.0.angle == b.0.angle)
            #expect(a.2.entries.map { "\($0)" } == b.2.entries.map { "\($0)" })
            #expect(!a.2.entries.isEmpty)
            #expect(a.1.isRunning == b.1.isRunning)
        }
        // Low elasticities settle and pause within the 4 s; the batch let them go.
        #expect(!batched[0].1.isRunning && !batch.isRunning(0))
        #expect(batched[0].2.kinds(.paused).count == 1)
    }

    /// An ellipse pushed off-centre (so it spins) into the walls: `height` = width gives a circle
    /// (one vertex), anything else an eight-vertex polygon.
    func spinningEllipse(height: Double) -> (View, DynamicAnimator, EventLog) {
        let view = View(name: "e", center: Point(100, 300), size: Size(width: 40, height: height), collisionBoundsType: .ellipse)
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = EventLog()
        collision.collisionDelegate = log
        let push = PushBehavior(items: [view], mode: .continuous)
        push.setAngle(-0.3, magnitude: 0.4)
        push.setTargetOffsetFromCenter(Offset(horizontal: 0, vertical: 12), for: view)
        let props = DynamicItemBehavior(items: [view])
        props.elasticity = 0.6
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        animator.addBehavior(push)
        animator.addBehavior(props)
        return (view, animator, log)
    }

    @Test func shapesThatDifferBetweenLanesGiveEachWorldItsOwnBoxes() throws {
        // Lanes 0–7 share one polygon vertex count (boxes eight at a time); lanes 8–15 mix
        // circles and polygons (boxes lane by lane). Both must be each world alone, bit for bit.
        let uniform: [Double] = (0..<8).map { 50 + 2 * Double($0) }   // never 40: no circles
        let mixed: [Double] = (0..<8).map { k -> Double in k % 3 == 0 ? 40 : 26 + 3 * Double(k) }
        let heights = uniform + mixed
        let alone = heights.map(spinningEllipse)
        let batched = heights.map(spinningEllipse)
        let batch = try BatchAnimator(batched.map(\.1))
        var boxesCompared = 0
        for tick in 1...300 {
            for (_, animator, log) in alone { log.tick = tick; animator.tick() }
            for (_, _, log) in batched { log.tick = tick }
            batch.tick()
            // The broad-phase boxes themselves (a slightly wrong box rarely changes the motion:
            // the margin hides it), body by body, as each world alone computed them. A tick whose
            // lane ran a time-of-impact pass recomputed them in the lane's own world instead.
            for (lane, (_, animator, _)) in alone.enumerated() where batch.isRunning(lane) {
                let passBoxes = batch.lanes.worlds[lane].boxes
                for (b, expected) in animator.world.boxes.enumerated() {
                    func same(_ box: AABB) -> Bool { box.lower == expected.lower && box.upper == expected.upper }
                    let got = batch.lanes.sweptBox(b * batch.lanes.lanes + lane)
                    if same(got) { boxesCompared += 1; continue }
                    #expect(b < passBoxes.count && same(passBoxes[b]), "tick \(tick), lane \(lane), body \(b)")
                }
            }
        }
        #expect(boxesCompared > 16 * 200)
        for (a, b) in zip(alone, batched) {
            #expect(a.0.center == b.0.center && a.0.angle == b.0.angle)
            #expect(a.2.entries.map { "\($0)" } == b.2.entries.map { "\($0)" })
            #expect(a.2.entries.count >= 4, "each world hits the walls")
            #expect(abs(a.0.angle) > 0.1, "each item spins")
        }
    }

    @Test func worldsOfDifferentStructureCannotShareABatch() {
        let (_, one, _) = drop(height: 100, elasticity: 0.5)
        let two = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let a = View(name: "a", center: Point(100, 100), size: Size(width: 40, height: 40))
        let b = View(name: "b", center: Point(200, 100), size: Size(width: 40, height: 40))
        two.addBehavior(GravityBehavior(items: [a, b]))
        #expect(throws: BatchStructureError.self) { try BatchAnimator([one, two]) }
    }
}
