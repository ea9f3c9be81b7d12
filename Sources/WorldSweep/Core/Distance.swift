// GJK closest points between two convex proxies (cores only, skins excluded), with a simplex cache
// that time of impact reuses between iterations.

struct DistanceProxy {
    var vertices: [Vec2]
    var radius: Float

    init(_ shape: Shape) {
        vertices = shape.vertices
        radius = shape.radius
    }

    func support(_ d: Vec2) -> Int {
        var best = 0
        var bestValue = dot(vertices[0], d)
        for i in 1..<vertices.count {
            let v = dot(vertices[i], d)
            if v > bestValue { best = i; bestValue = v }
        }
        return best
    }
}

struct SimplexCache {
    var metric: Float = 0
    var count = 0
    var indexA: (Int, Int, Int) = (0, 0, 0)
    var indexB: (Int, Int, Int) = (0, 0, 0)

    func a(_ i: Int) -> Int { i == 0 ? indexA.0 : i == 1 ? indexA.1 : indexA.2 }
    func b(_ i: Int) -> Int { i == 0 ? indexB.0 : i == 1 ? indexB.1 : indexB.2 }
}

private struct SimplexVertex {
    var wA = Vec2.zero, wB = Vec2.zero, w = Vec2.zero
    var a: Float = 0
    var indexA = 0, indexB = 0
}

/// Three vertices inline (no heap allocation per distance query).
private struct SimplexVertices {
    var v0 = SimplexVertex(), v1 = SimplexVertex(), v2 = SimplexVertex()
    subscript(i: Int) -> SimplexVertex {
        get { i == 0 ? v0 : i == 1 ? v1 : v2 }
        set { if i == 0 { v0 = newValue } else if i == 1 { v1 = newValue } else { v2 = newValue } }
    }
}

private struct Simplex {
    var v = SimplexVertices()
    var count = 0

    mutating func read(_ cache: SimplexCache, _ pA: DistanceProxy, _ xfA: Transform, _ pB: DistanceProxy,
                       _ xfB: Transform) {
        count = cache.count
        for i in 0..<count {
            var sv = SimplexVertex()
            sv.indexA = cache.a(i); sv.indexB = cache.b(i)
            sv.wA = xfA.apply(pA.vertices[sv.indexA])
            sv.wB = xfB.apply(pB.vertices[sv.indexB])
            sv.w = sv.wB - sv.wA
            v[i] = sv
        }
        // A cached simplex whose size changed a lot is stale: start afresh.
        if count > 1 {
            let m1 = cache.metric, m2 = metric
            if m2 < 0.5 * m1 || 2 * m1 < m2 || m2 < Float.ulpOfOne { count = 0 }
        }
        if count == 0 {
            var sv = SimplexVertex()
            sv.wA = xfA.apply(pA.vertices[0]); sv.wB = xfB.apply(pB.vertices[0])
            sv.w = sv.wB - sv.wA
            sv.a = 1
            v[0] = sv
            count = 1
        }
    }

    func write(_ cache: inout SimplexCache) {
        cache.metric = metric
        cache.count = count
        cache.indexA = (v[0].indexA, v[1].indexA, v[2].indexA)
        cache.indexB = (v[0].indexB, v[1].indexB, v[2].indexB)
    }

    var searchDirection: Vec2 {
        switch count {
        case 1: return -v[0].w
        default:
            let e12 = v[1].w - v[0].w
            return cross(e12, -v[0].w) > 0 ? e12.skewLeft : e12.skewRight
        }
    }

    var closestPoint: Vec2 {
        switch count {
        case 1: v[0].w
        case 2: v[0].a * v[0].w + v[1].a * v[1].w
        default: .zero
        }
    }

    var witnessPoints: (Vec2, Vec2) {
        switch count {
        case 1: return (v[0].wA, v[0].wB)
        case 2: return (v[0].a * v[0].wA + v[1].a * v[1].wA, v[0].a * v[0].wB + v[1].a * v[1].wB)
        default:
            let p = v[0].a * v[0].wA + v[1].a * v[1].wA + v[2].a * v[2].wA
            return (p, p)
        }
    }

    var metric: Float {
        switch count {
        case 1: 0
        case 2: distance(v[0].w, v[1].w)
        default: cross(v[1].w - v[0].w, v[2].w - v[0].w)
        }
    }

