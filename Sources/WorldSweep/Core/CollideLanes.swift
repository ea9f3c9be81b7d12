// The narrow phase's rules written once over `LaneReal`: segment clipping and Box2D 2.3's
// edge–polygon collision (b2CollideEdgeAndPolygon with a two-sided edge). The single world runs
// them on `Float` (`Collide.clipSegment`, `Collide.edgeAndPolygon` are thin calls of these), the
// batched engine on `SIMD8<Float>`, eight worlds whose rows hold the same pair. Branches are
// selects, so every lane computes every case and keeps its own; small integers (vertex indices,
// feature ids) are held exactly as lane values. The operation order is the scalar one, so the
// bits agree.

/// A feature id per lane (see `ContactFeature`): each field a small integer held as a lane value.
struct FeatureLanes<L: LaneReal> {
    var indexA: L, indexB: L, typeA: L, typeB: L

    static var zero: Self { Self(indexA: L(0), indexB: L(0), typeA: L(0), typeB: L(0)) }

    /// A and B swapped (the id seen from the other shape).
    @inline(__always) var flipped: Self { Self(indexA: indexB, indexB: indexA, typeA: typeB, typeB: typeA) }

    /// One number per id, equal exactly when the ids are (every field is below 256, the types
    /// below 2, so the code stays below 2^24 and is exact in a Float).
    @inline(__always) var code: L { indexA + L(256) * indexB + L(65_536) * typeA + L(131_072) * typeB }

    @inline(__always) static func select(_ m: L.Mask, _ a: Self, _ b: Self) -> Self {
        Self(indexA: L.select(m, a.indexA, b.indexA), indexB: L.select(m, a.indexB, b.indexB),
             typeA: L.select(m, a.typeA, b.typeA), typeB: L.select(m, a.typeB, b.typeB))
    }
}

extension ContactFeature {
    /// The id whose `FeatureLanes` code is `code`.
    init(code: Int) {
        self.init(indexA: UInt8(code & 255), indexB: UInt8((code >> 8) & 255),
                  typeA: UInt8((code >> 16) & 1), typeB: UInt8((code >> 17) & 1))
    }
    /// `FeatureLanes.code` of this id.
    var code: Int { Int(indexA) + 256 * Int(indexB) + 65_536 * Int(typeA) + 131_072 * Int(typeB) }
}

/// A clip vertex per lane: a point and the features that made it.
struct ClipVertexLanes<L: LaneReal> {
    var x: L, y: L
    var id: FeatureLanes<L>

    @inline(__always) static func select(_ m: L.Mask, _ a: Self, _ b: Self) -> Self {
        Self(x: L.select(m, a.x, b.x), y: L.select(m, a.y, b.y), id: FeatureLanes.select(m, a.id, b.id))
    }
}

/// A manifold per lane as the narrow phase makes it: the points' positions (`ManifoldLanes`) and
/// their feature ids (zero where a lane has no such point).
struct CollisionLanes<L: LaneReal> {
    var manifold: ManifoldLanes<L>
    var id0: FeatureLanes<L>, id1: FeatureLanes<L>
}

/// Small integers as lane values, and the few operations the kernels need on them.
@inline(__always) func laneIndex<L: LaneReal>(_ k: Int) -> L { L(Float(k)) }
/// a == b for lane values that hold small integers exactly.
@inline(__always) func laneEquals<L: LaneReal>(_ a: L, _ b: L) -> L.Mask {
    L.and(L.isGreaterOrEqual(a, b), L.isGreaterOrEqual(b, a))
}
/// `m ? a : b` for masks.
@inline(__always) func selectMask<L: LaneReal>(_ m: L.Mask, _ a: L.Mask, _ b: L.Mask, _: L.Type) -> L.Mask {
    L.or(L.and(m, a), L.and(L.not(m), b))
}
/// `values[index]` for `index` in 0 ..< count, per lane, by selects over the fixed count.
@inline(__always) func gather<L: LaneReal>(_ values: UnsafeMutablePointer<L>, _ index: L, count: Int) -> L {
    var v = values[0]
    for k in 1..<max(count, 1) { v = L.select(L.isGreaterOrEqual(index, laneIndex(k)), values[k], v) }
    return v
}
/// (index + 1) % count, per lane, for index in 0 ..< count.
@inline(__always) func nextIndex<L: LaneReal>(_ index: L, count: Int) -> L {
    L.select(L.isGreaterOrEqual(index, laneIndex(count - 1)), L(0), index + L(1))
}

