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

    /// What the kernels give a lane whose shapes are apart: no face, no points, all zero.
    static var apart: Self {
        let no = L.isGreater(L(0), L(0)), zero = L(0)
        return Self(manifold: ManifoldLanes(isFaceA: no, isFaceB: no, localNormalX: zero, localNormalY: zero,
                                            localPointX: zero, localPointY: zero,
                                            point0X: zero, point0Y: zero, point1X: zero, point1Y: zero,
                                            hasPoint0: no, hasPoint1: no),
                    id0: .zero, id1: .zero)
    }
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
    /// better than the edge. `vertex(k)` and `normal(k)` give the polygon's k-th; `scratch` holds
    /// 4 × `count` lane values (the polygon in the edge's frame).
    @inline(__always)
    static func edgeAndPolygon<L: LaneReal>(edge1 v1: (x: L, y: L), edge2 v2: (x: L, y: L), edgeRadius: L, _ xfA: TransformLanes<L>,
                                            count: Int, vertex: (Int) -> (L, L), normal: (Int) -> (L, L),
                                            centroid: (x: L, y: L), polygonRadius: L, _ xfB: TransformLanes<L>,
                                            scratch: UnsafeMutablePointer<L>)
        -> CollisionLanes<L>
    {
        // Polygon in the edge's frame.
        let xf = xfA.inverseTimes(xfB)
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

        // The polygon's vertices and normals in the edge's frame.
        let vx = scratch, vy = vx + count, nx = vy + count, ny = nx + count
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
        // Box2D's early exits, taken when every lane has left (for one world: a branch, as the
        // scalar code had; the rest of the kernel gives a separated lane exactly `apart`).
        if !L.any(L.not(separated)) { return .apart }

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
        if !L.any(L.not(separated)) { return .apart }

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
        // Reference face on the edge, and the edge's end points in its own frame.
        var incident0 = edgeIncident0, incident1 = edgeIncident1
        var refI1 = L.select(front, L(0), L(1)), refI2 = L.select(front, L(1), L(0))
        var faceV1X = L.select(front, v1.x, v2.x), faceV1Y = L.select(front, v1.y, v2.y)
        var refV2X = L.select(front, v2.x, v1.x), refV2Y = L.select(front, v2.y, v1.y)
        var faceNormalX = normalX, faceNormalY = normalY
        // Reference face on the polygon (the edge is the incident one) in the lanes that use its
        // axis: worked out only when some lane does (Box2D's scalar code computes one case or the
        // other; most contacts, a box resting on an edge, take the edge's face in every lane).
        let polygonAxisInSomeLane = L.any(usePolygonAxis)
        if polygonAxisInSomeLane {
            let polygonIndex2 = nextIndex(polygonIndex, count: count)
            let polygonId = FeatureLanes(indexA: L(0), indexB: polygonIndex, typeA: vx0, typeB: face)
            incident0 = ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: v1.x, y: v1.y, id: polygonId), incident0)
            incident1 = ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: v2.x, y: v2.y, id: polygonId), incident1)
            refI1 = L.select(usePolygonAxis, polygonIndex, refI1)
            refI2 = L.select(usePolygonAxis, polygonIndex2, refI2)
            faceV1X = L.select(usePolygonAxis, gather(vx, polygonIndex, count: count), faceV1X)
            faceV1Y = L.select(usePolygonAxis, gather(vy, polygonIndex, count: count), faceV1Y)
            refV2X = L.select(usePolygonAxis, gather(vx, polygonIndex2, count: count), refV2X)
            refV2Y = L.select(usePolygonAxis, gather(vy, polygonIndex2, count: count), refV2Y)
            faceNormalX = L.select(usePolygonAxis, gather(nx, polygonIndex, count: count), faceNormalX)
            faceNormalY = L.select(usePolygonAxis, gather(ny, polygonIndex, count: count), faceNormalY)
        }
        // As constants: `point` below captures them, and a captured variable would be checked
        // for exclusive access at every read.
        let refV1X = faceV1X, refV1Y = faceV1Y, refNormalX = faceNormalX, refNormalY = faceNormalY

        let side1X = refNormalY, side1Y = -refNormalX
        let side2X = -side1X, side2Y = -side1Y
        let clip1 = clipSegment(incident0, incident1, normalX: side1X, normalY: side1Y,
                                offset: side1X * refV1X + side1Y * refV1Y, vertexIndexA: refI1)
        let clip2 = clipSegment(clip1.1, clip1.2, normalX: side2X, normalY: side2Y,
                                offset: side2X * refV2X + side2Y * refV2Y, vertexIndexA: refI2)
        let clipped = L.and(L.not(separated), L.and(clip1.ok, clip2.ok))

        // The reference face in its own body's frame: the polygon's (looked up body-local) or the edge's.
        var localNormalX = refNormalX, localNormalY = refNormalY, localPointX = refV1X, localPointY = refV1Y
        if polygonAxisInSomeLane {
            var polygonNormalX = L(0), polygonNormalY = L(0), polygonPointX = L(0), polygonPointY = L(0)
            for k in 0..<count {
                let (x, y) = vertex(k), (a, b) = normal(k)
                let here = L.and(usePolygonAxis, laneEquals(refI1, laneIndex(k)))
                polygonNormalX = L.select(here, a, polygonNormalX); polygonNormalY = L.select(here, b, polygonNormalY)
                polygonPointX = L.select(here, x, polygonPointX); polygonPointY = L.select(here, y, polygonPointY)
            }
            localNormalX = L.select(usePolygonAxis, polygonNormalX, localNormalX)
            localNormalY = L.select(usePolygonAxis, polygonNormalY, localNormalY)
            localPointX = L.select(usePolygonAxis, polygonPointX, localPointX)
            localPointY = L.select(usePolygonAxis, polygonPointY, localPointY)
        }

        // Each clip point within reach, in the frame of the body that does not own the reference
        // face (the polygon's: back through xf; the edge's: as it is), ids seen from A.
        @inline(__always) func point(_ cv: ClipVertexLanes<L>) -> (keep: L.Mask, ClipVertexLanes<L>) {
            let keep = L.and(clipped, L.isGreaterOrEqual(radius, refNormalX * (cv.x - refV1X) + refNormalY * (cv.y - refV1Y)))
            let (x, y) = xf.applyInverse(cv.x, cv.y)
            let inB = ClipVertexLanes(x: x, y: y, id: cv.id)
            return (keep, ClipVertexLanes.select(usePolygonAxis, ClipVertexLanes(x: cv.x, y: cv.y, id: cv.id.flipped), inB))
        }
        let (keep0, p0) = point(clip2.1), (keep1, p1) = point(clip2.2)
        return collision(separated: separated, faceB: usePolygonAxis, clipped: clipped,
                         localNormalX: localNormalX, localNormalY: localNormalY, localPointX: localPointX, localPointY: localPointY,
                         keep0: keep0, p0, keep1: keep1, p1)
    }

    /// The manifold both collisions end with: no face where the shapes are apart, the reference
    /// face on B in lanes `faceB` (else on A), its normal and point where the clip kept two
    /// points, and the clip points within reach (`keep0`, `keep1`) packed first.
    @inline(__always)
    static func collision<L: LaneReal>(separated: L.Mask, faceB: L.Mask, clipped: L.Mask,
                                       localNormalX: L, localNormalY: L, localPointX: L, localPointY: L,
                                       keep0: L.Mask, _ p0: ClipVertexLanes<L>, keep1: L.Mask, _ p1: ClipVertexLanes<L>)
        -> CollisionLanes<L>
    {
        let none = ClipVertexLanes(x: L(0), y: L(0), id: FeatureLanes<L>.zero)
        let first = ClipVertexLanes.select(keep0, p0, ClipVertexLanes.select(keep1, p1, none))
        let second = ClipVertexLanes.select(L.and(keep0, keep1), p1, none)
        let zero = L(0)
        let manifold = ManifoldLanes(
            isFaceA: L.and(L.not(separated), L.not(faceB)), isFaceB: L.and(L.not(separated), faceB),
            localNormalX: L.select(clipped, localNormalX, zero), localNormalY: L.select(clipped, localNormalY, zero),
            localPointX: L.select(clipped, localPointX, zero), localPointY: L.select(clipped, localPointY, zero),
            point0X: first.x, point0Y: first.y, point1X: second.x, point1Y: second.y,
            hasPoint0: L.or(keep0, keep1), hasPoint1: L.and(keep0, keep1))
        return CollisionLanes(manifold: manifold, id0: first.id, id1: second.id)
    }

    /// Largest separation of `poly2` from the faces of `poly1`, and the face that gives it
    /// (Box2D 2.3's b2FindMaxSeparation).
    @inline(__always)
    static func maxSeparation<L: LaneReal>(count1: Int, vertex1: (Int) -> (L, L), normal1: (Int) -> (L, L), _ xf1: TransformLanes<L>,
                                           count2: Int, vertex2: (Int) -> (L, L), _ xf2: TransformLanes<L>)
        -> (separation: L, edge: L)
    {
        let xf = xf2.inverseTimes(xf1)   // (working in poly2's frame)
        var best = L(0), maxSeparation = L(-Float.greatestFiniteMagnitude)
        for i in 0..<count1 {
            let si = faceSeparation(i, vertex1: vertex1, normal1: normal1, inFrameOf2: xf, count2: count2, vertex2: vertex2)
            let better = L.isGreater(si, maxSeparation)
            maxSeparation = L.select(better, si, maxSeparation)
            best = L.select(better, laneIndex(i), best)
        }
        return (maxSeparation, best)
    }

    /// The separation of poly2 from face i of poly1: the least distance of poly2's vertices
    /// beyond that face's plane. `xf` is poly1's frame seen from poly2's (`xf2.inverseTimes(xf1)`).
    @inline(__always)
    static func faceSeparation<L: LaneReal>(_ i: Int, vertex1: (Int) -> (L, L), normal1: (Int) -> (L, L), inFrameOf2 xf: TransformLanes<L>,
                                            count2: Int, vertex2: (Int) -> (L, L)) -> L {
        let (a, b) = normal1(i), (x, y) = vertex1(i)
        let (nx, ny) = xf.rotate(a, b), (v1x, v1y) = xf.apply(x, y)
        var si = L(Float.greatestFiniteMagnitude)
        for j in 0..<count2 { let (v2x, v2y) = vertex2(j); si = L.minimum(si, nx * (v2x - v1x) + ny * (v2y - v1y)) }
        return si
    }

    /// Polygon A against polygon B (Box2D 2.3's b2CollidePolygons): the reference face is A's
    /// best unless B's is clearly better, so it does not flicker; B's incident face is clipped to
    /// the reference face's sides. Each polygon has its count of body-local vertices and normals.
    @inline(__always)
    static func polygons<L: LaneReal>(countA: Int, vertexA: (Int) -> (L, L), normalA: (Int) -> (L, L), radiusA: L, _ xfA: TransformLanes<L>,
                                      countB: Int, vertexB: (Int) -> (L, L), normalB: (Int) -> (L, L), radiusB: L, _ xfB: TransformLanes<L>)
        -> CollisionLanes<L>
    {
        let totalRadius = radiusA + radiusB
        let (separationA, edgeA) = maxSeparation(count1: countA, vertex1: vertexA, normal1: normalA, xfA, count2: countB, vertex2: vertexB, xfB)
        // Box2D's early exits, taken when every lane has left (the rest of the kernel gives a
        // separated lane exactly `apart`).
        if !L.any(L.not(L.isGreater(separationA, totalRadius))) { return .apart }
        let (separationB, edgeB) = maxSeparation(count1: countB, vertex1: vertexB, normal1: normalB, xfB, count2: countA, vertex2: vertexA, xfA)
        let separated = L.or(L.isGreater(separationA, totalRadius), L.isGreater(separationB, totalRadius))
        if !L.any(L.not(separated)) { return .apart }

        let tolerance = 0.1 * EngineSettings.linearSlop
        let flip = L.isGreater(separationB, separationA + L(tolerance))
        // Per lane, poly1 is the reference polygon (A, or B where flipped), poly2 the incident one.
        @inline(__always) func pick(_ m: L.Mask, _ p: (L, L), _ q: (L, L)) -> (L, L) { (L.select(m, p.0, q.0), L.select(m, p.1, q.1)) }
        /// Entry `index` of A's list or, in lanes `fromB`, of B's. A polygon's entry is looked up
        /// only when some lane takes it (in most groups every lane takes the same polygon's).
        @inline(__always) func gathered(_ index: L, fromB: L.Mask, _ ofA: (Int) -> (L, L), _ ofB: (Int) -> (L, L)) -> (L, L) {
            var fromA = ofA(0)
            if L.any(L.not(fromB)) {
                for k in 1..<max(countA, 1) { fromA = pick(L.isGreaterOrEqual(index, laneIndex(k)), ofA(k), fromA) }
            }
            var fromBValue = ofB(0)
            if L.any(fromB) {
                for k in 1..<max(countB, 1) { fromBValue = pick(L.isGreaterOrEqual(index, laneIndex(k)), ofB(k), fromBValue) }
            }
            return pick(fromB, fromBValue, fromA)
        }
        let edge1 = L.select(flip, edgeB, edgeA)
        let xf1 = TransformLanes(px: L.select(flip, xfB.px, xfA.px), py: L.select(flip, xfB.py, xfA.py),
                                 s: L.select(flip, xfB.s, xfA.s), c: L.select(flip, xfB.c, xfA.c))
        let xf2 = TransformLanes(px: L.select(flip, xfA.px, xfB.px), py: L.select(flip, xfA.py, xfB.py),
                                 s: L.select(flip, xfA.s, xfB.s), c: L.select(flip, xfA.c, xfB.c))
        let count1 = L.select(flip, laneIndex(countB), laneIndex(countA))
        let count2 = L.select(flip, laneIndex(countA), laneIndex(countB))

        // The incident edge: poly2's face most anti-parallel to the reference normal.
        let (r1x, r1y) = gathered(edge1, fromB: flip, normalA, normalB)
        let (w1x, w1y) = xf1.rotate(r1x, r1y)
        let (normal1X, normal1Y) = xf2.rotateInverse(w1x, w1y)
        var index = L(0)
        var minDot = L(Float.greatestFiniteMagnitude)
        let notFlip = L.not(flip)
        for i in 0..<max(countA, countB) {
            // poly2's i-th normal: B's where not flipped, A's where flipped (lanes past that
            // polygon's count are left out).
            let (bx, by) = normalB(min(i, countB - 1)), (ax, ay) = normalA(min(i, countA - 1))
            let (nx, ny) = pick(notFlip, (bx, by), (ax, ay))
            let d = normal1X * nx + normal1Y * ny
            let better = L.and(L.isGreater(count2, laneIndex(i)), L.isGreater(minDot, d))
            minDot = L.select(better, d, minDot)
            index = L.select(better, laneIndex(i), index)
        }
        let index2 = L.select(L.isGreaterOrEqual(index, count2 - L(1)), L(0), index + L(1))
        let face = L(Float(ContactFeature.face)), vertex = L(Float(ContactFeature.vertex))
        let (u0x, u0y) = gathered(index, fromB: notFlip, vertexA, vertexB)
        let (u1x, u1y) = gathered(index2, fromB: notFlip, vertexA, vertexB)
        let (i0x, i0y) = xf2.apply(u0x, u0y), (i1x, i1y) = xf2.apply(u1x, u1y)
        let incident0 = ClipVertexLanes(x: i0x, y: i0y, id: FeatureLanes(indexA: edge1, indexB: index, typeA: face, typeB: vertex))
        let incident1 = ClipVertexLanes(x: i1x, y: i1y, id: FeatureLanes(indexA: edge1, indexB: index2, typeA: face, typeB: vertex))

        // The reference face.
        let iv1 = edge1, iv2 = L.select(L.isGreaterOrEqual(edge1, count1 - L(1)), L(0), edge1 + L(1))
        let (v11x, v11y) = gathered(iv1, fromB: flip, vertexA, vertexB)
        let (v12x, v12y) = gathered(iv2, fromB: flip, vertexA, vertexB)
        let ex = v12x - v11x, ey = v12y - v11y
        let length = (ex * ex + ey * ey).squareRoot()
        let short = L.isGreater(L(Float.ulpOfOne), length)
        let inverse = L(1) / length
        let localTangentX = L.select(short, ex, ex * inverse), localTangentY = L.select(short, ey, ey * inverse)
        let localNormalX = localTangentY, localNormalY = -localTangentX
        let planePointX = L(0.5) * (v11x + v12x), planePointY = L(0.5) * (v11y + v12y)
        let (tangentX, tangentY) = xf1.rotate(localTangentX, localTangentY)
        let normalX = tangentY, normalY = -tangentX
        let (w11x, w11y) = xf1.apply(v11x, v11y), (w12x, w12y) = xf1.apply(v12x, v12y)
        let frontOffset = normalX * w11x + normalY * w11y
        let sideOffset1 = -(tangentX * w11x + tangentY * w11y) + totalRadius
        let sideOffset2 = (tangentX * w12x + tangentY * w12y) + totalRadius

        let clip1 = clipSegment(incident0, incident1, normalX: -tangentX, normalY: -tangentY, offset: sideOffset1, vertexIndexA: iv1)
        let clip2 = clipSegment(clip1.1, clip1.2, normalX: tangentX, normalY: tangentY, offset: sideOffset2, vertexIndexA: iv2)
        let clipped = L.and(L.not(separated), L.and(clip1.ok, clip2.ok))

        @inline(__always) func point(_ cv: ClipVertexLanes<L>) -> (keep: L.Mask, ClipVertexLanes<L>) {
            let keep = L.and(clipped, L.isGreaterOrEqual(totalRadius, (normalX * cv.x + normalY * cv.y) - frontOffset))
            let (x, y) = xf2.applyInverse(cv.x, cv.y)
            let local = ClipVertexLanes(x: x, y: y, id: cv.id)
            return (keep, ClipVertexLanes.select(flip, ClipVertexLanes(x: local.x, y: local.y, id: cv.id.flipped), local))
        }
        let (keep0, p0) = point(clip2.1), (keep1, p1) = point(clip2.2)
        return collision(separated: separated, faceB: flip, clipped: clipped,
                         localNormalX: localNormalX, localNormalY: localNormalY, localPointX: planePointX, localPointY: planePointY,
                         keep0: keep0, p0, keep1: keep1, p1)
    }
}
