// The rows of the batched engine's contact columns: which pairs have a row, in pair order. A
// small world gives every pair its rule allows a row for good (the boxes are then tested eight
// lanes at a time, pair by pair); a bigger one gives a row to a pair while some lane has its
// contact (found by each lane's sort and sweep), reuses freed rows, and grows the stores sized
// by rows when they fill. So the columns grow with the contacts, not with the square of the bodies.

/// Whether a small world's pairs all get rows for good (`bySize`), or every world's rows come and
/// go with its contacts (`alwaysSparse`: tests run small worlds that way too, to compare).
package enum LaneRowPolicy: Sendable { case bySize, alwaysSparse }

/// The row table, shared by every lane.
final class LaneRows {
    /// Each row's pair (ordered for `Collide.manifold`) and place in the pair order.
    @exclusivity(unchecked) var pair: [BodyPair] = []
    @exclusivity(unchecked) var order: [PairOrder] = []
    /// Per row: how many lanes have its contact.
    @exclusivity(unchecked) var laneCount: [Int32] = []
    /// Per row: both bodies can move, so a touching contact joins their islands.
    @exclusivity(unchecked) var joinsIslands: [Bool] = []
    /// Per row and group of eight lanes (index = row × groups + group): the lane kernel of its
    /// contact update (`LaneWorld.laneKernel(for:group:)`), or nil for lane by lane.
    @exclusivity(unchecked) var kernel: [LaneNarrowPhaseKernel?] = []
    /// The rows in use, in pair order (rows whose count fell to 0 stay until `dropEmptyRows`).
    @exclusivity(unchecked) var inOrder: [Int32] = []
    @exclusivity(unchecked) var free: [Int32] = []
    @exclusivity(unchecked) var rowOfPair = PairKeyTable()
    /// Every allowed pair has its row for good (a small world).
    let fixed: Bool

    /// The most allowed pairs a world may have for every pair to get a row for good; enumerating
    /// them tests every pair of bodies, so only worlds of at most `fixedBodyLimit` bodies try.
    static let fixedPairLimit = 256, fixedBodyLimit = 64

    init(fixed: Bool) { self.fixed = fixed }

    /// A small world's pairs, which all get rows for good, in pair order (each the way round
    /// `Collide.manifold` takes it); nil when the world is too big or the policy says sparse.
    static func fixedPairs(rule: CollisionRule, kinds: [Shape.Kind], rowPolicy: LaneRowPolicy) -> [(order: PairOrder, pair: BodyPair)]? {
        let bodyCount = kinds.count
        guard rowPolicy == .bySize && bodyCount <= fixedBodyLimit else { return nil }
        func oriented(_ p: BodyPair) -> BodyPair {
            Collide.shapeAComesFirst(kinds[p.a], kinds[p.b]) ? p : BodyPair(a: p.b, b: p.a)
        }
        var all: [(order: PairOrder, pair: BodyPair)] = []
        for a in 0..<bodyCount {
            for b in (a + 1)..<max(a + 1, bodyCount) {
                if let allowed = rule.allowedOrder(a, b) { all.append((allowed.order, oriented(allowed.pair))) }
            }
        }
        return all.count <= fixedPairLimit ? all.sorted { $0.order < $1.order } : nil
    }

    /// The rows the stores sized by rows start with: every fixed pair's, else room for about two
    /// contacts per body (they double when full: `growRows`).
    static func initialCapacity(fixedPairCount: Int?, bodyCount: Int) -> Int {
        max(fixedPairCount ?? 2 * bodyCount + LaneWorld.width, 1)
    }

    var count: Int { pair.count }

    /// Bytes of the table besides the columns.
    var byteCount: Int {
        pair.heldBytes + order.heldBytes + laneCount.heldBytes + joinsIslands.heldBytes + inOrder.heldBytes + free.heldBytes
            + rowOfPair.heldBytes + kernel.heldBytes
    }
}

