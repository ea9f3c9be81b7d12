import Foundation
import Testing
@testable import WorldSweep

/// Box2D 2.3's edge–polygon and polygon–polygon collisions, written once over lanes
/// (`CollideLanes`): their manifolds for poses worked out by hand, and the same manifold, bit for
/// bit, from eight lanes at once as from each lane alone (the batched engine runs them eight
/// worlds at a time, the single world one at a time), with lanes that take different branches
/// side by side.
@Suite struct NarrowPhaseLaneTests {
    typealias Random = ContactKernelTests.Random
    typealias V = SIMD8<Float>

    let floor = Shape.edge(Vec2(-5, 0), Vec2(5, 0))
    /// 50 × 50 pt (0.5 m): the skins are 1 pt each, so contact starts 0.02 m apart.
    let box = Shape.box(halfWidth: 0.25, halfHeight: 0.25)

    @Test func aBoxJustAboveTheFloorTouchesWithItsBottomFace() {
        // The box's core 2^-7 m above the edge, upright: the edge separation is 0.0078125 ≤ 0.02,
        // the box's best face (its bottom one, normal (0, −1)) separates by the same amount, not
        // 0.98 × 0.0078125 + 0.001 = 0.00865625, so the edge is the reference face. Its own
        // normal, (1, 0) turned right, is (0, −1); the box's centroid lies on the other side, so
        // the normal flips to (0, 1) and the face runs from the second end to the first (its
        // point: (5, 0)). The incident face is the box's bottom one (normal (0, −1), the most
        // anti-parallel), vertices 0 and 1, both within the side planes x = ±5 and within reach.
        let m = Collide.edgeAndPolygon(floor, .identity, box, Transform(p: Vec2(1, 0.2578125), q: .identity))
        #expect(m.kind == .faceA)
        #expect(m.pointCount == 2)
        #expect(m.localNormal == Vec2(0, 1))
        #expect(m.localPoint == Vec2(5, 0))
        // The clip points back in the box's frame: its two bottom corners.
        #expect(m.point0.localPoint == Vec2(-0.25, -0.25))
        #expect(m.point1.localPoint == Vec2(0.25, -0.25))
        let face = ContactFeature.face, vertex = ContactFeature.vertex
        #expect(m.point0.id == ContactFeature(indexA: 0, indexB: 0, typeA: face, typeB: vertex))
        #expect(m.point1.id == ContactFeature(indexA: 0, indexB: 1, typeA: face, typeB: vertex))
    }

    @Test func aBoxBelowTheFloorIsPushedDown() {
        // The edge is two-sided: with the centroid below it the normal stays (0, −1) and the
        // reference face runs from the first end (its point: (−5, 0)).
        let m = Collide.edgeAndPolygon(floor, .identity, box, Transform(p: Vec2(1, -0.2578125), q: .identity))
        #expect(m.kind == .faceA)
        #expect(m.pointCount == 2)
        #expect(m.localNormal == Vec2(0, -1))
        #expect(m.localPoint == Vec2(-5, 0))
        // The incident face is now the top one (vertices 2 and 3).
        #expect(m.point0.id.indexB == 2 && m.point1.id.indexB == 3)
        #expect(m.point0.localPoint == Vec2(0.25, 0.25) && m.point1.localPoint == Vec2(-0.25, 0.25))
    }

    @Test func aBoxOutOfReachHasNoPoints() {
        // 0.03 m of gap > 0.02 m of skins: no manifold (and no kind).
        let m = Collide.edgeAndPolygon(floor, .identity, box, Transform(p: Vec2(1, 0.28), q: .identity))
        #expect(m.pointCount == 0)
        #expect(m.kind == .circles)
    }

    @Test func aBoxPastTheEdgesEndAgainstItsSideUsesItsOwnFace() {
        // The box stands beside the edge's end (5, 0), its left face 2^-7 m to the right of it,
        // spanning y from −0.125 to 0.375. The edge's normal (0, 1) gives a separation of −0.125
        // (the box reaches below the line); the box's left face (normal (−1, 0), index 3)
        // separates by 0.0078125, more than 0.98 × (−0.125) + 0.001, so that face is the
        // reference (kind faceB) and the edge the incident segment. The face's side planes
        // (y = 0.375 and y = −0.125) keep the whole edge, but only its end (5, 0) lies within
        // reach (0.0078125 ≤ 0.02) of the face; (−5, 0) is 10 m away: one point.
        let xfB = Transform(p: Vec2(5.2578125, 0.125), q: .identity)
        let m = Collide.edgeAndPolygon(floor, .identity, box, xfB)
        #expect(m.kind == .faceB)
        #expect(m.localNormal == Vec2(-1, 0))
        #expect(m.localPoint == Vec2(-0.25, 0.25))
        #expect(m.pointCount == 1)
        #expect(m.point0.localPoint == Vec2(5, 0))
        // The id as Box2D keeps a faceB point's (flipped): the box's face 3, the edge's vertex 0.
        #expect(m.point0.id == ContactFeature(indexA: 3, indexB: 0, typeA: ContactFeature.face, typeB: ContactFeature.vertex))
    }

