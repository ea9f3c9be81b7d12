// Sequential impulses over contact constraints (Box2D 2.x's solver): friction then normal per
// contact, a 2×2 block solve for two-point manifolds, restitution as a velocity bias taken before
// the iterations, and split position correction (Baumgarte) afterwards.

struct BodyPosition { var c: Vec2; var a: Float }
struct BodyVelocity { var v: Vec2; var w: Float }

/// What the solver needs of a contact: its manifold and the material and mass of both bodies,
/// with indices into the island's position and velocity arrays.
struct ContactInput {
    var manifold: Manifold
    var indexA: Int, indexB: Int
    var invMassA: Float, invMassB: Float
    var invIA: Float, invIB: Float
    var localCenterA: Vec2, localCenterB: Vec2
    var radiusA: Float, radiusB: Float
    var friction: Float, restitution: Float
}

struct VelocityConstraintPoint {
    var rA = Vec2.zero, rB = Vec2.zero
    var normalImpulse: Float = 0, tangentImpulse: Float = 0
    var normalMass: Float = 0, tangentMass: Float = 0
    var velocityBias: Float = 0
}

struct ContactSolver {
    var inputs: [ContactInput]
    var points: [(VelocityConstraintPoint, VelocityConstraintPoint)]
    var normals: [Vec2]
    /// Effective-mass matrix of two-point manifolds (k11, k12, k22) and its inverse.
    var k: [(Float, Float, Float)]
    var normalMass: [(Float, Float, Float, Float)]
    /// 2 when the block solver applies, else 1 (or 0 for none).
    var solverPointCount: [Int]

    init(_ inputs: [ContactInput], warmStarting: Bool, dtRatio: Float) {
        self.inputs = inputs
        let n = inputs.count
        points = Array(repeating: (VelocityConstraintPoint(), VelocityConstraintPoint()), count: n)
        normals = Array(repeating: .zero, count: n)
        k = Array(repeating: (0, 0, 0), count: n)
        normalMass = Array(repeating: (0, 0, 0, 0), count: n)
        solverPointCount = inputs.map { $0.manifold.pointCount }
        for i in 0..<n where warmStarting {
            let m = inputs[i].manifold
            points[i].0.normalImpulse = dtRatio * m.point0.normalImpulse
            points[i].0.tangentImpulse = dtRatio * m.point0.tangentImpulse
            points[i].1.normalImpulse = dtRatio * m.point1.normalImpulse
            points[i].1.tangentImpulse = dtRatio * m.point1.tangentImpulse
        }
    }

    private static func transform(_ p: BodyPosition, _ localCenter: Vec2) -> Transform {
        let q = Rot(p.a)
        return Transform(p: p.c - q.apply(localCenter), q: q)
    }

