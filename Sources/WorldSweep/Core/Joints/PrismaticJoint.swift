// Box2D 2.3's prismatic joint (b2PrismaticJoint): body B slides along an axis fixed in body A,
// neither leaving the axis nor turning relative to A, with an optional motor (UIKit's sliding
// friction: a motor of speed 0 whose maximum force is `frictionTorque`) and optional
// translation limits (solved with the axis constraints as one 3×3 block while active). Written
// once over `LaneReal`: Box2D's branches become masks, and `any` skips a branch no lane takes.

enum PrismaticJoint {
    /// The axis, the perpendicular and their lever arms for the bodies at pA, pB (rA, rB set).
    @inline(__always) static func geometry<L: LaneReal>(_ j: JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                                       rAx: L, rAy: L, rBx: L, rBy: L, forPosition: Bool = false)
        -> (dx: L, dy: L, ax: L, ay: L, a1: L, a2: L, px: L, py: L, s1: L, s2: L) {
        // Box2D groups d = (cB − cA) + rB − rA at set-up and cB + rB − cA − rA in the position pass.
        let dx = forPosition ? pB.cx + rBx - pA.cx - rAx : pB.cx - pA.cx + rBx - rAx
        let dy = forPosition ? pB.cy + rBy - pA.cy - rAy : pB.cy - pA.cy + rBy - rAy
        let (sA, cA) = sinCos(pA.a)
        let ax = cA * j.localAxisAX - sA * j.localAxisAY, ay = sA * j.localAxisAX + cA * j.localAxisAY
        let a1 = cross2(dx + rAx, dy + rAy, ax, ay), a2 = cross2(rBx, rBy, ax, ay)
        // localYAxisA = b2Cross(1, localXAxisA) = (−y, x)
        let lyx = -j.localAxisAY, lyy = j.localAxisAX
        let px = cA * lyx - sA * lyy, py = sA * lyx + cA * lyy
        let s1 = cross2(dx + rAx, dy + rAy, px, py), s2 = cross2(rBx, rBy, px, py)
        return (dx, dy, ax, ay, a1, a2, px, py, s1, s2)
    }

    /// K for the perpendicular, angle and axis constraints (k22 = 1 where neither body turns).
    @inline(__always) static func block<L: LaneReal>(_ j: JointLanes<L>, a1: L, a2: L, s1: L, s2: L) -> Mat33Lanes<L> {
        let mA = j.mA, mB = j.mB, iA = j.iA, iB = j.iB
        let k11 = mA + mB + iA * s1 * s1 + iB * s2 * s2
        let k12 = iA * s1 + iB * s2
        let k13 = iA * s1 * a1 + iB * s2 * a2
        let k22raw = iA + iB
        let k22 = L.select(L.isGreaterOrEqual(L(0), k22raw), L(1), k22raw)
        let k23 = iA * a1 + iB * a2
        let k33 = mA + mB + iA * a1 * a1 + iB * a2 * a2
        var k = Mat33Lanes(zero: L(0))
        k.exx = k11; k.exy = k12; k.exz = k13
        k.eyx = k12; k.eyy = k22; k.eyz = k23
        k.ezx = k13; k.ezy = k23; k.ezz = k33
        return k
    }

    static func initVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                          _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        (j.rAx, j.rAy, j.rBx, j.rBy) = j.anchorArms(pA.a, pB.a)
        let g = geometry(j, pA, pB, rAx: j.rAx, rAy: j.rAy, rBx: j.rBx, rBy: j.rBy)
        j.ux = g.ax; j.uy = g.ay; j.a1 = g.a1; j.a2 = g.a2
        j.perpX = g.px; j.perpY = g.py; j.s1 = g.s1; j.s2 = g.s2
        let motorMass = j.mA + j.mB + j.iA * g.a1 * g.a1 + j.iB * g.a2 * g.a2
        j.motorMass = L.select(L.isGreater(motorMass, L(0)), L(1) / motorMass, motorMass)
        j.matrix = block(j, a1: g.a1, a2: g.a2, s1: g.s1, s2: g.s2)

