// Narrow phase: manifolds of up to two points by separating axes and clipping (Box2D 2.x's
// published algorithms). Shape A is the edge or the polygon when kinds differ; the normal points
// from A to B.

enum Collide {
    /// Orders two shape kinds so the pair's A is the one the collider functions expect first.
    static func shapeAComesFirst(_ a: Shape.Kind, _ b: Shape.Kind) -> Bool {
        rank(a) >= rank(b)
    }
    private static func rank(_ k: Shape.Kind) -> Int {
        switch k { case .edge: 2; case .polygon: 1; case .circle: 0 }
    }

    static func manifold(_ a: Shape, _ xfA: Transform, _ b: Shape, _ xfB: Transform) -> Manifold {
        switch (a.kind, b.kind) {
        case (.circle, .circle): circles(a, xfA, b, xfB)
        case (.polygon, .circle): polygonAndCircle(a, xfA, b, xfB)
        case (.polygon, .polygon): polygons(a, xfA, b, xfB)
        case (.edge, .circle): edgeAndCircle(a, xfA, b, xfB)
        case (.edge, .polygon): edgeAndPolygon(a, xfA, b, xfB)
        default: Manifold()   // edge-edge never collide: both are static
        }
    }

    static func circles(_ a: Shape, _ xfA: Transform, _ b: Shape, _ xfB: Transform) -> Manifold {
        var m = Manifold()
        let pA = xfA.apply(a.vertices[0]), pB = xfB.apply(b.vertices[0])
        let r = a.radius + b.radius
        if distanceSquared(pA, pB) > r * r { return m }
        m.kind = .circles
        m.localPoint = a.vertices[0]
        m.append(ManifoldPoint(localPoint: b.vertices[0]))
        return m
    }

    static func polygonAndCircle(_ a: Shape, _ xfA: Transform, _ b: Shape, _ xfB: Transform) -> Manifold {
        var m = Manifold()
        let c = xfA.applyInverse(xfB.apply(b.vertices[0]))
        let radius = a.radius + b.radius
        var normalIndex = 0
        var separation = -Float.greatestFiniteMagnitude
        let n = a.vertices.count
        for i in 0..<n {
            let s = dot(a.normals[i], c - a.vertices[i])
            if s > radius { return m }
            if s > separation { separation = s; normalIndex = i }
        }
        let v1 = a.vertices[normalIndex], v2 = a.vertices[(normalIndex + 1) % n]
        m.kind = .faceA
        let point = ManifoldPoint(localPoint: b.vertices[0])
        if separation < Float.ulpOfOne {   // centre inside the polygon
            m.localNormal = a.normals[normalIndex]
            m.localPoint = 0.5 * (v1 + v2)
            m.append(point)
            return m
        }
        let u1 = dot(c - v1, v2 - v1), u2 = dot(c - v2, v1 - v2)
        if u1 <= 0 {
            if distanceSquared(c, v1) > radius * radius { return m }
            m.localNormal = (c - v1).normalized
            m.localPoint = v1
        } else if u2 <= 0 {
            if distanceSquared(c, v2) > radius * radius { return m }
            m.localNormal = (c - v2).normalized
            m.localPoint = v2
        } else {
            let faceCenter = 0.5 * (v1 + v2)
            if dot(c - faceCenter, a.normals[normalIndex]) > radius { return m }
            m.localNormal = a.normals[normalIndex]
            m.localPoint = faceCenter
        }
        m.append(point)
        return m
    }

    /// Polygon against polygon (`CollideLanes.polygons` on one lane).
    static func polygons(_ a: Shape, _ xfA: Transform, _ b: Shape, _ xfB: Transform) -> Manifold {
        a.vertices.withUnsafeBufferPointer { va in
            a.normals.withUnsafeBufferPointer { na in
                b.vertices.withUnsafeBufferPointer { vb in
                    b.normals.withUnsafeBufferPointer { nb in
                        Manifold(oneLane: CollideLanes.polygons(
                            countA: va.count, vertexA: { (va[$0].x, va[$0].y) }, normalA: { (na[$0].x, na[$0].y) }, radiusA: a.radius, TransformLanes(xfA),
                            countB: vb.count, vertexB: { (vb[$0].x, vb[$0].y) }, normalB: { (nb[$0].x, nb[$0].y) }, radiusB: b.radius, TransformLanes(xfB)))
                    }
                }
            }
        }
    }

