// What every joint kernel shares: a joint's definition, its carried impulses and its per-step
// temporaries in one lane form (`Float` for one world, `SIMD8<Float>` for eight), the plan's
// definition and how a lane takes it and gives back what it carries, the bodies' masses, Box2D
// 2.3's small matrix solves (b2Mat33), and the dispatch by kind, written once over `LaneReal`.
// Each joint kind's kernel (DistanceJoint.swift, …) follows Box2D 2.3's b2*Joint: set-up with warm
// start (InitVelocityConstraints), one velocity step, one position pass that says "okay". A new
// kind is its kernel file and, here, its case, its three dispatch lines and any new numbers.

/// Which Box2D joint; a round's lane bundles take the kinds in this order.
enum JointKind: Int, CaseIterable, Sendable, Equatable {
    case distance, revolute, prismatic, weld, rope
}

/// A joint of one world: its kind, bodies and lane form (definition and carried impulses).
struct Joint: Sendable {
    var kind: JointKind
    var bodyA: Int, bodyB: Int
    var lanes: JointLanes<Float>
}

/// A 3×3 matrix by columns (b2Mat33), per lane.
struct Mat33Lanes<L: LaneReal> {
    var exx: L, exy: L, exz: L
    var eyx: L, eyy: L, eyz: L
    var ezx: L, ezy: L, ezz: L

    @inline(__always) init(zero: L) {
        exx = zero; exy = zero; exz = zero; eyx = zero; eyy = zero; eyz = zero; ezx = zero; ezy = zero; ezz = zero
    }

    /// 1 / x, or 0 where x is 0 (Box2D's `if (det != 0) det = 1 / det`).
    @inline(__always) static func inverseOrZero(_ x: L) -> L {
        L.select(L.and(L.isGreaterOrEqual(x, L(0)), L.isGreaterOrEqual(L(0), x)), L(0), L(1) / x)
    }

    /// b2Mat33::Solve33: A x = b.
    @inline(__always) func solve33(_ bx: L, _ by: L, _ bz: L) -> (L, L, L) {
        // Cross(ey, ez), Cross(b, ez), Cross(ey, b)
        let cx = eyy * ezz - eyz * ezy, cy = eyz * ezx - eyx * ezz, cz = eyx * ezy - eyy * ezx
        let det = Self.inverseOrZero(exx * cx + exy * cy + exz * cz)
        let x = det * (bx * cx + by * cy + bz * cz)
        let bez = (by * ezz - bz * ezy, bz * ezx - bx * ezz, bx * ezy - by * ezx)
        let y = det * (exx * bez.0 + exy * bez.1 + exz * bez.2)
        let eyb = (eyy * bz - eyz * by, eyz * bx - eyx * bz, eyx * by - eyy * bx)
        let z = det * (exx * eyb.0 + exy * eyb.1 + exz * eyb.2)
        return (x, y, z)
    }

    /// b2Mat33::Solve22: the upper-left 2×2 block's A x = b.
    @inline(__always) func solve22(_ bx: L, _ by: L) -> (L, L) {
        let det = Self.inverseOrZero(exx * eyy - eyx * exy)
        return (det * (eyy * bx - eyx * by), det * (exx * by - exy * bx))
    }

    /// b2Mat33::GetInverse22: the upper-left 2×2 block's inverse, the rest zero.
    @inline(__always) func inverse22() -> Mat33Lanes<L> {
        let a = exx, b = eyx, c = exy, d = eyy
        let det = Self.inverseOrZero(a * d - b * c)
        var m = Mat33Lanes(zero: L(0))
        m.exx = det * d; m.eyx = -det * b
        m.exy = -det * c; m.eyy = det * a
        return m
    }

    /// b2Mat33::GetSymInverse33.
    @inline(__always) func symmetricInverse33() -> Mat33Lanes<L> {
        let cx = eyy * ezz - eyz * ezy, cy = eyz * ezx - eyx * ezz, cz = eyx * ezy - eyy * ezx
        let det = Self.inverseOrZero(exx * cx + exy * cy + exz * cz)
        let a11 = exx, a12 = eyx, a13 = ezx, a22 = eyy, a23 = ezy, a33 = ezz
        var m = Mat33Lanes(zero: L(0))
        m.exx = det * (a22 * a33 - a23 * a23)
        m.exy = det * (a13 * a23 - a12 * a33)
        m.exz = det * (a12 * a23 - a13 * a22)
        m.eyx = m.exy
        m.eyy = det * (a11 * a33 - a13 * a13)
        m.eyz = det * (a13 * a12 - a11 * a23)
        m.ezx = m.exz
        m.ezy = m.eyz
        m.ezz = det * (a11 * a22 - a12 * a12)
        return m
    }

