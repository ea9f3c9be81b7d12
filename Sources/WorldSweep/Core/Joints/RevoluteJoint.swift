// Box2D 2.3's revolute joint (b2RevoluteJoint): the anchors held together, the bodies free to
// turn about them, with an optional motor (UIKit's pin friction is a motor of speed 0 whose
// maximum torque is `frictionTorque`) and optional angle limits (solved with the point
// constraint as one 3×3 block while a limit is active). Written once over `LaneReal`: Box2D's
// branches become masks, and `any` skips a branch no lane takes.

enum RevoluteJoint {
    /// Where the lanes are in each limit state (equal: both flags; inactive: neither).
    @inline(__always) static func states<L: LaneReal>(_ j: JointLanes<L>) -> (equal: L.Mask, lower: L.Mask, upper: L.Mask, inactive: L.Mask) {
        (L.and(j.atLower, j.atUpper), L.and(j.atLower, L.not(j.atUpper)), L.and(j.atUpper, L.not(j.atLower)),
         L.not(L.or(j.atLower, j.atUpper)))
    }

    static func initVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                          _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        (j.rAx, j.rAy, j.rBx, j.rBy) = j.anchorArms(pA.a, pB.a)
        let mA = j.mA, mB = j.mB, iA = j.iA, iB = j.iB
        let rA = (j.rAx, j.rAy), rB = (j.rBx, j.rBy)
        let fixedRotation = L.isGreaterOrEqual(L(0), iA + iB)   // iA + iB == 0 (never negative)
        var m = Mat33Lanes(zero: L(0))
        m.exx = mA + mB + rA.1 * rA.1 * iA + rB.1 * rB.1 * iB
        m.eyx = -rA.1 * rA.0 * iA - rB.1 * rB.0 * iB
        m.ezx = -rA.1 * iA - rB.1 * iB
        m.exy = m.eyx
        m.eyy = mA + mB + rA.0 * rA.0 * iA + rB.0 * rB.0 * iB
        m.ezy = rA.0 * iA + rB.0 * iB
        m.exz = m.ezx
        m.eyz = m.ezy
        m.ezz = iA + iB
        j.matrix = m
        j.motorMass = L.select(L.isGreater(iA + iB, L(0)), L(1) / (iA + iB), iA + iB)
        j.motorImpulse = L.select(L.or(L.not(j.enableMotor), fixedRotation), L(0), j.motorImpulse)

        // The limit state from the current angle.
        let limited = L.and(j.enableLimit, L.not(fixedRotation))
        let angle = pB.a - pA.a - j.referenceAngle
        let equal = L.isGreater(L(2 * EngineSettings.angularSlop), L.absolute(j.upper - j.lower))
        let belowLower = L.and(L.not(equal), L.isGreaterOrEqual(j.lower, angle))
        let aboveUpper = L.and(L.not(L.or(equal, belowLower)), L.isGreaterOrEqual(angle, j.upper))
        let between = L.not(L.or(equal, L.or(belowLower, aboveUpper)))
        let s = states(j)
        // Entering a limit (or leaving every limit) starts its impulse from zero.
        let resetZ = L.and(limited, L.or(between, L.or(L.and(belowLower, L.not(s.lower)), L.and(aboveUpper, L.not(s.upper)))))
        j.impulseZ = L.select(resetZ, L(0), j.impulseZ)
        j.atLower = L.and(limited, L.or(equal, belowLower))
        j.atUpper = L.and(limited, L.or(equal, aboveUpper))

