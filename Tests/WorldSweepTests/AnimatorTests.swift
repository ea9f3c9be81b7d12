import Testing
@testable import WorldSweep

/// The animator loop: sleeping and pausing, item-behavior precedence, continuous collision, shapes.
@Suite struct AnimatorTests {
    func restingBox() -> (View, DynamicAnimator, EventLog, DynamicItemBehavior) {
        let view = View(name: "box", center: Point(160, 569 - 2.5 - 25), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = EventLog()
        collision.collisionDelegate = log
        animator.delegate = log
        let props = DynamicItemBehavior(items: [view])
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(collision)
        animator.addBehavior(props)
        return (view, animator, log, props)
    }

    @Test func restingItemsSleepAndTheAnimatorPausesAfterHalfASecond() {
        // The box is at rest from sub-step 5 (tick 3). It must stay under 1 pt/s for 0.5 s:
        // 0.5 / h = 60 sub-steps (Float rounding may need the 61st), i.e. 30 ticks more.
        let (_, animator, log, _) = restingBox()
        run(animator, ticks: 60, log: log)
        let paused = log.kinds(.paused)
        #expect(paused.count == 1)
        #expect((32...35).contains(paused.first?.tick ?? 0), "paused at tick \(paused.first?.tick ?? -1)")
        #expect(!animator.isRunning)
        // While paused, ticks do nothing, not even add to elapsed time.
        let t = animator.elapsedTime
        run(animator, ticks: 10, log: log)
        #expect(animator.elapsedTime == t)
    }

    @Test func anyChangeResumesTheAnimator() {
        let (view, animator, log, props) = restingBox()
        run(animator, ticks: 60, log: log)
        #expect(!animator.isRunning)
        props.addLinearVelocity(Vector(dx: 0, dy: -300), for: view)
        #expect(log.entries.last?.kind == .resumed)
        #expect(animator.isRunning)
        let y0 = view.center.y
        run(animator, ticks: 2, log: log)
        #expect(view.center.y < y0)
        // Contacts persist while asleep: no repeated "began" from resting, one "ended" on lift-off.
        #expect(log.kinds(.began).count == 1)
        #expect(log.kinds(.ended).count == 1)
    }

    @Test func behaviorsKnowTheirAnimatorOnlyWhileItExistsAndHoldsThem() {
        let view = View(name: "box", center: Point(160, 100), size: Size(width: 50, height: 50))
        let gravity = GravityBehavior(items: [view])
        let child = PushBehavior(items: [view], mode: .continuous)
        gravity.addChildBehavior(child)
        var animator: DynamicAnimator? = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        animator!.addBehavior(gravity)
        #expect(gravity.dynamicAnimator === animator && child.dynamicAnimator === animator)
        animator!.removeBehavior(gravity)
        #expect(gravity.dynamicAnimator == nil && child.dynamicAnimator == nil)
        animator!.addBehavior(gravity)
        // Held weakly, as in UIKit: the behaviors do not keep the animator alive.
        weak let gone = animator
        animator = nil
        #expect(gone == nil)
        #expect(gravity.dynamicAnimator == nil && child.dynamicAnimator == nil)
    }

    @Test func elapsedTimeIsTheSumOfTicks() {
        let (_, animator, _, _) = restingBox()
        animator.tick(0.01)
        animator.tick(0.02)
        animator.tick(0.9)   // over 0.5 s: counts as 1/60
        #expect(abs(animator.elapsedTime - (0.03 + 1.0 / 60.0)) < 1e-12)
    }

    @Test func lastItemBehaviorThatSetsAPropertyWins() {
        let view = View(name: "box", center: Point(160, 100), size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let first = DynamicItemBehavior(items: [view])
        first.density = 4
        first.resistance = 0
        let second = DynamicItemBehavior(items: [view])
        second.density = 2           // wins over 4: mass 2 kg
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.magnitude = 1
        animator.addBehavior(first)
        animator.addBehavior(second)  // sets no resistance: first's 0 stays
        animator.addBehavior(push)
        animator.tick()
        // Δv = 1 × 100 / 2 = 50 pt/s, undamped.
        #expect(abs(animator.itemState(for: view)!.velocity.dx - 50) < 1e-4)
        // Unset properties read as the engine's defaults.
        #expect(second.elasticity == 0.2 && second.friction == 0.2 && second.resistance == 0.1)
    }

    @Test func anchoredItemsDoNotMoveButStopOthers() {
        let shelf = View(name: "shelf", center: Point(160, 300), size: Size(width: 200, height: 20))
        let box = View(name: "box", center: Point(160, 100), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let anchor = DynamicItemBehavior(items: [shelf])
        anchor.isAnchored = true
        let collision = CollisionBehavior(items: [shelf, box])
        let log = EventLog()
        collision.collisionDelegate = log
        animator.addBehavior(GravityBehavior(items: [shelf, box]))
        animator.addBehavior(collision)
        animator.addBehavior(anchor)
        run(animator, ticks: 120, log: log)
        #expect(shelf.center == Point(160, 300))
        // Box core rests 1.5 ... 2 pt (two 1 pt skins) above the shelf's top at 290.
        #expect(box.center.y <= 290 - 1.5 - 20 + 0.01 && box.center.y >= 290 - 2 - 20 - 0.01, "y \(box.center.y)")
        #expect(log.kinds(.began).first.map { [$0.item, $0.other] } == ["shelf", "box"])
    }

    @Test func fastItemsDoNotTunnelThroughThinBoundaries() {
        // 6000 pt/s towards a segment: 50 pt per sub-step, more than the 10 pt item.
        let view = View(name: "bullet", center: Point(50, 284), size: Size(width: 10, height: 10))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.addBoundary(withIdentifier: "wall", from: Point(200, 0), to: Point(200, 568))
        let props = undampedItemBehavior([view])
        props.elasticity = 0
        props.addLinearVelocity(Vector(dx: 6000, dy: 0), for: view)
        let push = PushBehavior(items: [view], mode: .continuous)   // marks it continuous-collision
        animator.addBehavior(collision)
        animator.addBehavior(props)
        animator.addBehavior(push)
        run(animator, ticks: 10)
        #expect(view.center.x < 200 - 5)
    }

    @Test func lockedRotationKeepsAngle() {
        let view = View(name: "box", center: Point(160, 200), size: Size(width: 40, height: 40))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .continuous)
        push.pushDirection = Vector(dx: 0, dy: 1)
        push.setTargetOffsetFromCenter(Offset(horizontal: 20, vertical: 0), for: view)
        let props = DynamicItemBehavior(items: [view])
        props.allowsRotation = false
        animator.addBehavior(push)
        animator.addBehavior(props)
        run(animator, ticks: 30)
        #expect(view.angle == 0)
        #expect(view.center.y > 200)
    }
}

@Suite struct ShapeTests {
    @Test func rectangleMassAndInertiaFollowTheUnitRules() {
        // mass = density · w · h / 10⁴; I = m (w² + h²) / 12 with sizes in metres.
        let box = Shape.box(halfWidth: 0.5, halfHeight: 0.25)
        let md = box.massData(density: 2)
        #expect(abs(md.mass - 2 * 100 * 50 / 10_000) < 1e-6)
        #expect(abs(md.inertia - 1 * (1 + 0.25) / 12) < 1e-6)
        #expect(abs(md.center.x) < 1e-7 && abs(md.center.y) < 1e-7)
    }

    @Test func circleMassAndInertia() {
        let c = Shape.circle(center: .zero, radius: 0.2)
        let md = c.massData(density: 1)
        let m = EngineSettings.b2Pi * 0.04
        #expect(abs(md.mass - m) < 1e-6)
        #expect(abs(md.inertia - 0.5 * m * 0.04) < 1e-7)
    }

    @Test func squareInertiaIsTakenAboutTheVertexAverage() {
        // Box2D 2.3 fans the triangles about the vertex average s (here the origin exactly). The
        // 100 × 100 pt square has e = (±0.5, ±0.5): each triangle D = 0.5, area 0.25, and
        // intx2 + inty2 = 1, so each term is (q · 0.5) · 1 = q/2 with q = 0.25 · Float(1/3)
        // = 0xAAAAAB · 2⁻²⁷, all exact. Summed: q/2 + q/2 = q (exact), + q/2 = 1.5 q =
        // (2²⁵ + 1) · 2⁻²⁸ = 2⁻³ + 2⁻²⁸ → rounds to 2⁻³ (a quarter ulp over), + q/2 =
        // 0x2AAAAAB · 2⁻²⁸ → 0xAAAAAB · 2⁻²⁶ after rounding = 0x3E2AAAAB: the Float nearest
        // 1/6 = m (w² + h²) / 12, with no shift (s and the centroid are both exactly zero).
        // Fanning about the first vertex (Box2D 2.4) gives 8q − 0.5 = 0x3E2AAAAC, one ulp over.
        let md = Shape.box(halfWidth: 0.5, halfHeight: 0.5).massData(density: 1)
        #expect(md.mass == 1)
        #expect(md.center.x == 0 && md.center.y == 0)
        #expect(md.inertia.bitPattern == 0x3E2A_AAAB)
        #expect(md.inertia == Float(1.0 / 6.0))
    }

    @Test func offCentreSquareHasItsVertexAverageAsCentreOfMass() {
        // (1, 1) … (3, 3): s = (2, 2) exactly; every e is (±1, ±1), the four triangles cancel in
        // the centroid sum exactly, so the centre is s to the bit and the inertia about it is
        // 8q + 8q + 8q = 2 + 2⁻²⁴ → 2, + 8q = 0x2AAAAAB · 2⁻²⁴ → 0xAAAAAB · 2⁻²² = 2.6666667,
        // shifted by m |s|² = 4 · 8 = 32: 34.666668, the Float nearest 104/3.
        let md = Shape.polygon([Vec2(1, 1), Vec2(3, 1), Vec2(3, 3), Vec2(1, 3)]).massData(density: 1)
        #expect(md.mass == 4)
        #expect(md.center.x == 2 && md.center.y == 2)
        #expect(md.inertia == Float(104.0 / 3.0))
    }

    @Test func piIsBox2DsRoundedToNearest() {
        // b2_pi = 3.14159265359f: π rounded to the nearest Float, one ulp above Swift's Float.pi.
        #expect(EngineSettings.b2Pi.bitPattern == 0x4049_0FDB)
        #expect(EngineSettings.b2Pi == Float(Double.pi))
        #expect(Float.pi.bitPattern == 0x4049_0FDA)
        // The rules that Box2D writes with b2_pi: π/2 and a density-1 unit circle's mass are exact
        // scalings of it.
        #expect(EngineSettings.maxRotation.bitPattern == 0x3FC9_0FDB)
        #expect(Shape.circle(center: .zero, radius: 1).massData(density: 1).mass.bitPattern == 0x4049_0FDB)
        // 2/180 · π for the angular slop and sleep tolerance, as Box2D orders it.
        #expect(EngineSettings.angularSlop == Float(2) / Float(180) * Float(bitPattern: 0x4049_0FDB))
        // Normalizing an angle of exactly 2π leaves exactly 0 (with Float.pi's 2π it left 2 ulps).
        var sweep = Sweep(localCenter: .zero, c0: .zero, c: .zero, a0: 2 * Float(Double.pi), a: 0, alpha0: 0)
        sweep.normalize()
        #expect(sweep.a0 == 0)
    }

    @Test func offCentrePathsHaveTheirCentroidAsCentreOfMass() {
        // Right triangle (0,0), (0.3,0), (0,0.3): centroid (0.1, 0.1).
        let t = Shape.polygon([Vec2(0, 0), Vec2(0.3, 0), Vec2(0, 0.3)])
        let md = t.massData(density: 1)
        #expect(abs(md.center.x - 0.1) < 1e-6 && abs(md.center.y - 0.1) < 1e-6)
        #expect(abs(md.mass - 0.045) < 1e-6)
    }

    @Test func convexityCheck() {
        #expect(ShapeGeometry.convexityProblem([Point(0, 0), Point(10, 0), Point(0, 10)]) == nil)
        #expect(ShapeGeometry.convexityProblem([Point(0, 0), Point(10, 0)]) != nil)
        #expect(ShapeGeometry.convexityProblem([Point(0, 0), Point(10, 0), Point(2, 2), Point(0, 10)]) != nil)
        #expect(ShapeGeometry.convexityProblem([Point(0, 0), Point(10, 0), Point(20, 0)]) != nil)
        #expect(ShapeGeometry.convexityProblem([Point(0, 0), Point(.nan, 0), Point(0, 10)]) != nil)
        // A pentagram turns one way throughout but crosses itself.
        let star = (0..<5).map { k -> Point in
            let t = Double(k) * 4 * .pi / 5
            return Point(cos(t), sin(t))
        }
        #expect(ShapeGeometry.convexityProblem(star) != nil)
    }

    @Test func ellipsesAreCirclesOnlyWhenRound() {
        let round = View(center: .zero, size: Size(width: 30, height: 30), collisionBoundsType: .ellipse)
        let oval = View(center: .zero, size: Size(width: 60, height: 30), collisionBoundsType: .ellipse)
        #expect(DynamicAnimator.shape(of: round).kind == .circle)
        #expect(DynamicAnimator.shape(of: oval).kind == .polygon)
        #expect(DynamicAnimator.shape(of: oval).vertices.count == 8)
    }
}

#if canImport(Glibc)
import Glibc
#endif