    static func edgeAndCircle(_ edge: Shape, _ xfA: Transform, _ circle: Shape, _ xfB: Transform) -> Manifold {
        var m = Manifold()
        let q = xfA.applyInverse(xfB.apply(circle.vertices[0]))
        let a = edge.vertices[0], b = edge.vertices[1], e = b - a
        let u = dot(e, b - q), v = dot(e, q - a)
        let radius = edge.radius + circle.radius
        var id = ContactFeature()
        id.typeB = ContactFeature.vertex
        let point = { (id: ContactFeature) in ManifoldPoint(localPoint: circle.vertices[0], id: id) }
        if v <= 0 || u <= 0 {   // beyond an end: the end point is the closest feature
            let p = v <= 0 ? a : b
            if distanceSquared(q, p) > radius * radius { return m }
            id.indexA = v <= 0 ? 0 : 1
            id.typeA = ContactFeature.vertex
            m.kind = .circles
            m.localPoint = p
            m.append(point(id))
            return m
        }
        let p = (1 / dot(e, e)) * (u * a + v * b)
        if distanceSquared(q, p) > radius * radius { return m }
        var n = e.skewLeft
        if dot(n, q - a) < 0 { n = -n }
        id.typeA = ContactFeature.face
        m.kind = .faceA
        m.localNormal = n.normalized
        m.localPoint = a
        m.append(point(id))
        return m
    }

    /// Edge against polygon, with the edge two-sided (`CollideLanes.edgeAndPolygon` on one lane).
    static func edgeAndPolygon(_ edge: Shape, _ xfA: Transform, _ polygon: Shape, _ xfB: Transform) -> Manifold {
        let count = polygon.vertices.count
        // The kernel's scratch on the stack (no allocation).
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * count) { scratch in
            polygon.vertices.withUnsafeBufferPointer { v in
                polygon.normals.withUnsafeBufferPointer { n in
                    let v1 = edge.vertices[0], v2 = edge.vertices[1]
                    let lanes = CollideLanes.edgeAndPolygon(
                        edge1: (v1.x, v1.y), edge2: (v2.x, v2.y), edgeRadius: edge.radius, TransformLanes(xfA),
                        count: count, vertex: { (v[$0].x, v[$0].y) }, normal: { (n[$0].x, n[$0].y) },
                        centroid: (polygon.centroid.x, polygon.centroid.y), polygonRadius: polygon.radius, TransformLanes(xfB),
                        scratch: scratch.baseAddress!)
                    return Manifold(oneLane: lanes)
                }
            }
        }
    }
}

extension FeatureLanes where L == Float {
    init(_ id: ContactFeature) {
        self.init(indexA: Float(id.indexA), indexB: Float(id.indexB), typeA: Float(id.typeA), typeB: Float(id.typeB))
    }
}

extension ContactFeature {
    init(_ lane: FeatureLanes<Float>) {
        self.init(indexA: UInt8(lane.indexA), indexB: UInt8(lane.indexB), typeA: UInt8(lane.typeA), typeB: UInt8(lane.typeB))
    }
}

extension Manifold {
    /// The manifold the narrow phase made on one lane.
    init(oneLane c: CollisionLanes<Float>) {
        self.init()
        let m = c.manifold
        kind = m.isFaceA ? .faceA : m.isFaceB ? .faceB : .circles
        localNormal = Vec2(m.localNormalX, m.localNormalY)
        localPoint = Vec2(m.localPointX, m.localPointY)
        if m.hasPoint0 { append(ManifoldPoint(localPoint: Vec2(m.point0X, m.point0Y), id: ContactFeature(c.id0))) }
        if m.hasPoint1 { append(ManifoldPoint(localPoint: Vec2(m.point1X, m.point1Y), id: ContactFeature(c.id1))) }
    }
}
