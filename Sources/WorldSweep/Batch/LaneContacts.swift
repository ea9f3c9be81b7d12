// Contacts of the batched engine: rows of pairs, each row's `Contact` per lane and its flags and
// manifold as columns (index = row × lanes + lane) that the solver and the narrow phase load
// eight lanes at a time, and the contact update stage (PhysicsWorld.updateContacts): eight lanes
// at a time where a row's lanes hold one pair kind the lane kernels cover (LaneNarrowPhase.swift),
// else per lane. A row stands for a pair that has a contact in some lane (or, in a small
// world, for each pair the rule allows), so the columns grow with the contacts, not with the
// square of the bodies.

/// The contacts of every (row, lane), in memory this store owns.
final class LaneContacts {
    let lanes: Int
    /// Rows the columns hold.
    let capacity: Int
    private let columns = Columns()
    /// Each (row, lane)'s contact, or nil while the pair's boxes are apart in that lane. Its
    /// serial and time-of-impact state are kept here; its flags, manifold and the transforms
    /// the manifold was made at live in the columns below (`takeColumns` brings them back into
    /// the contact before scalar code reads it; `mirror` writes a changed contact out).
    let contact: UnsafeMutablePointer<Contact?>
    /// The contact's flags (0 / −1) and manifold as columns.
    let exists: UnsafeMutablePointer<Int32>, touching: UnsafeMutablePointer<Int32>, enabled: UnsafeMutablePointer<Int32>
    let faceA: UnsafeMutablePointer<Int32>, faceB: UnsafeMutablePointer<Int32>, pointCount: UnsafeMutablePointer<Int32>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    let pointX: UnsafeMutablePointer<Float>, pointY: UnsafeMutablePointer<Float>
    let point0X: UnsafeMutablePointer<Float>, point0Y: UnsafeMutablePointer<Float>
    let point1X: UnsafeMutablePointer<Float>, point1Y: UnsafeMutablePointer<Float>
    let normalImpulse0: UnsafeMutablePointer<Float>, tangentImpulse0: UnsafeMutablePointer<Float>
    let normalImpulse1: UnsafeMutablePointer<Float>, tangentImpulse1: UnsafeMutablePointer<Float>
    /// The points' feature ids as `FeatureLanes.code`s (exact small integers).
    let id0: UnsafeMutablePointer<Float>, id1: UnsafeMutablePointer<Float>
    /// `Contact.hasManifold` and `manifoldTransforms` (A's and B's position and rotation).
    let hasManifold: UnsafeMutablePointer<Int32>
    let transformAX: UnsafeMutablePointer<Float>, transformAY: UnsafeMutablePointer<Float>
    let transformAS: UnsafeMutablePointer<Float>, transformAC: UnsafeMutablePointer<Float>
    let transformBX: UnsafeMutablePointer<Float>, transformBY: UnsafeMutablePointer<Float>
    let transformBS: UnsafeMutablePointer<Float>, transformBC: UnsafeMutablePointer<Float>

    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them, per (row, lane): the contact, seven flags and
    /// counts (exists … pointCount, hasManifold) and 22 numbers (normal, points, impulses, ids,
    /// the two manifold transforms).
    static func bytes(lanes: Int, capacity: Int) -> Int {
        let n = capacity * lanes
        return Columns.bytes(Contact?.self, n) + 7 * Columns.bytes(Int32.self, n) + 22 * Columns.bytes(Float.self, n)
    }