    @Test func aBoxOnABoxTouchesWithTheLowerBoxsTopFace() {
        // B (upright) 2^-7 m above A's top face, shifted 0.125 m right. Both faces separate by
        // 0.0078125, so A's (not clearly worse) is the reference: face 2, from (0.25, 0.25) to
        // (−0.25, 0.25), tangent (−1, 0), normal (0, 1), point its middle (0, 0.25). B's bottom
        // face (0 to 1) is incident: its corners at x = −0.125 and 0.375; the side plane at
        // x = 0.25 + 0.02 (the skins) cuts the second, which becomes a new point with id
        // (A's vertex 2, B's face 0). Both points are within reach of the face.
        let m = Collide.polygons(box, .identity, box, Transform(p: Vec2(0.125, 0.5078125), q: .identity))
        #expect(m.kind == .faceA)
        #expect(m.pointCount == 2)
        #expect(m.localNormal == Vec2(0, 1))
        #expect(m.localPoint == Vec2(0, 0.25))
        let face = ContactFeature.face, vertex = ContactFeature.vertex
        #expect(m.point0.localPoint == Vec2(-0.25, -0.25))
        #expect(m.point0.id == ContactFeature(indexA: 2, indexB: 0, typeA: face, typeB: vertex))
        // The cut at x = 0.27 in A's frame is 0.145 in B's (the division rounds).
        #expect(abs(m.point1.localPoint.x - 0.145) < 1e-6 && m.point1.localPoint.y == -0.25)
        #expect(m.point1.id == ContactFeature(indexA: 2, indexB: 0, typeA: vertex, typeB: face))
    }

    @Test func aCornerUnderABoxMakesTheUpperBoxsFaceTheReference() {
        // A turned by 0.3 rad: its corner 2 at about (0.165, 0.338) is its highest point. B, a
        // 0.2 m box, upright, its bottom face 0.005 m above that corner. B's bottom face
        // separates A by 0.005; A's best face (its top one, now tilted) sees B's lower right
        // corner about 0.025 below it. B's face is clearly better (0.005 > −0.025 + 0.0005):
        // kind faceB, normal and point B's bottom face (normal (0, −1), middle (0, −0.1)). A's
        // top face is incident; clipped to B's sides its corner 2 stays and its other end is cut
        // at x ≈ 0.045, about 0.042 below the face (out of reach, 0.02): one point, A's corner,
        // in A's frame, its id flipped to A's view (A's vertex 2 against B's face 0).
        let small = Shape.box(halfWidth: 0.1, halfHeight: 0.1)
        let xfA = Transform(p: .zero, q: Rot(0.3))
        let corner = xfA.apply(Vec2(0.25, 0.25))
        let m = Collide.polygons(box, xfA, small, Transform(p: Vec2(corner.x, corner.y + 0.005 + 0.1), q: .identity))
        #expect(m.kind == .faceB)
        #expect(m.localNormal == Vec2(0, -1))
        #expect(m.localPoint == Vec2(0, -0.1))
        #expect(m.pointCount == 1)
        #expect(abs(m.point0.localPoint.x - 0.25) < 1e-6 && abs(m.point0.localPoint.y - 0.25) < 1e-6)
        #expect(m.point0.id == ContactFeature(indexA: 2, indexB: 0, typeA: ContactFeature.vertex, typeB: ContactFeature.face))
    }

    /// Every manifold field as bits (ids as keys), the points past `pointCount` included (they
    /// must be empty in both).
    func bits(_ m: Manifold) -> [UInt32] {
        [UInt32(m.pointCount), m.kind == .faceA ? 1 : m.kind == .faceB ? 2 : 0,
         m.localNormal.x.bitPattern, m.localNormal.y.bitPattern, m.localPoint.x.bitPattern, m.localPoint.y.bitPattern,
         m.point0.localPoint.x.bitPattern, m.point0.localPoint.y.bitPattern, m.point0.id.key,
         m.point1.localPoint.x.bitPattern, m.point1.localPoint.y.bitPattern, m.point1.id.key]
    }

