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

    struct ClipVertex { var v: Vec2; var id: ContactFeature }

    /// Keeps the part of segment `vIn` with `dot(normal, v) <= offset`: nil unless two points
    /// remain (a manifold needs both). `CollideLanes.clipSegment` on one lane.
    static func clipSegment(_ vIn: (ClipVertex, ClipVertex), normal: Vec2, offset: Float, vertexIndexA: Int)
        -> (ClipVertex, ClipVertex)?
    {
        let (ok, c0, c1) = CollideLanes.clipSegment(ClipVertexLanes(vIn.0), ClipVertexLanes(vIn.1), normalX: normal.x, normalY: normal.y,
                                                    offset: offset, vertexIndexA: Float(vertexIndexA))
        return ok ? (ClipVertex(c0), ClipVertex(c1)) : nil
    }

    /// Largest separation of `poly2` from the faces of `poly1`, and the face that gives it.
    static func maxSeparation(_ p1: Shape, _ xf1: Transform, _ p2: Shape, _ xf2: Transform) -> (Float, Int) {
        // Work in poly2's frame.
        let q = Rot(s: xf2.q.c * xf1.q.s - xf2.q.s * xf1.q.c, c: xf2.q.c * xf1.q.c + xf2.q.s * xf1.q.s)
        let xf = Transform(p: xf2.q.applyInverse(xf1.p - xf2.p), q: q)
        var best = 0
        var maxSep = -Float.greatestFiniteMagnitude
        for i in 0..<p1.vertices.count {
            let n = xf.q.apply(p1.normals[i])
            let v1 = xf.apply(p1.vertices[i])
            var si = Float.greatestFiniteMagnitude
            for v2 in p2.vertices { si = min(si, dot(n, v2 - v1)) }
            if si > maxSep { maxSep = si; best = i }
        }
        return (maxSep, best)
    }

    static func incidentEdge(_ p1: Shape, _ xf1: Transform, _ edge1: Int, _ p2: Shape, _ xf2: Transform)
        -> (ClipVertex, ClipVertex)
    {
        let normal1 = xf2.q.applyInverse(xf1.q.apply(p1.normals[edge1]))
        var index = 0
        var minDot = Float.greatestFiniteMagnitude
        for i in 0..<p2.normals.count {
            let d = dot(normal1, p2.normals[i])
            if d < minDot { minDot = d; index = i }
        }
        let i2 = (index + 1) % p2.vertices.count
        let f = ContactFeature.face, v = ContactFeature.vertex
        return (ClipVertex(v: xf2.apply(p2.vertices[index]),
                           id: ContactFeature(indexA: UInt8(edge1), indexB: UInt8(index), typeA: f, typeB: v)),
                ClipVertex(v: xf2.apply(p2.vertices[i2]),
                           id: ContactFeature(indexA: UInt8(edge1), indexB: UInt8(i2), typeA: f, typeB: v)))
    }

    static func polygons(_ a: Shape, _ xfA: Transform, _ b: Shape, _ xfB: Transform) -> Manifold {
        var m = Manifold()
        let totalRadius = a.radius + b.radius
        let (sepA, edgeA) = maxSeparation(a, xfA, b, xfB)
        if sepA > totalRadius { return m }
        let (sepB, edgeB) = maxSeparation(b, xfB, a, xfA)
        if sepB > totalRadius { return m }

        // Prefer A's face unless B's is clearly better, so the reference face does not flicker.
        let tolerance = 0.1 * EngineSettings.linearSlop
        let flip = sepB > sepA + tolerance
        let (poly1, xf1, edge1, poly2, xf2) = flip ? (b, xfB, edgeB, a, xfA) : (a, xfA, edgeA, b, xfB)
        m.kind = flip ? .faceB : .faceA
        let incident = incidentEdge(poly1, xf1, edge1, poly2, xf2)

        let n1 = poly1.vertices.count
        let iv1 = edge1, iv2 = (edge1 + 1) % n1
        var v11 = poly1.vertices[iv1], v12 = poly1.vertices[iv2]
        let localTangent = (v12 - v11).normalized
        let localNormal = localTangent.skewRight
        let planePoint = 0.5 * (v11 + v12)
        let tangent = xf1.q.apply(localTangent)
        let normal = tangent.skewRight
        v11 = xf1.apply(v11); v12 = xf1.apply(v12)
        let frontOffset = dot(normal, v11)
        let sideOffset1 = -dot(tangent, v11) + totalRadius
        let sideOffset2 = dot(tangent, v12) + totalRadius

        guard let clip1 = clipSegment(incident, normal: -tangent, offset: sideOffset1, vertexIndexA: iv1),
              let clip2 = clipSegment(clip1, normal: tangent, offset: sideOffset2, vertexIndexA: iv2)
        else { return m }

        m.localNormal = localNormal
        m.localPoint = planePoint
        for cv in [clip2.0, clip2.1] where dot(normal, cv.v) - frontOffset <= totalRadius {
            m.append(ManifoldPoint(localPoint: xf2.applyInverse(cv.v), id: flip ? cv.id.flipped : cv.id))
        }
        return m
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
        polygon.vertices.withUnsafeBufferPointer { v in
            polygon.normals.withUnsafeBufferPointer { n in
                let v1 = edge.vertices[0], v2 = edge.vertices[1]
                let lanes = CollideLanes.edgeAndPolygon(
                    edge1: (v1.x, v1.y), edge2: (v2.x, v2.y), edgeRadius: edge.radius, TransformLanes(xfA),
                    count: v.count, vertex: { (v[$0].x, v[$0].y) }, normal: { (n[$0].x, n[$0].y) },
                    centroid: (polygon.centroid.x, polygon.centroid.y), polygonRadius: polygon.radius, TransformLanes(xfB))
                return Manifold(oneLane: lanes)
            }
        }
    }
}

extension Collide.ClipVertex {
    init(_ lane: ClipVertexLanes<Float>) { self.init(v: Vec2(lane.x, lane.y), id: ContactFeature(lane.id)) }
}

extension ClipVertexLanes where L == Float {
    init(_ v: Collide.ClipVertex) { self.init(x: v.v.x, y: v.v.y, id: FeatureLanes(v.id)) }
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
