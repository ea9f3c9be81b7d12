import Testing
@testable import WorldSweep

/// Free fall, pushes and impulses against the stepping rules: sub-steps of h = Float(1/120),
/// 2n − 1 of them after n ticks of 1/60 s, semi-implicit Euler, Pade damping.
@Suite struct IntegrationTests {
    @Test func freeFallMatchesDeviceMeasurements() {
        // Device: a 100×100 item at centre y = 50, default gravity, resistance 0.
        let view = View(name: "box", center: Point(160, 50), size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(undampedItemBehavior([view]))
        let device = [50.0694466, 50.4166718, 51.0416679, 51.9444466, 53.1250076]
        for expected in device {
            animator.tick(1.0 / 60.0)
            #expect(abs(view.center.y - expected) < 1e-6, "y = \(view.center.y), device \(expected)")
        }
    }

    @Test(arguments: [1, 2, 3, 10, 60])
    func freeFallFollowsTheSubStepRule(ticks n: Int) {
        // k sub-steps from rest: v_k = k g h, y_k = y0 + g h² k(k+1)/2 (g = 1000 pt/s²).
        let view = View(name: "box", center: Point(160, 0), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 10_000))
        animator.addBehavior(GravityBehavior(items: [view]))
        animator.addBehavior(undampedItemBehavior([view]))
        run(animator, ticks: n)
        let k = Double(subSteps(afterTicks: n))
        let expectedY = 1000 * h * h * k * (k + 1) / 2
        let state = animator.itemState(for: view)!
        #expect(abs(view.center.y - expectedY) < 1e-4 * max(1, expectedY))
        #expect(abs(state.velocity.dy - 1000 * h * k) < 1e-4 * 1000 * h * k)
        #expect(state.velocity.dx == 0)
    }

