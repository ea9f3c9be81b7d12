// The broad phase's pairs kept from pass to pass (Box2D's fat boxes): each body has a fat box
// that holds its box with room to spare, reaching further the way the box last moved; the pairs
// that may collide, have no contact and whose fat boxes overlap are watched. A contact can begin
// only for a pair whose boxes overlap, hence whose fat boxes overlap, so a pass tests only the
// watched pairs' boxes, and looks for new fat neighbours only of bodies whose box left its fat box.

struct FatBoxPairs {
    /// A pair that may collide: its place in the pair order and the pair as the rule gives it.
    typealias Candidate = (order: PairOrder, pair: BodyPair)

    /// How far a fat box reaches beyond its body's box on every side (world units).
    static let margin: Float = 0.02
    /// How many of the box's last moves a fat box reaches ahead, the way the box moved.
    static let movesAhead: Float = 4

    /// Each alive body's fat box; it holds the body's box (while `known`).
    private var fat: [AABB] = []
    /// Each body's box at the last pass (how it moved since).
    private var last: [AABB] = []
    /// Every pair whose fat boxes overlap and which `candidate` accepted when it was listed, less
    /// those found since (they have their contact): each pair once.
    private var watched: [Candidate] = []
    /// Pairs whose contact was destroyed since the last pass.
    private var partedPairs: [BodyPair] = []
    /// Whether `fat`, `watched` and `partedPairs` describe the last pass (false after `forget`).
    private var known = false
    private var moved: [Int32] = []
    private var isMoved: [Bool] = []
    /// Sorts and sweeps the fat boxes when every pair is listed anew.
    private var sweep = SortAndSweep()
    /// Passes that listed every pair anew, and passes that kept the list (tests read them).
    private(set) var listings = 0, keptPasses = 0

    init() {}

    /// Bytes it holds.
    var byteCount: Int {
        fat.heldBytes + last.heldBytes + watched.heldBytes + partedPairs.heldBytes + moved.heldBytes + isMoved.heldBytes
            + sweep.byteCount
    }

    /// Something other than boxes and destroyed contacts changed (bodies, the rule, the contacts
    /// handed in wholesale): the next pass lists every pair anew.
    mutating func forget() {
        known = false
        partedPairs.removeAll(keepingCapacity: true)
    }

    /// The contact of `pair` was destroyed.
    mutating func parted(_ pair: BodyPair) {
        if known { partedPairs.append(pair) }
    }

    /// The most bodies that leave their fat box in one pass for which testing each against every
    /// fat box is cheaper than sorting and sweeping all fat boxes.
    static func mostMoved(_ bodies: Int) -> Int { max(16, bodies / 16) }

    /// Calls `found` once for each pair of alive bodies whose boxes overlap (`AABB.overlaps`) and
    /// which `candidate` accepts (it must accept a pair of bodies with a contact never, and any
    /// other pair the same way from pass to pass until `forget`; `found` gives each its contact).
    /// Returns false, having found nothing, when an alive body's box has a NaN bound: the caller
    /// then tests every pair its own way.
    @inline(__always)
    mutating func forEachNewOverlap(_ boxes: UnsafeBufferPointer<AABB>, alive: (Int) -> Bool,
                                    candidate: (Int, Int) -> Candidate?, _ found: (Candidate) -> Void) -> Bool {
        let n = boxes.count
        if fat.count != n {
            let none = AABB(lower: .zero, upper: .zero)
            fat = Array(repeating: none, count: n); last = fat
            isMoved = Array(repeating: false, count: n)
            known = false
        }
        guard markMoved(boxes, alive: alive) else { forget(); return false }
        // Local copies moved out of `self`, so the closures below may append to them.
        var watched = self.watched
        self.watched = []
        if !known {
            watched.removeAll(keepingCapacity: true)
            fat.withUnsafeBufferPointer { fat in
                sweep.forEachOverlap(fat, include: alive) { a, b in
                    if let c = candidate(a, b) { watched.append(c) }
                }
            }
            listings += 1
        } else {
            watchNewNeighbours(&watched, sweeping: moved.count > Self.mostMoved(n), alive: alive, candidate: candidate)
            keptPasses += 1
        }
        // The real test: a pair whose boxes overlap gets its contact and is watched no more.
        var kept = 0
        watched.withUnsafeMutableBufferPointer { watched in
            for w in watched.indices {
                let c = watched[w]
                if boxes[c.pair.a].overlaps(boxes[c.pair.b]) { found(c) } else { watched[kept] = c; kept += 1 }
            }
        }
        watched.removeLast(watched.count - kept)
        self.watched = watched
        partedPairs.removeAll(keepingCapacity: true)
        known = true
        return true
    }

