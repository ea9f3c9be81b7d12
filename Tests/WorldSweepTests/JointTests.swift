import Foundation
import Testing
@testable import WorldSweep

/// Attachments and snap against numbers derived by hand: a rod pendulum's period, a spring's
/// frequency and damping ratio, the snap's restoring, limits, the collide-connected rule.
@Suite struct JointTests {
    /// An animator with one undamped item of `size` at `center`, plus `behaviors`.
    func world(_ center: Point, size: Double = 20, angle: Double = 0, gravity: Bool,
               _ behaviors: (View) -> [DynamicBehavior]) -> (View, DynamicAnimator) {
        let view = View(name: "bob", center: center, size: Size(width: size, height: size), angle: angle)
        let animator = DynamicAnimator(referenceBounds: Size(width: 2000, height: 2000))
        if gravity { animator.addBehavior(GravityBehavior(items: [view])) }
        animator.addBehavior(undampedItemBehavior([view]))
        for b in behaviors(view) { animator.addBehavior(b) }
        return (view, animator)
    }

    /// Times (s) at which `x` crosses zero going up, by linear interpolation between ticks; the
    /// state after tick n is at (2n − 1)·h.
    func upwardCrossings(_ x: [Double]) -> [Double] {
        var times: [Double] = []
        for n in 1..<x.count where x[n - 1] < 0 && x[n] >= 0 {
            let t0 = Double(subSteps(afterTicks: n)) * h, t1 = Double(subSteps(afterTicks: n + 1)) * h
            times.append(t0 + (t1 - t0) * (-x[n - 1]) / (x[n] - x[n - 1]))
        }
        return times
    }

    @Test func rigidRodPendulumHasTheSmallAnglePeriod() {
        // L = 200 pt = 2 m, g = 1000 pt/s² = 10 m/s²: T = 2π√(L/g) = 2π√0.2 = 2.8099 s. Started
        // 0.05 rad out (the amplitude's correction, 1 + θ²/16, is 1.0002).
        let anchor = Point(1000, 500), length = 200.0, theta = 0.05
        let (bob, animator) = world(Point(anchor.x + length * sin(theta), anchor.y + length * cos(theta)), gravity: true) {
            [AttachmentBehavior(item: $0, attachedToAnchor: anchor)]
        }
        var x: [Double] = []
        run(animator, ticks: 60 * 12) { _ in x.append(bob.center.x - anchor.x) }
        let crossings = upwardCrossings(x)
        #expect(crossings.count >= 3)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        let expected = 2 * Double.pi * (2.0 / 10.0).squareRoot()
        #expect(abs(period - expected) / expected < 0.01, "period \(period) s, expected \(expected) s")
        // The rod holds its length.
        let r = hypot(bob.center.x - anchor.x, bob.center.y - anchor.y)
        #expect(abs(r - length) < 0.5, "length \(r)")
    }