    /// Empty rows for `capacity` rows of `lanes` lanes, or the rows of `old` copied into more.
    init(lanes: Int, capacity: Int, copying old: LaneContacts? = nil) {
        self.lanes = lanes
        self.capacity = capacity
        let n = capacity * lanes
        contact = columns.make(n, nil)
        exists = columns.make(n, 0); touching = columns.make(n, 0); enabled = columns.make(n, 0)
        faceA = columns.make(n, 0); faceB = columns.make(n, 0); pointCount = columns.make(n, 0)
        normalX = columns.make(n, 0); normalY = columns.make(n, 0); pointX = columns.make(n, 0); pointY = columns.make(n, 0)
        point0X = columns.make(n, 0); point0Y = columns.make(n, 0); point1X = columns.make(n, 0); point1Y = columns.make(n, 0)
        normalImpulse0 = columns.make(n, 0); tangentImpulse0 = columns.make(n, 0)
        normalImpulse1 = columns.make(n, 0); tangentImpulse1 = columns.make(n, 0)
        id0 = columns.make(n, 0); id1 = columns.make(n, 0); hasManifold = columns.make(n, 0)
        transformAX = columns.make(n, 0); transformAY = columns.make(n, 0); transformAS = columns.make(n, 0); transformAC = columns.make(n, 0)
        transformBX = columns.make(n, 0); transformBY = columns.make(n, 0); transformBS = columns.make(n, 0); transformBC = columns.make(n, 0)
        columns.expect(Self.bytes(lanes: lanes, capacity: capacity), of: "LaneContacts")
        guard let old else { return }
        let m = old.capacity * lanes
        contact.update(from: old.contact, count: m)
        for (to, from) in [(exists, old.exists), (touching, old.touching), (enabled, old.enabled), (faceA, old.faceA),
                           (faceB, old.faceB), (pointCount, old.pointCount), (hasManifold, old.hasManifold)] { to.update(from: from, count: m) }
        for (to, from) in [(normalX, old.normalX), (normalY, old.normalY), (pointX, old.pointX), (pointY, old.pointY),
                           (point0X, old.point0X), (point0Y, old.point0Y), (point1X, old.point1X), (point1Y, old.point1Y),
                           (normalImpulse0, old.normalImpulse0), (tangentImpulse0, old.tangentImpulse0),
                           (normalImpulse1, old.normalImpulse1), (tangentImpulse1, old.tangentImpulse1), (id0, old.id0), (id1, old.id1),
                           (transformAX, old.transformAX), (transformAY, old.transformAY), (transformAS, old.transformAS),
                           (transformAC, old.transformAC), (transformBX, old.transformBX), (transformBY, old.transformBY),
                           (transformBS, old.transformBS), (transformBC, old.transformBC)] { to.update(from: from, count: m) }
    }

    /// Writes contact `ci`'s flags, manifold and manifold transforms into the columns (after it
    /// was made or changed by scalar code: a refresh, a time-of-impact pass), and its impulses
    /// unless the columns' are the newer copy.
    @inline(__always) func mirror(_ ci: Int, impulses: Bool) {
        guard let c = contact[ci] else { exists[ci] = 0; touching[ci] = 0; enabled[ci] = 0; return }
        exists[ci] = -1
        touching[ci] = c.touching ? -1 : 0
        enabled[ci] = c.enabled ? -1 : 0
        let m = c.manifold
        faceA[ci] = m.kind == .faceA ? -1 : 0; faceB[ci] = m.kind == .faceB ? -1 : 0
        pointCount[ci] = Int32(m.pointCount)
        normalX[ci] = m.localNormal.x; normalY[ci] = m.localNormal.y
        pointX[ci] = m.localPoint.x; pointY[ci] = m.localPoint.y
        point0X[ci] = m.point0.localPoint.x; point0Y[ci] = m.point0.localPoint.y
        point1X[ci] = m.point1.localPoint.x; point1Y[ci] = m.point1.localPoint.y
        if impulses {
            normalImpulse0[ci] = m.point0.normalImpulse; tangentImpulse0[ci] = m.point0.tangentImpulse
            normalImpulse1[ci] = m.point1.normalImpulse; tangentImpulse1[ci] = m.point1.tangentImpulse
        }
        id0[ci] = Float(m.point0.id.code); id1[ci] = Float(m.point1.id.code)
        hasManifold[ci] = c.hasManifold ? -1 : 0
        let (a, b) = c.manifoldTransforms
        transformAX[ci] = a.p.x; transformAY[ci] = a.p.y; transformAS[ci] = a.q.s; transformAC[ci] = a.q.c
        transformBX[ci] = b.p.x; transformBY[ci] = b.p.y; transformBS[ci] = b.q.s; transformBC[ci] = b.q.c
    }

    /// The manifold of contact `ci`, from the columns.
    @inline(__always) func manifold(_ ci: Int) -> Manifold {
        var m = Manifold()
        m.kind = faceA[ci] != 0 ? .faceA : faceB[ci] != 0 ? .faceB : .circles
        m.pointCount = Int(pointCount[ci])
        m.localNormal = Vec2(normalX[ci], normalY[ci])
        m.localPoint = Vec2(pointX[ci], pointY[ci])
        m.point0 = ManifoldPoint(localPoint: Vec2(point0X[ci], point0Y[ci]), normalImpulse: normalImpulse0[ci],
                                 tangentImpulse: tangentImpulse0[ci], id: ContactFeature(code: Int(id0[ci])))
        m.point1 = ManifoldPoint(localPoint: Vec2(point1X[ci], point1Y[ci]), normalImpulse: normalImpulse1[ci],
                                 tangentImpulse: tangentImpulse1[ci], id: ContactFeature(code: Int(id1[ci])))
        return m
    }

