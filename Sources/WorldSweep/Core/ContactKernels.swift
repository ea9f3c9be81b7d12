// The rest of the contact solver's per-constraint arithmetic — setting a constraint up, warm
// starting it, and one pass of position correction — written once over `LaneReal`, like the
// velocity step in ContactVelocityKernel.swift. The single world runs these on Float (one
// contact), the batched engine on SIMD8<Float> (one contact slot of eight worlds). The operation
// order is the scalar solver's, so both give the same bits; lanes without the point are masked.

/// A body's position (centre of mass and angle), per lane.
struct PositionLanes<L: LaneReal> {
    var cx: L, cy: L, a: L
}

/// A body's transform, per lane: where its origin is and how it is turned.
struct TransformLanes<L: LaneReal> {
    var px: L, py: L, s: L, c: L

    /// The body's transform from its centre of mass, angle and local centre (Box2D's order).
    @inline(__always) init(_ p: PositionLanes<L>, localCenterX lx: L, localCenterY ly: L) {
        (s, c) = sinCos(p.a)
        px = p.cx - (c * lx - s * ly)
        py = p.cy - (s * lx + c * ly)
    }

    @inline(__always) init(px: L, py: L, s: L, c: L) { self.px = px; self.py = py; self.s = s; self.c = c }

    @inline(__always) func apply(_ x: L, _ y: L) -> (L, L) { ((c * x - s * y) + px, (s * x + c * y) + py) }
    @inline(__always) func rotate(_ x: L, _ y: L) -> (L, L) { (c * x - s * y, s * x + c * y) }
    /// (x, y) turned back by the rotation (Box2D's b2MulT(q, v)).
    @inline(__always) func rotateInverse(_ x: L, _ y: L) -> (L, L) { (c * x + s * y, -s * x + c * y) }
    /// A world point in the body's frame (b2MulT(xf, v)).
    @inline(__always) func applyInverse(_ x: L, _ y: L) -> (L, L) { rotateInverse(x - px, y - py) }
    /// `other` as seen from this body's frame (b2MulT(self, other)).
    @inline(__always) func inverseTimes(_ other: TransformLanes<L>) -> TransformLanes<L> {
        let (x, y) = rotateInverse(other.px - px, other.py - py)
        return TransformLanes(px: x, py: y, s: c * other.s - s * other.c, c: c * other.c + s * other.s)
    }
}

/// A contact manifold per lane, in body-local terms (see Manifold).
struct ManifoldLanes<L: LaneReal> {
    /// Reference face on A, on B, or neither (two circles).
    var isFaceA: L.Mask, isFaceB: L.Mask
    var localNormalX: L, localNormalY: L
    var localPointX: L, localPointY: L
    var point0X: L, point0Y: L, point1X: L, point1Y: L
    var hasPoint0: L.Mask, hasPoint1: L.Mask
}

/// The material and mass of a contact's two bodies, per lane.
struct ContactBodiesLanes<L: LaneReal> {
    var mA: L, iA: L, mB: L, iB: L
    var localCenterAX: L, localCenterAY: L, localCenterBX: L, localCenterBY: L
    var radiusA: L, radiusB: L
}

/// The kinds of manifold that the lanes a kernel call works on can hold, so that it computes only
/// those (lanes of other kinds are masked out anyway): one kind for a single world's contact,
/// usually one kind for a slot of eight worlds too.
struct ManifoldKinds: OptionSet {
    let rawValue: UInt8
    static let faceA = ManifoldKinds(rawValue: 1)
    static let faceB = ManifoldKinds(rawValue: 2)
    static let circles = ManifoldKinds(rawValue: 4)

    /// The kind of one manifold.
    init(_ kind: Manifold.Kind) {
        switch kind {
        case .faceA: self = .faceA
        case .faceB: self = .faceB
        case .circles: self = .circles
        }
    }
    init(rawValue: UInt8) { self.rawValue = rawValue }
}

enum ContactKernels {
    /// `v` scaled to unit length, or unchanged when shorter than ε (Vec2.normalized).
    @inline(__always) static func normalized<L: LaneReal>(_ x: L, _ y: L) -> (L, L) {
        let length = (x * x + y * y).squareRoot()
        let inv = L(1) / length
        let keep = L.isGreater(L(Float.ulpOfOne), length)
        return (L.select(keep, x, x * inv), L.select(keep, y, y * inv))
    }

