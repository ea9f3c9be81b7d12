import Testing
@testable import WorldSweep

/// Both integrator back ends apply the single-world rule (`integrateVelocity`, `integratePosition`)
/// to every body of every world: SIMD bitwise, BLAS to rounding.
@Suite struct LaneIntegratorTests {
    /// Deterministic pseudo-random bodies in 13 worlds (not a multiple of the 8-lane width), some
    /// fast enough to hit the translation and rotation caps.
    func makeBodies(lanes: Int = 13, bodyCount: Int = 3) -> ([[Body]], LaneBodies, [Vec2]) {
        var seed: UInt64 = 12345
        func next() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24) * 2 - 1
        }
        let h = EngineSettings.subStep
        var worlds: [[Body]] = []
        var gravity: [Vec2] = []
        let lanesState = LaneBodies(bodyCount: bodyCount, lanes: lanes)
        for lane in 0..<lanes {
            let g = Vec2(10 * next(), 10 * next())
            gravity.append(g)
            var bodies: [Body] = []
            for k in 0..<bodyCount {
                var b = Body(shape: .box(halfWidth: 0.2 + 0.1 * abs(next()), halfHeight: 0.3), position: Vec2(next(), next()),
                             angle: next(), isStatic: false)
                b.density = 0.5 + abs(next())
                b.resetMassData()
                b.gravityScale = k == 2 ? 0 : 1
                b.linearDamping = abs(next())
                b.angularDamping = abs(next())
                let fast: Float = lane % 5 == 0 ? 400 : 3   // 400 m/s: past the 200 pt/sub-step cap
                b.v = Vec2(fast * next(), fast * next())
                b.w = lane % 4 == 0 ? 500 * next() : next()
                b.force = Vec2(next(), next())
                b.torque = next()
                bodies.append(b)
                lanesState.load(b, body: k, lane: lane, gravity: g, h: h)
            }
            worlds.append(bodies)
        }
        return (worlds, lanesState, gravity)
    }

    /// The single-world rule for one body: what the world's island solver does before contacts.
    func reference(_ b: Body, gravity: Vec2) -> (BodyPosition, BodyVelocity) {
        let h = EngineSettings.subStep
        var s = BodyVelocity(v: b.v, w: b.w)
        integrateVelocity(&s, b, gravity: gravity, h: h)
        var p = BodyPosition(c: b.sweep.c, a: b.sweep.a)
        integratePosition(&p, &s, h: h)
        return (p, s)
    }

    @Test func simdIsBitwiseTheSingleWorldRule() {
        var (worlds, lanes, gravity) = makeBodies()
        _ = gravity
        LaneIntegrator.simd.integrateVelocities(lanes, h: EngineSettings.subStep)
        LaneIntegrator.simd.integratePositions(lanes, h: EngineSettings.subStep)
        var capped = 0
        for (lane, bodies) in worlds.enumerated() {
            for (k, b) in bodies.enumerated() {
                let (p, s) = reference(b, gravity: gravity[lane])
                let i = lanes.index(body: k, lane: lane)
                #expect(lanes.vx[i] == s.v.x && lanes.vy[i] == s.v.y && lanes.w[i] == s.w, "lane \(lane) body \(k)")
                #expect(lanes.cx[i] == p.c.x && lanes.cy[i] == p.c.y && lanes.a[i] == p.a, "lane \(lane) body \(k)")
                if (s.v.length * EngineSettings.subStep - EngineSettings.maxTranslation).magnitude < 1e-4 { capped += 1 }
            }
        }
        #expect(capped > 0)   // the caps were exercised
        worlds.removeAll()
    }

    @Test func blasMatchesTheRuleToRounding() {
        let (worlds, start, gravity) = makeBodies()
        let lanes = start
        LaneIntegrator.blas.integrateVelocities(lanes, h: EngineSettings.subStep)
        LaneIntegrator.blas.integratePositions(lanes, h: EngineSettings.subStep)
        for (lane, bodies) in worlds.enumerated() {
            for (k, b) in bodies.enumerated() {
                let (p, s) = reference(b, gravity: gravity[lane])
                let i = lanes.index(body: k, lane: lane)
                for (got, want) in [(lanes.vx[i], s.v.x), (lanes.vy[i], s.v.y), (lanes.w[i], s.w),
                                    (lanes.cx[i], p.c.x), (lanes.cy[i], p.c.y), (lanes.a[i], p.a)] {
                    #expect(abs(got - want) <= 1e-5 * max(1, abs(want)), "lane \(lane) body \(k): \(got) vs \(want)")
                }
            }
        }
    }
}
