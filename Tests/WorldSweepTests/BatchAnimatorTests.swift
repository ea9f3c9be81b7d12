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

    @Test func worldsOfDifferentStructureCannotShareABatch() {
        let (_, one, _) = drop(height: 100, elasticity: 0.5)
        let two = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let a = View(name: "a", center: Point(100, 100), size: Size(width: 40, height: 40))
        let b = View(name: "b", center: Point(200, 100), size: Size(width: 40, height: 40))
        two.addBehavior(GravityBehavior(items: [a, b]))
        #expect(throws: BatchStructureError.self) { try BatchAnimator([one, two]) }
    }
}