    /// What a kernel derives from a manifold's reference face, for the face kinds in `kinds` only:
    /// face A's, face B's, or both computed and `pick`ed per lane; `none` when the lanes hold only
    /// circle–circle manifolds (the caller fills those in).
    @inline(__always) private static func onReferenceFace<T>(_ kinds: ManifoldKinds, _ faceA: () -> T, _ faceB: () -> T,
                                                            none: T, pick: (T, T) -> T) -> T {
        switch (kinds.contains(.faceA), kinds.contains(.faceB)) {
        case (true, true): pick(faceA(), faceB())
        case (true, false): faceA()
        case (false, true): faceB()
        case (false, false): none
        }
    }

    /// World normal and contact points of a manifold (WorldManifold's rule), for the manifold
    /// kinds in `kinds` (others are not computed: their lanes get unspecified values).
    @inline(__always) static func worldManifold<L: LaneReal>(_ m: ManifoldLanes<L>, kinds: ManifoldKinds, _ xfA: TransformLanes<L>, _ radiusA: L,
                                           _ xfB: TransformLanes<L>, _ radiusB: L)
        -> (nx: L, ny: L, p0x: L, p0y: L, p1x: L, p1y: L)
    {
        let half = L(0.5)
        // A reference face on `ref` (its normal and plane) clipping points of `inc`; each point is
        // midway between the reference surface and the incident one (the sum is commutative, so
        // face A and face B share this code bit for bit).
        func face(_ ref: TransformLanes<L>, _ refRadius: L, _ inc: TransformLanes<L>, _ incRadius: L) -> (L, L, L, L, L, L) {
            let (nX, nY) = ref.rotate(m.localNormalX, m.localNormalY)
            let (planeX, planeY) = ref.apply(m.localPointX, m.localPointY)
            func point(_ lx: L, _ ly: L) -> (L, L) {
                let (clipX, clipY) = inc.apply(lx, ly)
                let t = refRadius - ((clipX - planeX) * nX + (clipY - planeY) * nY)
                let onRefX = clipX + t * nX, onRefY = clipY + t * nY
                let onIncX = clipX - incRadius * nX, onIncY = clipY - incRadius * nY
                return (half * (onRefX + onIncX), half * (onRefY + onIncY))
            }
            let p0 = point(m.point0X, m.point0Y), p1 = point(m.point1X, m.point1Y)
            return (nX, nY, p0.0, p0.1, p1.0, p1.1)
        }
        func faceA() -> (L, L, L, L, L, L) { face(xfA, radiusA, xfB, radiusB) }
        // Face of B: the normal is reversed so it still points from A to B.
        func faceB() -> (L, L, L, L, L, L) {
            let f = face(xfB, radiusB, xfA, radiusA)
            return (-f.0, -f.1, f.2, f.3, f.4, f.5)
        }
        let zero = L(0)
        var r = onReferenceFace(kinds, faceA, faceB, none: (zero, zero, zero, zero, zero, zero)) { a, b in
            (L.select(m.isFaceA, a.0, b.0), L.select(m.isFaceA, a.1, b.1), L.select(m.isFaceA, a.2, b.2),
             L.select(m.isFaceA, a.3, b.3), L.select(m.isFaceA, a.4, b.4), L.select(m.isFaceA, a.5, b.5))
        }
        if kinds.contains(.circles) {
            let face = L.or(m.isFaceA, m.isFaceB)
            let (pAX, pAY) = xfA.apply(m.localPointX, m.localPointY)
            let (pBX, pBY) = xfB.apply(m.point0X, m.point0Y)
            let dx = pAX - pBX, dy = pAY - pBY
            let apart = L.isGreater(dx * dx + dy * dy, L(Float.ulpOfOne * Float.ulpOfOne))
            let (ux, uy) = normalized(pBX - pAX, pBY - pAY)
            let cnx = L.select(apart, ux, L(1)), cny = L.select(apart, uy, L(0))
            let cAX = pAX + radiusA * cnx, cAY = pAY + radiusA * cny
            let cBX = pBX - radiusB * cnx, cBY = pBY - radiusB * cny
            r.0 = L.select(face, r.0, cnx); r.1 = L.select(face, r.1, cny)
            r.2 = L.select(face, r.2, half * (cAX + cBX)); r.3 = L.select(face, r.3, half * (cAY + cBY))
        }
        return (r.0, r.1, r.2, r.3, r.4, r.5)
    }

