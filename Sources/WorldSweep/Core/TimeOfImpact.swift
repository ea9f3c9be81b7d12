// Time of impact by conservative advancement over separating axes: the first time in a sub-step at
// which two moving cores come within `target` of each other. Used so that items that gravity or
// push act on do not tunnel through static boundaries.

enum TOIState { case failed, overlapped, touching, separated }

private struct SeparationFunction {
    enum Kind { case points, faceA, faceB }
    var kind: Kind = .points
    var proxyA: DistanceProxy, proxyB: DistanceProxy
    var sweepA: Sweep, sweepB: Sweep
    var localPoint = Vec2.zero
    var axis = Vec2.zero

    init(_ cache: SimplexCache, _ pA: DistanceProxy, _ sA: Sweep, _ pB: DistanceProxy, _ sB: Sweep, _ t1: Float) {
        proxyA = pA; proxyB = pB; sweepA = sA; sweepB = sB
        let xfA = sA.transform(at: t1), xfB = sB.transform(at: t1)
        if cache.count == 1 {
            kind = .points
            let a = xfA.apply(pA.vertices[cache.a(0)]), b = xfB.apply(pB.vertices[cache.b(0)])
            axis = (b - a).normalized
        } else if cache.a(0) == cache.a(1) {
            // Two points on B and one on A: B's face is the axis.
            kind = .faceB
            let b1 = pB.vertices[cache.b(0)], b2 = pB.vertices[cache.b(1)]
            axis = (b2 - b1).skewRight.normalized
            let normal = xfB.q.apply(axis)
            localPoint = 0.5 * (b1 + b2)
            let pointB = xfB.apply(localPoint)
            let pointA = xfA.apply(pA.vertices[cache.a(0)])
            if dot(pointA - pointB, normal) < 0 { axis = -axis }
        } else {
            kind = .faceA
            let a1 = pA.vertices[cache.a(0)], a2 = pA.vertices[cache.a(1)]
            axis = (a2 - a1).skewRight.normalized
            let normal = xfA.q.apply(axis)
            localPoint = 0.5 * (a1 + a2)
            let pointA = xfA.apply(localPoint)
            let pointB = xfB.apply(pB.vertices[cache.b(0)])
            if dot(pointB - pointA, normal) < 0 { axis = -axis }
        }
    }

    /// The deepest points along the axis at time t, and their separation.
    func findMinSeparation(_ t: Float) -> (Int, Int, Float) {
        let xfA = sweepA.transform(at: t), xfB = sweepB.transform(at: t)
        switch kind {
        case .points:
            let iA = proxyA.support(xfA.q.applyInverse(axis)), iB = proxyB.support(xfB.q.applyInverse(-axis))
            let a = xfA.apply(proxyA.vertices[iA]), b = xfB.apply(proxyB.vertices[iB])
            return (iA, iB, dot(b - a, axis))
        case .faceA:
            let normal = xfA.q.apply(axis)
            let a = xfA.apply(localPoint)
            let iB = proxyB.support(xfB.q.applyInverse(-normal))
            let b = xfB.apply(proxyB.vertices[iB])
            return (-1, iB, dot(b - a, normal))
        case .faceB:
            let normal = xfB.q.apply(axis)
            let b = xfB.apply(localPoint)
            let iA = proxyA.support(xfA.q.applyInverse(-normal))
            let a = xfA.apply(proxyA.vertices[iA])
            return (iA, -1, dot(a - b, normal))
        }
    }

    func evaluate(_ iA: Int, _ iB: Int, _ t: Float) -> Float {
        let xfA = sweepA.transform(at: t), xfB = sweepB.transform(at: t)
        switch kind {
        case .points:
            return dot(xfB.apply(proxyB.vertices[iB]) - xfA.apply(proxyA.vertices[iA]), axis)
        case .faceA:
            let normal = xfA.q.apply(axis)
            return dot(xfB.apply(proxyB.vertices[iB]) - xfA.apply(localPoint), normal)
        case .faceB:
            let normal = xfB.q.apply(axis)
            return dot(xfA.apply(proxyA.vertices[iA]) - xfB.apply(localPoint), normal)
        }
    }
}