    /// Notes in `moved` the alive bodies whose box left its fat box (all of them while nothing is
    /// known) and gives each a new one; false when such a box has a NaN bound.
    private mutating func markMoved(_ boxes: UnsafeBufferPointer<AABB>, alive: (Int) -> Bool) -> Bool {
        moved.removeAll(keepingCapacity: true)
        let known = self.known
        var moved = self.moved
        self.moved = []
        defer { self.moved = moved }
        return fat.withUnsafeMutableBufferPointer { fat in
            last.withUnsafeMutableBufferPointer { last in
                for i in 0..<boxes.count where alive(i) {
                    let box = boxes[i]
                    if !known || !fat[i].holds(box) {
                        if box.hasNaN { return false }
                        let step = known ? Vec2(box.lower.x - last[i].lower.x, box.lower.y - last[i].lower.y) : .zero
                        fat[i] = box.fattened(by: Self.margin, reaching: Self.movesAhead * step)
                        moved.append(Int32(i))
                    }
                    last[i] = box
                }
                return true
            }
        }
    }

    /// The watched pairs with a moved body dropped; the moved bodies' fat neighbours (found by
    /// testing each against every fat box, or `sweeping` all fat boxes when many moved) and the
    /// parted pairs whose fat boxes still overlap watched.
    @inline(__always)
    private mutating func watchNewNeighbours(_ watched: inout [Candidate], sweeping: Bool, alive: (Int) -> Bool,
                                             candidate: (Int, Int) -> Candidate?) {
        for m in moved { isMoved[Int(m)] = true }
        let moved = self.moved, parted = self.partedPairs
        isMoved.withUnsafeBufferPointer { isMoved in
            fat.withUnsafeBufferPointer { fat in
                if !moved.isEmpty { watched.removeAll { isMoved[$0.pair.a] || isMoved[$0.pair.b] } }
                for p in parted where !isMoved[p.a] && !isMoved[p.b] && alive(p.a) && alive(p.b) && fat[p.a].overlaps(fat[p.b]) {
                    if let c = candidate(p.a, p.b) { watched.append(c) }
                }
                if sweeping {
                    sweep.forEachOverlap(fat, include: alive) { a, b in
                        if isMoved[a] || isMoved[b], let c = candidate(a, b) { watched.append(c) }
                    }
                    return
                }
                for m in moved {
                    let a = Int(m), box = fat[a]
                    for b in fat.indices where b != a && box.overlaps(fat[b]) && alive(b) {
                        // A pair of two moved bodies is taken once, from the lower-numbered one.
                        if isMoved[b] && b < a { continue }
                        if let c = candidate(a, b) { watched.append(c) }
                    }
                }
            }
        }
        for m in moved { isMoved[Int(m)] = false }
    }
}

extension AABB {
    /// Whether `box` lies within this box (edges may touch).
    @inline(__always) func holds(_ box: AABB) -> Bool {
        lower.x <= box.lower.x && lower.y <= box.lower.y && box.upper.x <= upper.x && box.upper.y <= upper.y
    }

    /// This box grown by `margin` on every side and stretched by `reach` the way it points.
    @inline(__always) func fattened(by margin: Float, reaching reach: Vec2) -> AABB {
        var fat = AABB(lower: Vec2(lower.x - margin, lower.y - margin), upper: Vec2(upper.x + margin, upper.y + margin))
        if reach.x < 0 { fat.lower.x += reach.x } else { fat.upper.x += reach.x }
        if reach.y < 0 { fat.lower.y += reach.y } else { fat.upper.y += reach.y }
        return fat
    }
}
