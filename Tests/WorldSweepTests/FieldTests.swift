import Testing
@testable import WorldSweep

/// Field behaviors against their formulas, worked by hand: one item alone (no gravity, no
/// collision, resistance 0 so no damping), one tick of 1/60 s = one sub-step of h = 1/120 s, so
/// the velocity changes by h · F / m, in pt/s × 100. A 100 × 100 pt box of density ρ weighs ρ kg.
@Suite struct FieldTests {
    /// The item's velocity (pt/s) after one sub-step under `field`, starting at `center` (pt)
    /// with `velocity` (pt/s). Field `position` and the rest are set by the caller.
    func velocityAfterOneSubStep(_ field: FieldBehavior, center: Point, velocity: Vector = Vector(dx: 0, dy: 0),
                                 density: Double = 1, charge: Double? = nil, addToField: Bool = true) -> Vector {
        let view = View(name: "probe", center: center, size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let props = DynamicItemBehavior(items: [view])
        props.resistance = 0
        props.angularResistance = 0
        props.density = density
        if let charge { props.charge = charge }
        props.addLinearVelocity(velocity, for: view)
        animator.addBehavior(props)
        if addToField { field.addItem(view) }
        try! animator.addBehavior(field)
        animator.tick(1.0 / 60)
        return animator.itemState(for: view)!.velocity
    }

    /// h · F / m in pt/s for a force in N on a mass in kg.
    func deltaV(_ force: Double, mass: Double) -> Double { force / mass / 120 * 100 }

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-4) -> Bool { abs(a - b) <= tolerance }

