// Box2D 2.3's distance joint (b2DistanceJoint): the anchors kept `length` apart, rigidly, or as a
// soft constraint when `frequency` > 0 (a spring: ω = 2πf, k = m·ω², c = 2m·ζ·ω with m the
// joint's effective mass, γ = 1/(h(c + h·k)), bias = C·h·k·γ). A spring does no position
// correction. Written once over `LaneReal`.

enum DistanceJoint {
    static func initVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                          _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        (j.rAx, j.rAy, j.rBx, j.rBy) = j.anchorArms(pA.a, pB.a)
        var ux = pB.cx + j.rBx - pA.cx - j.rAx, uy = pB.cy + j.rBy - pA.cy - j.rAy
        let length = (ux * ux + uy * uy).squareRoot()
        let long = L.isGreater(length, L(EngineSettings.linearSlop))
        let inverseLength = L(1) / length
        ux = L.select(long, ux * inverseLength, L(0)); uy = L.select(long, uy * inverseLength, L(0))
        j.ux = ux; j.uy = uy
        let crAu = cross2(j.rAx, j.rAy, ux, uy), crBu = cross2(j.rBx, j.rBy, ux, uy)
        var invMass = j.mA + j.iA * crAu * crAu + j.mB + j.iB * crBu * crBu
        j.mass = Mat33Lanes<L>.inverseOrZero(invMass)

        // A spring where frequency > 0.
        let spring = L.isGreater(j.frequency, L(0))
        let c = length - j.length
        let omega = L(2 * EngineSettings.b2Pi) * j.frequency
        let d = L(2) * j.mass * j.dampingRatio * omega
        let k = j.mass * omega * omega
        let gamma = Mat33Lanes<L>.inverseOrZero(h * (d + h * k))
        j.gamma = L.select(spring, gamma, L(0))
        j.bias = L.select(spring, c * h * k * gamma, L(0))
        invMass = invMass + j.gamma
        j.mass = L.select(spring, Mat33Lanes<L>.inverseOrZero(invMass), j.mass)

        j.impulseX = j.impulseX * dtRatio
        let px = j.impulseX * ux, py = j.impulseX * uy
        applyJointImpulse(j, px: px, py: py, angularA: cross2(j.rAx, j.rAy, px, py), angularB: cross2(j.rBx, j.rBy, px, py), &vA, &vB)
    }

    static func solveVelocity<L: LaneReal>(_ j: inout JointLanes<L>, _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>) {
        let vpAx = vA.vx + (-vA.w * j.rAy), vpAy = vA.vy + vA.w * j.rAx
        let vpBx = vB.vx + (-vB.w * j.rBy), vpBy = vB.vy + vB.w * j.rBx
        let cdot = j.ux * (vpBx - vpAx) + j.uy * (vpBy - vpAy)
        let impulse = -j.mass * (cdot + j.bias + j.gamma * j.impulseX)
        j.impulseX = j.impulseX + impulse
        let px = impulse * j.ux, py = impulse * j.uy
        applyJointImpulse(j, px: px, py: py, angularA: cross2(j.rAx, j.rAy, px, py), angularB: cross2(j.rBx, j.rBy, px, py), &vA, &vB)
    }

    static func solvePosition<L: LaneReal>(_ j: JointLanes<L>, _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        // A spring leaves positions alone (and is always okay).
        let rigid = L.not(L.isGreater(j.frequency, L(0)))
        let (rAx, rAy, rBx, rBy) = j.anchorArms(pA.a, pB.a)
        var ux = pB.cx + rBx - pA.cx - rAx, uy = pB.cy + rBy - pA.cy - rAy
        let length = normalizedLength(ux, uy)
        (ux, uy) = ContactKernels.normalized(ux, uy)
        let clamped = clamp(length - j.length, L(-EngineSettings.maxLinearCorrection), L(EngineSettings.maxLinearCorrection))
        let impulse = L.select(rigid, -j.mass * clamped, L(0))
        let px = impulse * ux, py = impulse * uy
        applyJointCorrection(j, px: px, py: py, angularA: cross2(rAx, rAy, px, py), angularB: cross2(rBx, rBy, px, py), &pA, &pB)
        return L.or(L.not(rigid), L.isGreater(L(EngineSettings.linearSlop), L.absolute(clamped)))
    }
}