        // The limit state from the current translation.
        let translation = g.ax * g.dx + g.ay * g.dy
        let equal = L.isGreater(L(2 * EngineSettings.linearSlop), L.absolute(j.upper - j.lower))
        let belowLower = L.and(L.not(equal), L.isGreaterOrEqual(j.lower, translation))
        let aboveUpper = L.and(L.not(L.or(equal, belowLower)), L.isGreaterOrEqual(translation, j.upper))
        let between = L.not(L.or(equal, L.or(belowLower, aboveUpper)))
        let s = RevoluteJoint.states(j)
        let limited = j.enableLimit
        let resetZ = L.or(L.not(limited),
                          L.or(between, L.or(L.and(belowLower, L.not(s.lower)), L.and(aboveUpper, L.not(s.upper)))))
        j.impulseZ = L.select(resetZ, L(0), j.impulseZ)
        j.atLower = L.and(limited, L.or(equal, belowLower))
        j.atUpper = L.and(limited, L.or(equal, aboveUpper))
        j.motorImpulse = L.select(j.enableMotor, j.motorImpulse, L(0))

        j.impulseX = j.impulseX * dtRatio; j.impulseY = j.impulseY * dtRatio; j.impulseZ = j.impulseZ * dtRatio
        j.motorImpulse = j.motorImpulse * dtRatio
        let axial = j.motorImpulse + j.impulseZ
        let px = j.impulseX * j.perpX + axial * j.ux, py = j.impulseX * j.perpY + axial * j.uy
        let la = j.impulseX * j.s1 + j.impulseY + axial * j.a1
        let lb = j.impulseX * j.s2 + j.impulseY + axial * j.a2
        applyJointImpulse(j, px: px, py: py, angularA: la, angularB: lb, &vA, &vB)
    }

    static func solveVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L) {
        let s = RevoluteJoint.states(j)
        let motor = L.and(j.enableMotor, L.not(s.equal))
        if L.any(motor) {
            let cdot = j.ux * (vB.vx - vA.vx) + j.uy * (vB.vy - vA.vy) + j.a2 * vB.w - j.a1 * vA.w
            var impulse = j.motorMass * (j.motorSpeed - cdot)
            let old = j.motorImpulse, maxImpulse = h * j.maxMotor
            let updated = clamp(j.motorImpulse + impulse, -maxImpulse, maxImpulse)
            j.motorImpulse = L.select(motor, updated, j.motorImpulse)
            impulse = L.select(motor, j.motorImpulse - old, L(0))
            var mA = vA, mB = vB
            applyJointImpulse(j, px: impulse * j.ux, py: impulse * j.uy, angularA: impulse * j.a1, angularB: impulse * j.a2, &mA, &mB)
            vA = VelocityLanes(vx: L.select(motor, mA.vx, vA.vx), vy: L.select(motor, mA.vy, vA.vy), w: L.select(motor, mA.w, vA.w))
            vB = VelocityLanes(vx: L.select(motor, mB.vx, vB.vx), vy: L.select(motor, mB.vy, vB.vy), w: L.select(motor, mB.w, vB.w))
        }

        let cdot1x = j.perpX * (vB.vx - vA.vx) + j.perpY * (vB.vy - vA.vy) + j.s2 * vB.w - j.s1 * vA.w
        let cdot1y = vB.w - vA.w
        let limit = L.and(j.enableLimit, L.not(s.inactive))
        var dfx = L(0), dfy = L(0), dfz = L(0)
        var lx = j.impulseX, ly = j.impulseY, lz = j.impulseZ
        if L.any(limit) {
            let cdot2 = j.ux * (vB.vx - vA.vx) + j.uy * (vB.vy - vA.vy) + j.a2 * vB.w - j.a1 * vA.w
            let f1 = (j.impulseX, j.impulseY, j.impulseZ)
            let (sx, sy, sz) = j.matrix.solve33(-cdot1x, -cdot1y, -cdot2)
            var zx = f1.0 + sx, zy = f1.1 + sy, zz = f1.2 + sz
            zz = L.select(s.lower, L.maximum(zz, L(0)), L.select(s.upper, L.minimum(zz, L(0)), zz))
            // f2(1:2) = invK(1:2,1:2) · (−Cdot(1:2) − K(1:2,3) · (f2(3) − f1(3))) + f1(1:2)
            let bx = -cdot1x - (zz - f1.2) * j.matrix.ezx, by = -cdot1y - (zz - f1.2) * j.matrix.ezy
            let (rx, ry) = j.matrix.solve22(bx, by)
            zx = rx + f1.0; zy = ry + f1.1
            lx = L.select(limit, zx, lx); ly = L.select(limit, zy, ly); lz = L.select(limit, zz, lz)
            dfx = L.select(limit, zx - f1.0, dfx); dfy = L.select(limit, zy - f1.1, dfy); dfz = L.select(limit, zz - f1.2, dfz)
        }
        let free = L.not(limit)
        if L.any(free) {
            let (fx, fy) = j.matrix.solve22(-cdot1x, -cdot1y)
            lx = L.select(free, j.impulseX + fx, lx); ly = L.select(free, j.impulseY + fy, ly)
            dfx = L.select(free, fx, dfx); dfy = L.select(free, fy, dfy); dfz = L.select(free, L(0), dfz)
        }
        j.impulseX = lx; j.impulseY = ly; j.impulseZ = lz
        // Where free, dfz is 0 and these are Box2D's P = df.x·perp, LA = df.x·s1 + df.y.
        let px = L.select(free, dfx * j.perpX, dfx * j.perpX + dfz * j.ux)
        let py = L.select(free, dfx * j.perpY, dfx * j.perpY + dfz * j.uy)
        let la = L.select(free, dfx * j.s1 + dfy, dfx * j.s1 + dfy + dfz * j.a1)
        let lb = L.select(free, dfx * j.s2 + dfy, dfx * j.s2 + dfy + dfz * j.a2)
        applyJointImpulse(j, px: px, py: py, angularA: la, angularB: lb, &vA, &vB)
    }

    static func solvePosition<L: LaneReal>(_ j: JointLanes<L>, _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        let (rAx, rAy, rBx, rBy) = j.anchorArms(pA.a, pB.a)
        let g = geometry(j, pA, pB, rAx: rAx, rAy: rAy, rBx: rBx, rBy: rBy, forPosition: true)
        let c1x = g.px * g.dx + g.py * g.dy, c1y = pB.a - pA.a - j.referenceAngle
        var linearError = L.absolute(c1x)
        let angularError = L.absolute(c1y)
        let maxCorrection = L(EngineSettings.maxLinearCorrection), slop = L(EngineSettings.linearSlop)

        let translation = g.ax * g.dx + g.ay * g.dy
        let equal = L.isGreater(L(2 * EngineSettings.linearSlop), L.absolute(j.upper - j.lower))
        let belowLower = L.and(L.not(equal), L.isGreaterOrEqual(j.lower, translation))
        let aboveUpper = L.and(L.not(L.or(equal, belowLower)), L.isGreaterOrEqual(translation, j.upper))
        let active = L.and(j.enableLimit, L.or(equal, L.or(belowLower, aboveUpper)))
        // Box2D 2.3 clamps the translation itself (not its distance from the limit) when the limits are equal.
        let c2 = L.select(equal, clamp(translation, -maxCorrection, maxCorrection),
                          L.select(belowLower, clamp(translation - j.lower + slop, -maxCorrection, L(0)),
                                   clamp(translation - j.upper - slop, L(0), maxCorrection)))
        let limitError = L.select(equal, L.absolute(translation), L.select(belowLower, j.lower - translation, translation - j.upper))
        linearError = L.select(active, L.maximum(linearError, limitError), linearError)

        let k = block(j, a1: g.a1, a2: g.a2, s1: g.s1, s2: g.s2)
        var ix: L, iy: L, iz = L(0)
        do {
            // Inactive: the 2×2 block of perpendicular and angle (b2Mat22::Solve, the same arithmetic as Solve22).
            let (fx, fy) = k.solve22(-c1x, -c1y)
            ix = fx; iy = fy
        }
        if L.any(active) {
            let (bx, by, bz) = k.solve33(-c1x, -c1y, -c2)
            ix = L.select(active, bx, ix); iy = L.select(active, by, iy); iz = L.select(active, bz, iz)
        }
        let px = ix * g.px + iz * g.ax, py = ix * g.py + iz * g.ay
        let la = ix * g.s1 + iy + iz * g.a1, lb = ix * g.s2 + iy + iz * g.a2
        applyJointCorrection(j, px: px, py: py, angularA: la, angularB: lb, &pA, &pB)
        return L.and(L.isGreaterOrEqual(slop, linearError), L.isGreaterOrEqual(L(EngineSettings.angularSlop), angularError))
    }
}