/// The fraction t in [0, 1] of the sweeps at which the cores first come within the target
/// distance (total skin minus three slops), and how the search ended.
func timeOfImpact(_ pA: DistanceProxy, _ sweepA: Sweep, _ pB: DistanceProxy, _ sweepB: Sweep) -> (TOIState, Float) {
    var sA = sweepA, sB = sweepB
    sA.normalize(); sB.normalize()
    let tMax: Float = 1
    let slop = EngineSettings.linearSlop
    let totalRadius = pA.radius + pB.radius
    let target = max(slop, totalRadius - 3 * slop)
    let tolerance = 0.25 * slop
    var t1: Float = 0
    var cache = SimplexCache()
    let maxIterations = 20
    var iteration = 0
    while true {
        let xfA = sA.transform(at: t1), xfB = sB.transform(at: t1)
        let d = shapeDistance(&cache, pA, xfA, pB, xfB)
        if d.distance <= 0 { return (.overlapped, 0) }
        if d.distance < target + tolerance { return (.touching, t1) }

        let fcn = SeparationFunction(cache, pA, sA, pB, sB, t1)
        var t2 = tMax
        var pushBackIteration = 0
        while true {
            let (iA, iB, minSeparation) = fcn.findMinSeparation(t2)
            var s2 = minSeparation
            if s2 > target + tolerance { return (.separated, tMax) }
            if s2 > target - tolerance { t1 = t2; break }   // advance the sweeps
            var s1 = fcn.evaluate(iA, iB, t1)
            if s1 < target - tolerance { return (.failed, t1) }
            if s1 <= target + tolerance { return (.touching, t1) }
            // Root of s(t) = target between t1 and t2: bisection alternating with secant steps.
            var a1 = t1, a2 = t2
            var rootIterations = 0
            while true {
                let t = rootIterations & 1 == 1 ? a1 + (target - s1) * (a2 - a1) / (s2 - s1) : 0.5 * (a1 + a2)
                rootIterations += 1
                let s = fcn.evaluate(iA, iB, t)
                if abs(s - target) < tolerance { t2 = t; break }
                if s > target { a1 = t; s1 = s } else { a2 = t; s2 = s }
                if rootIterations == 50 { break }
            }
            pushBackIteration += 1
            if pushBackIteration == 8 { break }   // Box2D's vertex limit
        }
        iteration += 1
        if iteration == maxIterations { return (.failed, t1) }
    }
}

/// The time a candidate pair of solveTOI first touches, as a fraction of the sub-step (1: not
/// within it), when both sweeps start at `alpha0` (the caller advanced the earlier one there).
/// The one computation of that time: solveTOI's search calls it for each candidate, and the
/// batched engine calls it for the first round of that search before it hands a lane over.
@inline(__always)
func timeOfImpactAlpha(_ shapeA: Shape, _ sweepA: Sweep, _ shapeB: Shape, _ sweepB: Sweep, from alpha0: Float) -> Float {
    let (state, beta) = timeOfImpact(DistanceProxy(shapeA), sweepA, DistanceProxy(shapeB), sweepB)
    return state == .touching ? min(alpha0 + (1 - alpha0) * beta, 1) : 1
}

/// Whether solveTOI acts on a contact whose time of impact is `alpha`: only an impact more than
/// ten float steps before the sub-step's end is resolved (an earlier NaN never is).
@inline(__always)
func timeOfImpactIsResolved(_ alpha: Float) -> Bool { alpha <= 1 - 10 * Float.ulpOfOne }

/// Whether a time-of-impact search between a static body and a moving one can find them touching
/// within this sub-step. False only when, against a static edge, the moving core stays on one side
/// of the edge's line and farther from it than the touching distance (plus a slop of safety) for
/// the whole sweep: a body resting on or flying clear of a boundary then costs no search. Both
/// engines apply this same rule, so it never separates them.
func toiMayTouch(staticShape: Shape, _ staticXf: Transform, moving shape: Shape, _ sweep: Sweep) -> Bool {
    guard staticShape.kind == .edge else { return true }
    return shape.vertices.withUnsafeBufferPointer { v in
        toiMayTouchEdge(EdgeLanes(staticShape, staticXf), movingRadius: shape.radius,
                        from: PositionLanes(cx: sweep.c0.x, cy: sweep.c0.y, a: sweep.a0),
                        to: PositionLanes(cx: sweep.c.x, cy: sweep.c.y, a: sweep.a),
                        localCenterX: sweep.localCenter.x, localCenterY: sweep.localCenter.y,
                        count: v.count, active: true) { (v[$0].x, v[$0].y) }
    }
}

/// A static edge in world terms, per lane: its first end point, its first normal and its skin.
struct EdgeLanes<L: LaneReal> {
    var pointX: L, pointY: L, normalX: L, normalY: L, radius: L
}

extension EdgeLanes where L == Float {
    /// The edge `shape` placed at `xf`.
    init(_ shape: Shape, _ xf: Transform) {
        let e1 = xf.apply(shape.vertices[0]), n = xf.q.apply(shape.normals[0])
        self.init(pointX: e1.x, pointY: e1.y, normalX: n.x, normalY: n.y, radius: shape.radius)
    }
}

