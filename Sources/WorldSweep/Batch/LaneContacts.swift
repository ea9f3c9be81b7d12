// Contacts of the batched engine: rows of pairs, each row's `Contact` per lane, its flags and
// manifold mirrored into columns (index = row × lanes + lane) so the solver loads them eight lanes
// at a time, and the contact update stage (PhysicsWorld.updateContacts), per lane since the
// narrow phase branches. A row stands for a pair that has a contact in some lane (or, in a small
// world, for each pair the rule allows), so the columns grow with the contacts, not with the
// square of the bodies.

/// The contacts of every (row, lane), in memory this store owns.
final class LaneContacts {
    let lanes: Int
    /// Rows the columns hold.
    let capacity: Int
    private let columns = Columns()
    /// Each (row, lane)'s contact, or nil while the pair's boxes are apart in that lane.
    let contact: UnsafeMutablePointer<Contact?>
    /// The contact's flags (0 / −1) and manifold as columns. The impulses live here (the
    /// `Contact`'s copies are refreshed from these before it is used); everything else mirrors
    /// `contact` after every change.
    let exists: UnsafeMutablePointer<Int32>, touching: UnsafeMutablePointer<Int32>, enabled: UnsafeMutablePointer<Int32>
    let faceA: UnsafeMutablePointer<Int32>, faceB: UnsafeMutablePointer<Int32>, pointCount: UnsafeMutablePointer<Int32>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    let pointX: UnsafeMutablePointer<Float>, pointY: UnsafeMutablePointer<Float>
    let point0X: UnsafeMutablePointer<Float>, point0Y: UnsafeMutablePointer<Float>
    let point1X: UnsafeMutablePointer<Float>, point1Y: UnsafeMutablePointer<Float>
    let normalImpulse0: UnsafeMutablePointer<Float>, tangentImpulse0: UnsafeMutablePointer<Float>
    let normalImpulse1: UnsafeMutablePointer<Float>, tangentImpulse1: UnsafeMutablePointer<Float>

    /// Bytes of one (row, lane): the contact and its columns.
    static let bytesPerRowLane = MemoryLayout<Contact?>.stride + 6 * 4 + 14 * 4

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
        guard let old else { return }
        let m = old.capacity * lanes
        contact.update(from: old.contact, count: m)
        for (to, from) in [(exists, old.exists), (touching, old.touching), (enabled, old.enabled), (faceA, old.faceA),
                           (faceB, old.faceB), (pointCount, old.pointCount)] { to.update(from: from, count: m) }
        for (to, from) in [(normalX, old.normalX), (normalY, old.normalY), (pointX, old.pointX), (pointY, old.pointY),
                           (point0X, old.point0X), (point0Y, old.point0Y), (point1X, old.point1X), (point1Y, old.point1Y),
                           (normalImpulse0, old.normalImpulse0), (tangentImpulse0, old.tangentImpulse0),
                           (normalImpulse1, old.normalImpulse1), (tangentImpulse1, old.tangentImpulse1)] { to.update(from: from, count: m) }
    }

    /// Copies contact `ci`'s flags and manifold into the columns (and its impulses, when they
    /// are the newer copy: after a refresh or a time-of-impact pass).
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
    }

    /// Puts the columns' impulses into contact `ci` before scalar code reads it.
    @inline(__always) func takeImpulses(_ c: inout Contact, _ ci: Int) {
        c.manifold.point0.normalImpulse = normalImpulse0[ci]; c.manifold.point0.tangentImpulse = tangentImpulse0[ci]
        c.manifold.point1.normalImpulse = normalImpulse1[ci]; c.manifold.point1.tangentImpulse = tangentImpulse1[ci]
    }
}

extension LaneWorld {
    /// Manifolds of the awake contacts (PhysicsWorld.updateContacts). Rows are walked in pair
    /// order, rows with no contact in any running lane of the group passed over eight lanes at a
    /// time; each lane meets its contacts in pair order (wakes and events as in the single world).
    func updateContacts(group: Int, running: SIMDMask<IV>) {
        forEachRowInOrder { p in
            let live = running .& loadMask(contacts.exists, p * lanes + group)
            guard anyLane(live) else { return }
            for k in 0..<Self.width where live[k] { updateContact(p, lane: group + k) }
        }
    }

    func updateContact(_ p: Int, lane: Int) {
        let ci = p * lanes + lane
        let a = rows.pair[p].a, b = rows.pair[p].b
        if !isActive(a, lane) && !isActive(b, lane) { return }
        let ia = a * lanes + lane, ib = b * lanes + lane
        if !box(ia).overlaps(box(ib)) {
            if contacts.touching[ci] != 0 { worlds[lane].changes.append(.ended(a: a, b: b)) }
            contacts.contact[ci] = nil
            contacts.mirror(ci, impulses: false)
            rows.laneCount[p] -= 1
            contactsChanged(lane)
            return
        }
        let xfA = transform(ia), xfB = transform(ib)
        if Self.isCurrent(&contacts.contact[ci]!, xfA, xfB) {
            // What refresh would do (see Contact.isCurrent); the columns already hold the rest.
            contacts.contact[ci]!.enabled = true; contacts.enabled[ci] = -1
            return
        }
        // In place: the contact is not copied out and back.
        contacts.takeImpulses(&contacts.contact[ci]!, ci)
        let change = Self.refresh(&contacts.contact[ci]!, &details.shapes[ia], xfA, &details.shapes[ib], xfB)
        contacts.mirror(ci, impulses: true)
        if change != .none { islandsChanged(lane) }   // touching changed: the lane's islands may too
        switch change {
        case .none: break
        case .began(let point):
            wake(ia); wake(ib)
            worlds[lane].changes.append(.began(a: a, b: b, point: point))
        case .ended:
            wake(ia); wake(ib)
            worlds[lane].changes.append(.ended(a: a, b: b))
        }
    }

    /// `Contact.refresh` with the shapes lent where they lie. Read through the column's pointer,
    /// each shape would be copied first (four array retains and releases per contact), since
    /// the compiler cannot tell that the narrow phase leaves that memory alone; an `inout` access
    /// is exclusive, so it passes them as they are. Nothing here writes to them.
    @inline(never)
    static func refresh(_ c: inout Contact, _ shapeA: inout Shape, _ xfA: Transform,
                                _ shapeB: inout Shape, _ xfB: Transform) -> TouchChange {
        c.refresh(shapeA, xfA, shapeB, xfB)
    }

    /// `Contact.isCurrent` on the contact where it lies (a plain read would copy it out first).
    @inline(never)
    static func isCurrent(_ c: inout Contact, _ xfA: Transform, _ xfB: Transform) -> Bool {
        c.isCurrent(xfA, xfB)
    }
}