    /// Lane `k` of an eight-lane result, as a manifold.
    func lane(_ c: CollisionLanes<V>, _ k: Int) -> Manifold {
        let m = c.manifold
        func id(_ f: FeatureLanes<V>) -> FeatureLanes<Float> {
            FeatureLanes(indexA: f.indexA[k], indexB: f.indexB[k], typeA: f.typeA[k], typeB: f.typeB[k])
        }
        return Manifold(oneLane: CollisionLanes(
            manifold: ManifoldLanes(isFaceA: m.isFaceA[k], isFaceB: m.isFaceB[k],
                                    localNormalX: m.localNormalX[k], localNormalY: m.localNormalY[k],
                                    localPointX: m.localPointX[k], localPointY: m.localPointY[k],
                                    point0X: m.point0X[k], point0Y: m.point0Y[k], point1X: m.point1X[k], point1Y: m.point1Y[k],
                                    hasPoint0: m.hasPoint0[k], hasPoint1: m.hasPoint1[k]),
            id0: id(c.id0), id1: id(c.id1)))
    }

    /// The lane transforms' inverse operations the kernels use (b2MulT) are the single world's
    /// `Transform.applyInverse` and `Rot.applyInverse`, bit for bit, and undo `apply` to rounding.
    @Test func inverseTransformsMatchTheSingleWorlds() {
        var r = Random(state: 21)
        for _ in 0..<2000 {
            let a = Transform(p: Vec2(r.next(5), r.next(5)), q: Rot(r.next(3.2)))
            let b = Transform(p: Vec2(r.next(5), r.next(5)), q: Rot(r.next(3.2)))
            let v = Vec2(r.next(5), r.next(5))
            let la = TransformLanes<Float>(px: a.p.x, py: a.p.y, s: a.q.s, c: a.q.c)
            let (x, y) = la.applyInverse(v.x, v.y), expected = a.applyInverse(v)
            #expect(x.bitPattern == expected.x.bitPattern && y.bitPattern == expected.y.bitPattern)
            let (rx, ry) = la.rotateInverse(v.x, v.y), rotated = a.q.applyInverse(v)
            #expect(rx.bitPattern == rotated.x.bitPattern && ry.bitPattern == rotated.y.bitPattern)
            // b2MulT(A, B): B's origin seen from A, and B's rotation less A's.
            let ab = la.inverseTimes(TransformLanes(px: b.p.x, py: b.p.y, s: b.q.s, c: b.q.c)), origin = a.applyInverse(b.p)
            #expect(ab.px.bitPattern == origin.x.bitPattern && ab.py.bitPattern == origin.y.bitPattern)
            #expect(abs(ab.s - sinf(atan2f(b.q.s, b.q.c) - atan2f(a.q.s, a.q.c))) < 1e-5)
            #expect(abs(ab.c - cosf(atan2f(b.q.s, b.q.c) - atan2f(a.q.s, a.q.c))) < 1e-5)
            let back = a.apply(Vec2(x, y))
            #expect(abs(back.x - v.x) < 1e-5 && abs(back.y - v.y) < 1e-5)
        }
    }

    /// Eight lanes of `f(lane)`.
    func lanes(_ f: (Int) -> Float) -> V { V((0..<8).map(f)) }

    /// Eight transforms as lanes.
    func transformLanes(_ xfs: [Transform]) -> TransformLanes<V> {
        TransformLanes(px: lanes { xfs[$0].p.x }, py: lanes { xfs[$0].p.y }, s: lanes { xfs[$0].q.s }, c: lanes { xfs[$0].q.c })
    }

