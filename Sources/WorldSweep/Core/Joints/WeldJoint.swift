// Box2D 2.3's weld joint (b2WeldJoint): the anchors held together and the relative angle held at
// the reference angle, as one 3×3 block; with `frequency` > 0 the angle is a soft spring (as the
// distance joint's) and only the point is corrected in position. Written once over `LaneReal`.

enum WeldJoint {
    /// The 3×3 effective-mass matrix K of the point and angle constraints for arms rA, rB.
    @inline(__always) static func block<L: LaneReal>(_ j: JointLanes<L>, _ rAx: L, _ rAy: L, _ rBx: L, _ rBy: L) -> Mat33Lanes<L> {
        let mA = j.mA, mB = j.mB, iA = j.iA, iB = j.iB
        var k = Mat33Lanes(zero: L(0))
        k.exx = mA + mB + rAy * rAy * iA + rBy * rBy * iB
        k.eyx = -rAy * rAx * iA - rBy * rBx * iB
        k.ezx = -rAy * iA - rBy * iB
        k.exy = k.eyx
        k.eyy = mA + mB + rAx * rAx * iA + rBx * rBx * iB
        k.ezy = rAx * iA + rBx * iB
        k.exz = k.ezx
        k.eyz = k.ezy
        k.ezz = iA + iB
        return k
    }

    static func initVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                          _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        (j.rAx, j.rAy, j.rBx, j.rBy) = j.anchorArms(pA.a, pB.a)
        let k = block(j, j.rAx, j.rAy, j.rBx, j.rBy)
        let spring = L.isGreater(j.frequency, L(0))
        let noRotation = L.isGreaterOrEqual(L(0), k.ezz)
        let inverse22 = k.inverse22()
        // Spring: the angle's soft mass in ez.z.
        var invM = j.iA + j.iB
        let m = L.select(L.isGreater(invM, L(0)), L(1) / invM, L(0))
        let c = pB.a - pA.a - j.referenceAngle
        let omega = L(2 * EngineSettings.b2Pi) * j.frequency
        let d = L(2) * m * j.dampingRatio * omega
        let kk = m * omega * omega
        let gamma = Mat33Lanes<L>.inverseOrZero(h * (d + h * kk))
        invM = invM + gamma
        var springMass = inverse22
        springMass.ezz = Mat33Lanes<L>.inverseOrZero(invM)
        let rigidMass = L.any(L.not(spring)) ? k.symmetricInverse33() : inverse22
        j.matrix = select3(spring, springMass, select3(noRotation, inverse22, rigidMass))
        j.gamma = L.select(spring, gamma, L(0))
        j.bias = L.select(spring, c * h * kk * gamma, L(0))

