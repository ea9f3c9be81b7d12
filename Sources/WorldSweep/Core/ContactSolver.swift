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

struct ContactSolver {
    var inputs: [ContactInput]
    /// Each contact's velocity constraint, in the form the shared kernel takes (one lane).
    var constraints: [ContactLanes<Float>]

    init(_ inputs: [ContactInput], warmStarting: Bool, dtRatio: Float) {
        self.inputs = inputs
        constraints = inputs.map { c in
            let m = c.manifold
            func point(_ mp: ManifoldPoint) -> ContactPointLanes<Float> {
                ContactPointLanes(rAx: 0, rAy: 0, rBx: 0, rBy: 0,
                                  normalImpulse: warmStarting ? dtRatio * mp.normalImpulse : 0,
                                  tangentImpulse: warmStarting ? dtRatio * mp.tangentImpulse : 0,
                                  normalMass: 0, tangentMass: 0, velocityBias: 0)
            }
            return ContactLanes(nx: 0, ny: 0, p0: point(m.point0), p1: point(m.point1),
                                k11: 0, k12: 0, k22: 0, m11: 0, m21: 0, m12: 0, m22: 0,
                                friction: c.friction, mA: c.invMassA, iA: c.invIA, mB: c.invMassB, iB: c.invIB,
                                onePoint: m.pointCount == 1, twoPoints: m.pointCount == 2)
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
            let tangent = normal.skewRight
            var k = constraints[i]
            k.nx = normal.x
            k.ny = normal.y
            for j in 0..<c.manifold.pointCount {
                var p = j == 0 ? k.p0 : k.p1
                let rA = wm.point(j) - pA.c, rB = wm.point(j) - pB.c
                p.rAx = rA.x; p.rAy = rA.y; p.rBx = rB.x; p.rBy = rB.y
                let rnA = cross(rA, normal), rnB = cross(rB, normal)
                let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                p.normalMass = kNormal > 0 ? 1 / kNormal : 0
                let rtA = cross(rA, tangent), rtB = cross(rB, tangent)
                let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
                p.tangentMass = kTangent > 0 ? 1 / kTangent : 0
                // Restitution: bounce only impacts faster than the threshold.
                p.velocityBias = 0
                let vRel = dot(normal, vB.v + cross(vB.w, rB) - vA.v - cross(vA.w, rA))
                if vRel < -EngineSettings.velocityThreshold { p.velocityBias = -c.restitution * vRel }
                if j == 0 { k.p0 = p } else { k.p1 = p }
            }
            if c.manifold.pointCount == 2 {
                let rn1A = cross(Vec2(k.p0.rAx, k.p0.rAy), normal), rn1B = cross(Vec2(k.p0.rBx, k.p0.rBy), normal)
                let rn2A = cross(Vec2(k.p1.rAx, k.p1.rAy), normal), rn2B = cross(Vec2(k.p1.rBx, k.p1.rBy), normal)
                let k11 = mA + mB + iA * rn1A * rn1A + iB * rn1B * rn1B
                let k22 = mA + mB + iA * rn2A * rn2A + iB * rn2B * rn2B
                let k12 = mA + mB + iA * rn1A * rn2A + iB * rn1B * rn2B
                let maxConditionNumber: Float = 1000
                if k11 * k11 < maxConditionNumber * (k11 * k22 - k12 * k12) {
                    k.k11 = k11; k.k12 = k12; k.k22 = k22
                    var det = k11 * k22 - k12 * k12
                    if det != 0 { det = 1 / det }
                    k.m11 = det * k22; k.m21 = -det * k12; k.m12 = -det * k12; k.m22 = det * k11
                } else {
                    k.onePoint = true   // ill-conditioned: solve the first point only
                    k.twoPoints = false
                }
            }
            constraints[i] = k
        }
    }

    func warmStart(_ velocities: inout [BodyVelocity]) {
        for i in 0..<inputs.count {
            let c = inputs[i], k = constraints[i]
            let normal = Vec2(k.nx, k.ny), tangent = normal.skewRight
            var vA = velocities[c.indexA], vB = velocities[c.indexB]
            for j in 0..<(k.twoPoints ? 2 : k.onePoint ? 1 : 0) {
                let p = j == 0 ? k.p0 : k.p1
                let P = p.normalImpulse * normal + p.tangentImpulse * tangent
                vA.w -= c.invIA * cross(Vec2(p.rAx, p.rAy), P); vA.v -= c.invMassA * P
                vB.w += c.invIB * cross(Vec2(p.rBx, p.rBy), P); vB.v += c.invMassB * P
            }
            velocities[c.indexA] = vA
            velocities[c.indexB] = vB
        }
    }

    mutating func solveVelocityConstraints(_ velocities: inout [BodyVelocity]) {
        for i in 0..<inputs.count {
            let c = inputs[i]
            var a = VelocityLanes(vx: velocities[c.indexA].v.x, vy: velocities[c.indexA].v.y, w: velocities[c.indexA].w)
            var b = VelocityLanes(vx: velocities[c.indexB].v.x, vy: velocities[c.indexB].v.y, w: velocities[c.indexB].w)
            ContactVelocityKernel.solve(&constraints[i], &a, &b)
            velocities[c.indexA] = BodyVelocity(v: Vec2(a.vx, a.vy), w: a.w)
            velocities[c.indexB] = BodyVelocity(v: Vec2(b.vx, b.vy), w: b.w)
        }
    }

    /// Copies the accumulated impulses back into the manifolds for the next sub-step's warm start.
    func storeImpulses(into manifolds: inout [Manifold]) {
        for i in 0..<inputs.count {
            manifolds[i].point0.normalImpulse = constraints[i].p0.normalImpulse
            manifolds[i].point0.tangentImpulse = constraints[i].p0.tangentImpulse
            manifolds[i].point1.normalImpulse = constraints[i].p1.normalImpulse
            manifolds[i].point1.tangentImpulse = constraints[i].p1.tangentImpulse
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
