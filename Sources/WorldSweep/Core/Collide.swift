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
    /// remain (a manifold needs both).
    static func clipSegment(_ vIn: (ClipVertex, ClipVertex), normal: Vec2, offset: Float, vertexIndexA: Int)
        -> (ClipVertex, ClipVertex)?
    {
        let d0 = dot(normal, vIn.0.v) - offset, d1 = dot(normal, vIn.1.v) - offset
        var kept: ClipVertex? = nil
        if d0 <= 0 { kept = vIn.0 }
        if d1 <= 0 {
            if let k = kept { return (k, vIn.1) }
            kept = vIn.1
        }
        guard let k = kept, d0 * d1 < 0 else { return nil }
        let t = d0 / (d0 - d1)
        var id = ContactFeature()
        id.indexA = UInt8(vertexIndexA)
        id.indexB = vIn.0.id.indexB
        id.typeA = ContactFeature.vertex
        id.typeB = ContactFeature.face
        return (k, ClipVertex(v: vIn.0.v + t * (vIn.1.v - vIn.0.v), id: id))
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

    /// Edge against polygon, with the edge two-sided: its normal faces the polygon's centroid, and a
    /// polygon face is chosen as reference only when it is clearly better than the edge.
    static func edgeAndPolygon(_ edge: Shape, _ xfA: Transform, _ polygon: Shape, _ xfB: Transform) -> Manifold {
        var m = Manifold()
        // Polygon in the edge's frame.
        let q = Rot(s: xfA.q.c * xfB.q.s - xfA.q.s * xfB.q.c, c: xfA.q.c * xfB.q.c + xfA.q.s * xfB.q.s)
        let xf = Transform(p: xfA.q.applyInverse(xfB.p - xfA.p), q: q)
        let centroidB = xf.apply(polygon.centroid)
        let v1 = edge.vertices[0], v2 = edge.vertices[1]
        let edgeDir = (v2 - v1).normalized
        let normal1 = edgeDir.skewRight
        let front = dot(normal1, centroidB - v1) >= 0
        let normal = front ? normal1 : -normal1
        let count = polygon.vertices.count
        // The polygon's vertices and normals in the edge's frame, on the stack (no allocation).
        return withUnsafeTemporaryAllocation(of: Vec2.self, capacity: 2 * count) { buffer in
        let verts = buffer.baseAddress!, norms = buffer.baseAddress! + count
        for i in 0..<count {
            verts[i] = xf.apply(polygon.vertices[i])
            norms[i] = xf.q.apply(polygon.normals[i])
        }
        let radius = edge.radius + polygon.radius

        var edgeSeparation = Float.greatestFiniteMagnitude
        for i in 0..<count { edgeSeparation = min(edgeSeparation, dot(normal, verts[i] - v1)) }
        if edgeSeparation > radius { return m }

        var polygonIndex = -1
        var polygonSeparation = -Float.greatestFiniteMagnitude
        for i in 0..<count {
            let n = -norms[i]
            let s = min(dot(n, verts[i] - v1), dot(n, verts[i] - v2))
            if s > radius { return m }
            if s > polygonSeparation { polygonSeparation = s; polygonIndex = i }
        }

        let relativeTolerance: Float = 0.98, absoluteTolerance: Float = 0.001
        let usePolygonAxis = polygonIndex >= 0
            && polygonSeparation > relativeTolerance * edgeSeparation + absoluteTolerance

        let incident: (ClipVertex, ClipVertex)
        let refI1: Int, refI2: Int
        let refV1: Vec2, refV2: Vec2, refNormal: Vec2
        let f = ContactFeature.face, vx = ContactFeature.vertex
        if !usePolygonAxis {
            m.kind = .faceA
            var best = 0
            var bestValue = dot(normal, norms[0])
            for i in 1..<count {
                let value = dot(normal, norms[i])
                if value < bestValue { bestValue = value; best = i }
            }
            let i2 = (best + 1) % count
            incident = (ClipVertex(v: verts[best], id: ContactFeature(indexA: 0, indexB: UInt8(best), typeA: f, typeB: vx)),
                        ClipVertex(v: verts[i2], id: ContactFeature(indexA: 0, indexB: UInt8(i2), typeA: f, typeB: vx)))
            if front { refI1 = 0; refI2 = 1; refV1 = v1; refV2 = v2 } else { refI1 = 1; refI2 = 0; refV1 = v2; refV2 = v1 }
            refNormal = normal
        } else {
            m.kind = .faceB
            incident = (ClipVertex(v: v1, id: ContactFeature(indexA: 0, indexB: UInt8(polygonIndex), typeA: vx, typeB: f)),
                        ClipVertex(v: v2, id: ContactFeature(indexA: 0, indexB: UInt8(polygonIndex), typeA: vx, typeB: f)))
            refI1 = polygonIndex
            refI2 = (polygonIndex + 1) % count
            refV1 = verts[refI1]; refV2 = verts[refI2]
            refNormal = norms[refI1]
        }
        let sideNormal1 = Vec2(refNormal.y, -refNormal.x)
        let sideNormal2 = -sideNormal1
        guard let clip1 = clipSegment(incident, normal: sideNormal1, offset: dot(sideNormal1, refV1), vertexIndexA: refI1),
              let clip2 = clipSegment(clip1, normal: sideNormal2, offset: dot(sideNormal2, refV2), vertexIndexA: refI2)
        else { return m }

        if usePolygonAxis {
            m.localNormal = polygon.normals[refI1]
            m.localPoint = polygon.vertices[refI1]
        } else {
            m.localNormal = refNormal
            m.localPoint = refV1
        }
        for cv in [clip2.0, clip2.1] where dot(refNormal, cv.v - refV1) <= radius {
            if usePolygonAxis {
                m.append(ManifoldPoint(localPoint: cv.v, id: cv.id.flipped))
            } else {
                m.append(ManifoldPoint(localPoint: xf.applyInverse(cv.v), id: cv.id))
            }
        }
        return m
        }
    }
}