enum CollideLanes {
    /// Keeps the part of segment (v0, v1) with normal · v ≤ offset; `ok` only where two points
    /// remain (a manifold needs both). A point made by the cut gets the id (vertex `vertexIndexA`
    /// of the reference shape, face of v0's B feature).
    @inline(__always)
    static func clipSegment<L: LaneReal>(_ v0: ClipVertexLanes<L>, _ v1: ClipVertexLanes<L>, normalX: L, normalY: L,
                                         offset: L, vertexIndexA: L)
        -> (ok: L.Mask, ClipVertexLanes<L>, ClipVertexLanes<L>)
    {
        let d0 = (normalX * v0.x + normalY * v0.y) - offset
        let d1 = (normalX * v1.x + normalY * v1.y) - offset
        let in0 = L.isGreaterOrEqual(L(0), d0), in1 = L.isGreaterOrEqual(L(0), d1)
        let both = L.and(in0, in1)
        let ok = L.or(both, L.and(L.or(in0, in1), L.isGreater(L(0), d0 * d1)))
        let t = d0 / (d0 - d1)
        let cut = ClipVertexLanes(x: v0.x + t * (v1.x - v0.x), y: v0.y + t * (v1.y - v0.y),
                                  id: FeatureLanes(indexA: vertexIndexA, indexB: v0.id.indexB,
                                                   typeA: L(Float(ContactFeature.vertex)), typeB: L(Float(ContactFeature.face))))
        return (ok, ClipVertexLanes.select(in0, v0, v1), ClipVertexLanes.select(both, v1, cut))
    }

