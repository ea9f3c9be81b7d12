// The broad phase: which bodies' boxes overlap, found by sort and sweep on x rather than by
// testing every pair. The order is kept from pass to pass, so an insertion sort restores it in
// about linear time while bodies move a little. It reports exactly the pairs `AABB.overlaps`
// accepts (touching counts as overlapping; a box with a NaN bound overlaps everything), so a
// contact begins and ends when it did with every pair tested.

struct SortAndSweep: Sendable {
    /// Bodies by their box's lower x (those with finite-comparable bounds), and beside each its
    /// lower x: the sort reads and moves these contiguous keys, not the boxes through `order`.
    private var order: [Int32] = []
    private var lowerX: [Float] = []
    /// Bodies whose box has a NaN bound: tested against every body.
    private var wild: [Int32] = []
    /// One pass's included bodies in `order`'s order and their boxes, side by side, so that the
    /// sweep reads memory in order.
    private var swept: [Int32] = []
    private var sweptBoxes: [AABB] = []

    init() {}

    /// Bytes it holds.
    var byteCount: Int { order.heldBytes + lowerX.heldBytes + wild.heldBytes + swept.heldBytes + sweptBoxes.heldBytes }

    /// Calls `overlap(a, b)` once for each pair of bodies (a ≠ b, in no particular order) whose
    /// boxes overlap, among the bodies `include` accepts. Inlined, so that the caller's closures
    /// are inlined into the sweep rather than called per overlap.
    @inline(__always)
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
        let count = order.count
        if lowerX.count < count {
            lowerX.append(contentsOf: repeatElement(0, count: count - lowerX.count))
            swept.append(contentsOf: repeatElement(0, count: count - swept.count))
            sweptBoxes.append(contentsOf: repeatElement(AABB(lower: .zero, upper: .zero), count: count - sweptBoxes.count))
        }
        // Through buffer pointers: element by element through `self`, each write checked uniqueness.
        let kept = order.withUnsafeMutableBufferPointer { order in
            lowerX.withUnsafeMutableBufferPointer { lowerX in
                // NaN bounds out of the sort (they would break its order); each kept body's lower
                // x beside it.
                var kept = 0
                for k in 0..<count {
                    let box = boxes[Int(order[k])]
                    if box.hasNaN {
                        wild.append(order[k])
                    } else {
                        order[kept] = order[k]; lowerX[kept] = box.lower.x; kept += 1
                    }
                }
                swept.withUnsafeMutableBufferPointer { swept in
                    sweptBoxes.withUnsafeMutableBufferPointer { sweptBoxes in
                        Self.sortAndSweep(UnsafeMutableBufferPointer(rebasing: order[..<kept]), lowerX, swept, sweptBoxes, boxes,
                                          include: include, overlap)
                    }
                }
                return kept
            }
        }
        order.removeLast(count - kept)
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

    /// The insertion sort of `order` by `lowerX` (its first `order.count`), then the sweep over
    /// the included bodies' boxes, gathered into `swept` and `sweptBoxes` in that order.
    @inline(__always)
    private static func sortAndSweep(_ order: UnsafeMutableBufferPointer<Int32>, _ lowerX: UnsafeMutableBufferPointer<Float>,
                                     _ swept: UnsafeMutableBufferPointer<Int32>, _ sweptBoxes: UnsafeMutableBufferPointer<AABB>,
                                     _ boxes: UnsafeBufferPointer<AABB>, include: (Int) -> Bool, _ overlap: (Int, Int) -> Void) {
        // Insertion sort by lower x: nearly sorted after the last pass.
        for k in 1..<max(order.count, 1) where lowerX[k - 1] > lowerX[k] {
            let b = order[k], x = lowerX[k]
            var j = k
            while j > 0 && lowerX[j - 1] > x {
                order[j] = order[j - 1]; lowerX[j] = lowerX[j - 1]
                j -= 1
            }
            order[j] = b; lowerX[j] = x
        }
        var m = 0
        for b in order where include(Int(b)) {
            swept[m] = b; sweptBoxes[m] = boxes[Int(b)]; m += 1
        }
        for k in 0..<m {
            let boxA = sweptBoxes[k]
            var j = k + 1
            // Later boxes start at or after this one's lower x; once one starts past its upper
            // x, so do the rest.
            while j < m && sweptBoxes[j].lower.x <= boxA.upper.x {
                if boxA.overlaps(sweptBoxes[j]) { overlap(Int(swept[k]), Int(swept[j])) }
                j += 1
            }
        }
    }
}