    @Test func springFrequencyAndDampingRatioComeBackFromTheTrace() {
        // 1 Hz, ζ = 0.1, no gravity: the item (20 pt square, anchor on its line of motion) moves
        // along x only, its spring is the joint alone. Box2D's soft constraint converges in one
        // iteration for one body on a line, so each sub-step is, by hand from the formulas
        // (m the item's mass, C = x − L):
        //   a = 1/(1 + mγ) with mγ = 1/(h(2ζω + hω²)),  b = ω²/(2ζω + hω²)
        //   v' = v − a(v + b·C),  C' = C + h·v'
        // a linear map with det 1 − a and trace 2 − a − h·a·b: eigenvalues r·e^{±iθ}, r = √(1 − a),
        // cos θ = trace / 2r. Its frequency √(σ² + θ²/h²)/2π (σ = −ln r / h) is 0.997 Hz, and its
        // damping ratio σh/√(σ²h² + θ²) is 0.126: implicit Euler adds about ωh/2 to ζ.
        let f = 1.0, zeta = 0.1, omega = 2 * Double.pi * f
        let a = 1 / (1 + 1 / (h * (2 * zeta * omega + h * omega * omega)))
        let b = omega * omega / (2 * zeta * omega + h * omega * omega)
        let r = (1 - a).squareRoot(), theta = acos((2 - a - h * a * b) / (2 * r))
        let sigmaH = -log(r)
        let expectedFrequency = (sigmaH * sigmaH + theta * theta).squareRoot() / (2 * Double.pi * h)
        let expectedZeta = sigmaH / (sigmaH * sigmaH + theta * theta).squareRoot()
        #expect(abs(expectedFrequency - f) / f < 0.01)

        let anchor = Point(1000, 1000), rest = 100.0
        let (bob, animator) = world(Point(anchor.x + rest + 50, anchor.y), gravity: false) { bob in
            let spring = AttachmentBehavior(item: bob, attachedToAnchor: anchor)
            spring.length = rest
            spring.frequency = f
            spring.damping = zeta
            return [spring]
        }
        var x: [Double] = []
        run(animator, ticks: 60 * 8) { _ in x.append(bob.center.x - anchor.x - rest) }
        #expect(abs(bob.center.y - anchor.y) < 1e-9, "it left its line")
        let crossings = upwardCrossings(x)
        #expect(crossings.count >= 4)
        let dampedPeriod = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        // Successive maxima (sampled per tick: under 0.2 % low at 1 Hz), one period apart.
        let peaks = (1..<(x.count - 1)).filter { x[$0] > 0 && x[$0] >= x[$0 - 1] && x[$0] > x[$0 + 1] }.map { x[$0] }
        #expect(peaks.count >= 4)
        let decrement = log(peaks[0] / peaks[3]) / 3
        let measuredZeta = decrement / (4 * Double.pi * Double.pi + decrement * decrement).squareRoot()
        let measuredFrequency = 1 / (dampedPeriod * (1 - measuredZeta * measuredZeta).squareRoot())
        #expect(abs(measuredFrequency - expectedFrequency) / expectedFrequency < 0.02, "f \(measuredFrequency) Hz vs \(expectedFrequency)")
        #expect(abs(measuredFrequency - f) / f < 0.02, "f \(measuredFrequency) Hz vs \(f)")
        #expect(abs(measuredZeta - expectedZeta) / expectedZeta < 0.02, "ζ \(measuredZeta) vs \(expectedZeta)")
    }

    @Test func snapRestoresAngleZeroAndThePosition() {
        let target = Point(400, 300)
        let (card, animator) = world(Point(250, 500), size: 60, angle: 0.8, gravity: false) { card in
            [SnapBehavior(item: card, snapTo: target)]
        }
        run(animator, ticks: 60 * 6)
        let state = animator.itemState(for: card)!
        // At the snap point with angle 0 all four springs are at their rest length: the one rest state.
        #expect(abs(state.angle) < 1e-3, "angle \(state.angle)")
        #expect(hypot(state.center.x - target.x, state.center.y - target.y) < 0.5, "at \(state.center)")
        #expect(!animator.isRunning, "it never came to rest")
    }

    @Test func movingTheSnapPointWakesTheItemAndMovesIt() {
        let (card, animator) = world(Point(100, 100), size: 40, gravity: false) { card in
            [SnapBehavior(item: card, snapTo: Point(120, 100))]
        }
        run(animator, ticks: 60 * 4)
        #expect(!animator.isRunning)
        (animator.behaviors.compactMap { $0 as? SnapBehavior }.first!).snapPoint = Point(300, 200)
        run(animator, ticks: 60 * 4)
        #expect(hypot(card.center.x - 300, card.center.y - 200) < 0.5, "at \(card.center)")
    }

    @Test func movingAnAnchorMovesTheItem() {
        let (bob, animator) = world(Point(100, 100), gravity: false) { bob in
            let spring = AttachmentBehavior(item: bob, attachedToAnchor: Point(100, 160))
            spring.frequency = 2
            spring.damping = 1
            return [spring]
        }
        let spring = animator.behaviors.compactMap { $0 as? AttachmentBehavior }.first!
        run(animator, ticks: 60)
        spring.anchorPoint = Point(300, 160)
        #expect(spring.anchorPoint == Point(300, 160))
        run(animator, ticks: 60 * 6)
        // Rest: 60 pt from the new anchor.
        #expect(abs(hypot(bob.center.x - 300, bob.center.y - 160) - 60) < 0.5, "at \(bob.center)")
    }