    // Barycentric solution on a segment (Voronoi regions of its end points and interior).
    mutating func solve2() {
        let w1 = v[0].w, w2 = v[1].w
        let e12 = w2 - w1
        let d12_2 = -dot(w1, e12)
        if d12_2 <= 0 { v[0].a = 1; count = 1; return }
        let d12_1 = dot(w2, e12)
        if d12_1 <= 0 { v[1].a = 1; count = 1; v[0] = v[1]; return }
        let inv = 1 / (d12_1 + d12_2)
        v[0].a = d12_1 * inv; v[1].a = d12_2 * inv
        count = 2
    }

    // Same on a triangle: vertex, edge and interior regions.
    mutating func solve3() {
        let w1 = v[0].w, w2 = v[1].w, w3 = v[2].w
        let e12 = w2 - w1
        let d12_1 = dot(w2, e12), d12_2 = -dot(w1, e12)
        let e13 = w3 - w1
        let d13_1 = dot(w3, e13), d13_2 = -dot(w1, e13)
        let e23 = w3 - w2
        let d23_1 = dot(w3, e23), d23_2 = -dot(w2, e23)
        let n123 = cross(e12, e13)
        let d123_1 = n123 * cross(w2, w3), d123_2 = n123 * cross(w3, w1), d123_3 = n123 * cross(w1, w2)
        if d12_2 <= 0 && d13_2 <= 0 { v[0].a = 1; count = 1; return }
        if d12_1 > 0 && d12_2 > 0 && d123_3 <= 0 {
            let inv = 1 / (d12_1 + d12_2)
            v[0].a = d12_1 * inv; v[1].a = d12_2 * inv; count = 2; return
        }
        if d13_1 > 0 && d13_2 > 0 && d123_2 <= 0 {
            let inv = 1 / (d13_1 + d13_2)
            v[0].a = d13_1 * inv; v[2].a = d13_2 * inv; count = 2; v[1] = v[2]; return
        }
        if d12_1 <= 0 && d23_2 <= 0 { v[1].a = 1; count = 1; v[0] = v[1]; return }
        if d13_1 <= 0 && d23_1 <= 0 { v[2].a = 1; count = 1; v[0] = v[2]; return }
        if d23_1 > 0 && d23_2 > 0 && d123_1 <= 0 {
            let inv = 1 / (d23_1 + d23_2)
            v[1].a = d23_1 * inv; v[2].a = d23_2 * inv; count = 2; v[0] = v[2]; return
        }
        let inv = 1 / (d123_1 + d123_2 + d123_3)
        v[0].a = d123_1 * inv; v[1].a = d123_2 * inv; v[2].a = d123_3 * inv
        count = 3
    }
}

struct DistanceResult {
    var pointA: Vec2
    var pointB: Vec2
    var distance: Float
}

/// Distance between the cores of two proxies (radii not applied).
func shapeDistance(_ cache: inout SimplexCache, _ pA: DistanceProxy, _ xfA: Transform, _ pB: DistanceProxy,
                   _ xfB: Transform) -> DistanceResult {
    var simplex = Simplex()
    simplex.read(cache, pA, xfA, pB, xfB)
    let maxIterations = 20
    var iteration = 0
    while iteration < maxIterations {
        // The vertices before this iteration, to detect a repeated support point.
        let saveCount = simplex.count
        let saved = simplex.v
        switch simplex.count {
        case 2: simplex.solve2()
        case 3: simplex.solve3()
        default: break
        }
        if simplex.count == 3 { break }   // origin inside the triangle: overlapping
        let d = simplex.searchDirection
        if d.lengthSquared < Float.ulpOfOne * Float.ulpOfOne { break }
        var sv = SimplexVertex()
        sv.indexA = pA.support(xfA.q.applyInverse(-d))
        sv.wA = xfA.apply(pA.vertices[sv.indexA])
        sv.indexB = pB.support(xfB.q.applyInverse(d))
        sv.wB = xfB.apply(pB.vertices[sv.indexB])
        sv.w = sv.wB - sv.wA
        iteration += 1
        var duplicate = false
        for i in 0..<saveCount where sv.indexA == saved[i].indexA && sv.indexB == saved[i].indexB { duplicate = true; break }
        if duplicate { break }   // no progress: converged
        simplex.v[simplex.count] = sv
        simplex.count += 1
    }
    let (a, b) = simplex.witnessPoints
    simplex.write(&cache)
    return DistanceResult(pointA: a, pointB: b, distance: distance(a, b))
}
