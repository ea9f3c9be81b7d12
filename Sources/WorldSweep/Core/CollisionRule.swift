// Which bodies may collide, and in what order their contacts are made: the collision behaviors
// compiled to per-body memberships (WorldPlan builds it), evaluated for a pair of bodies when the
// broad phase finds their boxes overlapping. No list of every allowed pair is kept: it grows with
// the square of the items (10 000 items allow 50 M pairs), the memberships with their count.

/// Where a pair stands in the engine's pair order, the order in which the behaviors allow pairs:
/// behavior by behavior, and within one its item pairs by the items' positions (i < j), then
/// each of its boundary edges with its items in order; a pair allowed twice keeps its first
/// place. Contacts made in one pass are made in this order (so their serials are as before).
struct PairOrder: Comparable, Hashable, Sendable {
    /// Behavior index << 32 | section (0: the item pairs, 1 + r: the behavior's r-th edge).
    var major: UInt64
    /// First position << 32 | second position (an edge pair: the item's position << 32).
    var minor: UInt64

    static func < (a: PairOrder, b: PairOrder) -> Bool {
        a.major != b.major ? a.major < b.major : a.minor < b.minor
    }
}

/// The collision rule of one world, indexed by body. A body may belong to several collision
/// behaviors (its items) or be one behavior's boundary edge.
struct CollisionRule: Sendable, Equatable {
    /// Body b's collision behaviors are `groups[start[b] ..< start[b + 1]]`, ascending, with its
    /// first position among each one's items in `positions`.
    private(set) var start: [Int32] = [0]
    private(set) var groups: [Int32] = []
    private(set) var positions: [Int32] = []
    /// Per body: the behavior whose boundary edge it is (−1: none) and the edge's rank among
    /// that behavior's edges.
    private(set) var edgeGroup: [Int32] = []
    private(set) var edgeRank: [Int32] = []
    /// Per behavior index: whether its items collide with each other, and with its edges.
    private(set) var itemsCollide: [Bool] = []
    private(set) var boundariesCollide: [Bool] = []
    /// Pairs of bodies a joint joins without `collideConnected` (Box2D's b2Body::ShouldCollide
    /// looks through the joint edges): `World.pairKey`s, ascending. Linear in the joints.
    private(set) var separatedPairs: [UInt64] = []

    var bodyCount: Int { edgeGroup.count }

    /// Bytes the rule holds (linear in bodies and memberships), for the memory tests.
    var byteCount: Int {
        (start.count + groups.count + positions.count + edgeGroup.count + edgeRank.count) * 4
            + itemsCollide.count + boundariesCollide.count + separatedPairs.count * 8
    }

    /// Collects memberships while a plan is compiled (bodies may be added as it goes).
    struct Builder {
        private var memberships: [[(group: Int32, position: Int32)]] = []
        private var edges: [(group: Int32, rank: Int32)] = []
        private var itemsCollide: [Bool] = [], boundariesCollide: [Bool] = []
        private var edgeCount: [Int32] = []
        private var separated: [UInt64] = []

        init() {}

        /// Bodies a and b never collide (a joint joins them).
        mutating func separate(_ a: Int, _ b: Int) {
            separated.append(PhysicsWorld.pairKey(a, b))
        }

        private mutating func grow(bodies n: Int, groups g: Int) {
            while memberships.count < n { memberships.append([]); edges.append((-1, -1)) }
            while itemsCollide.count < g { itemsCollide.append(false); boundariesCollide.append(false); edgeCount.append(0) }
        }

        /// Behavior `group` collides items with each other and/or with its edges.
        mutating func setModes(group: Int, items: Bool, boundaries: Bool) {
            grow(bodies: 0, groups: group + 1)
            itemsCollide[group] = items; boundariesCollide[group] = boundaries
        }

        /// Body `body` is the item at `position` of behavior `group` (a repeat keeps the first).
        mutating func addMember(_ body: Int, group: Int, position: Int) {
            grow(bodies: body + 1, groups: group + 1)
            if memberships[body].last?.group == Int32(group) { return }
            memberships[body].append((Int32(group), Int32(position)))
        }

        /// Body `body` is behavior `group`'s next boundary edge.
        mutating func addEdge(_ body: Int, group: Int) {
            grow(bodies: body + 1, groups: group + 1)
            edges[body] = (Int32(group), edgeCount[group])
            edgeCount[group] += 1
        }

        func rule(bodyCount: Int) -> CollisionRule {
            var rule = CollisionRule()
            rule.itemsCollide = itemsCollide; rule.boundariesCollide = boundariesCollide
            rule.separatedPairs = Array(Set(separated)).sorted()
            for b in 0..<bodyCount {
                let list = b < memberships.count ? memberships[b] : []
                // Groups arrive in behavior order, so each list is ascending.
                for m in list { rule.groups.append(m.group); rule.positions.append(m.position) }
                rule.start.append(Int32(rule.groups.count))
                let edge: (group: Int32, rank: Int32) = b < edges.count ? edges[b] : (-1, -1)
                rule.edgeGroup.append(edge.group); rule.edgeRank.append(edge.rank)
            }
            return rule
        }
    }