    /// Two overlapping 40 pt boxes joined at their overlap, in one collision behavior.
    func overlapping(_ join: (View, View) -> AttachmentBehavior) -> (plan: WorldPlan, began: Int) {
        let a = View(name: "a", center: Point(100, 100), size: Size(width: 40, height: 40))
        let b = View(name: "b", center: Point(130, 100), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 500, height: 500))
        let collision = CollisionBehavior(items: [a, b])
        collision.collisionMode = .items
        let log = EventLog()
        collision.collisionDelegate = log
        animator.addBehavior(collision)
        animator.addBehavior(join(a, b))
        run(animator, ticks: 30, log: log)
        return (animator.plan!, log.kinds(.began).count)
    }

    @Test func onlyItemToItemDistanceAttachmentsLetTheirItemsCollide() {
        let rod = overlapping { AttachmentBehavior(item: $0, attachedTo: $1) }
        #expect(rod.plan.allowedPairs.count == 1 && rod.began == 1)
        let pin = overlapping { AttachmentBehavior.pinAttachment(with: $0, attachedTo: $1, attachmentAnchor: Point(115, 100)) }
        #expect(pin.plan.allowedPairs.count == 0 && pin.began == 0)
        let weld = overlapping { AttachmentBehavior.fixedAttachment(with: $0, attachedTo: $1, attachmentAnchor: Point(115, 100)) }
        #expect(weld.plan.allowedPairs.count == 0 && weld.began == 0)
        let rope = overlapping { AttachmentBehavior.limitAttachment(with: $0, offsetFromCenter: .zero, attachedTo: $1, offsetFromCenter: .zero) }
        #expect(rope.plan.allowedPairs.count == 0 && rope.began == 0)
    }

    @Test func aRopeNeverGrowsPastItsLength() {
        // b hangs 100 pt right of the anchored a and is thrown up and back towards it: the rope
        // goes slack, then catches it.
        let a = View(name: "a", center: Point(200, 200), size: Size(width: 20, height: 20))
        let b = View(name: "b", center: Point(300, 200), size: Size(width: 20, height: 20))
        let animator = DynamicAnimator(referenceBounds: Size(width: 500, height: 500))
        let hold = DynamicItemBehavior(items: [a])
        hold.isAnchored = true
        let props = undampedItemBehavior([b])
        props.addLinearVelocity(Vector(dx: -150, dy: -300), for: b)
        let rope = AttachmentBehavior.limitAttachment(with: a, offsetFromCenter: .zero, attachedTo: b, offsetFromCenter: .zero)
        #expect(rope.length == 100)
        for behavior in [hold, props, GravityBehavior(items: [b]), rope] as [DynamicBehavior] { animator.addBehavior(behavior) }
        var longest = 0.0, shortest = Double.infinity
        run(animator, ticks: 300) { _ in
            let d = hypot(b.center.x - a.center.x, b.center.y - a.center.y)
            longest = max(longest, d); shortest = min(shortest, d)
        }
        #expect(shortest < 90, "never slack")
        #expect(longest > 99.5, "never taut")
        #expect(longest <= 100 + 0.5, "stretched to \(longest) pt")   // + Box2D's linear slop
    }

    @Test func aSlidingItemStaysOnItsAxisWithinItsLimits() {
        // Axis (1, 1) through the anchor at the item's centre; gravity pulls it down the axis to
        // its +40 pt limit (it starts at 0, within −30 … 40).
        let anchor = Point(200, 200)
        let (item, animator) = world(anchor, gravity: true) { item in
            let slide = AttachmentBehavior.slidingAttachment(with: item, attachmentAnchor: anchor, axisOfTranslation: Vector(dx: 1, dy: 1))
            slide.attachmentRange = FloatRange(minimum: -30, maximum: 40)
            return [slide]
        }
        var offAxis = 0.0, along = [Double](), turned = 0.0
        run(animator, ticks: 180) { _ in
            let dx = item.center.x - anchor.x, dy = item.center.y - anchor.y
            offAxis = max(offAxis, abs(dx - dy) / 2.squareRoot())
            along.append((dx + dy) / 2.squareRoot())
            turned = max(turned, abs(item.angle))
        }
        #expect(offAxis < 0.5, "left the axis by \(offAxis) pt")
        #expect(turned < 2 / 180 * Double.pi, "turned \(turned) rad")
        #expect(along.max()! <= 40 + 0.5 && along.min()! >= -30 - 0.5)
        #expect(abs(along.last! - 40) < 0.5, "rests at \(along.last!) pt, not at the limit")
    }

    @Test func aPinHoldsItsAngleLimits() {
        // The arm hangs right of the pin; gravity turns it clockwise (+) onto the 0.3 rad limit.
        let post = View(name: "post", center: Point(200, 200), size: Size(width: 20, height: 20))
        let arm = View(name: "arm", center: Point(240, 200), size: Size(width: 60, height: 10))
        let animator = DynamicAnimator(referenceBounds: Size(width: 500, height: 500))
        let hold = DynamicItemBehavior(items: [post])
        hold.isAnchored = true
        let pin = AttachmentBehavior.pinAttachment(with: post, attachedTo: arm, attachmentAnchor: Point(205, 200))
        pin.attachmentRange = FloatRange(minimum: -0.3, maximum: 0.3)
        for behavior in [hold, GravityBehavior(items: [arm]), pin] as [DynamicBehavior] { animator.addBehavior(behavior) }
        var largest = 0.0
        run(animator, ticks: 240) { _ in largest = max(largest, arm.angle) }
        let slop = 2 / 180 * Double.pi
        #expect(largest <= 0.3 + slop, "turned to \(largest) rad")
        #expect(abs(arm.angle - 0.3) < slop, "rests at \(arm.angle) rad")
        // The arm's pin end stays at the pin: (205, 200) is 35 pt left of its centre in its frame.
        let end = Point(arm.center.x - 35 * cos(arm.angle), arm.center.y - 35 * sin(arm.angle))
        #expect(hypot(end.x - 205, end.y - 200) < 0.5, "pin end at \(end)")
    }

    @Test func pinFrictionHoldsAgainstASmallerTorque() {
        // The arm's weight about the pin: m·g·d = (0.6 × 0.1 m², density 1) · 10 · 0.35 m = 0.21 N·m.
        func finalAngle(friction: Double) -> Double {
            let post = View(name: "post", center: Point(200, 200), size: Size(width: 20, height: 20))
            let arm = View(name: "arm", center: Point(240, 200), size: Size(width: 60, height: 10))
            let animator = DynamicAnimator(referenceBounds: Size(width: 500, height: 500))
            let hold = DynamicItemBehavior(items: [post])
            hold.isAnchored = true
            let pin = AttachmentBehavior.pinAttachment(with: post, attachedTo: arm, attachmentAnchor: Point(205, 200))
            pin.frictionTorque = friction
            for behavior in [hold, GravityBehavior(items: [arm]), pin] as [DynamicBehavior] { animator.addBehavior(behavior) }
            run(animator, ticks: 60)
            return arm.angle
        }
        #expect(abs(finalAngle(friction: 0.25)) < 1e-3)
        #expect(finalAngle(friction: 0.15) > 0.1)
        #expect(finalAngle(friction: 0) > finalAngle(friction: 0.15))
    }

    @Test func anAnchorUnderOnePointBecomesAPin() {
        func kind(_ configure: (AttachmentBehavior) -> Void) -> JointKind {
            let item = View(name: "i", center: Point(100, 100), size: Size(width: 20, height: 20))
            let animator = DynamicAnimator(referenceBounds: Size(width: 500, height: 500))
            let attachment = AttachmentBehavior(item: item, attachedToAnchor: Point(100.5, 100))
            configure(attachment)
            animator.addBehavior(attachment)
            animator.tick()
            return animator.plan!.joints[0].kind
        }
        #expect(kind { _ in } == .revolute)
        #expect(kind { $0.length = 0.5 } == .distance)
        #expect(kind { $0.frequency = 2 } == .distance)
        let far = AttachmentBehavior(item: View(center: Point(100, 100), size: Size(width: 10, height: 10)), attachedToAnchor: Point(101, 100))
        #expect(far.length == 1 && far.attachedBehaviorType == .anchor)
    }

    @Test func aSlidingRangeMustHoldZero() {
        let a = View(center: Point(0, 0), size: Size(width: 10, height: 10))
        let slide = AttachmentBehavior.slidingAttachment(with: a, attachmentAnchor: .zero, axisOfTranslation: Vector(dx: 1, dy: 0))
        slide.attachmentRange = FloatRange(minimum: 10, maximum: 20)
        #expect(slide.attachmentRange == .infinite)
        slide.attachmentRange = FloatRange(minimum: -10, maximum: 20)
        #expect(slide.attachmentRange == FloatRange(minimum: -10, maximum: 20))
        let pin = AttachmentBehavior.pinAttachment(with: a, attachedTo: View(center: Point(5, 0), size: Size(width: 10, height: 10)),
                                                   attachmentAnchor: .zero)
        pin.attachmentRange = FloatRange(minimum: 0.1, maximum: 0.2)
        #expect(pin.attachmentRange == FloatRange(minimum: 0.1, maximum: 0.2))
        #expect(pin.attachedBehaviorType == .items && pin.items.count == 2 && pin.kind == .pin)
    }

    @Test func aBatchAnimatorRunsAttachmentsAsEachAnimatorAlone() throws {
        // Nine spring pendulums inside the bounds (a collision behavior as well), in one batch and alone.
        func make(_ k: Int) -> (View, DynamicAnimator) {
            let bob = View(name: "bob", center: Point(260, 300 + 10 * Double(k)), size: Size(width: 30, height: 30))
            let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
            let collision = CollisionBehavior(items: [bob])
            collision.translatesReferenceBoundsIntoBoundary = true
            let spring = AttachmentBehavior(item: bob, attachedToAnchor: Point(160, 200))
            spring.frequency = 1 + 0.2 * Double(k)
            spring.damping = 0.05 * Double(k)
            for b in [GravityBehavior(items: [bob]), collision, spring] as [DynamicBehavior] { animator.addBehavior(b) }
            return (bob, animator)
        }
        let alone = (0..<9).map(make), batched = (0..<9).map(make)
        let batch = try BatchAnimator(batched.map(\.1))
        for _ in 0..<240 {
            for (_, animator) in alone { animator.tick() }
            batch.tick()
        }
        for (a, b) in zip(alone, batched) {
            #expect(a.0.center == b.0.center && a.0.angle == b.0.angle, "\(a.0.center) vs \(b.0.center)")
            #expect(a.0.center != Point(260, 300), "it never moved")
        }
    }

    @Test func removingAnAttachmentLetsTheItemGo() {
        // Held by a rod 100 pt under its anchor, the bob hangs still; cut loose, it falls freely:
        // from rest, 1000 pt/s² for 60 sub-steps of h, semi-implicit Euler: g·h²·n(n + 1)/2 = 127 pt.
        let (bob, animator) = world(Point(100, 200), gravity: true) { [AttachmentBehavior(item: $0, attachedToAnchor: Point(100, 100))] }
        run(animator, ticks: 30)
        #expect(abs(bob.center.y - 200) < 0.5, "the rod did not hold: \(bob.center)")
        let y0 = bob.center.y
        animator.removeBehavior(animator.behaviors.first { $0 is AttachmentBehavior }!)
        run(animator, ticks: 30)
        let steps = 60.0, g = 1000.0
        let expected = g * h * h * steps * (steps + 1) / 2
        #expect(abs((bob.center.y - y0) - expected) < 2, "fell \(bob.center.y - y0) pt, expected about \(expected)")
    }
}
