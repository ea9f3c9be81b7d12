import Testing
@testable import WorldSweep

/// Contacts against the semantics: 1 pt skins, slop 0.5 pt, max/sqrt mixing, the 100 pt/s
/// restitution threshold, began/ended once per touch episode, momentum.
@Suite struct ContactTests {
    /// A box dropped in a 320×568 world with bounds as boundary (bottom edge at 569).
    struct Drop {
        let view: View
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision: CollisionBehavior
        let props: DynamicItemBehavior
        let log = EventLog()

        init(size: Double = 50, centerY: Double, elasticity: Double? = nil, friction: Double? = nil,
             lockRotation: Bool = true, insets: EdgeInsets? = nil) {
            view = View(name: "box", center: Point(160, centerY), size: Size(width: size, height: size))
            collision = CollisionBehavior(items: [view])
            if let insets { collision.setTranslatesReferenceBoundsIntoBoundary(with: insets) }
            else { collision.translatesReferenceBoundsIntoBoundary = true }
            collision.collisionDelegate = log
            props = undampedItemBehavior([view])
            if let elasticity { props.elasticity = elasticity }
            if let friction { props.friction = friction }
            props.allowsRotation = !lockRotation
            animator.addBehavior(GravityBehavior(items: [view]))
            animator.addBehavior(collision)
            animator.addBehavior(props)
            animator.delegate = log
        }

        /// Rest position of the box's centre when its core rests `gap` pt above the edge. The
        /// bottom edge of the bounds sits 1 pt below them. Contacts begin when the 1 pt skins touch
        /// (core gap 2 pt); the velocity solver then stops the approach, and position correction
        /// pushes back only overlaps deeper than the 0.5 pt slop: a resting core gap is 1.5 ... 2 pt.
        func restY(bottomEdge: Double = 569, gap: Double = 1.5) -> Double { bottomEdge - gap - view.size.height / 2 }

        /// True when the box rests within the skin band above the edge.
        func isResting(bottomEdge: Double = 569) -> Bool {
            let y = view.center.y
            return y <= restY(bottomEdge: bottomEdge, gap: 1.5) + 0.01 && y >= restY(bottomEdge: bottomEdge, gap: 2) - 0.01
        }

        /// Lowest y (highest point on screen) reached between successive contacts.
        func apexes(ticks: Int) -> [Double] {
            var result: [Double] = []
            var current: Double? = nil
            var lastBegan = 0
            run(animator, ticks: ticks, log: log) { _ in
                let began = log.kinds(.began).count
                if began != lastBegan {   // a new touch: close the flight before it
                    if let c = current { result.append(c) }
                    current = nil
                    lastBegan = began
                }
                let ended = log.kinds(.ended).count
                if ended == began && ended > 0 {   // airborne after a bounce
                    current = min(current ?? .infinity, view.center.y)
                }
            }
            return result
        }
    }

    @Test func boxStopsWhereItsSkinFirstTouches() {
        // Released at rest with a core gap of 2.5 pt: after k sub-steps the gap is
        // 2.5 − g h² k(k+1)/2 = 2.431, 2.292, 2.083, 1.806 pt. The contact is found at the start of
        // the fifth sub-step (gap ≤ 2 pt, skins touching); the solver cancels the approach and,
        // being within the slop, nothing pushes it back: it rests at 1.806 pt.
        let d = Drop(centerY: 569 - 2.5 - 25, elasticity: 0)
        run(d.animator, ticks: 120)
        let drop = 1000 * h * h * Double(4 * 5 / 2)   // fall in points over 4 sub-steps
        #expect(abs(d.view.center.y - d.restY(gap: 2.5 - drop)) < 1e-3, "y \(d.view.center.y)")
        #expect(abs((2.5 - drop) - 1.8056) < 1e-3)
    }

    @Test func boxLandingFromHeightRestsWithinTheSkin() {
        let d = Drop(centerY: 400, elasticity: 0)
        run(d.animator, ticks: 300)
        #expect(d.isResting(), "rest y \(d.view.center.y)")
    }

    @Test(arguments: [0.5, 0.7, 0.9])
    func bounceApexRatioIsElasticitySquared(e: Double) {
        // With rotation locked and no damping, each rise is e² of the one before (e² = rebound
        // speed ratio squared). Discrete steps and the skin blur this by a few per cent.
        let d = Drop(centerY: 100, elasticity: e)
        let rest = d.restY()
        let heights = d.apexes(ticks: 400).map { rest - $0 }.filter { $0 > 20 }
        #expect(heights.count >= 2)
        for k in 1..<heights.count {
            let ratio = heights[k] / heights[k - 1]
            #expect(abs(ratio - e * e) < 0.04, "rise \(k): \(heights[k]) / \(heights[k - 1]) = \(ratio), e² = \(e * e)")
        }
        // The first rise: impact speed v = √(2 g H), rebound e·v, rise e²·H.
        let fall = rest - 100
        #expect(abs(heights[0] / fall - e * e) < 0.04)
    }

