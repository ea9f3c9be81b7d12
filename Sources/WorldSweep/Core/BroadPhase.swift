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
