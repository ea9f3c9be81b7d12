import Testing
@testable import WorldSweep

/// A contact refreshed at the very transforms its manifold was computed at is left as it is
/// (`Contact.isCurrent`): that must be bit for bit what the full refresh gives, narrow phase and
/// impulse matching included, for every pair of shape kinds.
@Suite struct ContactRefreshTests {
    typealias Random = ContactKernelTests.Random

    /// Shape pairs in the order `Collide.manifold` takes them (edge, polygon, circle).
    static let pairs: [(String, Shape, Shape)] = [
        ("edge-box", .edge(Vec2(-3, 0), Vec2(3, 0)), .box(halfWidth: 0.4, halfHeight: 0.3)),
        ("box-box", .box(halfWidth: 0.5, halfHeight: 0.5), .box(halfWidth: 0.4, halfHeight: 0.3)),
        ("triangle-circle", .polygon([Vec2(-0.4, 0.3), Vec2(0.4, 0.3), Vec2(0, -0.3)]), .circle(center: .zero, radius: 0.3)),
        ("edge-circle", .edge(Vec2(-3, 0), Vec2(3, 0)), .circle(center: .zero, radius: 0.3)),
        ("circle-circle", .circle(center: .zero, radius: 0.3), .circle(center: Vec2(0.05, 0), radius: 0.2)),
    ]

    /// The bits of everything a refresh sets and the engines read (points past `pointCount` are
    /// never read: the solver leaves them alone and impulses carry over from used points only).
    func bits(_ c: Contact) -> [UInt32] {
        let m = c.manifold
        var out: [UInt32] = [UInt32(m.pointCount), m.kind == .faceA ? 1 : m.kind == .faceB ? 2 : 0,
                             c.touching ? 1 : 0, c.enabled ? 1 : 0,
                             m.localNormal.x.bitPattern, m.localNormal.y.bitPattern,
                             m.localPoint.x.bitPattern, m.localPoint.y.bitPattern]
        for j in 0..<m.pointCount {
            let p = m[j]
            out += [p.localPoint.x.bitPattern, p.localPoint.y.bitPattern,
                    p.normalImpulse.bitPattern, p.tangentImpulse.bitPattern, p.id.key]
        }
        return out
    }

    func transform(_ r: inout Random, x: Float, y: Float, spread: Float, angle: Float) -> Transform {
        Transform(p: Vec2(x + r.next(spread), y + r.next(spread)), q: Rot(r.next(angle)))
    }

    @Test func refreshingAtTheSameTransformsGivesTheFullRefreshsBits() {
        var r = Random(state: 41)
        var touchingCases = 0, twoPointCases = 0
        for (name, shapeA, shapeB) in Self.pairs {
            for _ in 0..<300 {
                let xfA = transform(&r, x: 0, y: 0, spread: 0.05, angle: 0.3)
                let xfB = transform(&r, x: 0, y: 0.55, spread: 0.25, angle: 3.2)
                var c = Contact(serial: 0)
                _ = c.refresh(shapeA, xfA, shapeB, xfB)
                // What a sub-step leaves behind: the solver's impulses; a time-of-impact pass may
                // have disabled the contact.
                c.manifold.point0.normalImpulse = r.next(3); c.manifold.point0.tangentImpulse = r.next(3)
                c.manifold.point1.normalImpulse = r.next(3); c.manifold.point1.tangentImpulse = r.next(3)
                c.enabled = false
                var full = c
                full.hasManifold = false   // forces the narrow phase and the matching by feature id
                #expect(c.isCurrent(xfA, xfB))
                #expect(!full.isCurrent(xfA, xfB))
                let change = c.refresh(shapeA, xfA, shapeB, xfB)
                let fullChange = full.refresh(shapeA, xfA, shapeB, xfB)
                #expect(change == fullChange, "\(name)")
                #expect(bits(c) == bits(full), "\(name) at \(xfA) \(xfB)")
                if c.touching { touchingCases += 1 }
                if c.manifold.pointCount == 2 { twoPointCases += 1 }
            }
        }
        // The draws reach the cases that matter: touching contacts, two-point manifolds among them.
        #expect(touchingCases > 500 && twoPointCases > 100, "\(touchingCases) touching, \(twoPointCases) two-point")
    }

    @Test func anyOtherBitsMeanAFullRefresh() {
        let edge = Shape.edge(Vec2(-3, 0), Vec2(3, 0)), box = Shape.box(halfWidth: 0.4, halfHeight: 0.3)
        let xfA = Transform.identity
        let xfB = Transform(p: Vec2(0, 0.29), q: Rot(0))
        var c = Contact(serial: 0)
        #expect(!c.isCurrent(xfA, xfB))   // nothing computed yet
        _ = c.refresh(edge, xfA, box, xfB)
        #expect(c.touching && c.manifold.pointCount == 2)
        #expect(c.isCurrent(xfA, xfB))
        var negativeZero = xfA
        negativeZero.p.x = -0.0   // equal as numbers, not as bits
        #expect(!c.isCurrent(negativeZero, xfB))
        var turned = xfB
        turned.q.s = turned.q.s.nextUp
        #expect(!c.isCurrent(xfA, turned))
        #expect(!c.isCurrent(xfB, xfA))
    }

    @Test func pointsSharingAFeatureIdAreRefreshedInFull() {
        // The matching gives each new point the impulses of the first old point with its id; with
        // two old points sharing one, both new points would take the first's, so nothing is kept.
        let edge = Shape.edge(Vec2(-3, 0), Vec2(3, 0)), box = Shape.box(halfWidth: 0.4, halfHeight: 0.3)
        let xfB = Transform(p: Vec2(0, 0.29), q: Rot(0))
        var c = Contact(serial: 0)
        _ = c.refresh(edge, .identity, box, xfB)
        c.manifold.point1.id = c.manifold.point0.id
        c.manifold.point0.normalImpulse = 1; c.manifold.point1.normalImpulse = 2
        #expect(!c.isCurrent(.identity, xfB))
        _ = c.refresh(edge, .identity, box, xfB)
        let impulses = (c.manifold.point0.normalImpulse, c.manifold.point1.normalImpulse)
        #expect(impulses == (1, 0) || impulses == (0, 1))   // one point matched the shared id, the other none
    }
}