    /// `Contact.isCurrent` on the columns: whether refreshing contact `ci` at these transforms
    /// would leave it as it is (but for `enabled`).
    @inline(__always) func isCurrent(_ ci: Int, _ xfA: Transform, _ xfB: Transform) -> Bool {
        let a = Transform(p: Vec2(transformAX[ci], transformAY[ci]), q: Rot(s: transformAS[ci], c: transformAC[ci]))
        let b = Transform(p: Vec2(transformBX[ci], transformBY[ci]), q: Rot(s: transformBS[ci], c: transformBC[ci]))
        return manifoldIsCurrent(Float.self, hasManifold: hasManifold[ci] != 0, sameTransforms: a.isIdentical(to: xfA) && b.isIdentical(to: xfB),
                                 twoPointsShareAnId: pointCount[ci] == 2 && id0[ci] == id1[ci])
    }

    /// Brings the columns' flags, manifold and manifold transforms into contact `ci` before
    /// scalar code reads it.
    @inline(__always) func takeColumns(_ c: inout Contact, _ ci: Int) {
        c.manifold = manifold(ci)
        c.touching = touching[ci] != 0
        c.enabled = enabled[ci] != 0
        c.hasManifold = hasManifold[ci] != 0
        c.manifoldTransforms = (Transform(p: Vec2(transformAX[ci], transformAY[ci]), q: Rot(s: transformAS[ci], c: transformAC[ci])),
                                Transform(p: Vec2(transformBX[ci], transformBY[ci]), q: Rot(s: transformBS[ci], c: transformBC[ci])))
    }
}

extension LaneWorld {
    /// Manifolds of the awake contacts (PhysicsWorld.updateContacts). Rows are walked in pair
    /// order, rows with no contact in any running lane of the group passed over eight lanes at a
    /// time; each lane meets its contacts in pair order (wakes and events as in the single world).
    @inline(never)   // a stage of its own in profiles
    func updateContacts(group: Int, running: SIMDMask<IV>) {
        if usesPairLanes(running) { updateContactsByPairs(group: group, running: running); return }
        forEachRowInOrder { p in
            let live = running .& loadMask(contacts.exists, p &* lanes &+ group)
            guard anyLane(live) else { return }
            if let kernel = laneKernel(p, group: group) {
                updateContacts(p, group: group, live: live, kernel: kernel)
            } else {
                for k in 0..<Self.width where live[k] { updateContact(p, lane: group + k) }
            }
        }
    }

    /// One lane's contact update, for rows the lane kernels do not cover.
    func updateContact(_ p: Int, lane: Int) {
        let ci = p * lanes + lane
        let a = rows.pair[p].a, b = rows.pair[p].b
        if !isActive(a, lane) && !isActive(b, lane) { return }
        let ia = a * lanes + lane, ib = b * lanes + lane
        if !box(ia).overlaps(box(ib)) { destroyContact(p, lane: lane); return }
        let xfA = transform(ia), xfB = transform(ib)
        if contacts.isCurrent(ci, xfA, xfB) {
            contacts.enabled[ci] = -1   // what refresh would do (see Contact.isCurrent)
            return
        }
        // In place: the contact is not copied out and back.
        contacts.takeColumns(&contacts.contact[ci]!, ci)
        let change = Contact.refresh(&contacts.contact[ci]!, lending: &details.shapes[ia], xfA, &details.shapes[ib], xfB)
        contacts.mirror(ci, impulses: true)
        switch change {
        case .none: break
        case .began(let point): touchBegan(p, lane: lane, point: point)
        case .ended: touchEnded(p, lane: lane)
        }
    }

    /// The contact of row `p` in lane `lane` goes: its boxes no longer overlap.
    func destroyContact(_ p: Int, lane: Int) {
        let ci = p * lanes + lane
        let a = rows.pair[p].a, b = rows.pair[p].b
        if contacts.touching[ci] != 0 { worlds[lane].changes.append(.ended(a: a, b: b)); changesWaiting[lane] = -1 }
        contacts.contact[ci] = nil
        contacts.mirror(ci, impulses: true)
        rows.laneCount[p] -= 1
        contactsChanged(lane)
    }

    /// Touching began (`point`: the first world point) or ended in row `p`, lane `lane`: both
    /// bodies wake, the lane's world records the change, and its islands may differ (the one
    /// place both the lane kernels and the lane-by-lane update report a touching change).
    @inline(__always) func touchBegan(_ p: Int, lane: Int, point: Vec2) {
        islandsChanged(lane)
        let a = rows.pair[p].a, b = rows.pair[p].b
        wake(a * lanes + lane); wake(b * lanes + lane)
        worlds[lane].changes.append(.began(a: a, b: b, point: point))
        changesWaiting[lane] = -1
    }
    @inline(__always) func touchEnded(_ p: Int, lane: Int) {
        islandsChanged(lane)
        let a = rows.pair[p].a, b = rows.pair[p].b
        wake(a * lanes + lane); wake(b * lanes + lane)
        worlds[lane].changes.append(.ended(a: a, b: b))
        changesWaiting[lane] = -1
    }
}