    mutating func initializeVelocityConstraints(_ positions: [BodyPosition], _ velocities: [BodyVelocity]) {
        for i in 0..<inputs.count {
            let c = inputs[i]
            let mA = c.invMassA, mB = c.invMassB, iA = c.invIA, iB = c.invIB
            let pA = positions[c.indexA], pB = positions[c.indexB]
            let vA = velocities[c.indexA], vB = velocities[c.indexB]
            let wm = WorldManifold(c.manifold, Self.transform(pA, c.localCenterA), c.radiusA,
                                   Self.transform(pB, c.localCenterB), c.radiusB)
            let normal = wm.normal
            normals[i] = normal
            let tangent = normal.skewRight
            var cps = points[i]
            for j in 0..<c.manifold.pointCount {
                var p = j == 0 ? cps.0 : cps.1
                p.rA = wm.point(j) - pA.c
                p.rB = wm.point(j) - pB.c
                let rnA = cross(p.rA, normal), rnB = cross(p.rB, normal)
                let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                p.normalMass = kNormal > 0 ? 1 / kNormal : 0
                let rtA = cross(p.rA, tangent), rtB = cross(p.rB, tangent)
                let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
                p.tangentMass = kTangent > 0 ? 1 / kTangent : 0
                // Restitution: bounce only impacts faster than the threshold.
                p.velocityBias = 0
                let vRel = dot(normal, vB.v + cross(vB.w, p.rB) - vA.v - cross(vA.w, p.rA))
                if vRel < -EngineSettings.velocityThreshold { p.velocityBias = -c.restitution * vRel }
                if j == 0 { cps.0 = p } else { cps.1 = p }
            }
            points[i] = cps
            if c.manifold.pointCount == 2 {
                let rn1A = cross(cps.0.rA, normal), rn1B = cross(cps.0.rB, normal)
                let rn2A = cross(cps.1.rA, normal), rn2B = cross(cps.1.rB, normal)
                let k11 = mA + mB + iA * rn1A * rn1A + iB * rn1B * rn1B
                let k22 = mA + mB + iA * rn2A * rn2A + iB * rn2B * rn2B
                let k12 = mA + mB + iA * rn1A * rn2A + iB * rn1B * rn2B
                let maxConditionNumber: Float = 1000
                if k11 * k11 < maxConditionNumber * (k11 * k22 - k12 * k12) {
                    k[i] = (k11, k12, k22)
                    var det = k11 * k22 - k12 * k12
                    if det != 0 { det = 1 / det }
                    normalMass[i] = (det * k22, -det * k12, -det * k12, det * k11)
                } else {
                    solverPointCount[i] = 1   // ill-conditioned: solve the first point only
                }
            }
        }
    }

    func warmStart(_ velocities: inout [BodyVelocity]) {
        for i in 0..<inputs.count {
            let c = inputs[i]
            let normal = normals[i], tangent = normal.skewRight
            var vA = velocities[c.indexA], vB = velocities[c.indexB]
            for j in 0..<solverPointCount[i] {
                let p = j == 0 ? points[i].0 : points[i].1
                let P = p.normalImpulse * normal + p.tangentImpulse * tangent
                vA.w -= c.invIA * cross(p.rA, P); vA.v -= c.invMassA * P
                vB.w += c.invIB * cross(p.rB, P); vB.v += c.invMassB * P
            }
            velocities[c.indexA] = vA
            velocities[c.indexB] = vB
        }
    }

    mutating func solveVelocityConstraints(_ velocities: inout [BodyVelocity]) {
        for i in 0..<inputs.count {
            let c = inputs[i]
            var lanes = lanesOf(i)
            var a = VelocityLanes(vx: velocities[c.indexA].v.x, vy: velocities[c.indexA].v.y, w: velocities[c.indexA].w)
            var b = VelocityLanes(vx: velocities[c.indexB].v.x, vy: velocities[c.indexB].v.y, w: velocities[c.indexB].w)
            ContactVelocityKernel.solve(&lanes, &a, &b)
            points[i].0.normalImpulse = lanes.p0.normalImpulse
            points[i].0.tangentImpulse = lanes.p0.tangentImpulse
            points[i].1.normalImpulse = lanes.p1.normalImpulse
            points[i].1.tangentImpulse = lanes.p1.tangentImpulse
            velocities[c.indexA] = BodyVelocity(v: Vec2(a.vx, a.vy), w: a.w)
            velocities[c.indexB] = BodyVelocity(v: Vec2(b.vx, b.vy), w: b.w)
        }
    }

    /// Contact i as the shared velocity kernel takes it (one lane: a single world).
    func lanesOf(_ i: Int) -> ContactLanes<Float> {
        let c = inputs[i]
        func point(_ p: VelocityConstraintPoint) -> ContactPointLanes<Float> {
            ContactPointLanes(rAx: p.rA.x, rAy: p.rA.y, rBx: p.rB.x, rBy: p.rB.y,
                              normalImpulse: p.normalImpulse, tangentImpulse: p.tangentImpulse,
                              normalMass: p.normalMass, tangentMass: p.tangentMass, velocityBias: p.velocityBias)
        }
        let (k11, k12, k22) = k[i]
        let (m11, m21, m12, m22) = normalMass[i]
        return ContactLanes(nx: normals[i].x, ny: normals[i].y, p0: point(points[i].0), p1: point(points[i].1),
                            k11: k11, k12: k12, k22: k22, m11: m11, m21: m21, m12: m12, m22: m22,
                            friction: c.friction, mA: c.invMassA, iA: c.invIA, mB: c.invMassB, iB: c.invIB,
                            onePoint: solverPointCount[i] == 1, twoPoints: solverPointCount[i] == 2)
    }

