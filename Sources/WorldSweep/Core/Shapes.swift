// Collision shapes in body-local engine units. Polygons and edges carry the 1 pt skin
// (`polygonRadius`) so contacts begin when skins touch; circles are exact.

struct Shape: Sendable {
    enum Kind: Sendable { case circle, polygon, edge }
    var kind: Kind
    /// Circle: one vertex (its centre). Polygon: counter-clockwise in the math sense (outward
    /// normals are `edge.skewRight`). Edge: its two end points.
    var vertices: [Vec2]
    var normals: [Vec2]
    var radius: Float
    /// Polygon centroid (circle: centre; edge: midpoint).
    var centroid: Vec2

    static func circle(center: Vec2, radius: Float) -> Shape {
        Shape(kind: .circle, vertices: [center], normals: [], radius: radius, centroid: center)
    }

    static func edge(_ a: Vec2, _ b: Vec2) -> Shape {
        let n = (b - a).skewRight.normalized
        return Shape(kind: .edge, vertices: [a, b], normals: [n, -n], radius: EngineSettings.polygonRadius,
                     centroid: 0.5 * (a + b))
    }

    static func box(halfWidth hx: Float, halfHeight hy: Float) -> Shape {
        polygon([Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)])
    }

    /// A convex polygon; the caller has checked convexity (`ShapeGeometry.convexityProblem`).
    /// Either winding is accepted.
    static func polygon(_ points: [Vec2]) -> Shape {
        var v = points
        if signedArea(v) < 0 { v.reverse() }
        var normals: [Vec2] = []
        normals.reserveCapacity(v.count)
        for i in 0..<v.count {
            let e = v[(i + 1) % v.count] - v[i]
            normals.append(e.skewRight.normalized)
        }
        return Shape(kind: .polygon, vertices: v, normals: normals, radius: EngineSettings.polygonRadius,
                     centroid: polygonCentroid(v))
    }

    static func signedArea(_ v: [Vec2]) -> Float {
        var a: Float = 0
        for i in 0..<v.count { a += cross(v[i], v[(i + 1) % v.count]) }
        return a / 2
    }

    /// The centroid as Box2D 2.3 computes it when a polygon is set (`ComputeCentroid`): a
    /// triangle fan about the origin, each triangle's area times 1/3 (rounded to a Float first)
    /// times the sum of its corners. (2.4 fans about the first vertex; the bits differ.) A box
    /// centred on the origin comes out exactly zero, as Box2D's `SetAsBox` sets it.
    static func polygonCentroid(_ v: [Vec2]) -> Vec2 {
        let inv3: Float = 1 / 3
        var c = Vec2.zero
        var area: Float = 0
        for i in 0..<v.count {
            let p2 = v[i], p3 = v[(i + 1) % v.count]
            let triangleArea = 0.5 * cross(p2, p3)
            area += triangleArea
            c += (triangleArea * inv3) * (p2 + p3)
        }
        return (1 / area) * c
    }

    struct MassData { var mass: Float; var center: Vec2; var inertia: Float }

    /// Mass, centre of mass and rotational inertia about the body origin, for a density in kg/m²
    /// (UIKit's density: `mass = density × area[pt²] / 10 000`).
    func massData(density: Float) -> MassData {
        switch kind {
        case .circle:
            let mass = density * EngineSettings.b2Pi * radius * radius
            let p = vertices[0]
            return MassData(mass: mass, center: p, inertia: mass * (0.5 * radius * radius + dot(p, p)))
        case .edge:
            return MassData(mass: 0, center: centroid, inertia: 0)
        case .polygon:
            // Box2D 2.3's ComputeMass: a triangle fan about the vertex average s (2.4 fans about
            // the first vertex, which rounds differently), each triangle's area times 1/3 rounded
            // to a Float first; the core polygon only, the skin adds no mass.
            let inv3: Float = 1 / 3
            let n = vertices.count
            var s = Vec2.zero
            for v in vertices { s += v }
            s = (1 / Float(n)) * s
            var center = Vec2.zero
            var area: Float = 0
            var inertia: Float = 0
            for i in 0..<n {
                let e1 = vertices[i] - s
                let e2 = vertices[(i + 1) % n] - s
                let d = cross(e1, e2)
                let triangleArea = 0.5 * d
                area += triangleArea
                center += (triangleArea * inv3) * (e1 + e2)
                let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
                let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
                inertia += (0.25 * inv3 * d) * (intx2 + inty2)
            }
            let mass = density * area
            center = (1 / area) * center
            let massCenter = center + s
            var i = density * inertia
            i += mass * (dot(massCenter, massCenter) - dot(center, center))
            return MassData(mass: mass, center: massCenter, inertia: i)
        }
    }

    /// The broad phase's box of a body with this shape at `xf` (`broadPhaseBox` below, the rule
    /// the batched engine also runs eight worlds at a time); swept from where `sweep` began.
    func broadPhaseBox(_ xf: Transform, sweptFrom sweep: Sweep? = nil) -> AABB {
        vertices.withUnsafeBufferPointer { v in
            AABB(WorldSweep.broadPhaseBox(count: v.count, radius: radius, TransformLanes(xf),
                                          sweptFrom: sweep.map { PositionLanes(cx: $0.c0.x, cy: $0.c0.y, a: $0.a0) },
                                          localCenterX: sweep?.localCenter.x ?? 0, localCenterY: sweep?.localCenter.y ?? 0) { (v[$0].x, v[$0].y) })
        }
    }
}

