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