    @Test func defaultResistanceDampsEverySubStep() {
        // Resistance 0.1 (the engine's default): v ← (v + g h) / (1 + 0.1 h) per sub-step.
        let view = View(name: "box", center: Point(160, 0), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 100_000))
        animator.addBehavior(GravityBehavior(items: [view]))
        run(animator, ticks: 30)
        var v = 0.0, y = 0.0
        for _ in 0..<subSteps(afterTicks: 30) {
            v = (v + 1000 * h) / (1 + 0.1 * h)
            y += h * v
        }
        let state = animator.itemState(for: view)!
        #expect(abs(state.velocity.dy - v) < 1e-3)
        #expect(abs(view.center.y - y) < 1e-3)
        // And it is really slower than undamped fall.
        #expect(state.velocity.dy < 1000 * h * Double(subSteps(afterTicks: 30)) - 0.1)
    }

    @Test func continuousPushMatchesDeviceMeasurements() {
        // Device: push (1, 0) on a 100×100 item of density 1 with resistance 0.
        let view = View(name: "box", center: Point(160, 284), size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .continuous)
        push.pushDirection = Vector(dx: 1, dy: 0)
        animator.addBehavior(push)
        animator.addBehavior(undampedItemBehavior([view]))
        for expected in [0.833333, 2.500000, 4.166667, 5.833333] {
            animator.tick(1.0 / 60.0)
            let v = animator.itemState(for: view)!.velocity.dx
            #expect(abs(v - expected) < 1e-5, "vx = \(v), device \(expected)")
        }
    }

    @Test(arguments: [(0.5, 2.0, 50.0, 100.0), (-1.5, 0.5, 80.0, 40.0), (2.0, 1.0, 100.0, 100.0)])
    func continuousPushAccelerationFollowsMassFormula(magnitude: Double, density: Double, w: Double, hgt: Double) {
        // a = magnitude × 10⁶ / (density · w · h) pt/s², along the push angle (here π/2: down).
        let view = View(name: "box", center: Point(160, 284), size: Size(width: w, height: hgt))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .continuous)
        push.setAngle(.pi / 2, magnitude: magnitude)
        let props = undampedItemBehavior([view])
        props.density = density
        animator.addBehavior(push)
        animator.addBehavior(props)
        run(animator, ticks: 6)
        let a = magnitude * 1e6 / (density * w * hgt)
        let expected = a * h * Double(subSteps(afterTicks: 6))
        let v = animator.itemState(for: view)!.velocity
        #expect(abs(v.dy - expected) < 1e-4 * abs(expected))
        #expect(abs(v.dx) < 1e-4 * abs(expected))
    }

    @Test func instantaneousPushGivesImpulseOnceAndSwitchesOff() {
        // Δv = magnitude × 100 / mass pt/s; mass of 50×80 at density 0.5 = 0.2 kg.
        let view = View(name: "box", center: Point(160, 284), size: Size(width: 50, height: 80))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.magnitude = 0.3   // angle 0: +x
        let props = undampedItemBehavior([view])
        props.density = 0.5
        animator.addBehavior(push)
        animator.addBehavior(props)
        #expect(push.active)
        animator.tick()
        let dv = 0.3 * 100 / (0.5 * 50 * 80 / 10_000)
        #expect(abs(animator.itemState(for: view)!.velocity.dx - dv) < 1e-4 * dv)
        #expect(push.active == false)
        run(animator, ticks: 5)
        #expect(abs(animator.itemState(for: view)!.velocity.dx - dv) < 1e-4 * dv)
        push.active = true   // fires again
        animator.tick()
        #expect(abs(animator.itemState(for: view)!.velocity.dx - 2 * dv) < 2e-4 * dv)
        #expect(push.active == false)
    }

    @Test func offsetPushTurnsTheItem() {
        // Force (0, 1) N at offset (50, 0) pt on a 100×100, 1 kg item: torque r × F = 0.5 N·m,
        // I = m(w² + h²)/12 = 1/6 kg·m², so α = 3 rad/s², clockwise (positive) on screen.
        let view = View(name: "box", center: Point(160, 284), size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .continuous)
        push.pushDirection = Vector(dx: 0, dy: 1)
        push.setTargetOffsetFromCenter(Offset(horizontal: 50, vertical: 0), for: view)
        animator.addBehavior(push)
        animator.addBehavior(undampedItemBehavior([view]))
        animator.tick()
        let w1 = animator.itemState(for: view)!.angularVelocity
        #expect(abs(w1 - 3 * h) < 1e-5)
        #expect(abs(animator.itemState(for: view)!.velocity.dy - 100 * h) < 1e-4)
        run(animator, ticks: 3)   // offset stays in the item's frame as it turns
        #expect(w1 > 0)
        #expect(view.angle > 0)
    }

    @Test func instantaneousOffsetPushGivesAngularImpulse() {
        // Impulse (0, -2) N·s at offset (-25, 0) on a 50×50 item of density 1 (m = 0.25 kg,
        // I = 0.25 · (0.25 + 0.25) / 12): Δω = r × P / I = (-0.25 · -2) / I.
        let view = View(name: "box", center: Point(160, 284), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.pushDirection = Vector(dx: 0, dy: -2)
        push.setTargetOffsetFromCenter(Offset(horizontal: -25, vertical: 0), for: view)
        animator.addBehavior(push)
        animator.addBehavior(undampedItemBehavior([view]))
        animator.tick()
        let inertia = 0.25 * (0.25 + 0.25) / 12
        let s = animator.itemState(for: view)!
        #expect(abs(s.angularVelocity - 0.5 / inertia) < 1e-3 * 0.5 / inertia)
        #expect(abs(s.velocity.dy - (-2 * 100 / 0.25)) < 1e-3)
    }

    @Test func addedVelocitiesAccumulateBeforeTheBehaviorIsAdded() {
        let view = View(name: "box", center: Point(160, 284), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let props = undampedItemBehavior([view])
        props.addLinearVelocity(Vector(dx: 30, dy: 0), for: view)
        props.addLinearVelocity(Vector(dx: 10, dy: -5), for: view)
        props.addAngularVelocity(1.5, for: view)
        animator.addBehavior(props)
        animator.tick()
        let s = animator.itemState(for: view)!
        #expect(abs(s.velocity.dx - 40) < 1e-4)
        #expect(abs(s.velocity.dy + 5) < 1e-4)
        #expect(abs(s.angularVelocity - 1.5) < 1e-6)
        // x after one sub-step: 160 + 40 h.
        #expect(abs(view.center.x - (160 + 40 * h)) < 1e-4)
    }

    @Test func rotationIsARunningTotal() {
        // 10 rad/s undamped for 120 ticks: θ = 10 · 239 h ≈ 19.9 rad, not wrapped to ±π.
        let view = View(name: "spinner", center: Point(160, 284), size: Size(width: 50, height: 50))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let props = undampedItemBehavior([view])
        props.addAngularVelocity(10, for: view)
        animator.addBehavior(props)
        run(animator, ticks: 120)
        #expect(abs(view.angle - 10 * h * Double(subSteps(afterTicks: 120))) < 1e-3)
    }

    @Test func gravityIsWorldWideAndLastSetWins() {
        let a = View(name: "a", center: Point(100, 100), size: Size(width: 20, height: 20))
        let b = View(name: "b", center: Point(200, 100), size: Size(width: 20, height: 20))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let g1 = GravityBehavior(items: [a])
        let g2 = GravityBehavior(items: [b])
        g2.setAngle(0, magnitude: 0.5)   // +x at 500 pt/s²
        animator.addBehavior(g1)
        animator.addBehavior(g2)
        animator.addBehavior(undampedItemBehavior([a, b]))
        animator.tick()
        // Both items fall along the last gravity set (g2), each once per sub-step.
        for v in [a, b] {
            let s = animator.itemState(for: v)!
            #expect(abs(s.velocity.dx - 500 * h) < 1e-4)
            #expect(abs(s.velocity.dy) < 1e-4)
        }
        g1.magnitude = 2   // now g1's vector: down at 2000 pt/s²
        animator.tick()
        #expect(abs(animator.itemState(for: a)!.velocity.dy - 2000 * h * 2) < 1e-3)
        animator.removeBehavior(g2)   // removing any gravity behavior zeroes gravity
        let before = animator.itemState(for: a)!.velocity
        animator.tick()
        #expect(animator.itemState(for: a)!.velocity == before)
    }

    @Test func gravityPropertiesStayInSync() {
        let g = GravityBehavior(items: [])
        #expect(g.gravityDirection == Vector(dx: 0, dy: 1))
        #expect(abs(g.angle - .pi / 2) < 1e-12)
        #expect(g.magnitude == 1)
        g.gravityDirection = Vector(dx: 3, dy: -4)
        #expect(abs(g.magnitude - 5) < 1e-12)
        #expect(abs(g.angle - atan2(-4.0, 3.0)) < 1e-12)
        g.setAngle(.pi, magnitude: 2)
        #expect(abs(g.gravityDirection.dx + 2) < 1e-12 && abs(g.gravityDirection.dy) < 1e-12)
        g.gravityDirection = .zero
        #expect(g.angle == 0 && g.magnitude == 0)
        let p = PushBehavior(items: [], mode: .continuous)
        #expect(p.pushDirection == .zero && p.active)
        p.setAngle(0, magnitude: -2)
        #expect(abs(p.pushDirection.dx + 2) < 1e-12)
    }
}

#if canImport(Glibc)
import Glibc
#endif