    /// The rule in another numbering of the bodies: plan body p is body `index[p]` of a world of
    /// `bodyCount` bodies (the animator's world keeps bodies across configurations).
    func renumbered(_ index: [Int], bodyCount: Int) -> CollisionRule {
        var planBody = [Int](repeating: -1, count: bodyCount)
        for (p, b) in index.enumerated() { planBody[b] = p }
        var rule = CollisionRule()
        rule.itemsCollide = itemsCollide; rule.boundariesCollide = boundariesCollide
        rule.separatedPairs = separatedPairs.map { key in
            PhysicsWorld.pairKey(index[Int(key >> 32)], index[Int(key & 0xFFFF_FFFF)])
        }.sorted()
        for b in 0..<bodyCount {
            let p = planBody[b]
            if p >= 0 {
                for k in Int(start[p])..<Int(start[p + 1]) { rule.groups.append(groups[k]); rule.positions.append(positions[k]) }
                rule.edgeGroup.append(edgeGroup[p]); rule.edgeRank.append(edgeRank[p])
            } else {
                rule.edgeGroup.append(-1); rule.edgeRank.append(-1)
            }
            rule.start.append(Int32(rule.groups.count))
        }
        return rule
    }

    /// Whether bodies a and b may collide, and if so their place in the pair order and the pair
    /// as the behaviors allow it (items by position; an edge first).
    @inline(__always)
    func allowedOrder(_ a: Int, _ b: Int) -> (order: PairOrder, pair: BodyPair)? {
        guard a < bodyCount, b < bodyCount, a != b else { return nil }
        if !separatedPairs.isEmpty && isSeparated(a, b) { return nil }
        let ea = edgeGroup[a], eb = edgeGroup[b]
        if ea >= 0 || eb >= 0 {
            if ea >= 0 && eb >= 0 { return nil }
            let (edge, item, g) = ea >= 0 ? (a, b, ea) : (b, a, eb)
            guard boundariesCollide[Int(g)], let position = position(of: item, in: g) else { return nil }
            return (PairOrder(major: UInt64(g) << 32 | UInt64(1 + edgeRank[edge]), minor: UInt64(position) << 32),
                    BodyPair(a: edge, b: item))
        }
        var i = Int(start[a]), j = Int(start[b])
        let iEnd = Int(start[a + 1]), jEnd = Int(start[b + 1])
        while i < iEnd && j < jEnd {
            let ga = groups[i], gb = groups[j]
            if ga < gb { i += 1; continue }
            if gb < ga { j += 1; continue }
            if itemsCollide[Int(ga)] {
                let pa = UInt64(positions[i]), pb = UInt64(positions[j])
                return pa < pb ? (PairOrder(major: UInt64(ga) << 32, minor: pa << 32 | pb), BodyPair(a: a, b: b))
                               : (PairOrder(major: UInt64(ga) << 32, minor: pb << 32 | pa), BodyPair(a: b, b: a))
            }
            i += 1; j += 1
        }
        return nil
    }

    /// The behaviors that hold both items a and b and collide items: who hears of their contacts.
    func listeners(_ a: Int, _ b: Int) -> [Int] {
        guard a < bodyCount, b < bodyCount else { return [] }
        var out: [Int] = []
        var i = Int(start[a]), j = Int(start[b])
        let iEnd = Int(start[a + 1]), jEnd = Int(start[b + 1])
        while i < iEnd && j < jEnd {
            let ga = groups[i], gb = groups[j]
            if ga < gb { i += 1 } else if gb < ga { j += 1 } else {
                if itemsCollide[Int(ga)] { out.append(Int(ga)) }
                i += 1; j += 1
            }
        }
        return out
    }

    /// Whether a joint keeps bodies a and b from colliding (binary search of `separatedPairs`).
    private func isSeparated(_ a: Int, _ b: Int) -> Bool {
        let key = PhysicsWorld.pairKey(a, b)
        var low = 0, high = separatedPairs.count
        while low < high {
            let mid = (low + high) / 2
            if separatedPairs[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < separatedPairs.count && separatedPairs[low] == key
    }

    /// The behavior whose edge body `b` is, or nil.
    func edgeOwner(_ b: Int) -> Int? { b < bodyCount && edgeGroup[b] >= 0 ? Int(edgeGroup[b]) : nil }

    private func position(of body: Int, in group: Int32) -> Int32? {
        for k in Int(start[body])..<Int(start[body + 1]) where groups[k] == group { return positions[k] }
        return nil
    }

    /// Every allowed pair in the pair order, by testing every pair of bodies: for tests and small
    /// worlds only (it is quadratic).
    func allowedPairsInOrder() -> [BodyPair] {
        var all: [(PairOrder, BodyPair)] = []
        for a in 0..<bodyCount {
            for b in (a + 1)..<max(a + 1, bodyCount) {
                if let allowed = allowedOrder(a, b) { all.append(allowed) }
            }
        }
        return all.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