    /// b2Mul(A, v) for a 3-vector.
    @inline(__always) func times(_ x: L, _ y: L, _ z: L) -> (L, L, L) {
        (x * exx + y * eyx + z * ezx, x * exy + y * eyy + z * ezy, x * exz + y * eyz + z * ezz)
    }

    /// b2Mul22(A, v).
    @inline(__always) func times22(_ x: L, _ y: L) -> (L, L) { (exx * x + eyx * y, exy * x + eyy * y) }
}

/// One joint in lane form: definition (engine units), impulses carried from sub-step to
/// sub-step, and what set-up leaves for the velocity steps. Each kind uses its own fields.
struct JointLanes<L: LaneReal>: @unchecked Sendable {
    // Definition.
    var localAnchorAX: L, localAnchorAY: L, localAnchorBX: L, localAnchorBY: L
    /// Revolute, prismatic, weld: body B's angle minus body A's when made.
    var referenceAngle: L
    /// Prismatic: the unit axis in body A's frame.
    var localAxisAX: L, localAxisAY: L
    /// Distance: the rest length; rope: the maximum length (metres).
    var length: L
    var frequency: L, dampingRatio: L
    /// Revolute: angle limits (rad); prismatic: translation limits (m).
    var lower: L, upper: L
    var enableLimit: L.Mask, enableMotor: L.Mask
    var motorSpeed: L
    /// Revolute: maximum motor torque (N·m); prismatic: maximum motor force (N).
    var maxMotor: L

    // Carried between sub-steps (warm start).
    var impulseX: L, impulseY: L, impulseZ: L, motorImpulse: L
    /// Limit state: at lower, at upper, both (equal) or neither (inactive).
    var atLower: L.Mask, atUpper: L.Mask

    // Set up each sub-step.
    var mA: L, iA: L, mB: L, iB: L
    var localCenterAX: L, localCenterAY: L, localCenterBX: L, localCenterBY: L
    var rAx: L, rAy: L, rBx: L, rBy: L
    /// Distance and rope: the unit vector from A's anchor to B's; prismatic: the world axis.
    var ux: L, uy: L
    /// Prismatic: the world perpendicular and the lever arms.
    var perpX: L, perpY: L, a1: L, a2: L, s1: L, s2: L
    var mass: L, gamma: L, bias: L, motorMass: L
    /// Rope: the current distance.
    var currentLength: L
    /// Revolute and weld: the effective mass; prismatic: K.
    var matrix: Mat33Lanes<L>

    /// A joint with every field zero and every flag off.
    init(zero: L) {
        let off = L.isGreater(zero, zero)
        localAnchorAX = zero; localAnchorAY = zero; localAnchorBX = zero; localAnchorBY = zero
        referenceAngle = zero; localAxisAX = zero; localAxisAY = zero; length = zero; frequency = zero; dampingRatio = zero
        lower = zero; upper = zero; enableLimit = off; enableMotor = off; motorSpeed = zero; maxMotor = zero
        impulseX = zero; impulseY = zero; impulseZ = zero; motorImpulse = zero; atLower = off; atUpper = off
        mA = zero; iA = zero; mB = zero; iB = zero
        localCenterAX = zero; localCenterAY = zero; localCenterBX = zero; localCenterBY = zero
        rAx = zero; rAy = zero; rBx = zero; rBy = zero; ux = zero; uy = zero
        perpX = zero; perpY = zero; a1 = zero; a2 = zero; s1 = zero; s2 = zero
        mass = zero; gamma = zero; bias = zero; motorMass = zero; currentLength = zero
        matrix = Mat33Lanes(zero: zero)
    }

    /// Takes the bodies' masses and local centres (as b2Joint::InitVelocityConstraints does).
    @inline(__always) mutating func takeBodies(mA: L, iA: L, mB: L, iB: L, localCenterA: (L, L), localCenterB: (L, L)) {
        self.mA = mA; self.iA = iA; self.mB = mB; self.iB = iB
        (localCenterAX, localCenterAY) = localCenterA
        (localCenterBX, localCenterBY) = localCenterB
    }