        j.impulseX = j.impulseX * dtRatio; j.impulseY = j.impulseY * dtRatio; j.impulseZ = j.impulseZ * dtRatio
        let px = j.impulseX, py = j.impulseY
        applyJointImpulse(j, px: px, py: py, angularA: cross2(j.rAx, j.rAy, px, py) + j.impulseZ,
                          angularB: cross2(j.rBx, j.rBy, px, py) + j.impulseZ, &vA, &vB)
    }

    static func solveVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>) {
        let spring = L.isGreater(j.frequency, L(0))
        var sA = vA, sB = vB, rA = vA, rB = vB
        var springImpulse = (j.impulseX, j.impulseY, j.impulseZ), rigidImpulse = springImpulse
        if L.any(spring) {
            // The angle first (soft), then the point.
            let cdot2 = sB.w - sA.w
            let impulse2 = -j.matrix.ezz * (cdot2 + j.bias + j.gamma * j.impulseZ)
            springImpulse.2 = springImpulse.2 + impulse2
            sA.w = sA.w - j.iA * impulse2
            sB.w = sB.w + j.iB * impulse2
            let (cdot1x, cdot1y) = anchorVelocity(j, sA, sB)
            var (ix, iy) = j.matrix.times22(cdot1x, cdot1y)
            ix = -ix; iy = -iy
            springImpulse.0 = springImpulse.0 + ix; springImpulse.1 = springImpulse.1 + iy
            applyJointImpulse(j, px: ix, py: iy, angularA: cross2(j.rAx, j.rAy, ix, iy), angularB: cross2(j.rBx, j.rBy, ix, iy), &sA, &sB)
        }
        let rigid = L.not(spring)
        if L.any(rigid) {
            let (cdot1x, cdot1y) = anchorVelocity(j, rA, rB)
            let cdot2 = rB.w - rA.w
            var (ix, iy, iz) = j.matrix.times(cdot1x, cdot1y, cdot2)
            ix = -ix; iy = -iy; iz = -iz
            rigidImpulse = (rigidImpulse.0 + ix, rigidImpulse.1 + iy, rigidImpulse.2 + iz)
            applyJointImpulse(j, px: ix, py: iy, angularA: cross2(j.rAx, j.rAy, ix, iy) + iz,
                              angularB: cross2(j.rBx, j.rBy, ix, iy) + iz, &rA, &rB)
        }
        j.impulseX = L.select(spring, springImpulse.0, rigidImpulse.0)
        j.impulseY = L.select(spring, springImpulse.1, rigidImpulse.1)
        j.impulseZ = L.select(spring, springImpulse.2, rigidImpulse.2)
        vA = VelocityLanes(vx: L.select(spring, sA.vx, rA.vx), vy: L.select(spring, sA.vy, rA.vy), w: L.select(spring, sA.w, rA.w))
        vB = VelocityLanes(vx: L.select(spring, sB.vx, rB.vx), vy: L.select(spring, sB.vy, rB.vy), w: L.select(spring, sB.w, rB.w))
    }

    static func solvePosition<L: LaneReal>(_ j: JointLanes<L>, _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        let (rAx, rAy, rBx, rBy) = j.anchorArms(pA.a, pB.a)
        let k = block(j, rAx, rAy, rBx, rBy)
        let c1x = pB.cx + rBx - pA.cx - rAx, c1y = pB.cy + rBy - pA.cy - rAy
        let c2 = pB.a - pA.a - j.referenceAngle
        let positionError = (c1x * c1x + c1y * c1y).squareRoot()
        let spring = L.isGreater(j.frequency, L(0))
        // Spring, or no rotation: the point alone; else point and angle as one block.
        let pointOnly = L.or(spring, L.isGreaterOrEqual(L(0), k.ezz))
        let angularError = L.select(spring, L(0), L.absolute(c2))
        let (px2, py2) = k.solve22(c1x, c1y)
        var (ix, iy, iz) = (-px2, -py2, L(0))
        if L.any(L.not(pointOnly)) {
            let (bx, by, bz) = k.solve33(c1x, c1y, c2)
            ix = L.select(pointOnly, ix, -bx); iy = L.select(pointOnly, iy, -by); iz = L.select(pointOnly, iz, -bz)
        }
        // The spring's correction has no angular part: iz is 0 there, and rA × P alone turns the bodies.
        applyJointCorrection(j, px: ix, py: iy, angularA: cross2(rAx, rAy, ix, iy) + iz, angularB: cross2(rBx, rBy, ix, iy) + iz, &pA, &pB)
        return L.and(L.isGreaterOrEqual(L(EngineSettings.linearSlop), positionError),
                     L.isGreaterOrEqual(L(EngineSettings.angularSlop), angularError))
    }

    @inline(__always) static func select3<L: LaneReal>(_ m: L.Mask, _ a: Mat33Lanes<L>, _ b: Mat33Lanes<L>) -> Mat33Lanes<L> {
        var r = b
        r.exx = L.select(m, a.exx, b.exx); r.exy = L.select(m, a.exy, b.exy); r.exz = L.select(m, a.exz, b.exz)
        r.eyx = L.select(m, a.eyx, b.eyx); r.eyy = L.select(m, a.eyy, b.eyy); r.eyz = L.select(m, a.eyz, b.eyz)
        r.ezx = L.select(m, a.ezx, b.ezx); r.ezy = L.select(m, a.ezy, b.ezy); r.ezz = L.select(m, a.ezz, b.ezz)
        return r
    }
}