    @Test func linearGravityIsDirectionTimesStrengthTimesMassSoEveryMassFallsAlike() {
        // F = (0, 1) · 2 · m · 1: a = 2 m/s² = 200 pt/s², Δv = 200 / 120 pt/s whatever the mass.
        for density in [1.0, 3.0] {
            let field = FieldBehavior.linearGravityField(direction: Vector(dx: 0, dy: 1))
            field.strength = 2
            let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), density: density)
            #expect(close(v.dy, 200.0 / 120) && v.dx == 0, "\(v)")
        }
    }

    @Test func radialGravityPullsInverseSquareTowardsThePosition() {
        // r = 2 m along +x, falloff 2: fall = 1/4; F = −1 · 3 · 1/4 = −0.75 N along x.
        let field = FieldBehavior.radialGravityField(position: Point(x: 100, y: 100))
        field.strength = 3
        #expect(field.falloff == 2)
        let v = velocityAfterOneSubStep(field, center: Point(x: 300, y: 100))
        #expect(close(v.dx, deltaV(-0.75, mass: 1)) && close(v.dy, 0), "\(v)")
        // Twice the mass: twice the force, the same acceleration.
        let heavy = FieldBehavior.radialGravityField(position: Point(x: 100, y: 100))
        heavy.strength = 3
        let w = velocityAfterOneSubStep(heavy, center: Point(x: 300, y: 100), density: 2)
        #expect(close(w.dx, deltaV(-1.5, mass: 2)), "\(w)")
    }

    @Test func minimumRadiusCapsTheFalloffAndTheCentrePullsNothing() {
        // r = 0.5 m inside minimumRadius 1 m: fall = 1^−2 = 1, F = −1 N (not −4).
        let field = FieldBehavior.radialGravityField(position: Point(x: 100, y: 100))
        field.minimumRadius = 1
        let v = velocityAfterOneSubStep(field, center: Point(x: 150, y: 100))
        #expect(close(v.dx, deltaV(-1, mass: 1)), "\(v)")
        // At the position itself (r² < 1e−5 m²) radial gravity does nothing.
        let centre = FieldBehavior.radialGravityField(position: Point(x: 100, y: 100))
        let w = velocityAfterOneSubStep(centre, center: Point(x: 100.1, y: 100))
        #expect(w.dx == 0 && w.dy == 0, "\(w)")
    }

    @Test func springIsHookeIndependentOfMass() {
        // falloff −1: fall = r = 0.5 m; F = −4 · 0.5 = −2 N; on 2 kg Δv = −1 m/s² · h.
        let field = FieldBehavior.springField()
        field.position = Point(x: 100, y: 100)
        field.strength = 4
        #expect(field.falloff == -1)
        let v = velocityAfterOneSubStep(field, center: Point(x: 150, y: 100), density: 2)
        #expect(close(v.dx, deltaV(-2, mass: 2)) && close(v.dy, 0), "\(v)")
    }

    @Test func electricPushesChargesAwayAndIgnoresNeutralItems() {
        // r = 2 m along +y, falloff 1: fall = 1/2; F = 2 · 3 · 1/2 = 3 N along +y.
        let field = FieldBehavior.electricField()
        field.position = Point(x: 100, y: 100)
        field.strength = 3
        let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 300), charge: 2)
        #expect(close(v.dy, deltaV(3, mass: 1)) && close(v.dx, 0), "\(v)")
        let neutral = FieldBehavior.electricField()
        neutral.position = Point(x: 100, y: 100)
        let w = velocityAfterOneSubStep(neutral, center: Point(x: 100, y: 300))
        #expect(w.dx == 0 && w.dy == 0)
    }

    @Test func magneticTurnsChargedItemsAndTheChargeOnlyGates() {
        // v = (1, 0) m/s, S = 2, falloff 0: F = 2 · (v_y, −v_x) = (0, −2) N, for charge 1 or 5 alike.
        for charge in [1.0, 5.0] {
            let field = FieldBehavior.magneticField()
            field.strength = 2
            field.falloff = 0
            let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), velocity: Vector(dx: 100, dy: 0), charge: charge)
            #expect(close(v.dx, 100) && close(v.dy, deltaV(-2, mass: 1)), "charge \(charge): \(v)")
        }
        let field = FieldBehavior.magneticField()
        let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), velocity: Vector(dx: 100, dy: 0))
        #expect(v.dx == 100 && v.dy == 0, "uncharged: \(v)")
    }

    @Test func vortexAccelerationGoesAsOneOverMassSquared() {
        // r̂ = (1, 0), S = 1, falloff 0, m = 2: F = −(0, −1) / 2 = (0, 0.5) N; a = 0.25 m/s².
        let field = FieldBehavior.vortexField()
        field.position = Point(x: 100, y: 100)
        let v = velocityAfterOneSubStep(field, center: Point(x: 200, y: 100), density: 2)
        #expect(close(v.dy, deltaV(0.5, mass: 2)) && close(v.dx, 0), "\(v)")
    }

    @Test func dragIsQuadraticInTheVelocityRelativeToDirection() {
        // v = (2, 0) m/s, S = 0.5: F = −0.5 · 2 · (2, 0) = (−2, 0) N.
        let field = FieldBehavior.dragField()
        field.strength = 0.5
        let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), velocity: Vector(dx: 200, dy: 0))
        #expect(close(v.dx, 200 + deltaV(-2, mass: 1), 1e-3), "\(v)")
        // Dragging towards (1, 0) m/s: u = (1, 0), F = −0.5 N.
        let towards = FieldBehavior.dragField()
        towards.strength = 0.5
        towards.direction = Vector(dx: 1, dy: 0)
        let w = velocityAfterOneSubStep(towards, center: Point(x: 100, y: 100), velocity: Vector(dx: 200, dy: 0))
        #expect(close(w.dx, 200 + deltaV(-0.5, mass: 1), 1e-3), "\(w)")
    }

    @Test func velocityFieldSetsTheVelocity() {
        let field = FieldBehavior.velocityField(direction: Vector(dx: 3, dy: -1))
        let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), velocity: Vector(dx: -50, dy: 20))
        #expect(close(v.dx, 300) && close(v.dy, -100), "\(v)")
    }

    @Test func fieldsActOnlyOnTheirItems() {
        let field = FieldBehavior.linearGravityField(direction: Vector(dx: 0, dy: 1))
        let v = velocityAfterOneSubStep(field, center: Point(x: 100, y: 100), addToField: false)
        #expect(v.dx == 0 && v.dy == 0)
    }

    @Test func fallIsOneForFalloffsUnderTwoToTheMinusFifteen() {
        #expect(fieldFall(r: Float(0.5), falloff: 1e-5, minimumRadius: FieldDefaults.minimumRadius) == 1)
        #expect(fieldFall(r: Float(0.5), falloff: 1e-4, minimumRadius: FieldDefaults.minimumRadius) != 1)
        #expect(fieldFall(r: Float(0.5), falloff: 1, minimumRadius: FieldDefaults.minimumRadius) == 2)
    }

    /// Δv_y (pt/s) of an item at `offset` (pt) from a linear-gravity field of 1 m/s² in `region`.
    func acts(in region: Region, at offset: Point) -> Bool {
        let field = FieldBehavior.linearGravityField(direction: Vector(dx: 0, dy: 1))
        field.position = Point(x: 160, y: 300)
        field.region = region
        let v = velocityAfterOneSubStep(field, center: Point(x: 160 + offset.x, y: 300 + offset.y))
        if v.dy == 0 { return false }
        #expect(close(v.dy, deltaV(1, mass: 1)))
        return true
    }

    @Test func regionsLimitWhereAFieldActs() {
        let circle = Region(radius: 100), rectangle = Region(size: Size(width: 200, height: 40))
        #expect(acts(in: circle, at: Point(x: 60, y: 60)))
        #expect(!acts(in: circle, at: Point(x: 80, y: 80)))            // 113 pt out
        #expect(acts(in: rectangle, at: Point(x: 90, y: 15)))
        #expect(!acts(in: rectangle, at: Point(x: 90, y: 25)))
        #expect(acts(in: .infinite, at: Point(x: 5000, y: -5000)))
        #expect(!acts(in: circle.inverse(), at: Point(x: 60, y: 60)))
        #expect(acts(in: circle.inverse(), at: Point(x: 80, y: 80)))
        #expect(acts(in: circle.union(with: rectangle), at: Point(x: 0, y: 99)))     // circle only
        #expect(acts(in: circle.union(with: rectangle), at: Point(x: 99, y: 15)))    // both
        #expect(!acts(in: circle.intersection(with: rectangle), at: Point(x: 0, y: 50)))
        #expect(acts(in: circle.intersection(with: rectangle), at: Point(x: 50, y: 10)))
        #expect(acts(in: circle.difference(from: rectangle), at: Point(x: 0, y: 50)))
        #expect(!acts(in: circle.difference(from: rectangle), at: Point(x: 0, y: 10)))
        // Inverse of a union is exact: outside both.
        #expect(acts(in: circle.union(with: rectangle).inverse(), at: Point(x: 0, y: 150)))
        #expect(!acts(in: circle.union(with: rectangle).inverse(), at: Point(x: 99, y: 15)))
    }

    @Test func aSetOperationKeepsTheFirstPrimitiveOfEachSide() {
        // (a ∪ b) ∩ c acts as a ∩ c: a point in b and c but not in a feels nothing.
        let a = Region(radius: 50), b = Region(size: Size(width: 400, height: 20)), c = Region(size: Size(width: 400, height: 400))
        let point = Point(x: 150, y: 0)   // in b and c, outside a
        #expect(!acts(in: a.union(with: b).intersection(with: c), at: point))
        #expect(acts(in: b.intersection(with: c), at: point))
        #expect(a.union(with: b).intersection(with: c).engineForm == a.intersection(with: c).engineForm)
    }

    @Test func aCustomFieldGetsFieldLocalPointsAndSIUnits() {
        nonisolated(unsafe) var seen: (Point, Vector, Double, Double, Double)?
        let field = FieldBehavior.field { position, velocity, mass, charge, step in
            seen = (position, velocity, mass, charge, step)
            return Vector(dx: 1, dy: -2)
        }
        field.position = Point(x: 100, y: 100)
        let v = velocityAfterOneSubStep(field, center: Point(x: 150, y: 80), velocity: Vector(dx: 100, dy: 0), density: 2, charge: 3)
        #expect(close(v.dx, 100 + deltaV(1, mass: 2), 1e-3) && close(v.dy, deltaV(-2, mass: 2)), "\(v)")
        let (p, u, m, q, h) = seen!
        #expect(close(p.x, 50) && close(p.y, -20), "\(p)")
        #expect(close(u.dx, 1) && u.dy == 0)
        #expect(m == 2 && q == 3 && h == Double(Float(1.0 / 120)))
    }

    @Test func noiseGradientMatchesItsValueAndRepeats() {
        // The analytic gradient against central differences of the value.
        for (x, y, z) in [(Float(0.3), Float(1.7), Float(0.2)), (2.1, -0.6, 4.4), (-3.3, 0.25, 1)] {
            let g = SimplexNoise.gradient(x: x, y: y, z: z)
            let e: Float = 1e-3
            let dx = (SimplexNoise.value(x: x + e, y: y, z: z) - SimplexNoise.value(x: x - e, y: y, z: z)) / (2 * e)
            let dy = (SimplexNoise.value(x: x, y: y + e, z: z) - SimplexNoise.value(x: x, y: y - e, z: z)) / (2 * e)
            #expect(abs(g.x - dx) < 0.02 && abs(g.y - dy) < 0.02, "\(g) vs \(dx), \(dy)")
            #expect(g.x != 0 || g.y != 0)
        }
        // Two fields alike give the same bits; smoothness changes the frequency and so the force.
        func run(_ smoothness: Double) -> Vector {
            let field = FieldBehavior.noiseField(smoothness: smoothness, animationSpeed: 1)
            field.strength = 5
            return velocityAfterOneSubStep(field, center: Point(x: 137, y: 211))
        }
        #expect(run(0.2) == run(0.2))
        #expect(run(0.2) != run(0.7))
        #expect(run(0.2) != Vector(dx: 0, dy: 0))
    }

    @Test func noiseForceIsTheGradientAtTheFrequencyTimesStrength() {
        // smoothness 0.25: frequency = 1.25 / (0.25 + 1/12) − 1 = 2.75 per metre.
        let field = FieldBehavior.noiseField(smoothness: 0.25, animationSpeed: 0)
        field.strength = 2
        let v = velocityAfterOneSubStep(field, center: Point(x: 137, y: 211))
        let g = SimplexNoise.gradient(x: 1.37 * 2.75, y: 2.11 * 2.75, z: 0)
        #expect(close(v.dx, deltaV(2 * Double(g.x), mass: 1), 1e-3) && close(v.dy, deltaV(2 * Double(g.y), mass: 1), 1e-3),
                "\(v) vs \(g)")
        // Turbulence: × m |v|²; at rest, nothing.
        let turbulence = FieldBehavior.turbulenceField(smoothness: 0.25, animationSpeed: 0)
        let w = velocityAfterOneSubStep(turbulence, center: Point(x: 137, y: 211))
        #expect(w.dx == 0 && w.dy == 0)
    }

    @Test func anAnimatorHoldsAtMost32Fields() throws {
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        for _ in 0..<32 { try animator.addBehavior(FieldBehavior.springField()) }
        #expect(throws: FieldLimitError(count: 33)) { try animator.addBehavior(FieldBehavior.springField()) }
        #expect(animator.behaviors.count == 32)
        // Adding one already there is no new field.
        try animator.addBehavior(animator.behaviors[0] as! FieldBehavior)
    }

    @Test func anItemRestingUnderAFieldFallsAsleepAndStaysAsleep() {
        // A field acts like gravity: on awake items only, without waking them, so an item it
        // presses onto the floor sleeps and the animator pauses (a field that woke items every
        // sub-step would keep it running).
        let view = View(name: "box", center: Point(x: 160, y: 568 - 50), size: Size(width: 100, height: 100))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let field = FieldBehavior.linearGravityField(direction: Vector(dx: 0, dy: 1))
        field.addItem(view)
        try! animator.addBehavior(field)
        for _ in 0..<120 { animator.tick(1.0 / 60) }
        #expect(!animator.isRunning)
        #expect(animator.itemState(for: view)!.isAsleep)
        let resting = view.center
        #expect(abs(resting.y - (568 - 50)) < 1)
        for _ in 0..<10 { animator.tick(1.0 / 60) }
        #expect(view.center == resting)
    }
}