    /// Sets up a velocity constraint at the sub-step's start: anchors, effective masses, the
    /// restitution bias, and the 2×2 block for two points when it is well conditioned. The
    /// constraint's impulses (warm start), friction and masses must already be set.
    @inline(__always) static func initialize<L: LaneReal>(_ k: inout ContactLanes<L>, _ m: ManifoldLanes<L>, kinds: ManifoldKinds,
                                        _ bodies: ContactBodiesLanes<L>, restitution: L,
                                        _ pA: PositionLanes<L>, _ pB: PositionLanes<L>,
                                        _ vA: VelocityLanes<L>, _ vB: VelocityLanes<L>) {
        let xfA = TransformLanes(pA, localCenterX: bodies.localCenterAX, localCenterY: bodies.localCenterAY)
        let xfB = TransformLanes(pB, localCenterX: bodies.localCenterBX, localCenterY: bodies.localCenterBY)
        let wm = worldManifold(m, kinds: kinds, xfA, bodies.radiusA, xfB, bodies.radiusB)
        let nx = wm.nx, ny = wm.ny
        let tx = ny, ty = -nx
        let mA = bodies.mA, mB = bodies.mB, iA = bodies.iA, iB = bodies.iB
        let zero = L(0)
        k.nx = nx
        k.ny = ny
        @inline(__always)   // called apart, the constraint and point it works on are copied to the stack and back
        func setUp(_ p: inout ContactPointLanes<L>, _ px: L, _ py: L, _ has: L.Mask) {
            let rAx = px - pA.cx, rAy = py - pA.cy, rBx = px - pB.cx, rBy = py - pB.cy
            let rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx
            let kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            let rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx
            let kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            // Restitution: bounce only impacts faster than the threshold.
            let dx = ((vB.vx + (-vB.w * rBy)) - vA.vx) - (-vA.w * rAy)
            let dy = ((vB.vy + vB.w * rBx) - vA.vy) - vA.w * rAx
            let vRel = nx * dx + ny * dy
            let bias = L.select(L.isGreater(L(-EngineSettings.velocityThreshold), vRel), -restitution * vRel, zero)
            p.rAx = L.select(has, rAx, p.rAx); p.rAy = L.select(has, rAy, p.rAy)
            p.rBx = L.select(has, rBx, p.rBx); p.rBy = L.select(has, rBy, p.rBy)
            p.normalMass = L.select(has, L.select(L.isGreater(kNormal, zero), L(1) / kNormal, zero), p.normalMass)
            p.tangentMass = L.select(has, L.select(L.isGreater(kTangent, zero), L(1) / kTangent, zero), p.tangentMass)
            p.velocityBias = L.select(has, bias, p.velocityBias)
        }
        setUp(&k.p0, wm.p0x, wm.p0y, m.hasPoint0)
        setUp(&k.p1, wm.p1x, wm.p1y, m.hasPoint1)

        let rn1A = k.p0.rAx * ny - k.p0.rAy * nx, rn1B = k.p0.rBx * ny - k.p0.rBy * nx
        let rn2A = k.p1.rAx * ny - k.p1.rAy * nx, rn2B = k.p1.rBx * ny - k.p1.rBy * nx
        let k11 = mA + mB + iA * rn1A * rn1A + iB * rn1B * rn1B
        let k22 = mA + mB + iA * rn2A * rn2A + iB * rn2B * rn2B
        let k12 = mA + mB + iA * rn1A * rn2A + iB * rn1B * rn2B
        let maxConditionNumber = L(1000)
        let wellConditioned = L.and(m.hasPoint1, L.isGreater(maxConditionNumber * (k11 * k22 - k12 * k12), k11 * k11))
        let det0 = k11 * k22 - k12 * k12
        let det = L.select(L.isGreater(L.absolute(det0), zero), L(1) / det0, det0)
        k.k11 = L.select(wellConditioned, k11, zero)
        k.k12 = L.select(wellConditioned, k12, zero)
        k.k22 = L.select(wellConditioned, k22, zero)
        k.m11 = L.select(wellConditioned, det * k22, zero)
        k.m21 = L.select(wellConditioned, -det * k12, zero)
        k.m12 = L.select(wellConditioned, -det * k12, zero)
        k.m22 = L.select(wellConditioned, det * k11, zero)
        // Ill-conditioned pairs solve the first point only.
        k.twoPoints = wellConditioned
        k.onePoint = L.and(m.hasPoint0, L.not(wellConditioned))
    }