    @Test(arguments: [(4, UInt64(1)), (4, 2), (5, 3), (3, 4), (8, 5)])
    func eightLanesEqualEachLaneAlone(vertexCount: Int, seed: UInt64) {
        var r = Random(state: seed)
        var outcomes: [String: Int] = [:]
        let scratch = UnsafeMutablePointer<V>.allocate(capacity: 4 * vertexCount)
        defer { scratch.deallocate() }
        for _ in 0..<600 {
            // Eight worlds: each its own edge (slope, length, place) and its own polygon of
            // `vertexCount` vertices (sizes differ), placed above, below, across the edge or
            // beyond its ends, at any angle, near enough that most lanes touch.
            var edges: [Shape] = [], xfAs: [Transform] = [], polygons: [Shape] = [], xfBs: [Transform] = []
            for _ in 0..<8 {
                let half = 0.5 + abs(r.next(3))
                edges.append(.edge(Vec2(-half, r.next(0.2)), Vec2(half, r.next(0.2))))
                xfAs.append(Transform(p: Vec2(r.next(1), r.next(1)), q: Rot(r.next(0.5))))
                let rx = 0.1 + abs(r.next(0.3)), ry = 0.1 + abs(r.next(0.3))
                polygons.append(.polygon((0..<vertexCount).map { k in
                    let t = Float(k) * 2 * .pi / Float(vertexCount) + 0.3
                    return Vec2(rx * cosf(t), ry * sinf(t))
                }))
                let along = r.next(half + 0.6), across = r.next(0.5)
                let p = xfAs.last!.apply(Vec2(along, across))
                xfBs.append(Transform(p: p, q: Rot(r.next(3.2))))
            }
            let single = (0..<8).map { Collide.edgeAndPolygon(edges[$0], xfAs[$0], polygons[$0], xfBs[$0]) }
            let c = CollideLanes.edgeAndPolygon(
                edge1: (lanes { edges[$0].vertices[0].x }, lanes { edges[$0].vertices[0].y }),
                edge2: (lanes { edges[$0].vertices[1].x }, lanes { edges[$0].vertices[1].y }),
                edgeRadius: lanes { edges[$0].radius },
                transformLanes(xfAs),
                count: vertexCount,
                vertex: { k in (lanes { polygons[$0].vertices[k].x }, lanes { polygons[$0].vertices[k].y }) },
                normal: { k in (lanes { polygons[$0].normals[k].x }, lanes { polygons[$0].normals[k].y }) },
                centroid: (lanes { polygons[$0].centroid.x }, lanes { polygons[$0].centroid.y }),
                polygonRadius: lanes { polygons[$0].radius },
                transformLanes(xfBs),
                scratch: scratch)
            for k in 0..<8 {
                let m = single[k]
                #expect(bits(lane(c, k)) == bits(m), "lane \(k): \(edges[k].vertices) at \(xfAs[k]), polygon at \(xfBs[k])")
                outcomes["\(m.kind) \(m.pointCount)", default: 0] += 1
            }
        }
        // Lanes took every way out: apart, the edge's face with one and two points, the
        // polygon's face with one and two points.
        for outcome in ["circles 0", "faceA 1", "faceA 2", "faceB 1", "faceB 2"] {
            #expect(outcomes[outcome, default: 0] > 0, "\(outcome) never happened: \(outcomes)")
        }
    }

    @Test(arguments: [(4, 4, UInt64(11)), (4, 4, 12), (3, 5, 13), (6, 4, 14)])
    func polygonsOnEightLanesEqualEachLaneAlone(countA: Int, countB: Int, seed: UInt64) {
        var r = Random(state: seed)
        var outcomes: [String: Int] = [:]
        func polygon(_ count: Int) -> Shape {
            let rx = 0.1 + abs(r.next(0.3)), ry = 0.1 + abs(r.next(0.3)), turn = r.next(1)
            return .polygon((0..<count).map { k in
                let t = Float(k) * 2 * .pi / Float(count) + turn
                return Vec2(rx * cosf(t), ry * sinf(t))
            })
        }
        for _ in 0..<600 {
            // Eight worlds, each with its own pair of polygons at any angles, B placed around A
            // near enough that most lanes touch, through faces or corners.
            var shapesA: [Shape] = [], xfAs: [Transform] = [], shapesB: [Shape] = [], xfBs: [Transform] = []
            for _ in 0..<8 {
                shapesA.append(polygon(countA)); shapesB.append(polygon(countB))
                xfAs.append(Transform(p: Vec2(r.next(1), r.next(1)), q: Rot(r.next(3.2))))
                let direction = r.next(3.2), reach = 0.25 + abs(r.next(0.4))
                xfBs.append(Transform(p: xfAs.last!.p + Vec2(reach * cosf(direction), reach * sinf(direction)), q: Rot(r.next(3.2))))
            }
            let single = (0..<8).map { Collide.polygons(shapesA[$0], xfAs[$0], shapesB[$0], xfBs[$0]) }
            let c = CollideLanes.polygons(
                countA: countA,
                vertexA: { k in (lanes { shapesA[$0].vertices[k].x }, lanes { shapesA[$0].vertices[k].y }) },
                normalA: { k in (lanes { shapesA[$0].normals[k].x }, lanes { shapesA[$0].normals[k].y }) },
                radiusA: lanes { shapesA[$0].radius }, transformLanes(xfAs),
                countB: countB,
                vertexB: { k in (lanes { shapesB[$0].vertices[k].x }, lanes { shapesB[$0].vertices[k].y }) },
                normalB: { k in (lanes { shapesB[$0].normals[k].x }, lanes { shapesB[$0].normals[k].y }) },
                radiusB: lanes { shapesB[$0].radius }, transformLanes(xfBs))
            for k in 0..<8 {
                let m = single[k]
                #expect(bits(lane(c, k)) == bits(m), "lane \(k): A at \(xfAs[k]), B at \(xfBs[k])")
                outcomes["\(m.kind) \(m.pointCount)", default: 0] += 1
            }
        }
        for outcome in ["circles 0", "faceA 1", "faceA 2", "faceB 1", "faceB 2"] {
            #expect(outcomes[outcome, default: 0] > 0, "\(outcome) never happened: \(outcomes)")
        }
    }
}