    /// Copies the accumulated impulses back into the manifolds for the next sub-step's warm start.
    func storeImpulses(into manifolds: inout [Manifold]) {
        for i in 0..<inputs.count {
            manifolds[i].point0.normalImpulse = points[i].0.normalImpulse
            manifolds[i].point0.tangentImpulse = points[i].0.tangentImpulse
            manifolds[i].point1.normalImpulse = points[i].1.normalImpulse
            manifolds[i].point1.tangentImpulse = points[i].1.tangentImpulse
        }
    }

    /// Normal, point and separation of one manifold point at the current positions.
    private static func positionManifold(_ c: ContactInput, _ xfA: Transform, _ xfB: Transform, _ j: Int)
        -> (normal: Vec2, point: Vec2, separation: Float)
    {
        let m = c.manifold
        switch m.kind {
        case .circles:
            let pA = xfA.apply(m.localPoint), pB = xfB.apply(m.point0.localPoint)
            let normal = (pB - pA).normalized
            return (normal, 0.5 * (pA + pB), dot(pB - pA, normal) - c.radiusA - c.radiusB)
        case .faceA:
            let normal = xfA.q.apply(m.localNormal)
            let plane = xfA.apply(m.localPoint)
            let clip = xfB.apply(m[j].localPoint)
            return (normal, clip, dot(clip - plane, normal) - c.radiusA - c.radiusB)
        case .faceB:
            let normal = xfB.q.apply(m.localNormal)
            let plane = xfB.apply(m.localPoint)
            let clip = xfA.apply(m[j].localPoint)
            return (-normal, clip, dot(clip - plane, normal) - c.radiusA - c.radiusB)
        }
    }

    /// One pass of position correction; true when every contact is within three slops.
    /// With `toiBodies`, only those two bodies move (a time-of-impact sub-step) and the stiffer
    /// TOI Baumgarte factor applies.
    func solvePositionConstraints(_ positions: inout [BodyPosition], toiBodies: (Int, Int)? = nil) -> Bool {
        var minSeparation: Float = 0
        let baumgarte = toiBodies == nil ? EngineSettings.baumgarte : EngineSettings.toiBaumgarte
        for c in inputs {
            var mA = c.invMassA, iA = c.invIA, mB = c.invMassB, iB = c.invIB
            if let (t1, t2) = toiBodies {
                if c.indexA != t1 && c.indexA != t2 { mA = 0; iA = 0 }
                if c.indexB != t1 && c.indexB != t2 { mB = 0; iB = 0 }
            }
            var pA = positions[c.indexA], pB = positions[c.indexB]
            for j in 0..<c.manifold.pointCount {
                let (normal, point, separation) = Self.positionManifold(
                    c, Self.transform(pA, c.localCenterA), Self.transform(pB, c.localCenterB), j)
                let rA = point - pA.c, rB = point - pB.c
                minSeparation = min(minSeparation, separation)
                // Correct part of the overlap beyond the slop, never more than the cap at once.
                let C = clamp(baumgarte * (separation + EngineSettings.linearSlop),
                              -EngineSettings.maxLinearCorrection, 0)
                let rnA = cross(rA, normal), rnB = cross(rB, normal)
                let K = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                let impulse = K > 0 ? -C / K : 0
                let P = impulse * normal
                pA.c -= mA * P; pA.a -= iA * cross(rA, P)
                pB.c += mB * P; pB.a += iB * cross(rB, P)
            }
            positions[c.indexA] = pA
            positions[c.indexB] = pB
        }
        let limit: Float = toiBodies == nil ? -3 * EngineSettings.linearSlop : -1.5 * EngineSettings.linearSlop
        return minSeparation >= limit
    }
}
