// The velocity step of one contact constraint — friction, then the normal impulse (one point, or
// two solved together as a 2×2 block) — written once over `LaneReal`: the single world runs it
// on Float, the batched engine on SIMD8<Float>, eight worlds per instruction. Lanes where the
// contact has fewer points are masked, never branched: their impulses change by exactly zero.

struct ContactPointLanes<L: LaneReal> {
    var rAx: L, rAy: L, rBx: L, rBy: L
    var normalImpulse: L, tangentImpulse: L
    var normalMass: L, tangentMass: L
    var velocityBias: L
}

struct ContactLanes<L: LaneReal> {
    var nx: L, ny: L
    var p0: ContactPointLanes<L>, p1: ContactPointLanes<L>
    /// Effective-mass matrix (k11, k12, k22) and its inverse, for two-point lanes.
    var k11: L, k12: L, k22: L
    var m11: L, m21: L, m12: L, m22: L
    var friction: L
    var mA: L, iA: L, mB: L, iB: L
    /// Lanes solving one point (including ill-conditioned two-point manifolds), and two.
    var onePoint: L.Mask, twoPoints: L.Mask
}

extension ContactLanes {
    /// A contact's velocity constraint before its set-up (`ContactKernels.initialize` fills in
    /// the rest): its friction, its bodies' masses and the impulses it carries in (already scaled
    /// for the warm start, or none); every per-step value zero. Both engines build their
    /// constraints through this.
    @inline(__always)
    init(beforeSetUp bodies: ContactBodiesLanes<L>, friction: L, normalImpulse0: L, tangentImpulse0: L,
         normalImpulse1: L, tangentImpulse1: L) {
        let zero = L(0), none = L.isGreater(zero, zero)
        func point(_ normalImpulse: L, _ tangentImpulse: L) -> ContactPointLanes<L> {
            ContactPointLanes(rAx: zero, rAy: zero, rBx: zero, rBy: zero, normalImpulse: normalImpulse, tangentImpulse: tangentImpulse,
                              normalMass: zero, tangentMass: zero, velocityBias: zero)
        }
        self.init(nx: zero, ny: zero, p0: point(normalImpulse0, tangentImpulse0), p1: point(normalImpulse1, tangentImpulse1),
                  k11: zero, k12: zero, k22: zero, m11: zero, m21: zero, m12: zero, m22: zero,
                  friction: friction, mA: bodies.mA, iA: bodies.iA, mB: bodies.mB, iB: bodies.iB, onePoint: none, twoPoints: none)
    }
}

struct VelocityLanes<L: LaneReal> {
    var vx: L, vy: L, w: L
}

/// Whether a body with these inverse mass and inertia lanes can move in some lane. Where it
/// cannot (a boundary edge: both 0), a kernel's update x − 0·P leaves a +0 or non-zero x bit for
/// bit as it is (a static body's velocities stay +0 throughout, its position is where it was
/// built), so the kernels may leave that body's updates out: less arithmetic, and the other
/// body's values stay in registers. (A non-finite P would have turned x NaN; that world has
/// failed either way.) Both engines ask this one question.
@inline(__always) func canMove<L: LaneReal>(invMass: L, invInertia: L) -> Bool {
    L.any(L.or(L.isGreater(invMass, L(0)), L.isGreater(invInertia, L(0))))
}

extension ContactLanes {
    var bodyAMoves: Bool { canMove(invMass: mA, invInertia: iA) }
}

enum ContactVelocityKernel {
    /// Relative velocity at a contact point: vB + ωB × rB − vA − ωA × rA.
    @inline(__always) private static func relativeVelocity<L: LaneReal>(_ p: ContactPointLanes<L>, _ a: VelocityLanes<L>,
                                                      _ b: VelocityLanes<L>) -> (L, L) {
        // Same order as the Vec2 expression: ((vB + ωB×rB) − vA) − ωA×rA, with ω×r = (−ω r.y, ω r.x).
        let x = ((b.vx + (-b.w * p.rBy)) - a.vx) - (-a.w * p.rAy)
        let y = ((b.vy + b.w * p.rBx) - a.vy) - a.w * p.rAx
        return (x, y)
    }

