import Testing
@testable import WorldSweep

/// The batch's time-of-impact stage: a lane is handed to its own world only when the first round
/// of solveTOI's search, run on the lane's columns, would resolve an impact. Fast boxes thrown at
/// a thin ledge must still be stopped by it (they cross its line within one sub-step, so only time
/// of impact can catch them), boxes thrown just past its end must fall by, and every world must
/// come out bit for bit as its animator alone.
@Suite struct LaneTimeOfImpactTests {
    static let ledgeY = 300.0, ledgeEnd = 150.0

    /// A 10 pt box at `x` thrown down at `speed` pt/s from 200 pt above the ledge's line (a
    /// segment from x = 10 to 150: no thickness), with gravity.
    func thrown(speed: Double, x: Double) -> (View, DynamicAnimator) {
        let view = View(name: "box", center: Point(x, Self.ledgeY - 200), size: Size(width: 10, height: 10))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.addBoundary(withIdentifier: "ledge", from: Point(10, Self.ledgeY), to: Point(Self.ledgeEnd, Self.ledgeY))
        let props = DynamicItemBehavior(items: [view])
        props.addLinearVelocity(Vector(dx: 0, dy: speed), for: view)
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        animator.addBehavior(props)
        return (view, animator)
    }

    @Test func fastBoxesAreStoppedByAThinLedgeAsEachAnimatorAlone() throws {
        // Eleven worlds (a padded lane group). Worlds 0-5 hit the ledge, from a plain drop (about
        // 630 pt/s there, 5 pt a sub-step) to 9 000 pt/s (75 pt a sub-step: seven box heights).
        // Worlds 6-10 pass its end 2 to 10 pt clear, at 3 000 pt/s: their boxes overlap the
        // ledge's (grown) box, so there is a contact whose search finds no impact.
        var settings: [(speed: Double, x: Double)] = []
        for k in 0..<6 { settings.append((speed: 1800 * Double(k), x: 30 + 20 * Double(k))) }
        for k in 0..<5 { settings.append((speed: 3000, x: Self.ledgeEnd + 7 + 2 * Double(k))) }
        let alone: [(View, DynamicAnimator)] = settings.map { thrown(speed: $0.speed, x: $0.x) }
        let batched: [(View, DynamicAnimator)] = settings.map { thrown(speed: $0.speed, x: $0.x) }
        let batch = try BatchAnimator(batched.map { $0.1 })
        var lowest = Array(repeating: -Double.infinity, count: settings.count)
        var bounced = Array(repeating: false, count: settings.count)
        for tick in 1...60 {
            for (_, animator) in alone { animator.tick() }
            batch.tick()
            for (k, (a, b)) in zip(alone, batched).enumerated() {
                #expect(a.0.center == b.0.center && a.0.angle == b.0.angle, "world \(k) tick \(tick): \(b.0.center) vs \(a.0.center)")
                lowest[k] = max(lowest[k], b.0.center.y)
                if b.1.itemState(for: b.0)!.velocity.dy < 0 { bounced[k] = true }
            }
        }
        for k in 0..<6 {
            // Thrown down, sent back up (boundaries' restitution is 0.2: impacts over 100 pt/s
            // bounce), never across the line (the box's bottom edge is 5 pt below its centre).
            #expect(bounced[k] && lowest[k] < Self.ledgeY - 5, "world \(k): bounced \(bounced[k]), lowest centre \(lowest[k])")
        }
        for k in 6..<11 {
            #expect(batched[k].0.center.y > Self.ledgeY + 100, "world \(k): \(batched[k].0.center.y), not past the ledge")
        }
        // Impacts were resolved by hand-overs; the searches past the end found none and stayed.
        let lanes = batch.lanes
        #expect(lanes.timeOfImpactHandOvers > 0)
        #expect(lanes.timeOfImpactSearches > lanes.timeOfImpactHandOvers,
                "\(lanes.timeOfImpactSearches) first-round searches, \(lanes.timeOfImpactHandOvers) hand-overs")
    }
}