    @Test(arguments: [0, 0.1])
    func restitutionIsTheLargerOfTheTwo(e: Double) {
        // Elasticity below the boundary's: the contact uses the boundary's b (mixedRestitution),
        // so the box still rises to b² of its fall height, whatever its own.
        let b = EngineSettings.boundaryElasticity
        #expect(e < b)
        let d = Drop(centerY: 100, elasticity: e)
        let rest = d.restY()
        let heights = d.apexes(ticks: 200).map { rest - $0 }
        #expect(!heights.isEmpty)
        #expect(abs(heights[0] / (rest - 100) - b * b) < 0.01, "first rise \(heights.first ?? -1)")
    }

    @Test func slowImpactsDoNotBounce() {
        // Dropped 10 pt above rest: impact at √(2·1000·10) ≈ 141 pt/s... too fast; 4 pt: ≈ 89 pt/s,
        // under the 100 pt/s threshold, so even elasticity 1 gives no bounce: one began, no ended.
        let slow = Drop(centerY: 569 - 1.5 - 25 - 4, elasticity: 1)
        run(slow.animator, ticks: 120, log: slow.log)
        #expect(slow.log.kinds(.began).count == 1)
        #expect(slow.log.kinds(.ended).isEmpty)
        #expect(slow.isResting())
        // From 10 pt (≈ 141 pt/s) the same box bounces.
        let fast = Drop(centerY: 569 - 1.5 - 25 - 10, elasticity: 1)
        run(fast.animator, ticks: 60, log: fast.log)
        #expect(fast.log.kinds(.ended).count >= 1)
    }