    /// Applies impulse (px, py) at point p: A loses it (unless A cannot move), B gains it.
    @inline(__always) private static func apply<L: LaneReal>(_ px: L, _ py: L, _ p: ContactPointLanes<L>, _ c: ContactLanes<L>,
                                           _ a: inout VelocityLanes<L>, _ b: inout VelocityLanes<L>, aMoves: Bool) {
        if aMoves {
            a.vx = a.vx - c.mA * px; a.vy = a.vy - c.mA * py
            a.w = a.w - c.iA * (p.rAx * py - p.rAy * px)
        }
        b.vx = b.vx + c.mB * px; b.vy = b.vy + c.mB * py
        b.w = b.w + c.iB * (p.rBx * py - p.rBy * px)
    }

    @inline(__always) private static func friction<L: LaneReal>(_ p: inout ContactPointLanes<L>, active: L.Mask, _ c: ContactLanes<L>,
                                              _ a: inout VelocityLanes<L>, _ b: inout VelocityLanes<L>, aMoves: Bool) {
        let tx = c.ny, ty = -c.nx
        let (dvx, dvy) = relativeVelocity(p, a, b)
        let vt = dvx * tx + dvy * ty
        let lambda = p.tangentMass * -vt
        let maxFriction = c.friction * p.normalImpulse
        let clamped = L.maximum(-maxFriction, L.minimum(p.tangentImpulse + lambda, maxFriction))
        let newImpulse = L.select(active, clamped, p.tangentImpulse)
        let applied = newImpulse - p.tangentImpulse
        p.tangentImpulse = newImpulse
        apply(applied * tx, applied * ty, p, c, &a, &b, aMoves: aMoves)
    }

    /// One velocity step of contact `c` between bodies `a` and `b`. The step leaves out what
    /// changes nothing, decided here so that every caller (both engines) leaves out the same:
    /// the one-point block where no lane solves one point, and the second point's friction and
    /// the two-point block where one world's contact has one point — there each changes every velocity by
    /// exactly zero (impulse − itself), so leaving it out gives the same bits while the
    /// impulses are finite (a lane whose impulses are not has failed either way) — and A's
    /// updates where A cannot move (`bodyAMoves`). Each combination is its own specialised
    /// copy. The two-point block stops at its first case where every lane is a two-point lane
    /// that takes it (`fullSelect` false; true tries every case, as the lanes must when they
    /// disagree). Tests pass `onePointPath`, `twoPointPath`, `aMoves` or `fullSelect` to force a path.
    @inline(__always) static func solve<L: LaneReal>(_ c: inout ContactLanes<L>, _ a: inout VelocityLanes<L>, _ b: inout VelocityLanes<L>,
                                                     onePointPath: Bool? = nil, twoPointPath: Bool? = nil, aMoves: Bool? = nil,
                                                     fullSelect: Bool = false) {
        let onePoint = onePointPath ?? L.any(c.onePoint), aMoves = aMoves ?? c.bodyAMoves
        // One world's contact solves one point or two, never both: there the two-point work is
        // left out where the contact has one. Eight lanes seldom all lack a second point, so
        // they do not ask (asking would cost more than it saves); either way the same bits.
        switch (onePoint, twoPointPath ?? (!onePoint || L.laneCount > 1 || L.any(c.twoPoints)), aMoves) {
        case (true, false, true): step(&c, &a, &b, onePointPath: true, twoPointPath: false, aMoves: true, fullSelect: fullSelect)
        case (true, false, false): step(&c, &a, &b, onePointPath: true, twoPointPath: false, aMoves: false, fullSelect: fullSelect)
        case (false, _, true): step(&c, &a, &b, onePointPath: false, twoPointPath: true, aMoves: true, fullSelect: fullSelect)
        case (false, _, false): step(&c, &a, &b, onePointPath: false, twoPointPath: true, aMoves: false, fullSelect: fullSelect)
        case (true, true, true): step(&c, &a, &b, onePointPath: true, twoPointPath: true, aMoves: true, fullSelect: fullSelect)
        case (true, true, false): step(&c, &a, &b, onePointPath: true, twoPointPath: true, aMoves: false, fullSelect: fullSelect)
        }
    }