/// The bounding box of `count` body-local vertices under `xf`, grown by `radius` — for a circle,
/// its centre (count 1) grown by its radius; for a polygon or edge, its core vertices grown by
/// the skin. Written once for one world (`Float`) and eight (`SIMD8<Float>`).
@inline(__always)
func vertexBounds<L: LaneReal>(count: Int, radius: L, _ xf: TransformLanes<L>, vertex: (Int) -> (L, L)) -> BoxLanes<L> {
    let (x0, y0) = vertex(0)
    var (lowerX, lowerY) = xf.apply(x0, y0)
    var upperX = lowerX, upperY = lowerY
    for k in 1..<max(count, 1) {
        let (x, y) = vertex(k)
        let (wx, wy) = xf.apply(x, y)
        lowerX = L.minimum(lowerX, wx); lowerY = L.minimum(lowerY, wy)
        upperX = L.maximum(upperX, wx); upperY = L.maximum(upperY, wy)
    }
    return BoxLanes(lowerX: lowerX - radius, lowerY: lowerY - radius, upperX: upperX + radius, upperY: upperY + radius)
}

/// A moving body's broad-phase box (PhysicsWorld.computeBoxes): its bounds grown by the margin
/// and, when `sweptFrom` is given, joined with its bounds where the sub-step began (centre of
/// mass and angle), so a fast body finds what it passed.
@inline(__always)
func broadPhaseBox<L: LaneReal>(count: Int, radius: L, _ xf: TransformLanes<L>, sweptFrom start: PositionLanes<L>?,
                                localCenterX: L, localCenterY: L, vertex: (Int) -> (L, L)) -> BoxLanes<L> {
    let box = broadPhaseBox(count: count, radius: radius, xf, vertex: vertex)
    guard let start else { return box }
    let xf0 = TransformLanes(start, localCenterX: localCenterX, localCenterY: localCenterY)
    return box.union(broadPhaseBox(count: count, radius: radius, xf0, vertex: vertex))
}

/// A body's broad-phase box at one transform: its bounds grown by the margin. A swept box is the
/// union of two of these (the end's first), so the batched engine can keep the end's box and
/// reuse it as the next sub-step's start.
@inline(__always)
func broadPhaseBox<L: LaneReal>(count: Int, radius: L, _ xf: TransformLanes<L>, vertex: (Int) -> (L, L)) -> BoxLanes<L> {
    vertexBounds(count: count, radius: radius, xf, vertex: vertex).expanded(by: L(EngineSettings.aabbMargin))
}

/// An axis-aligned box per lane: `AABB` for one world, eight boxes side by side for the batch.
struct BoxLanes<L: LaneReal> {
    var lowerX: L, lowerY: L, upperX: L, upperY: L