        j.impulseX = j.impulseX * dtRatio; j.impulseY = j.impulseY * dtRatio; j.impulseZ = j.impulseZ * dtRatio
        j.motorImpulse = j.motorImpulse * dtRatio
        let px = j.impulseX, py = j.impulseY
        applyJointImpulse(j, px: px, py: py, angularA: cross2(rA.0, rA.1, px, py) + j.motorImpulse + j.impulseZ,
                          angularB: cross2(rB.0, rB.1, px, py) + j.motorImpulse + j.impulseZ, &vA, &vB)
    }

    static func solveVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L) {
        let fixedRotation = L.isGreaterOrEqual(L(0), j.iA + j.iB)
        let s = states(j)

        // The motor (friction): within ±h·maxMotor.
        let motor = L.and(j.enableMotor, L.and(L.not(s.equal), L.not(fixedRotation)))
        if L.any(motor) {
            let cdot = vB.w - vA.w - j.motorSpeed
            var impulse = -j.motorMass * cdot
            let old = j.motorImpulse, maxImpulse = h * j.maxMotor
            let updated = clamp(j.motorImpulse + impulse, -maxImpulse, maxImpulse)
            j.motorImpulse = L.select(motor, updated, j.motorImpulse)
            impulse = L.select(motor, j.motorImpulse - old, L(0))
            vA.w = L.select(motor, vA.w - j.iA * impulse, vA.w)
            vB.w = L.select(motor, vB.w + j.iB * impulse, vB.w)
        }

        let (cdot1x, cdot1y) = anchorVelocity(j, vA, vB)
        let limit = L.and(j.enableLimit, L.and(L.not(s.inactive), L.not(fixedRotation)))
        var nvA = vA, nvB = vB
        if L.any(limit) {
            // The point and the limit as one block.
            let cdot2 = vB.w - vA.w
            var (ix, iy, iz) = j.matrix.solve33(cdot1x, cdot1y, cdot2)
            ix = -ix; iy = -iy; iz = -iz
            let newZ = j.impulseZ + iz
            // A lower limit cannot pull, an upper cannot push: then only the point is solved.
            let clampLower = L.and(s.lower, L.isGreater(L(0), newZ)), clampUpper = L.and(s.upper, L.isGreater(newZ, L(0)))
            let reduce = L.or(clampLower, clampUpper)
            let rhsX = -cdot1x + j.impulseZ * j.matrix.ezx, rhsY = -cdot1y + j.impulseZ * j.matrix.ezy
            let (rx, ry) = j.matrix.solve22(rhsX, rhsY)
            let fx = L.select(reduce, rx, ix), fy = L.select(reduce, ry, iy), fz = L.select(reduce, -j.impulseZ, iz)
            let lx = j.impulseX + fx, ly = j.impulseY + fy, lz = L.select(reduce, L(0), j.impulseZ + iz)
            nvA = vA; nvB = vB
            applyJointImpulse(j, px: fx, py: fy, angularA: cross2(j.rAx, j.rAy, fx, fy) + fz,
                              angularB: cross2(j.rBx, j.rBy, fx, fy) + fz, &nvA, &nvB)
            j.impulseX = L.select(limit, lx, j.impulseX); j.impulseY = L.select(limit, ly, j.impulseY)
            j.impulseZ = L.select(limit, lz, j.impulseZ)
        }
        // The point alone where no limit is active.
        let free = L.not(limit)
        if L.any(free) {
            let (ix, iy) = j.matrix.solve22(-cdot1x, -cdot1y)
            var fvA = vA, fvB = vB
            applyJointImpulse(j, px: ix, py: iy, angularA: cross2(j.rAx, j.rAy, ix, iy), angularB: cross2(j.rBx, j.rBy, ix, iy), &fvA, &fvB)
            j.impulseX = L.select(free, j.impulseX + ix, j.impulseX); j.impulseY = L.select(free, j.impulseY + iy, j.impulseY)
            nvA = VelocityLanes(vx: L.select(free, fvA.vx, nvA.vx), vy: L.select(free, fvA.vy, nvA.vy), w: L.select(free, fvA.w, nvA.w))
            nvB = VelocityLanes(vx: L.select(free, fvB.vx, nvB.vx), vy: L.select(free, fvB.vy, nvB.vy), w: L.select(free, fvB.w, nvB.w))
        }
        vA = nvA; vB = nvB
    }

    static func solvePosition<L: LaneReal>(_ j: JointLanes<L>, _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        let fixedRotation = L.isGreaterOrEqual(L(0), j.iA + j.iB)
        let s = states(j)
        let limit = L.and(j.enableLimit, L.and(L.not(s.inactive), L.not(fixedRotation)))
        var angularError = L(0)
        if L.any(limit) {
            let angle = pB.a - pA.a - j.referenceAngle
            let maxCorrection = L(EngineSettings.maxAngularCorrection), slop = L(EngineSettings.angularSlop)
            let cEqual = clamp(angle - j.lower, -maxCorrection, maxCorrection)
            let cLower = clamp(angle - j.lower + slop, -maxCorrection, L(0))
            let cUpper = clamp(angle - j.upper - slop, L(0), maxCorrection)
            let c = L.select(s.equal, cEqual, L.select(s.lower, cLower, cUpper))
            let error = L.select(s.equal, L.absolute(cEqual), L.select(s.lower, -(angle - j.lower), angle - j.upper))
            angularError = L.select(limit, error, L(0))
            let limitImpulse = L.select(limit, -j.motorMass * c, L(0))
            pA.a = L.select(limit, pA.a - j.iA * limitImpulse, pA.a)
            pB.a = L.select(limit, pB.a + j.iB * limitImpulse, pB.a)
        }

        // The point.
        let (rAx, rAy, rBx, rBy) = j.anchorArms(pA.a, pB.a)
        let cx = pB.cx + rBx - pA.cx - rAx, cy = pB.cy + rBy - pA.cy - rAy
        let positionError = (cx * cx + cy * cy).squareRoot()
        let mA = j.mA, mB = j.mB, iA = j.iA, iB = j.iB
        var k = Mat33Lanes(zero: L(0))
        k.exx = mA + mB + iA * rAy * rAy + iB * rBy * rBy
        k.exy = -iA * rAx * rAy - iB * rBx * rBy
        k.eyx = k.exy
        k.eyy = mA + mB + iA * rAx * rAx + iB * rBx * rBx
        var (ix, iy) = k.solve22(cx, cy)
        ix = -ix; iy = -iy
        applyJointCorrection(j, px: ix, py: iy, angularA: cross2(rAx, rAy, ix, iy), angularB: cross2(rBx, rBy, ix, iy), &pA, &pB)
        return L.and(L.isGreaterOrEqual(L(EngineSettings.linearSlop), positionError),
                     L.isGreaterOrEqual(L(EngineSettings.angularSlop), angularError))
    }
}