    @Test func landingAndRestingGivesOneBeganAndNoEnded() {
        // Released 2.5 pt above the edge: it lands too slowly to bounce, whatever the elasticity.
        let d = Drop(centerY: 569 - 2.5 - 25, elasticity: 0.9)
        run(d.animator, ticks: 240, log: d.log)
        let began = d.log.kinds(.began)
        #expect(began.count == 1)
        #expect(began.first?.other == "bounds")
        #expect(d.log.kinds(.ended).isEmpty)
        // The contact point lies on the bottom edge, between the two surfaces.
        if let p = began.first?.point { #expect(abs(p.y - (569 - 0.75)) < 1) }
    }

    @Test func bounceGivesBeganThenEnded() {
        let d = Drop(centerY: 100, elasticity: 0.8)
        run(d.animator, ticks: 60, log: d.log)
        let events = d.log.entries.filter { $0.kind == .began || $0.kind == .ended }
        #expect(events.count >= 2)
        #expect(events[0].kind == .began && events[1].kind == .ended)
        // Alternating: a began always precedes its ended.
        for (k, e) in events.enumerated() { #expect(e.kind == (k % 2 == 0 ? .began : .ended)) }
    }

    @Test func frictionIsTheGeometricMean() {
        // A box sliding on the floor decelerates at μ g with μ = √(f_item · f_boundary) (mixedFriction).
        let f = 0.8
        let d = Drop(centerY: 569 - 1.5 - 25, elasticity: 0, friction: f)
        run(d.animator, ticks: 30)   // settle on the floor
        d.props.addLinearVelocity(Vector(dx: 300, dy: 0), for: d.view)
        let v0 = d.animator.itemState(for: d.view)!.velocity.dx
        run(d.animator, ticks: 20)
        let v1 = d.animator.itemState(for: d.view)!.velocity.dx
        let mu = (f * EngineSettings.boundaryFriction).squareRoot()
        let expected = v0 - mu * 1000 * h * 40   // 40 sub-steps in 20 ticks after the first
        #expect(abs(v1 - expected) < 2, "v1 \(v1), expected \(expected)")
    }

    @Test func insetsMoveTheBoundsBoundary() {
        let d = Drop(centerY: 300, elasticity: 0, insets: EdgeInsets(top: 0, left: 0, bottom: 100, right: 0))
        run(d.animator, ticks: 240)
        #expect(d.isResting(bottomEdge: 568 - 100 + 1), "y \(d.view.center.y)")
    }

    @Test func segmentBoundaryHoldsItemsAtItsHeight() {
        let view = View(name: "box", center: Point(160, 300), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.addBoundary(withIdentifier: "ledge", from: Point(0, 468), to: Point(320, 468))
        let log = EventLog()
        collision.collisionDelegate = log
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        run(animator, ticks: 240, log: log)
        // No 1 pt shift for explicit boundaries: the core rests 1.5 ... 2 pt above 468.
        #expect(view.center.y <= 468 - 1.5 - 25 + 0.01 && view.center.y >= 468 - 2 - 25 - 0.01, "y \(view.center.y)")
        #expect(log.kinds(.began).first?.other == "ledge")
    }

    @Test func pathBoundaryIsClosed() {
        // An open V-shaped path is closed by its last segment: the box lands on that closing edge.
        let view = View(name: "box", center: Point(160, 100), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.addBoundary(withIdentifier: "cup", for: [Point(0, 500), Point(160, 300), Point(320, 500)])
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        animator.addBehavior(undampedItemBehavior([view]))
        run(animator, ticks: 30)   // y: 100 → 100 + 1000 h² (59·60/2) ≈ 225, above the apex at 300
        #expect(view.center.y < 300 - 20 - 1)
        let contacts = EventLog()
        collision.collisionDelegate = contacts
        run(animator, ticks: 60, log: contacts)
        #expect(contacts.kinds(.began).first?.other == "cup")
        #expect(view.center.y < 300)   // held on the V's apex, not fallen through
    }

    @Test func itemCollisionConservesMomentum() {
        // No gravity, no damping: two boxes of different mass meet head on.
        let a = View(name: "a", center: Point(60, 200), size: Size(width: 40, height: 40))
        let b = View(name: "b", center: Point(260, 200), size: Size(width: 60, height: 60))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [a, b])
        collision.collisionMode = .items
        let log = EventLog()
        collision.collisionDelegate = log
        let props = undampedItemBehavior([a, b])
        props.elasticity = 0.5
        props.friction = 0
        props.addLinearVelocity(Vector(dx: 300, dy: 0), for: a)
        props.addLinearVelocity(Vector(dx: -100, dy: 0), for: b)
        animator.addBehavior(collision)
        animator.addBehavior(props)
        let ma = 0.16, mb = 0.36
        let p0 = ma * 300 + mb * -100
        run(animator, ticks: 60, log: log)
        let va = animator.itemState(for: a)!.velocity, vb = animator.itemState(for: b)!.velocity
        #expect(log.kinds(.began).first.map { ($0.item, $0.other) } ?? ("", "") == ("a", "b"))
        #expect(abs(ma * va.dx + mb * vb.dx - p0) < 1e-3)
        #expect(abs(ma * va.dy + mb * vb.dy) < 1e-3)
        // Restitution 0.5: the separation speed is half the approach speed (400 pt/s).
        #expect(abs((vb.dx - va.dx) - 0.5 * 400) < 2)
    }

    @Test func collisionModesAndGroupsFilterContacts() {
        let a = View(name: "a", center: Point(100, 200), size: Size(width: 40, height: 40))
        let b = View(name: "b", center: Point(100, 300), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        // a and b are in different collision behaviors: they pass through each other.
        let ca = CollisionBehavior(items: [a]), cb = CollisionBehavior(items: [b])
        ca.collisionMode = .boundaries
        ca.translatesReferenceBoundsIntoBoundary = true
        cb.collisionMode = .items   // b ignores boundaries: falls out of the world
        cb.translatesReferenceBoundsIntoBoundary = true
        let props = undampedItemBehavior([a, b])
        props.addLinearVelocity(Vector(dx: 0, dy: 400), for: a)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        animator.addBehavior(ca)
        animator.addBehavior(cb)
        animator.addBehavior(props)
        run(animator, ticks: 120)
        #expect(a.center.y <= 569 - 1.5 - 20 + 0.01 && a.center.y >= 569 - 2 - 20 - 0.01)
        #expect(b.center.y > 700)
    }

    @Test func removingABoundaryLetsItemsFall() {
        let d = Drop(centerY: 300, elasticity: 0)
        d.collision.addBoundary(withIdentifier: "shelf", from: Point(0, 400), to: Point(320, 400))
        run(d.animator, ticks: 120)
        #expect(d.isResting(bottomEdge: 400))
        d.collision.removeBoundary(withIdentifier: "shelf")
        run(d.animator, ticks: 120, log: d.log)
        #expect(d.isResting())
        // The contact with the removed shelf ends, and is reported as such.
        #expect(d.log.kinds(.ended).first?.other == "shelf")
    }

    @Test func circlesRestOnTheirRadiusPlusSkin() {
        // A circle has no skin of its own; the edge's 1 pt skin remains: it rests 0.5 ... 1 pt
        // above the edge.
        let view = View(name: "ball", center: Point(160, 400), size: Size(width: 40, height: 40),
                        collisionBoundsType: .ellipse)
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        run(animator, ticks: 300)
        #expect(view.center.y <= 569 - 0.5 - 20 + 0.01 && view.center.y >= 569 - 1 - 20 - 0.01, "y \(view.center.y)")
    }
}

@Suite struct ContactEndingTests {
    @Test func removingAnItemFromTheCollisionBehaviorEndsItsContacts() {
        let lower = View(name: "lower", center: Point(160, 569 - 2.5 - 20), size: Size(width: 40, height: 40))
        let upper = View(name: "upper", center: Point(160, 569 - 2.5 - 40 - 2.5 - 20), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [lower, upper])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = EventLog()
        collision.collisionDelegate = log
        animator.addBehavior(GravityBehavior(items: [lower, upper]))
        animator.addBehavior(collision)
        run(animator, ticks: 30, log: log)
        #expect(log.kinds(.began).map(\.other).sorted() == ["bounds", "upper"])
        collision.removeItem(upper)
        run(animator, ticks: 30, log: log)
        let ended = log.kinds(.ended)
        #expect(ended.count == 1 && ended.first?.item == "lower" && ended.first?.other == "upper")
        #expect(upper.center.y > lower.center.y)   // it falls through now
    }
}
