// Contact manifolds in body-local coordinates, as Box2D keeps them: they survive small motions, and
// their feature ids let the solver carry impulses from one sub-step to the next (warm starting).

/// Which features of the two shapes made a manifold point: packed vertex/face indices and kinds.
struct ContactFeature: Equatable, Sendable {
    static let vertex: UInt8 = 0
    static let face: UInt8 = 1
    var indexA: UInt8 = 0
    var indexB: UInt8 = 0
    var typeA: UInt8 = 0
    var typeB: UInt8 = 0
    var key: UInt32 { UInt32(indexA) | UInt32(indexB) << 8 | UInt32(typeA) << 16 | UInt32(typeB) << 24 }
    var flipped: ContactFeature { ContactFeature(indexA: indexB, indexB: indexA, typeA: typeB, typeB: typeA) }
}

struct ManifoldPoint: Sendable {
    /// circles: centre of B's circle; faceA: clip point in B's frame; faceB: clip point in A's frame.
    var localPoint: Vec2 = .zero
    var normalImpulse: Float = 0
    var tangentImpulse: Float = 0
    var id = ContactFeature()
}

struct Manifold: Sendable {
    enum Kind: Sendable { case circles, faceA, faceB }
    var kind: Kind = .circles
    /// 0, 1 or 2, in a byte beside `kind` (60 bytes in all, not 72: see `Contact`).
    private var storedPointCount: UInt8 = 0
    /// faceA: normal in A's frame; faceB: in B's frame; circles: unused.
    var localNormal: Vec2 = .zero
    /// circles: centre of A's circle; faceA: a point on A's reference face; faceB: on B's.
    var localPoint: Vec2 = .zero
    var point0 = ManifoldPoint()
    var point1 = ManifoldPoint()
    var pointCount: Int {
        get { Int(storedPointCount) }
        set { storedPointCount = UInt8(truncatingIfNeeded: newValue) }
    }

    subscript(i: Int) -> ManifoldPoint {
        get { i == 0 ? point0 : point1 }
        set { if i == 0 { point0 = newValue } else { point1 = newValue } }
    }

    mutating func append(_ p: ManifoldPoint) {
        self[pointCount] = p
        pointCount += 1
    }
}

/// A manifold resolved to world space: the normal from A to B and, per point, the point midway
/// between the two surfaces and the separation of the surfaces (negative when overlapping).
struct WorldManifold: Sendable {
    var normal = Vec2.zero
    var points = (Vec2.zero, Vec2.zero)
    var separations: (Float, Float) = (0, 0)

    init(_ m: Manifold, _ xfA: Transform, _ radiusA: Float, _ xfB: Transform, _ radiusB: Float) {
        if m.pointCount == 0 { return }
        switch m.kind {
        case .circles:
            normal = Vec2(1, 0)
            let pA = xfA.apply(m.localPoint), pB = xfB.apply(m.point0.localPoint)
            if distanceSquared(pA, pB) > Float.ulpOfOne * Float.ulpOfOne { normal = (pB - pA).normalized }
            let cA = pA + radiusA * normal, cB = pB - radiusB * normal
            points.0 = 0.5 * (cA + cB)
            separations.0 = dot(cB - cA, normal)
        case .faceA:
            normal = xfA.q.apply(m.localNormal)
            let planePoint = xfA.apply(m.localPoint)
            for i in 0..<m.pointCount {
                let clip = xfB.apply(m[i].localPoint)
                let cA = clip + (radiusA - dot(clip - planePoint, normal)) * normal
                let cB = clip - radiusB * normal
                set(i, point: 0.5 * (cA + cB), separation: dot(cB - cA, normal))
            }
        case .faceB:
            normal = xfB.q.apply(m.localNormal)
            let planePoint = xfB.apply(m.localPoint)
            for i in 0..<m.pointCount {
                let clip = xfA.apply(m[i].localPoint)
                let cB = clip + (radiusB - dot(clip - planePoint, normal)) * normal
                let cA = clip - radiusA * normal
                set(i, point: 0.5 * (cA + cB), separation: dot(cA - cB, normal))
            }
            normal = -normal
        }
    }

    private mutating func set(_ i: Int, point: Vec2, separation: Float) {
        if i == 0 { points.0 = point; separations.0 = separation } else { points.1 = point; separations.1 = separation }
    }

    func point(_ i: Int) -> Vec2 { i == 0 ? points.0 : points.1 }
}