    /// Applies last sub-step's accumulated impulses (already scaled by the step ratio), leaving
    /// out A's updates where A cannot move (`canMove`; `aMoves` forces the choice, for tests).
    @inline(__always) static func warmStart<L: LaneReal>(_ k: ContactLanes<L>, _ a: inout VelocityLanes<L>, _ b: inout VelocityLanes<L>,
                                                         aMoves: Bool? = nil) {
        if aMoves ?? k.bodyAMoves { warmStart(k, &a, &b, movingA: true) } else { warmStart(k, &a, &b, movingA: false) }
    }

    @inline(__always) private static func warmStart<L: LaneReal>(_ k: ContactLanes<L>, _ a: inout VelocityLanes<L>,
                                                                 _ b: inout VelocityLanes<L>, movingA aMoves: Bool) {
        let nx = k.nx, ny = k.ny, tx = ny, ty = -nx
        @inline(__always)   // called apart, it takes its point (288 bytes at 8 lanes) by a copy
        func apply(_ p: ContactPointLanes<L>, _ active: L.Mask) {
            let Px = p.normalImpulse * nx + p.tangentImpulse * tx
            let Py = p.normalImpulse * ny + p.tangentImpulse * ty
            if aMoves {
                a.w = L.select(active, a.w - k.iA * (p.rAx * Py - p.rAy * Px), a.w)
                a.vx = L.select(active, a.vx - k.mA * Px, a.vx)
                a.vy = L.select(active, a.vy - k.mA * Py, a.vy)
            }
            b.w = L.select(active, b.w + k.iB * (p.rBx * Py - p.rBy * Px), b.w)
            b.vx = L.select(active, b.vx + k.mB * Px, b.vx)
            b.vy = L.select(active, b.vy + k.mB * Py, b.vy)
        }
        apply(k.p0, L.or(k.onePoint, k.twoPoints))
        apply(k.p1, k.twoPoints)
    }

    /// b2ContactSolver's verdict on a position pass: the contacts are solved when the smallest
    /// separation is within three slops (`minSeparation >= -3 * b2_linearSlop`), or one and a half
    /// in a time-of-impact pass. Both engines ask this.
    /// (Over lanes for the batch's island slots, Float for one world.)
    @inline(__always) static func positionsSolved<L: LaneReal>(minSeparation: L, timeOfImpact: Bool = false) -> L.Mask {
        L.isGreaterOrEqual(minSeparation, L(timeOfImpact ? -1.5 * EngineSettings.linearSlop : -3 * EngineSettings.linearSlop))
    }

    /// One pass of split position correction over one contact; returns the smallest separation
    /// seen (starting from `minSeparation`). Lanes outside `active` are left as they are. `mA`…`iB` are the masses that may move (a
    /// time-of-impact sub-step moves only two bodies); `baumgarte` is the fraction corrected.
    /// A's corrections are left out where A cannot move with masses `mA`, `iA` (`canMove`;
    /// `aMoves` forces the choice, for tests).
    @inline(__always) static func correctPositions<L: LaneReal>(_ m: ManifoldLanes<L>, kinds: ManifoldKinds, _ bodies: ContactBodiesLanes<L>,
                                              mA: L, iA: L, mB: L, iB: L, baumgarte: L,
                                              _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>,
                                              minSeparation: L, active: L.Mask, aMoves: Bool? = nil) -> L {
        if aMoves ?? canMove(invMass: mA, invInertia: iA) {
            return correctPositions(m, kinds: kinds, bodies, mA: mA, iA: iA, mB: mB, iB: iB, baumgarte: baumgarte, &pA, &pB,
                                    minSeparation: minSeparation, active: active, movingA: true)
        }
        return correctPositions(m, kinds: kinds, bodies, mA: mA, iA: iA, mB: mB, iB: iB, baumgarte: baumgarte, &pA, &pB,
                                minSeparation: minSeparation, active: active, movingA: false)
    }

