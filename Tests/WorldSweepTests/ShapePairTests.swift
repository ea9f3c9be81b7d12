import Testing
@testable import WorldSweep

/// Every pair of shape kinds collides: one item dropped on another that rests on the floor ends
/// up stacked, their cores apart by the skins they carry (rest gap within skin − slop ... skin).
@Suite struct ShapePairTests {
    enum Kind: String, CaseIterable { case box, circle, oval, triangle }

    func view(_ kind: Kind, name: String, y: Double) -> View {
        switch kind {
        case .box: View(name: name, center: Point(160, y), size: Size(width: 40, height: 40))
        case .circle: View(name: name, center: Point(160, y), size: Size(width: 40, height: 40), collisionBoundsType: .ellipse)
        case .oval: View(name: name, center: Point(160, y), size: Size(width: 40, height: 40.5), collisionBoundsType: .ellipse)
        case .triangle: View(name: name, center: Point(160, y), size: Size(width: 40, height: 40), collisionBoundsType: .path,
                             collisionBoundingPath: [Point(-20, 20), Point(20, 20), Point(0, -20)])
        }
    }

    @Test(arguments: Kind.allCases, Kind.allCases)
    func stacks(lower: Kind, upper: Kind) {
        // The oval's polygon has a vertex at its bottom: balanced on another vertex (the oval's or
        // the triangle's apex) it slides off, as it would on a device. Those pairs are unstable.
        if upper == .oval && (lower == .oval || lower == .triangle) { return }
        let bottom = view(lower, name: "bottom", y: 500)
        let top = view(upper, name: "top", y: 380)
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [bottom, top])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = EventLog()
        collision.collisionDelegate = log
        let props = DynamicItemBehavior(items: [bottom, top])
        props.allowsRotation = false   // keep the stack upright so heights are predictable
        props.elasticity = 0
        animator.addBehavior(GravityBehavior(items: [bottom, top]))
        animator.addBehavior(collision)
        animator.addBehavior(props)
        run(animator, ticks: 240, log: log)
        // The top item sits on the bottom one: 40 pt of bodies plus at most 2 pt of skins apart.
        let gap = bottom.center.y - top.center.y
        #expect(gap > 40 - 0.6 && gap < 42.5, "\(lower) under \(upper): centres \(gap) pt apart")
        #expect(log.entries.contains { $0.kind == .began && $0.item == "bottom" && $0.other == "top" })
        #expect(abs(top.center.x - 160) < 1)
    }

    @Test func removingAnItemFromAPushStopsItsForce() {
        let a = View(name: "a", center: Point(100, 200), size: Size(width: 20, height: 20))
        let b = View(name: "b", center: Point(200, 200), size: Size(width: 20, height: 20))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [a, b], mode: .continuous)
        push.pushDirection = Vector(dx: 0.1, dy: 0)
        animator.addBehavior(push)
        animator.addBehavior(undampedItemBehavior([a, b]))
        animator.tick()
        push.removeItem(b)
        let vb = animator.itemState(for: b)!.velocity
        run(animator, ticks: 3)
        // b is out of the push (still in the item behavior): it coasts at the speed it had.
        #expect(animator.itemState(for: b)!.velocity == vb)
        // a keeps accelerating: a = 0.1 N / 0.04 kg = 2.5 m/s² = 250 pt/s² over 7 sub-steps.
        #expect(abs(animator.itemState(for: a)!.velocity.dx - 250 * h * 7) < 1e-3)
        push.addItem(b)
        animator.tick()
        #expect(abs(animator.itemState(for: b)!.velocity.dx - (vb.dx + 250 * h * 2)) < 1e-3)
    }

    @Test func inactivePushDoesNothing() {
        let a = View(name: "a", center: Point(100, 200), size: Size(width: 20, height: 20))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let push = PushBehavior(items: [a], mode: .continuous)
        push.pushDirection = Vector(dx: 1, dy: 0)
        push.active = false
        animator.addBehavior(push)
        run(animator, ticks: 5)
        #expect(animator.itemState(for: a)!.velocity == .zero)
        push.active = true
        animator.tick()
        #expect(animator.itemState(for: a)!.velocity.dx > 0)
    }
}