    /// Edge (A, with end points `edge1`, `edge2` in its frame) against a polygon (B, `count`
    /// body-local vertices and normals, its centroid), the edge two-sided: its normal faces the
    /// polygon's centroid, and a polygon face is chosen as reference only when it is clearly
    /// better than the edge. `vertex(k)` and `normal(k)` give the polygon's k-th.
    @inline(__always)
    static func edgeAndPolygon<L: LaneReal>(edge1 v1: (x: L, y: L), edge2 v2: (x: L, y: L), edgeRadius: L, _ xfA: TransformLanes<L>,
                                            count: Int, vertex: (Int) -> (L, L), normal: (Int) -> (L, L),
                                            centroid: (x: L, y: L), polygonRadius: L, _ xfB: TransformLanes<L>)
        -> CollisionLanes<L>
    {
        // Polygon in the edge's frame.
        let qs = xfA.c * xfB.s - xfA.s * xfB.c, qc = xfA.c * xfB.c + xfA.s * xfB.s
        let dx = xfB.px - xfA.px, dy = xfB.py - xfA.py
        let xf = TransformLanes(px: xfA.c * dx + xfA.s * dy, py: -xfA.s * dx + xfA.c * dy, s: qs, c: qc)
        let (centroidX, centroidY) = xf.apply(centroid.x, centroid.y)
        // The edge's direction, normalized (left as it is when shorter than ε, as Vec2.normalize).
        let ex = v2.x - v1.x, ey = v2.y - v1.y
        let length = (ex * ex + ey * ey).squareRoot()
        let short = L.isGreater(L(Float.ulpOfOne), length)
        let inverse = L(1) / length
        let dirX = L.select(short, ex, ex * inverse), dirY = L.select(short, ey, ey * inverse)
        let normal1X = dirY, normal1Y = -dirX
        let front = L.isGreaterOrEqual(normal1X * (centroidX - v1.x) + normal1Y * (centroidY - v1.y), L(0))
        let normalX = L.select(front, normal1X, -normal1X), normalY = L.select(front, normal1Y, -normal1Y)
        let radius = edgeRadius + polygonRadius

        // The polygon's vertices and normals in the edge's frame, on the stack (no allocation).
        return withUnsafeTemporaryAllocation(of: L.self, capacity: 4 * max(count, 1)) { buffer in
        let vx = buffer.baseAddress!, vy = vx + count, nx = vy + count, ny = nx + count
        for i in 0..<count {
            let (x, y) = vertex(i), (a, b) = normal(i)
            (vx[i], vy[i]) = xf.apply(x, y)
            (nx[i], ny[i]) = xf.rotate(a, b)
        }

        var edgeSeparation = L(Float.greatestFiniteMagnitude)
        for i in 0..<count {
            edgeSeparation = L.minimum(edgeSeparation, normalX * (vx[i] - v1.x) + normalY * (vy[i] - v1.y))
        }
        var separated = L.isGreater(edgeSeparation, radius)

        var polygonIndex = L(-1)
        var polygonSeparation = L(-Float.greatestFiniteMagnitude)
        for i in 0..<count {
            let mx = -nx[i], my = -ny[i]
            let s = L.minimum(mx * (vx[i] - v1.x) + my * (vy[i] - v1.y), mx * (vx[i] - v2.x) + my * (vy[i] - v2.y))
            separated = L.or(separated, L.isGreater(s, radius))
            let better = L.isGreater(s, polygonSeparation)
            polygonSeparation = L.select(better, s, polygonSeparation)
            polygonIndex = L.select(better, laneIndex(i), polygonIndex)
        }

        let relativeTolerance: Float = 0.98, absoluteTolerance: Float = 0.001
        let usePolygonAxis = L.and(L.isGreaterOrEqual(polygonIndex, L(0)),
                                   L.isGreater(polygonSeparation, L(relativeTolerance) * edgeSeparation + L(absoluteTolerance)))

        let face = L(Float(ContactFeature.face)), vx0 = L(Float(ContactFeature.vertex))
        // Reference face on the edge: the incident face is the polygon's most anti-parallel.
        var best = L(0)
        var bestValue = normalX * nx[0] + normalY * ny[0]
        for i in 1..<max(count, 1) {
            let value = normalX * nx[i] + normalY * ny[i]
            let better = L.isGreater(bestValue, value)
            bestValue = L.select(better, value, bestValue)
            best = L.select(better, laneIndex(i), best)
        }
        let best2 = nextIndex(best, count: count)
        let edgeIncident0 = ClipVertexLanes(x: gather(vx, best, count: count), y: gather(vy, best, count: count),
                                            id: FeatureLanes(indexA: L(0), indexB: best, typeA: face, typeB: vx0))
        let edgeIncident1 = ClipVertexLanes(x: gather(vx, best2, count: count), y: gather(vy, best2, count: count),
                                            id: FeatureLanes(indexA: L(0), indexB: best2, typeA: face, typeB: vx0))
        // Reference face on the polygon: the edge is the incident one.
        let polygonIndex2 = nextIndex(polygonIndex, count: count)
        let polygonId = FeatureLanes(indexA: L(0), indexB: polygonIndex, typeA: vx0, typeB: face)

        let incident0 = ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: v1.x, y: v1.y, id: polygonId), edgeIncident0)
        let incident1 = ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: v2.x, y: v2.y, id: polygonId), edgeIncident1)
        let refI1 = L.select(usePolygonAxis, polygonIndex, L.select(front, L(0), L(1)))
        let refI2 = L.select(usePolygonAxis, polygonIndex2, L.select(front, L(1), L(0)))
        let refV1X = L.select(usePolygonAxis, gather(vx, polygonIndex, count: count), L.select(front, v1.x, v2.x))
        let refV1Y = L.select(usePolygonAxis, gather(vy, polygonIndex, count: count), L.select(front, v1.y, v2.y))
        let refV2X = L.select(usePolygonAxis, gather(vx, polygonIndex2, count: count), L.select(front, v2.x, v1.x))
        let refV2Y = L.select(usePolygonAxis, gather(vy, polygonIndex2, count: count), L.select(front, v2.y, v1.y))
        let refNormalX = L.select(usePolygonAxis, gather(nx, polygonIndex, count: count), normalX)
        let refNormalY = L.select(usePolygonAxis, gather(ny, polygonIndex, count: count), normalY)

        let side1X = refNormalY, side1Y = -refNormalX
        let side2X = -side1X, side2Y = -side1Y
        let clip1 = clipSegment(incident0, incident1, normalX: side1X, normalY: side1Y,
                                offset: side1X * refV1X + side1Y * refV1Y, vertexIndexA: refI1)
        let clip2 = clipSegment(clip1.1, clip1.2, normalX: side2X, normalY: side2Y,
                                offset: side2X * refV2X + side2Y * refV2Y, vertexIndexA: refI2)
        let clipped = L.and(L.not(separated), L.and(clip1.ok, clip2.ok))

        // The reference face in its own body's frame: the polygon's (looked up body-local) or the edge's.
        var localNormalX = L(0), localNormalY = L(0), localPointX = L(0), localPointY = L(0)
        for k in 0..<count {
            let (x, y) = vertex(k), (a, b) = normal(k)
            let here = L.and(usePolygonAxis, laneEquals(refI1, laneIndex(k)))
            localNormalX = L.select(here, a, localNormalX); localNormalY = L.select(here, b, localNormalY)
            localPointX = L.select(here, x, localPointX); localPointY = L.select(here, y, localPointY)
        }
        localNormalX = L.select(usePolygonAxis, localNormalX, refNormalX)
        localNormalY = L.select(usePolygonAxis, localNormalY, refNormalY)
        localPointX = L.select(usePolygonAxis, localPointX, refV1X)
        localPointY = L.select(usePolygonAxis, localPointY, refV1Y)

        // Each clip point within reach, in the frame of the body that does not own the reference
        // face (the polygon's: back through xf; the edge's: as it is), ids seen from A.
        func point(_ cv: ClipVertexLanes<L>) -> (keep: L.Mask, ClipVertexLanes<L>) {
            let keep = L.and(clipped, L.isGreaterOrEqual(radius, refNormalX * (cv.x - refV1X) + refNormalY * (cv.y - refV1Y)))
            let px = cv.x - xf.px, py = cv.y - xf.py
            let inB = ClipVertexLanes(x: xf.c * px + xf.s * py, y: -xf.s * px + xf.c * py, id: cv.id)
            return (keep, ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: cv.x, y: cv.y, id: cv.id.flipped), inB))
        }
        let (keep0, p0) = point(clip2.1), (keep1, p1) = point(clip2.2)
        let none = ClipVertexLanes(x: L(0), y: L(0), id: FeatureLanes<L>.zero)
        let first = ClipVertexLanes.select(keep0, p0, ClipVertexLanes.select(keep1, p1, none))
        let second = ClipVertexLanes.select(L.and(keep0, keep1), p1, none)
        let zero = L(0)
        let manifold = ManifoldLanes(
            isFaceA: L.and(L.not(separated), L.not(usePolygonAxis)), isFaceB: L.and(L.not(separated), usePolygonAxis),
            localNormalX: L.select(clipped, localNormalX, zero), localNormalY: L.select(clipped, localNormalY, zero),
            localPointX: L.select(clipped, localPointX, zero), localPointY: L.select(clipped, localPointY, zero),
            point0X: first.x, point0Y: first.y, point1X: second.x, point1Y: second.y,
            hasPoint0: L.or(keep0, keep1), hasPoint1: L.and(keep0, keep1))
        return CollisionLanes(manifold: manifold, id0: first.id, id1: second.id)
        }
    }
}