    @inline(__always) func expanded(by m: L) -> BoxLanes {
        BoxLanes(lowerX: lowerX - m, lowerY: lowerY - m, upperX: upperX + m, upperY: upperY + m)
    }
    @inline(__always) func union(_ o: BoxLanes) -> BoxLanes {
        BoxLanes(lowerX: L.minimum(lowerX, o.lowerX), lowerY: L.minimum(lowerY, o.lowerY),
                 upperX: L.maximum(upperX, o.upperX), upperY: L.maximum(upperY, o.upperY))
    }
    /// Lanes where the boxes are apart along some axis; touching edges count as overlapping.
    /// (NaN bounds compare false, so such a box overlaps everything, in both engines alike.)
    @inline(__always) func isApart(from o: BoxLanes) -> L.Mask {
        L.or(L.or(L.isGreater(o.lowerX, upperX), L.isGreater(o.lowerY, upperY)),
             L.or(L.isGreater(lowerX, o.upperX), L.isGreater(lowerY, o.upperY)))
    }
}

struct AABB: Sendable {
    var lower: Vec2
    var upper: Vec2
    init(lower: Vec2, upper: Vec2) { self.lower = lower; self.upper = upper }
    init(_ box: BoxLanes<Float>) {
        lower = Vec2(box.lowerX, box.lowerY); upper = Vec2(box.upperX, box.upperY)
    }
    var lanes: BoxLanes<Float> { BoxLanes(lowerX: lower.x, lowerY: lower.y, upperX: upper.x, upperY: upper.y) }
    func overlaps(_ o: AABB) -> Bool { !lanes.isApart(from: o.lanes) }
    /// Whether a bound is NaN (such a box overlaps everything; sorts cannot order it).
    @inline(__always) var hasNaN: Bool { lower.x.isNaN || lower.y.isNaN || upper.x.isNaN || upper.y.isNaN }
}

/// Checks on user-supplied outlines, in points, shared by the API and the scene-file validator.
public enum ShapeGeometry {
    /// Why a path cannot be an item's collision outline, or nil when it can: at least three
    /// vertices, at most `EngineSettings.maxPolygonVertices`, finite, strictly convex, non-zero area.
    public static func convexityProblem(_ path: [Point]) -> String? {
        if path.count < 3 { return "a convex path needs at least 3 vertices, got \(path.count)" }
        if path.count > EngineSettings.maxPolygonVertices {
            return "a convex path has at most \(EngineSettings.maxPolygonVertices) vertices, got \(path.count)"
        }
        if path.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { return "path vertices must be finite numbers" }
        var sign = 0.0
        let n = path.count
        for i in 0..<n {
            let a = path[i], b = path[(i + 1) % n], c = path[(i + 2) % n]
            let z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if abs(z) < 1e-9 { return "path is not strictly convex: vertices \(i + 1)...\((i + 2) % n + 1) are collinear or repeated" }
            if sign == 0 { sign = z > 0 ? 1 : -1 } else if (z > 0 ? 1 : -1) != sign {
                return "path is not convex: it turns the other way at vertex \((i + 1) % n + 1)"
            }
        }
        // A star (winding twice) turns one way throughout yet self-intersects: total turning must be 2π.
        var turning = 0.0
        for i in 0..<n {
            let a = path[i], b = path[(i + 1) % n], c = path[(i + 2) % n]
            let a1 = atan2(b.y - a.y, b.x - a.x), a2 = atan2(c.y - b.y, c.x - b.x)
            var d = a2 - a1
            while d > .pi { d -= 2 * .pi }
            while d < -.pi { d += 2 * .pi }
            turning += d
        }
        if abs(abs(turning) - 2 * .pi) > 1e-6 { return "path is not convex: it crosses itself" }
        return nil
    }

    /// Vertices of the polygon standing in for a non-circular ellipse (points, relative to the
    /// centre): 8 vertices on the ellipse, as the engine's polygons have at most 8 by default.
    public static func ellipsePolygon(width: Double, height: Double, vertexCount: Int = 8) -> [Point] {
        (0..<vertexCount).map { k in
            let t = 2 * Double.pi * Double(k) / Double(vertexCount)
            return Point(x: width / 2 * cos(t), y: height / 2 * sin(t))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