    @inline(__always) private static func correctPositions<L: LaneReal>(
        _ m: ManifoldLanes<L>, kinds: ManifoldKinds, _ bodies: ContactBodiesLanes<L>, mA: L, iA: L, mB: L, iB: L, baumgarte: L,
        _ pA: inout PositionLanes<L>, _ pB: inout PositionLanes<L>, minSeparation: L, active: L.Mask, movingA aMoves: Bool
    ) -> L {
        var minSep = minSeparation
        let zero = L(0)
        func correct(_ lx: L, _ ly: L, _ has: L.Mask) {
            // The transforms follow the positions as each point moves them.
            let xfA = TransformLanes(pA, localCenterX: bodies.localCenterAX, localCenterY: bodies.localCenterAY)
            let xfB = TransformLanes(pB, localCenterX: bodies.localCenterBX, localCenterY: bodies.localCenterBY)
            let radii = bodies.radiusA, radiiB = bodies.radiusB
            // A reference face on `ref` and the point of `inc`: normal, point and separation.
            func face(_ ref: TransformLanes<L>, _ inc: TransformLanes<L>) -> (L, L, L, L, L) {
                let (nX, nY) = ref.rotate(m.localNormalX, m.localNormalY)
                let (planeX, planeY) = ref.apply(m.localPointX, m.localPointY)
                let (clipX, clipY) = inc.apply(lx, ly)
                let separation = (clipX - planeX) * nX + (clipY - planeY) * nY - radii - radiiB
                return (nX, nY, clipX, clipY, separation)
            }
            func faceA() -> (L, L, L, L, L) { face(xfA, xfB) }
            func faceB() -> (L, L, L, L, L) {
                let f = face(xfB, xfA)
                return (-f.0, -f.1, f.2, f.3, f.4)
            }
            var (nx, ny, px, py, separation) = onReferenceFace(kinds, faceA, faceB, none: (zero, zero, zero, zero, zero)) { a, b in
                (L.select(m.isFaceA, a.0, b.0), L.select(m.isFaceA, a.1, b.1), L.select(m.isFaceA, a.2, b.2),
                 L.select(m.isFaceA, a.3, b.3), L.select(m.isFaceA, a.4, b.4))
            }
            if kinds.contains(.circles) {
                let face = L.or(m.isFaceA, m.isFaceB)
                let (cAX, cAY) = xfA.apply(m.localPointX, m.localPointY)
                let (cBX, cBY) = xfB.apply(m.point0X, m.point0Y)
                let (ux, uy) = normalized(cBX - cAX, cBY - cAY)
                let sepC = (cBX - cAX) * ux + (cBY - cAY) * uy - radii - radiiB
                nx = L.select(face, nx, ux); ny = L.select(face, ny, uy)
                px = L.select(face, px, L(0.5) * (cAX + cBX)); py = L.select(face, py, L(0.5) * (cAY + cBY))
                separation = L.select(face, separation, sepC)
            }
            let rAx = px - pA.cx, rAy = py - pA.cy, rBx = px - pB.cx, rBy = py - pB.cy
            minSep = L.select(has, L.minimum(minSep, separation), minSep)
            // Correct part of the overlap beyond the slop, never more than the cap at once.
            let C = L.maximum(L(-EngineSettings.maxLinearCorrection),
                              L.minimum(baumgarte * (separation + L(EngineSettings.linearSlop)), zero))
            let rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx
            let K = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            let impulse = L.select(L.isGreater(K, zero), -C / K, zero)
            let Px = impulse * nx, Py = impulse * ny
            if aMoves {
                pA.cx = L.select(has, pA.cx - mA * Px, pA.cx)
                pA.cy = L.select(has, pA.cy - mA * Py, pA.cy)
                pA.a = L.select(has, pA.a - iA * (rAx * Py - rAy * Px), pA.a)
            }
            pB.cx = L.select(has, pB.cx + mB * Px, pB.cx)
            pB.cy = L.select(has, pB.cy + mB * Py, pB.cy)
            pB.a = L.select(has, pB.a + iB * (rBx * Py - rBy * Px), pB.a)
        }
        correct(m.point0X, m.point0Y, L.and(m.hasPoint0, active))
        correct(m.point1X, m.point1Y, L.and(m.hasPoint1, active))
        return minSep
    }
}

extension TransformLanes where L == Float {
    /// One world's transform (the same numbers: `Transform.apply` is `apply` here).
    @inline(__always) init(_ xf: Transform) { self.init(px: xf.p.x, py: xf.p.y, s: xf.q.s, c: xf.q.c) }
}