    /// The anchors relative to the centres of mass, turned by the bodies' angles (b2Mul(q, localAnchor − localCenter)).
    @inline(__always) func anchorArms(_ aA: L, _ aB: L) -> (rAx: L, rAy: L, rBx: L, rBy: L) {
        let (sA, cA) = sinCos(aA), (sB, cB) = sinCos(aB)
        let lax = localAnchorAX - localCenterAX, lay = localAnchorAY - localCenterAY
        let lbx = localAnchorBX - localCenterBX, lby = localAnchorBY - localCenterBY
        return (cA * lax - sA * lay, sA * lax + cA * lay, cB * lbx - sB * lby, sB * lbx + cB * lby)
    }
}

/// A joint's definition in engine units (metres, radians, Hz, N, N·m).
struct JointDefinition: Sendable, Equatable {
    var localAnchorA = Vec2.zero, localAnchorB = Vec2.zero
    var referenceAngle: Float = 0
    var localAxisA = Vec2(1, 0)
    var length: Float = 0
    var frequency: Float = 0, dampingRatio: Float = 0
    var lower: Float = 0, upper: Float = 0
    var enableLimit = false, enableMotor = false
    var maxMotor: Float = 0

    /// The joint's lane form with no impulses yet.
    func makeLanes() -> JointLanes<Float> {
        var j = JointLanes<Float>(zero: 0)
        j.localAnchorAX = localAnchorA.x; j.localAnchorAY = localAnchorA.y
        j.localAnchorBX = localAnchorB.x; j.localAnchorBY = localAnchorB.y
        j.referenceAngle = referenceAngle
        j.localAxisAX = localAxisA.x; j.localAxisAY = localAxisA.y
        j.length = length; j.frequency = frequency; j.dampingRatio = dampingRatio
        j.lower = lower; j.upper = upper; j.enableLimit = enableLimit; j.enableMotor = enableMotor
        j.motorSpeed = 0; j.maxMotor = maxMotor
        return j
    }

    /// Sets the numbers a behavior may change while running (length, spring, limits, friction)
    /// on a joint that keeps its geometry and impulses.
    func updateSettings(of j: inout JointLanes<Float>) {
        j.length = length; j.frequency = frequency; j.dampingRatio = dampingRatio
        j.lower = lower; j.upper = upper; j.enableLimit = enableLimit; j.enableMotor = enableMotor; j.maxMotor = maxMotor
    }
}

extension JointLanes where L == SIMD8<Float> {
    /// Lane `l` takes joint `j`'s definition and carried impulses (its bodies come from the columns).
    @inline(__always) mutating func take(_ j: JointLanes<Float>, lane l: Int) {
        localAnchorAX[l] = j.localAnchorAX; localAnchorAY[l] = j.localAnchorAY
        localAnchorBX[l] = j.localAnchorBX; localAnchorBY[l] = j.localAnchorBY
        referenceAngle[l] = j.referenceAngle; localAxisAX[l] = j.localAxisAX; localAxisAY[l] = j.localAxisAY
        length[l] = j.length; frequency[l] = j.frequency; dampingRatio[l] = j.dampingRatio
        lower[l] = j.lower; upper[l] = j.upper; enableLimit[l] = j.enableLimit; enableMotor[l] = j.enableMotor
        motorSpeed[l] = j.motorSpeed; maxMotor[l] = j.maxMotor
        impulseX[l] = j.impulseX; impulseY[l] = j.impulseY; impulseZ[l] = j.impulseZ; motorImpulse[l] = j.motorImpulse
        atLower[l] = j.atLower; atUpper[l] = j.atUpper
    }

    /// What lane `l` carries to the next sub-step, back into its joint.
    @inline(__always) func giveCarried(lane l: Int, to j: inout JointLanes<Float>) {
        j.impulseX = impulseX[l]; j.impulseY = impulseY[l]; j.impulseZ = impulseZ[l]; j.motorImpulse = motorImpulse[l]
        j.atLower = atLower[l]; j.atUpper = atUpper[l]
    }
}

/// a × b for 2-vectors (b2Cross).
@inline(__always) func cross2<L: LaneReal>(_ ax: L, _ ay: L, _ bx: L, _ by: L) -> L { ax * by - ay * bx }

/// The length b2Vec2::Normalize returns: 0 when shorter than ε (the vector is then left as is).
@inline(__always) func normalizedLength<L: LaneReal>(_ x: L, _ y: L) -> L {
    let length = (x * x + y * y).squareRoot()
    return L.select(L.isGreater(L(Float.ulpOfOne), length), L(0), length)
}

