// Box2D 2.3's rope joint (b2RopeJoint): the anchors may come closer but never farther apart than
// `length` (the maximum length); slack, it pushes nothing, and only a stretched rope is
// corrected in position. Written once over `LaneReal`.

enum RopeJoint {
    static func initVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                          _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        (j.rAx, j.rAy, j.rBx, j.rBy) = j.anchorArms(pA.a, pB.a)
        let ux = pB.cx + j.rBx - pA.cx - j.rAx, uy = pB.cy + j.rBy - pA.cy - j.rAy
        j.currentLength = (ux * ux + uy * uy).squareRoot()
        // Taut: at its upper limit (Box2D keeps the state but never reads it again).
        j.atUpper = L.isGreater(j.currentLength - j.length, L(0))
        // Anchors within a slop of each other: no direction, no mass, no impulse (Box2D returns early).
        let long = L.isGreater(j.currentLength, L(EngineSettings.linearSlop))
        let inverseLength = L(1) / j.currentLength
        j.ux = L.select(long, ux * inverseLength, L(0)); j.uy = L.select(long, uy * inverseLength, L(0))
        let crA = cross2(j.rAx, j.rAy, j.ux, j.uy), crB = cross2(j.rBx, j.rBy, j.ux, j.uy)
        let invMass = j.mA + j.iA * crA * crA + j.mB + j.iB * crB * crB
        j.mass = L.select(long, Mat33Lanes<L>.inverseOrZero(invMass), L(0))
        j.impulseX = L.select(long, j.impulseX * dtRatio, L(0))
        let px = j.impulseX * j.ux, py = j.impulseX * j.uy
        applyJointImpulse(j, px: px, py: py, angularA: cross2(j.rAx, j.rAy, px, py), angularB: cross2(j.rBx, j.rBy, px, py), &vA, &vB)
    }

    static func solveVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L) {
        let vpAx = vA.vx + (-vA.w * j.rAy), vpAy = vA.vy + vA.w * j.rAx
        let vpBx = vB.vx + (-vB.w * j.rBy), vpBy = vB.vy + vB.w * j.rBx
        let c = j.currentLength - j.maxLength
        var cdot = j.ux * (vpBx - vpAx) + j.uy * (vpBy - vpAy)
        // Predictive: while slack, allow the closing speed that just takes up the slack.
        cdot = L.select(L.isGreater(L(0), c), cdot + (L(1) / h) * c, cdot)
        var impulse = -j.mass * cdot
        let old = j.impulseX
        j.impulseX = L.minimum(L(0), j.impulseX + impulse)
        impulse = j.impulseX - old
        let px = impulse * j.ux, py = impulse * j.uy
        applyJointImpulse(j, px: px, py: py, angularA: cross2(j.rAx, j.rAy, px, py), angularB: cross2(j.rBx, j.rBy, px, py), &vA, &vB)
    }

    static func solvePosition<L: LaneReal>(_ j: JointLanes<L>, _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        let (rAx, rAy, rBx, rBy) = j.anchorArms(pA.a, pB.a)
        var ux = pB.cx + rBx - pA.cx - rAx, uy = pB.cy + rBy - pA.cy - rAy
        let length = normalizedLength(ux, uy)
        (ux, uy) = ContactKernels.normalized(ux, uy)
        let c = clamp(length - j.maxLength, L(0), L(EngineSettings.maxLinearCorrection))
        let impulse = -j.mass * c
        let px = impulse * ux, py = impulse * uy
        applyJointCorrection(j, px: px, py: py, angularA: cross2(rAx, rAy, px, py), angularB: cross2(rBx, rBy, px, py), &pA, &pB)
        return L.isGreater(L(EngineSettings.linearSlop), length - j.maxLength)
    }
}

extension JointLanes {
    /// Rope: the maximum length is the definition's `length`.
    @inline(__always) var maxLength: L { length }
}
