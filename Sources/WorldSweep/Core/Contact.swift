// A contact of two bodies and its manifold update (Box2D's b2Contact::Update), shared by both
// engines: the refresh with impulse carry-over, the rule that leaves out a refresh whose bodies
// have not moved by a bit, and the touching changes it reports.

/// A contact between the two bodies of an allowed pair. Fields are ordered to pack into 120
/// bytes: contacts are copied whole at every time-of-impact hand-off, and from 128 bytes on the
/// compiler copies them through `memcpy` and reads `Contact?` through an outlined function.
struct Contact: Sendable {
    var manifold = Manifold()
    var touching = false
    var enabled = true
    var islandFlag = false
    var hasTOI = false
    /// Whether `manifold` has been computed (at `manifoldTransforms`).
    var hasManifold = false
    var toi: Float = 1
    var toiCount: Int32 = 0
    /// Creation order: newer contacts come first in a body's contact list, as in Box2D.
    var serial: Int
    /// The transforms of A and B that `manifold` was computed at.
    var manifoldTransforms = (a: Transform.identity, b: Transform.identity)
}

/// How a manifold update changed a contact's touching state.
enum TouchChange: Equatable {
    case none
    case began(point: Vec2)
    case ended
}

extension Contact {
    /// Recomputes the manifold at the bodies' transforms, carrying impulses over by feature id;
    /// says whether touching began (with the first world point) or ended. Both engines call this.
    mutating func refresh(_ shapeA: Shape, _ xfA: Transform, _ shapeB: Shape, _ xfB: Transform) -> TouchChange {
        guard needsNarrowPhase(xfA, xfB) else { return .none }
        return adopt(Collide.manifold(shapeA, xfA, shapeB, xfB), xfA, shapeA.radius, xfB, shapeB.radius)
    }

    /// The start of `refresh`: the contact enabled again, and whether its manifold must be made
    /// anew (false: made at these very transforms, nothing to do).
    @inline(__always)
    mutating func needsNarrowPhase(_ xfA: Transform, _ xfB: Transform) -> Bool {
        enabled = true
        return !isCurrent(xfA, xfB)
    }

    /// The rest of `refresh` once the narrow phase has made `m` at these transforms (one pair at
    /// a time, or eight in the lanes: ContactUpdateLanes.swift).
    @inline(__always)
    mutating func adopt(_ new: Manifold, _ xfA: Transform, _ radiusA: Float, _ xfB: Transform, _ radiusB: Float) -> TouchChange {
        let old = manifold
        let wasTouching = touching
        var m = new
        for j in 0..<m.pointCount {
            var mp = m[j]
            let same0 = old.pointCount > 0 && old.point0.id.key == mp.id.key
            let same1 = old.pointCount > 1 && old.point1.id.key == mp.id.key
            mp.normalImpulse = carriedImpulse(sameAsOld0: same0, sameAsOld1: same1, old.point0.normalImpulse, old.point1.normalImpulse)
            mp.tangentImpulse = carriedImpulse(sameAsOld0: same0, sameAsOld1: same1, old.point0.tangentImpulse, old.point1.tangentImpulse)
            m[j] = mp
        }
        manifold = m
        manifoldTransforms = (xfA, xfB)
        hasManifold = true
        touching = m.pointCount > 0
        if touching && !wasTouching {
            return .began(point: WorldManifold(m, xfA, radiusA, xfB, radiusB).points.0)
        }
        return wasTouching && !touching ? .ended : .none
    }

    /// `refresh` with the shapes lent where they lie (in a body array or a lane column). Passed
    /// from memory behind a pointer, each shape would be copied first (its vertex and normal
    /// arrays retained and released), since the compiler cannot tell that the narrow phase
    /// leaves that memory alone; an `inout` access is exclusive, so they pass as they are.
    /// Nothing here writes to them.
    @inline(never)
    static func refresh(_ c: inout Contact, lending shapeA: inout Shape, _ xfA: Transform,
                        _ shapeB: inout Shape, _ xfB: Transform) -> TouchChange {
        c.refresh(shapeA, xfA, shapeB, xfB)
    }

    /// Whether `refresh` at these transforms would leave the contact as it is (but for `enabled`),
    /// so that it can be left out: a quarter of twin-drop's updates, bodies at rest or held by a
    /// push. The narrow phase is a function of the shapes (a body's never changes) and the
    /// transforms alone, so the same bits give the same manifold; each point then finds its own
    /// old impulses by feature id, unless two points share an id, when both would take the first's.
    @inline(__always) func isCurrent(_ xfA: Transform, _ xfB: Transform) -> Bool {
        manifoldIsCurrent(Float.self, hasManifold: hasManifold,
                          sameTransforms: manifoldTransforms.a.isIdentical(to: xfA) && manifoldTransforms.b.isIdentical(to: xfB),
                          twoPointsShareAnId: manifold.pointCount == 2 && manifold.point0.id.key == manifold.point1.id.key)
    }
}

/// `Contact.isCurrent`'s rule, written once for a contact and for lanes of them: a manifold made
/// at the same transforms, bit for bit, stays, unless two of its points share a feature id.
@inline(__always)
func manifoldIsCurrent<L: LaneReal>(_: L.Type, hasManifold: L.Mask, sameTransforms: L.Mask, twoPointsShareAnId: L.Mask) -> L.Mask {
    L.and(L.and(hasManifold, sameTransforms), L.not(twoPointsShareAnId))
}


/// Warm starting across a manifold update: a new point takes the impulse of the first old point
/// with its feature id (`sameAsOld0`, `sameAsOld1`: that old point exists and has the new point's
/// id), else starts from none. Written once for `Contact.refresh` and the batch's lanes.
@inline(__always)
func carriedImpulse<L: LaneReal>(sameAsOld0: L.Mask, sameAsOld1: L.Mask, _ old0: L, _ old1: L) -> L {
    L.select(sameAsOld0, old0, L.select(sameAsOld1, old1, L(0)))
}

/// A began/ended change of a pair's touching state, in the order it happened. `a` and `b` are
/// body indices; the point is in metres.
enum ContactChange: Sendable, Equatable {
    case began(a: Int, b: Int, point: Vec2)
    case ended(a: Int, b: Int)

    /// A began contact's point as delegates are told it: in points, from the engine's metres.
    static func pointInPoints(_ p: Vec2) -> Point {
        Point(x: Double(p.x * EngineSettings.pointsPerMetre), y: Double(p.y * EngineSettings.pointsPerMetre))
    }
}

struct BodyPair: Hashable, Sendable {
    /// Ordered so that `Collide.manifold(a, b)` accepts it (edge, then polygon, then circle).
    var a: Int
    var b: Int
}