/// b2Clamp(a, low, high) = max(low, min(a, high)).
@inline(__always) func clamp<L: LaneReal>(_ a: L, _ low: L, _ high: L) -> L { L.maximum(low, L.minimum(a, high)) }

/// Adds an impulse P at the anchors: vA −= mA·P, wA −= iA·(rA × P + extraA), vB += mB·P,
/// wB += iB·(rB × P + extraB) (the closing lines of Box2D's joint steps).
@inline(__always) func applyJointImpulse<L: LaneReal>(_ j: JointLanes<L>, px: L, py: L, angularA: L, angularB: L,
                                                     _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>) {
    vA.vx = vA.vx - j.mA * px; vA.vy = vA.vy - j.mA * py
    vA.w = vA.w - j.iA * angularA
    vB.vx = vB.vx + j.mB * px; vB.vy = vB.vy + j.mB * py
    vB.w = vB.w + j.iB * angularB
}

/// The same for a position correction.
@inline(__always) func applyJointCorrection<L: LaneReal>(_ j: JointLanes<L>, px: L, py: L, angularA: L, angularB: L,
                                                        _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) {
    pA.cx = pA.cx - j.mA * px; pA.cy = pA.cy - j.mA * py
    pA.a = pA.a - j.iA * angularA
    pB.cx = pB.cx + j.mB * px; pB.cy = pB.cy + j.mB * py
    pB.a = pB.a + j.iB * angularB
}

/// The relative velocity of B's anchor to A's: vB + wB × rB − vA − wA × rA.
@inline(__always) func anchorVelocity<L: LaneReal>(_ j: JointLanes<L>, _ vA: VelocityLanes<L>, _ vB: VelocityLanes<L>) -> (L, L) {
    (vB.vx + (-vB.w * j.rBy) - vA.vx - (-vA.w * j.rAy), vB.vy + vB.w * j.rBx - vA.vy - vA.w * j.rAx)
}

/// The joint kernels by kind, the one dispatch both engines go through.
enum JointKernels {
    @inline(__always) static func initVelocity<L: LaneReal>(_ kind: JointKind, _ j: inout JointLanes<L>,
                                                           _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                                           _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L, dtRatio: L) {
        switch kind {
        case .distance: DistanceJoint.initVelocity(&j, pA, pB, &vA, &vB, h: h, dtRatio: dtRatio)
        case .revolute: RevoluteJoint.initVelocity(&j, pA, pB, &vA, &vB, h: h, dtRatio: dtRatio)
        case .prismatic: PrismaticJoint.initVelocity(&j, pA, pB, &vA, &vB, h: h, dtRatio: dtRatio)
        case .weld: WeldJoint.initVelocity(&j, pA, pB, &vA, &vB, h: h, dtRatio: dtRatio)
        case .rope: RopeJoint.initVelocity(&j, pA, pB, &vA, &vB, h: h, dtRatio: dtRatio)
        }
    }

    @inline(__always) static func solveVelocity<L: LaneReal>(_ kind: JointKind, _ j: inout JointLanes<L>,
                                                            _ vA: inout VelocityLanes<L>, _ vB: inout VelocityLanes<L>, h: L) {
        switch kind {
        case .distance: DistanceJoint.solveVelocity(&j, &vA, &vB)
        case .revolute: RevoluteJoint.solveVelocity(&j, &vA, &vB, h: h)
        case .prismatic: PrismaticJoint.solveVelocity(&j, &vA, &vB, h: h)
        case .weld: WeldJoint.solveVelocity(&j, &vA, &vB)
        case .rope: RopeJoint.solveVelocity(&j, &vA, &vB, h: h)
        }
    }

    /// One position pass; the mask says where the joint is within Box2D's slops ("okay").
    @inline(__always) static func solvePosition<L: LaneReal>(_ kind: JointKind, _ j: JointLanes<L>,
                                                            _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>) -> L.Mask {
        switch kind {
        case .distance: DistanceJoint.solvePosition(j, &pA, &pB)
        case .revolute: RevoluteJoint.solvePosition(j, &pA, &pB)
        case .prismatic: PrismaticJoint.solvePosition(j, &pA, &pB)
        case .weld: WeldJoint.solvePosition(j, &pA, &pB)
        case .rope: RopeJoint.solvePosition(j, &pA, &pB)
        }
    }
}