/// Field worlds on the batched engine against each animator alone, bit for bit: every kind, with
/// numbers (strength, falloff, position, direction, region sizes, charges, densities) that differ
/// from world to world, regions with set operations, and items that collide and rest.
@Suite struct FieldBatchAgreementTests {
    /// World `k` of a sweep-like family: three items in a box under gravity and a field of `kind`.
    func world(_ kind: FieldBehavior.Kind, _ k: Int) -> (DynamicAnimator, [View]) {
        let x = Double(k)
        let views = [View(name: "a", center: Point(x: 80 + 3 * x, y: 120), size: Size(width: 40, height: 40)),
                     View(name: "b", center: Point(x: 200, y: 200 + 5 * x), size: Size(width: 60, height: 30)),
                     View(name: "c", center: Point(x: 150 - x, y: 400), size: Size(width: 50, height: 50))]
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: views)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [views[0], views[2]]))
        let props = DynamicItemBehavior(items: views)
        props.density = 0.5 + 0.25 * x
        animator.addBehavior(props)
        let charged = DynamicItemBehavior(items: [views[1]])
        charged.charge = k % 3 == 0 ? 0 : 1 + x
        animator.addBehavior(charged)
        let field: FieldBehavior
        switch kind {
        case .linearGravity: field = .linearGravityField(direction: Vector(dx: 0.5 - 0.1 * x, dy: -1))
        case .radialGravity: field = .radialGravityField(position: Point(x: 160 + 4 * x, y: 250))
        case .spring: field = .springField()
        case .electric: field = .electricField()
        case .magnetic: field = .magneticField()
        case .vortex: field = .vortexField()
        case .drag: field = .dragField()
        case .velocity: field = .velocityField(direction: Vector(dx: 0.3 * x - 1, dy: 0.5))
        case .noise: field = .noiseField(smoothness: 0.1 * x, animationSpeed: 0.5 + x)
        case .turbulence: field = .turbulenceField(smoothness: 0.2, animationSpeed: x)
        case .custom: field = .field { p, v, m, q, _ in Vector(dx: -p.x * 0.01 * m + q * v.dy, dy: -p.y * 0.02) }
        }
        if kind != .radialGravity { field.position = Point(x: 160, y: 250 + 6 * x) }
        field.strength = 2 + 0.7 * x
        if kind == .spring || kind == .radialGravity { field.falloff += 0.1 * x }
        field.minimumRadius = 0.05 + 0.01 * x
        if kind == .drag { field.direction = Vector(dx: 0.1 * x, dy: 0) }
        field.region = Region(radius: 150 + 10 * x).union(with: Region(size: Size(width: 320, height: 60 + x)))
        for v in views { field.addItem(v) }
        try! animator.addBehavior(field)
        // A second field on two items, inside an inverse region, so fields sum.
        let second = FieldBehavior.linearGravityField(direction: Vector(dx: 1, dy: 0))
        second.region = Region(size: Size(width: 100 + 5 * x, height: 100)).inverse()
        second.position = Point(x: 160, y: 300)
        second.addItem(views[0]); second.addItem(views[1])
        try! animator.addBehavior(second)
        return (animator, views)
    }

    @Test(arguments: FieldBehavior.Kind.allCases)
    func everyWorldIsBitwiseItsAnimatorAlone(_ kind: FieldBehavior.Kind) throws {
        let count = 11   // two lane groups, the second padded
        let alone = (0..<count).map { world(kind, $0) }
        let batched = (0..<count).map { world(kind, $0) }
        let batch = try BatchAnimator(batched.map(\.0))
        var moved = 0
        for _ in 1...150 {
            for (animator, _) in alone { animator.tick() }
            batch.tick()
        }
        for (k, (a, b)) in zip(alone, batched).enumerated() {
            for (va, vb) in zip(a.1, b.1) {
                #expect(va.center == vb.center && va.angle == vb.angle, "\(kind) world \(k) \(va.name): \(va.center) vs \(vb.center)")
                #expect(a.0.itemState(for: va) == b.0.itemState(for: vb))
            }
            if a.1[1].center != Point(x: 200, y: 200 + 5 * Double(k)) { moved += 1 }
        }
        #expect(moved > 0, "the field moved nothing in any world")
    }

    @Test func worldsWithDifferentFieldsCannotShareABatch() {
        let a = world(.spring, 0).0, b = world(.vortex, 0).0
        #expect(throws: BatchStructureError.self) { try BatchAnimator([a, b]) }
    }
}

extension FieldTests {
    @Test func fieldsPastThe32ndAsChildrenDoNotAct() throws {
        // Through a parent behavior nothing throws, but the plan keeps only the first 32 fields.
        let view = View(name: "probe", center: Point(x: 100, y: 100), size: Size(width: 100, height: 100))
        let parent = DynamicBehavior()
        for k in 0..<33 {
            let field = FieldBehavior.linearGravityField(direction: Vector(dx: 0, dy: k == 32 ? 50 : 0))
            field.addItem(view)
            parent.addChildBehavior(field)
        }
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        animator.addBehavior(parent)
        animator.tick(1.0 / 60)
        #expect(animator.plan?.fields.count == 32)
        // The 33rd (the only one that pulls) did nothing.
        #expect(animator.itemState(for: view)!.velocity == Vector(dx: 0, dy: 0))
    }
}
