// The broad phase: which bodies' boxes overlap, found by sort and sweep on x rather than by
// testing every pair. The order is kept from pass to pass, so an insertion sort restores it in
// about linear time while bodies move a little. It reports exactly the pairs `AABB.overlaps`
// accepts (touching counts as overlapping; a box with a NaN bound overlaps everything), so a
// contact begins and ends when it did with every pair tested.

struct SortAndSweep: Sendable {
    /// Bodies by their box's lower x (those with finite-comparable bounds).
    private var order: [Int32] = []
    /// Bodies whose box has a NaN bound: tested against every body.
    private var wild: [Int32] = []

    init() {}

    /// Bytes it holds.
    var byteCount: Int { order.heldBytes + wild.heldBytes }

    /// Calls `overlap(a, b)` once for each pair of bodies (a ≠ b, in no particular order) whose
    /// boxes overlap, among the bodies `include` accepts.
    mutating func forEachOverlap(_ boxes: UnsafeBufferPointer<AABB>, include: (Int) -> Bool,
                                 _ overlap: (Int, Int) -> Void) {
        let n = boxes.count
        if order.count + wild.count != n {
            order = (0..<Int32(n)).map { $0 }
            wild.removeAll()
        } else if !wild.isEmpty {
            order.append(contentsOf: wild)
            wild.removeAll()
        }
        // NaN bounds out of the sort (they would break its order).
        var kept = 0
        for k in order.indices {
            let box = boxes[Int(order[k])]
            if box.lower.x.isNaN || box.upper.x.isNaN || box.lower.y.isNaN || box.upper.y.isNaN {
                wild.append(order[k])
            } else {
                order[kept] = order[k]; kept += 1
            }
        }
        order.removeLast(order.count - kept)
        order.withUnsafeMutableBufferPointer { order in
            // Insertion sort by lower x: nearly sorted after the last pass.
            for k in 1..<max(order.count, 1) {
                let b = order[k], x = boxes[Int(b)].lower.x
                var j = k
                while j > 0 && boxes[Int(order[j - 1])].lower.x > x {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = b
            }
            for k in order.indices {
                let a = Int(order[k])
                guard include(a) else { continue }
                let boxA = boxes[a]
                var j = k + 1
                // Later boxes start at or after this one's lower x; once one starts past its
                // upper x, so do the rest.
                while j < order.count {
                    let b = Int(order[j])
                    let boxB = boxes[b]
                    if boxB.lower.x > boxA.upper.x { break }
                    if include(b) && boxA.overlaps(boxB) { overlap(a, b) }
                    j += 1
                }
            }
        }
        for (k, w) in wild.enumerated() {
            let a = Int(w)
            guard include(a) else { continue }
            for b in 0..<n where b != a && include(b) && boxes[a].overlaps(boxes[b]) {
                // A pair of two wild bodies is reported once, by the first of them.
                if let other = wild.firstIndex(of: Int32(b)), other < k { continue }
                overlap(a, b)
            }
        }
    }
}

/// What a world's broad phase keeps from its last pass: every body's box then, and the pairs
/// whose contact was destroyed since. With them a pass after few boxes changed need test only
/// the changed bodies against every body, and the parted pairs (`PhysicsWorld.findNewContacts`
/// says why that finds every pair a full pass would).
struct BroadPhaseMemory {
    /// The most changed bodies for which testing each against every body is cheaper than sorting
    /// and sweeping them all.
    static let mostChanged = 16

    private var boxes: [AABB] = []
    private var partedPairs: [BodyPair] = []
    /// Whether `boxes` and `partedPairs` describe the last pass (false after `forget`).
    private var known = false
    private var changed: [Int32] = []
    private var isChanged: [Bool] = []

    /// Bytes it holds.
    var byteCount: Int { boxes.heldBytes + partedPairs.heldBytes + changed.heldBytes + isChanged.heldBytes }

    /// Something other than boxes and destroyed contacts changed (bodies, the rule, the contacts
    /// handed in wholesale): the next pass tests every pair.
    mutating func forget() {
        known = false
        partedPairs.removeAll(keepingCapacity: true)
    }

    /// The contact of `pair` was destroyed.
    mutating func parted(_ pair: BodyPair) {
        if known { partedPairs.append(pair) }
    }

    /// The bodies whose box is not, bit for bit, what it was at the last pass; nil when the next
    /// pass must test every pair (nothing known, or more than `mostChanged` changed).
    mutating func changedBodies(_ now: [AABB]) -> [Int32]? {
        guard known, boxes.count == now.count else { return nil }
        changed.removeAll(keepingCapacity: true)
        for i in now.indices where !now[i].hasSameBits(as: boxes[i]) {
            if changed.count == Self.mostChanged { return nil }
            changed.append(Int32(i))
        }
        return changed
    }

    /// Calls `overlap(a, b)` once for each pair of alive bodies whose boxes overlap
    /// (`AABB.overlaps`) and of which one is in `changed` or whose contact parted since the last
    /// pass.
    mutating func forEachChangedOverlap(_ changed: [Int32], _ boxes: UnsafeBufferPointer<AABB>, alive: (Int) -> Bool,
                                        _ overlap: (Int, Int) -> Void) {
        if isChanged.count != boxes.count { isChanged = Array(repeating: false, count: boxes.count) }
        for c in changed { isChanged[Int(c)] = true }
        for c in changed {
            let a = Int(c)
            guard alive(a) else { continue }
            let box = boxes[a]
            for b in boxes.indices where b != a && box.overlaps(boxes[b]) && alive(b) {
                // A pair of two changed bodies is taken once, from the lower-numbered one.
                if isChanged[b] && b < a { continue }
                overlap(a, b)
            }
        }
        for p in partedPairs where !isChanged[p.a] && !isChanged[p.b] && alive(p.a) && alive(p.b)
            && boxes[p.a].overlaps(boxes[p.b]) {
            overlap(p.a, p.b)
        }
        for c in changed { isChanged[Int(c)] = false }
    }

    /// The pass is done: its boxes are what the next pass compares with.
    mutating func remember(_ now: [AABB]) {
        boxes.removeAll(keepingCapacity: true)
        boxes.append(contentsOf: now)
        partedPairs.removeAll(keepingCapacity: true)
        known = true
    }
}

extension AABB {
    /// Whether every bound has the same bits (so NaN bounds compare as themselves).
    @inline(__always) func hasSameBits(as other: AABB) -> Bool {
        lower.x.bitPattern == other.lower.x.bitPattern && lower.y.bitPattern == other.lower.y.bitPattern
            && upper.x.bitPattern == other.upper.x.bitPattern && upper.y.bitPattern == other.upper.y.bitPattern
    }
}