extension LaneWorld {
    /// The row of `pair` (ordered for `Collide.manifold`), given a new one if it has none.
    func row(for pair: BodyPair, order: PairOrder) -> Int {
        let key = PhysicsWorld.pairKey(pair.a, pair.b)
        if let r = rows.rowOfPair[key] { return Int(r) }
        let r: Int
        let groups = lanes / Self.width
        if let reused = rows.free.popLast() {
            r = Int(reused)
            rows.pair[r] = pair; rows.order[r] = order; rows.laneCount[r] = 0
            rows.joinsIslands[r] = !isStatic[pair.a] && !isStatic[pair.b]
            for g in 0..<groups { rows.kernel[r * groups + g] = laneKernel(for: pair, group: g * Self.width) }
        } else {
            r = rows.count
            rows.pair.append(pair); rows.order.append(order); rows.laneCount.append(0)
            rows.joinsIslands.append(!isStatic[pair.a] && !isStatic[pair.b])
            for g in 0..<groups { rows.kernel.append(laneKernel(for: pair, group: g * Self.width)) }
            if r >= contacts.capacity { growRows(to: 2 * contacts.capacity) }
        }
        rows.rowOfPair[key] = Int32(r)
        // Into the pair order (rows are made a few at a time).
        var lo = 0, hi = rows.inOrder.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows.order[Int(rows.inOrder[mid])] < order { lo = mid + 1 } else { hi = mid }
        }
        rows.inOrder.insert(Int32(r), at: lo)
        toi.setRow(r, pair: pair, worlds: worlds, isStatic: isStatic, usesTOI: usesTOI)
        return r
    }

    /// Calls `body` with each row in use, in pair order (fixed rows are in order already).
    @inline(__always) func forEachRowInOrder(_ body: (Int) -> Void) {
        if rows.fixed {
            for r in 0..<rows.count { body(r) }
        } else {
            rows.inOrder.withUnsafeBufferPointer { inOrder in for r in inOrder { body(Int(r)) } }
        }
    }

    /// Frees the rows no lane has a contact in (their columns are already empty).
    func dropEmptyRows() {
        guard !rows.fixed else { return }
        var kept = 0
        for k in rows.inOrder.indices {
            let r = Int(rows.inOrder[k])
            if rows.laneCount[r] > 0 {
                rows.inOrder[kept] = Int32(r); kept += 1
            } else {
                rows.rowOfPair[PhysicsWorld.pairKey(rows.pair[r].a, rows.pair[r].b)] = nil
                rows.free.append(Int32(r))
            }
        }
        if kept < rows.inOrder.count {
            rows.inOrder.removeLast(rows.inOrder.count - kept)
            for lane in 0..<lanes { contactsChanged(lane) }   // the lanes' lists name rows
        }
    }

    /// Makes contact `contact` of lane `lane` in row `r`.
    @inline(__always) func addContact(_ contact: Contact, row r: Int, lane: Int) {
        let ci = r * lanes + lane
        contacts.contact[ci] = contact
        contacts.mirror(ci, impulses: true)
        rows.laneCount[r] += 1
        contactMade(row: r, lane: lane, serial: contact.serial)
    }

    /// Room for `capacity` rows in every store sized by rows (between stages: the islands and
    /// bundles hold nothing from one sub-step to the next).
    func growRows(to capacity: Int) {
        contacts = LaneContacts(lanes: lanes, capacity: capacity, copying: contacts)
        islands = LaneIslands(lanes: lanes, bodyCount: bodyCount, capacity: capacity, jointCount: jointBodies.count)
        bundles = ContactBundles(lanes: lanes, capacity: capacity)
        packingValid = false
        toi = LaneTimeOfImpact(lanes: lanes, capacity: capacity, copying: toi)
    }

    /// Bytes of the stores sized by rows, for the memory tests: linear in the rows.
    var rowStoreByteCount: Int {
        rows.byteCount + contacts.byteCount
            + islands.byteCount + bundles.byteCount + toi.byteCount
    }
}