    @inline(__always) private static func step<L: LaneReal>(_ c: inout ContactLanes<L>, _ a: inout VelocityLanes<L>,
                                                            _ b: inout VelocityLanes<L>, onePointPath: Bool, twoPointPath: Bool,
                                                            aMoves: Bool, fullSelect: Bool) {
        let anyPoint = L.or(c.onePoint, c.twoPoints)
        // Friction first: the normal constraint matters more, so it gets the last word.
        friction(&c.p0, active: anyPoint, c, &a, &b, aMoves: aMoves)
        if twoPointPath { friction(&c.p1, active: c.twoPoints, c, &a, &b, aMoves: aMoves) }

        // One point.
        if onePointPath {
            let (dvx, dvy) = relativeVelocity(c.p0, a, b)
            let vn = dvx * c.nx + dvy * c.ny
            let lambda = -c.p0.normalMass * (vn - c.p0.velocityBias)
            let newImpulse = L.select(c.onePoint, L.maximum(c.p0.normalImpulse + lambda, L(0)), c.p0.normalImpulse)
            let applied = newImpulse - c.p0.normalImpulse
            c.p0.normalImpulse = newImpulse
            apply(applied * c.nx, applied * c.ny, c.p0, c, &a, &b, aMoves: aMoves)
        }

        // Two points: the impulse pair x ≥ 0 whose relative normal velocities are ≥ 0 where x = 0,
        // trying the active sets in turn (both, first only, second only, none); the first that
        // holds wins, as in the sequential version.
        guard twoPointPath else { return }
        let a0 = c.p0.normalImpulse, a1 = c.p1.normalImpulse
        let (d1x, d1y) = relativeVelocity(c.p0, a, b)
        let (d2x, d2y) = relativeVelocity(c.p1, a, b)
        var bx = (d1x * c.nx + d1y * c.ny) - c.p0.velocityBias
        var by = (d2x * c.nx + d2y * c.ny) - c.p1.velocityBias
        bx = bx - (c.k11 * a0 + c.k12 * a1)
        by = by - (c.k12 * a0 + c.k22 * a1)
        let both = (-(c.m11 * bx + c.m12 * by), -(c.m21 * bx + c.m22 * by))
        let bothOK = L.and(L.isNonNegative(both.0), L.isNonNegative(both.1))
        var x0 = both.0, x1 = both.1
        // Where every lane solves two points and the first case holds in each, the selects below
        // would pick `both` in every lane: the same bits without the other cases.
        if fullSelect || !L.all(L.and(bothOK, c.twoPoints)) {
            let first = -c.p0.normalMass * bx
            let firstOK = L.and(L.isNonNegative(first), L.isNonNegative(c.k12 * first + by))
            let second = -c.p1.normalMass * by
            let secondOK = L.and(L.isNonNegative(second), L.isNonNegative(c.k12 * second + bx))
            let noneOK = L.and(L.isNonNegative(bx), L.isNonNegative(by))
            let zero = L(0)
            x0 = L.select(noneOK, zero, a0); x1 = L.select(noneOK, zero, a1)
            x0 = L.select(secondOK, zero, x0); x1 = L.select(secondOK, second, x1)
            x0 = L.select(firstOK, first, x0); x1 = L.select(firstOK, zero, x1)
            x0 = L.select(bothOK, both.0, x0); x1 = L.select(bothOK, both.1, x1)
            x0 = L.select(c.twoPoints, x0, a0); x1 = L.select(c.twoPoints, x1, a1)
        }
        let e0 = x0 - a0, e1 = x1 - a1
        let p1x = e0 * c.nx, p1y = e0 * c.ny, p2x = e1 * c.nx, p2y = e1 * c.ny
        if aMoves {
            a.vx = a.vx - c.mA * (p1x + p2x); a.vy = a.vy - c.mA * (p1y + p2y)
            a.w = a.w - c.iA * ((c.p0.rAx * p1y - c.p0.rAy * p1x) + (c.p1.rAx * p2y - c.p1.rAy * p2x))
        }
        b.vx = b.vx + c.mB * (p1x + p2x); b.vy = b.vy + c.mB * (p1y + p2y)
        b.w = b.w + c.iB * ((c.p0.rBx * p1y - c.p0.rBy * p1x) + (c.p1.rBx * p2y - c.p1.rBy * p2x))
        c.p0.normalImpulse = x0
        c.p1.normalImpulse = x1
    }
}