/// The pre-check against a static edge (see `toiMayTouch` above), written once for one world
/// (`Float`) and eight (`SIMD8<Float>`): the moving body goes from `start` to `end` (centre of
/// mass and angle), its core has `count` body-local vertices. Lanes outside `active` are left
/// out of the work and of the answer; the early exits happen when no lane is left undecided.
@inline(__always)
func toiMayTouchEdge<L: LaneReal>(_ edge: EdgeLanes<L>, movingRadius: L, from start: PositionLanes<L>, to end: PositionLanes<L>,
                                  localCenterX lx: L, localCenterY ly: L, count: Int, active: L.Mask,
                                  vertex: (Int) -> (L, L)) -> L.Mask {
    toiMayTouchEdge(edge, movingRadius: movingRadius, from: start, to: end, localCenterX: lx, localCenterY: ly, count: count, active: active,
                    coreRadius: { toiCoreRadius(count: count, localCenterX: lx, localCenterY: ly, vertex: vertex) },
                    rotations: { _ in
                        let (s0, c0) = sinCos(start.a), (s1, c1) = sinCos(end.a)
                        return (s0, c0, s1, c1)
                    }, vertex: vertex)
}

/// The pre-check with what the batched engine already holds handed in (LaneTimeOfImpact.swift):
/// the moving core's radius about its centre of mass (`toiCoreRadius`), and the sines and
/// cosines of the start and end angles, for the lanes still undecided (the mask given).
@inline(__always)
func toiMayTouchEdge<L: LaneReal>(_ edge: EdgeLanes<L>, movingRadius: L, from start: PositionLanes<L>, to end: PositionLanes<L>,
                                  localCenterX lx: L, localCenterY ly: L, count: Int, active: L.Mask,
                                  coreRadius knownCoreRadius: () -> L,
                                  rotations: (_ undecided: L.Mask) -> (s0: L, c0: L, s1: L, c1: L),
                                  vertex: (Int) -> (L, L)) -> L.Mask {
    let slop = L(EngineSettings.linearSlop)
    let target = L.maximum(slop, edge.radius + movingRadius - L(3) * slop)
    let clearance = target + L(0.25) * slop + slop
    // The centre's distance from the line is linear in time: its least is at an end.
    let d0 = edge.normalX * (start.cx - edge.pointX) + edge.normalY * (start.cy - edge.pointY)
    let d1 = edge.normalX * (end.cx - edge.pointX) + edge.normalY * (end.cy - edge.pointY)
    let side = L.select(L.isNonNegative(d0), L(1), L(-1))
    let nearest = L.minimum(side * d0, side * d1)
    let near = L.and(active, L.isGreaterOrEqual(clearance, nearest))
    var undecided = L.and(active, L.not(near))
    if !L.any(undecided) { return near }
    // A bound without trigonometry first: no point of the core lies farther than coreRadius from
    // the centre, so the reach below is at most coreRadius · (1 + |Δa| / 2). The bound is padded
    // far beyond rounding, so it only rejects sweeps the exact test would reject too.
    let coreRadius = knownCoreRadius()
    let turned = L.absolute(end.a - start.a)
    let clear = L.isGreater(nearest - (coreRadius * (L(1.001) + L(0.5005) * turned) + L(1e-6)), clearance)
    undecided = L.and(undecided, L.not(clear))
    if !L.any(undecided) { return near }
    // How far the core reaches towards the line at the two end angles; in between it can reach
    // farther by at most (radius of the core) × (angle turned) / 2 beyond their mean.
    let towardsX = -side * edge.normalX, towardsY = -side * edge.normalY
    let (s0, c0, s1, c1) = rotations(undecided)
    var reach0 = L(-Float.greatestFiniteMagnitude), reach1 = L(-Float.greatestFiniteMagnitude)
    for k in 0..<count {
        let (x, y) = vertex(k)
        let ux = x - lx, uy = y - ly
        reach0 = L.maximum(reach0, towardsX * (c0 * ux - s0 * uy) + towardsY * (s0 * ux + c0 * uy))
        reach1 = L.maximum(reach1, towardsX * (c1 * ux - s1 * uy) + towardsY * (s1 * ux + c1 * uy))
    }
    let reach = L(0.5) * (reach0 + reach1 + coreRadius * turned)
    return L.or(near, L.and(undecided, L.isGreaterOrEqual(clearance, nearest - reach)))
}

/// The largest distance of a core's `count` body-local vertices from its centre of mass: a
/// bound on how far any point of the core lies from it (the square root is monotonic).
@inline(__always)
func toiCoreRadius<L: LaneReal>(count: Int, localCenterX lx: L, localCenterY ly: L, vertex: (Int) -> (L, L)) -> L {
    var coreRadius2 = L(0)
    for k in 0..<count {
        let (x, y) = vertex(k)
        let ux = x - lx, uy = y - ly
        coreRadius2 = L.maximum(coreRadius2, ux * ux + uy * uy)
    }
    return coreRadius2.squareRoot()
}
