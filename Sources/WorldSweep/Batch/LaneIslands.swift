// The islands stage of the batched engine: each running lane walks its islands with the single
// world's walk (`Islands.walk`), which lists the contacts and joints that lane solves this
// sub-step in Box2D 2.x's order, each with its island. Islands are numbered across lanes ("island slots"),
// so the solver and the sleep rule keep one record per (lane, island). A lane whose walk's inputs
// have not changed since its last walk keeps that walk's result; its slots move by the lane's
// `slotShift`, which readers add (`buildIslands`).

/// Each lane's islands for one sub-step, and what the walk needs, in memory this store owns.
final class LaneIslands {
    let lanes: Int, bodyCount: Int, capacity: Int, jointCount: Int
    /// Per lane: the rows that have its contact, newest first (index = lane × rows + k), valid
    /// while `orderValid[lane]` (contacts come and go rarely; serials never change).
    let order: UnsafeMutablePointer<Int32>, orderCount: UnsafeMutablePointer<Int32>, orderValid: UnsafeMutablePointer<Bool>
    /// Per lane: while `orderKept[lane]`, `order` was exact when last built and the rows whose
    /// contact was made since are listed in `made` with their serials, oldest first
    /// (`madeCount` of them): the next build puts them first and drops from the rest what was
    /// destroyed or made again, with no sort (`contactOrder`).
    let orderKept: UnsafeMutablePointer<Bool>, made: UnsafeMutablePointer<Int32>, madeSerial: UnsafeMutablePointer<Int>
    let madeCount: UnsafeMutablePointer<Int32>
    /// Per lane: the contacts it solves this sub-step (rows) in island order, and each
    /// contact's island slot (index = lane × rows + k); `solveCount` of them.
    let solvePair: UnsafeMutablePointer<Int32>, solveIsland: UnsafeMutablePointer<Int32>, solveCount: UnsafeMutablePointer<Int32>
    /// Per lane: the joints it solves this sub-step in island order, and each one's island slot
    /// (index = lane × joints + k); `solveJointCount` of them.
    let solveJoint: UnsafeMutablePointer<Int32>, solveJointIsland: UnsafeMutablePointer<Int32>
    let solveJointCount: UnsafeMutablePointer<Int32>
    /// Per island slot: whether every joint of the island was okay in the current position pass (0 / −1).
    let jointsOkay: UnsafeMutablePointer<Int32>
    /// Island slots in use this sub-step (at most one per moving body and lane).
    var islandCount = 0
    /// Per lane: whether its last walk still holds (nothing it reads changed since, and it woke
    /// nobody), the first island slot it was numbered from, and how many islands it made.
    let walkValid: UnsafeMutablePointer<Bool>, firstSlot: UnsafeMutablePointer<Int32>, laneIslandCount: UnsafeMutablePointer<Int32>
    /// Per lane: how far its islands moved since its walk numbered them. The slots the walk wrote
    /// (contacts', joints', bodies', static bodies') plus this are its slots this sub-step:
    /// adding it where a slot is read costs less than rewriting every slot of the lane whenever
    /// an earlier lane's island count changes (81 k rewrites in twin-drop).
    let slotShift: UnsafeMutablePointer<Int32>
    /// Per island slot: position correction's smallest separation in the current pass, whether
    /// its correction is done (0 / −1), and the smallest sleep timer of its bodies.
    let minSeparation: UnsafeMutablePointer<Float>, solved: UnsafeMutablePointer<Int32>, minSleepTime: UnsafeMutablePointer<Float>
    /// Per (static body, lane): the slot of the last island this sub-step that took the body in
    /// (−1: none). Box2D adds a static body to every island that touches it, wakes it there and
    /// puts it to sleep with the island, so the last such island decides its flag.
    let lastIslandOfStatic: UnsafeMutablePointer<Int32>
    /// The walk's scratch (one lane at a time) and the lane's touching contacts, newest first.
    let walkScratch: IslandWalkScratch
    let touching: UnsafeMutablePointer<Int32>
    private let columns = Columns()

    /// Bytes it holds, as its columns report them: linear in rows × lanes, bodies × lanes and
    /// joints × lanes.
    var byteCount: Int { columns.byteCount + walkScratch.byteCount }

    init(lanes: Int, bodyCount: Int, capacity: Int, jointCount: Int = 0) {
        self.lanes = lanes; self.bodyCount = bodyCount; self.capacity = capacity; self.jointCount = jointCount
        let lists = lanes * capacity, slots = lanes * bodyCount, jointLists = lanes * jointCount
        order = columns.make(lists, 0); orderCount = columns.make(lanes, 0); orderValid = columns.make(lanes, false)
        orderKept = columns.make(lanes, false); made = columns.make(lists, 0); madeSerial = columns.make(lists, 0)
        madeCount = columns.make(lanes, 0)
        solvePair = columns.make(lists, 0); solveIsland = columns.make(lists, 0); solveCount = columns.make(lanes, 0)
        solveJoint = columns.make(jointLists, 0); solveJointIsland = columns.make(jointLists, 0)
        solveJointCount = columns.make(lanes, 0)
        jointsOkay = columns.make(slots, 0)
        walkValid = columns.make(lanes, false); firstSlot = columns.make(lanes, 0); laneIslandCount = columns.make(lanes, 0)
        slotShift = columns.make(lanes, 0)
        minSeparation = columns.make(slots, 0); solved = columns.make(slots, 0); minSleepTime = columns.make(slots, 0)
        lastIslandOfStatic = columns.make(slots, -1)
        touching = columns.make(capacity, 0)
        walkScratch = IslandWalkScratch(bodies: bodyCount, contacts: capacity, joints: jointCount)
        columns.expect(Self.bytes(lanes: lanes, bodyCount: bodyCount, capacity: capacity, jointCount: jointCount)
                       - IslandWalkScratch.bytes(bodies: bodyCount, contacts: capacity, joints: jointCount), of: "LaneIslands")
    }

    /// The bytes it allocates, as `init` makes them: per (row, lane) the contact order, the
    /// contacts made since and their serials, and the solve list (two), per (joint, lane) the
    /// joint solve list (two), per (body, lane) four slots' worth (jointsOkay, minSeparation,
    /// solved, minSleepTime: one per possible island) and each static body's last island; per
    /// lane three flags and six counts or slots; per row the touching list; and the walk's scratch.
    static func bytes(lanes: Int, bodyCount: Int, capacity: Int, jointCount: Int) -> Int {
        let lists = lanes * capacity, slots = lanes * bodyCount, jointLists = lanes * jointCount
        return 4 * Columns.bytes(Int32.self, lists) + Columns.bytes(Int.self, lists) + 2 * Columns.bytes(Int32.self, jointLists)
            + 3 * Columns.bytes(Int32.self, slots) + 2 * Columns.bytes(Float.self, slots)
            + 3 * Columns.bytes(Bool.self, lanes) + 7 * Columns.bytes(Int32.self, lanes)
            + Columns.bytes(Int32.self, capacity)
            + IslandWalkScratch.bytes(bodies: bodyCount, contacts: capacity, joints: jointCount)
    }
}

extension LaneWorld {
    /// Contact lists of `lane` must be rebuilt (a contact was made or destroyed there), and so
    /// must its islands.
    @inline(__always) func contactsChanged(_ lane: Int) { islands.orderValid[lane] = false; islands.walkValid[lane] = false }

    /// A contact of serial `serial` was made in row `r` of `lane`, newer than every contact the
    /// lane has: kept for the lane's next order (`contactOrder`), or, with no room, that order
    /// is sorted afresh.
    @inline(__always) func contactMade(row r: Int, lane: Int, serial: Int) {
        let islands = self.islands
        contactsChanged(lane)
        guard islands.orderKept[lane] else { return }
        let k = Int(islands.madeCount[lane])
        guard k < islands.capacity else { islands.orderKept[lane] = false; return }
        islands.made[lane &* islands.capacity &+ k] = Int32(truncatingIfNeeded: r)
        islands.madeSerial[lane &* islands.capacity &+ k] = serial
        islands.madeCount[lane] = Int32(truncatingIfNeeded: k &+ 1)
    }

    /// The lane's contacts were replaced other than by making new ones (a time-of-impact pass
    /// hands them back): its next order is sorted afresh.
    @inline(__always) func contactsReplaced(_ lane: Int) { islands.orderKept[lane] = false; contactsChanged(lane) }

    /// The islands of `lane` must be walked again: something the walk reads changed there — a
    /// contact's touching or enabled flag, a body's awake flag (`wake`, sleep, a hand-over or
    /// the animator's pushes), or the contacts themselves (`contactsChanged`).
    @inline(__always) func islandsChanged(_ lane: Int) { islands.walkValid[lane] = false }

    /// The lane's contacts newest first (PhysicsWorld's `contactsNewestFirst`).
    private func contactOrder(_ lane: Int) -> UnsafeBufferPointer<Int32> {
        let list = islands.order + lane &* islands.capacity
        if !islands.orderValid[lane] && islands.orderKept[lane] {
            keepContactOrder(lane)
        } else if !islands.orderValid[lane] {
            var n = 0
            for r in rows.inOrder where contacts.contact[Int(r) &* lanes &+ lane] != nil {
                list[n] = r
                n += 1
            }
            var buffer = UnsafeMutableBufferPointer(start: list, count: n)
            if n <= 32 {
                // Insertion by serial, newest first (a handful of contacts).
                for k in 1..<max(n, 1) {
                    let r = buffer[k], serial = contacts.contact[Int(r) &* lanes &+ lane]!.serial
                    var j = k
                    while j > 0, contacts.contact[Int(buffer[j - 1]) &* lanes &+ lane]!.serial < serial {
                        buffer[j] = buffer[j - 1]
                        j -= 1
                    }
                    buffer[j] = r
                }
            } else {
                let column = contacts.contact, lanes = self.lanes
                func serial(_ r: Int32) -> Int { column[Int(r) &* lanes &+ lane]!.serial }
                buffer.sort { serial($0) > serial($1) }
            }
            islands.orderCount[lane] = Int32(n)
            islands.orderValid[lane] = true
            islands.orderKept[lane] = true
            islands.madeCount[lane] = 0
        }
        return UnsafeBufferPointer(start: list, count: Int(islands.orderCount[lane]))
    }

    /// The lane's order from the last one and the contacts made since (`contactMade`), as a sort
    /// by serial, newest first, would give it: serials grow as contacts are made, so those made
    /// since come first, newest first, each only if it is still the row's contact (same serial);
    /// then the last order's rows whose contact is still there and older than all of those
    /// (a row's contact destroyed and made again, or a freed row used again, is among the new).
    private func keepContactOrder(_ lane: Int) {
        let islands = self.islands
        let list = islands.order + lane &* islands.capacity
        let made = islands.made + lane &* islands.capacity, madeSerial = islands.madeSerial + lane &* islands.capacity
        let madeCount = Int(islands.madeCount[lane])
        let firstMade = madeCount > 0 ? madeSerial[0] : Int.max
        // The old rows that stay, into the touching scratch (free until the walk fills it).
        let kept = islands.touching
        var keptCount = 0
        for k in 0..<Int(islands.orderCount[lane]) {
            let r = list[k]
            guard let c = contacts.contact[Int(r) &* lanes &+ lane], c.serial < firstMade else { continue }
            kept[keptCount] = r
            keptCount &+= 1
        }
        var n = 0
        for k in stride(from: madeCount - 1, through: 0, by: -1) {
            let r = made[k]
            guard let c = contacts.contact[Int(r) &* lanes &+ lane], c.serial == madeSerial[k] else { continue }
            list[n] = r
            n &+= 1
        }
        for k in 0..<keptCount { list[n &+ k] = kept[k] }
        islands.orderCount[lane] = Int32(truncatingIfNeeded: n &+ keptCount)
        islands.orderValid[lane] = true
        islands.madeCount[lane] = 0
    }

    /// A static body taken into the current island of `lane`: woken, as the walk wakes every body
    /// it meets, and recorded so the island's sleep reaches it (`sleepIslands`).
    @inline(__always) func joinStaticBody(_ b: Int, _ lane: Int) {
        let i = b &* lanes &+ lane
        wake(i)
        islands.lastIslandOfStatic[i] = Int32(islands.islandCount)
    }

    /// Islands of `lane` (PhysicsWorld.solve's walk): marks its bodies with their island slot and
    /// wakes them, and lists the contacts it solves in the order the walk meets them.
    ///
    /// The walk reads the lane's contacts (newest first), their touching and enabled flags and
    /// the bodies' awake flags; it writes the lists, each body's island, each static body's last
    /// island, and wakes the bodies it meets. While none of what it reads has changed since a
    /// walk that woke nobody (every place that changes one calls `islandsChanged` or
    /// `contactsChanged`, and `wake` does when it wakes), walking again would give the same
    /// islands in the same order and wake nobody: the lane keeps them, its `slotShift` set to
    /// where its islands start this sub-step. Inlined into the islands stage's loop over lanes:
    /// most lanes keep their walk, and the call cost more than keeping it.
    @inline(__always) func buildIslands(_ lane: Int) {
        let islands = self.islands
        // Wrapping arithmetic: island counts stay far below Int32's range (at most bodies ×
        // lanes), and the checked forms were a third of a kept walk's instructions.
        let first = Int32(truncatingIfNeeded: islands.islandCount)
        if islands.walkValid[lane] {
            islandReuses &+= 1
            let shift = first &- islands.firstSlot[lane]
            if shift != islands.slotShift[lane] { islands.slotShift[lane] = shift; packingValid = false }
            islands.islandCount &+= Int(islands.laneIslandCount[lane])
            return
        }
        islandWalks += 1
        packingValid = false
        islands.walkValid[lane] = true   // until the walk wakes a body (`wake`)
        walkIslands(lane)
        islands.firstSlot[lane] = first
        islands.slotShift[lane] = 0
        islands.laneIslandCount[lane] = Int32(truncatingIfNeeded: islands.islandCount) &- first
    }

    /// Touching contacts up to which a lane without joined bodies skips the walk.
    static let scanLimit = 16

    /// The walk itself (see `buildIslands`).
    @inline(never) private func walkIslands(_ lane: Int) {
        var touchingCount = 0
        for p in contactOrder(lane) {
            let ci = Int(p) &* lanes &+ lane
            if contacts.touching[ci] != 0 && contacts.enabled[ci] != 0 { islands.touching[touchingCount] = p; touchingCount += 1 }
        }
        for b in 0..<bodyCount {
            details.inIsland[b &* lanes &+ lane] = 0
            islands.lastIslandOfStatic[b &* lanes &+ lane] = -1
        }
        let list = lane &* islands.capacity
        var solved = 0
        let islands = self.islands
        let jointList = lane * jointBodies.count
        var solvedJoints = 0
        defer { islands.solveJointCount[lane] = Int32(solvedJoints) }
        if jointBodies.isEmpty && touchingCount <= Self.scanLimit
            && !(0..<touchingCount).contains(where: { rows.joinsIslands[Int(islands.touching[$0])] }) {
            // No two moving bodies touch: the walk from each awake moving body meets only static
            // bodies, so each is an island of its own with its contacts newest first — the
            // walk's result without its flags, stack and edge lists (most lanes, most sub-steps).
            // It scans every touching contact per body: for a few contacts, cheaper than making
            // the edge lists; for more, the walk's linear cost wins.
            for b in stride(from: bodyCount - 1, through: 0, by: -1) where !isStatic[b] {
                let i = b &* lanes &+ lane
                guard details.awake[i] != 0 else { continue }
                details.inIsland[i] = -1
                details.islandOfBody[i] = Int32(islands.islandCount)
                for k in 0..<touchingCount {
                    let p = islands.touching[k]
                    let pair = rows.pair[Int(p)]
                    guard pair.a == b || pair.b == b else { continue }
                    islands.solvePair[list + solved] = p
                    islands.solveIsland[list + solved] = Int32(islands.islandCount)
                    solved += 1
                    joinStaticBody(pair.a == b ? pair.b : pair.a, lane)
                }
                islands.islandCount += 1
            }
            islands.solveCount[lane] = Int32(solved)
            return
        }
        var graph = LaneIslandGraph(world: self, lane: lane, list: list, jointList: jointList)
        Islands.walk(&graph, bodyCount: bodyCount, contacts: UnsafeBufferPointer(start: islands.touching, count: touchingCount),
                     jointCount: jointBodies.count, scratch: islands.walkScratch)
        solved = graph.solved
        solvedJoints = graph.solvedJoints
        islands.solveCount[lane] = Int32(solved)
    }
}

/// One lane's island walk (`Islands.walk`): where the lane's lists are written, and how many
/// contacts and joints it has listed so far.
struct LaneIslandGraph: IslandGraph {
    unowned(unsafe) let world: LaneWorld
    let lane: Int, list: Int, jointList: Int
    var solved = 0, solvedJoints = 0

    init(world: LaneWorld, lane: Int, list: Int, jointList: Int) {
        self.world = world; self.lane = lane; self.list = list; self.jointList = jointList
    }

    @inline(__always) func pair(_ contact: Int) -> BodyPair { world.rows.pair[contact] }
    @inline(__always) func isStatic(_ body: Int) -> Bool { world.isStatic[body] }
    @inline(__always) func canSeed(_ body: Int) -> Bool { world.details.awake[body * world.lanes + lane] != 0 }
    @inline(__always) func jointBodies(_ joint: Int) -> BodyPair { world.jointBodies[joint] }

    @inline(__always) mutating func reached(body b: Int) {
        guard !world.isStatic[b] else { world.joinStaticBody(b, lane); return }
        let i = b * world.lanes + lane
        world.details.inIsland[i] = -1
        world.details.islandOfBody[i] = Int32(world.islands.islandCount)
        world.wake(i)
    }

    @inline(__always) mutating func took(contact p: Int) {
        let islands = world.islands
        islands.solvePair[list + solved] = Int32(p)
        islands.solveIsland[list + solved] = Int32(islands.islandCount)
        solved += 1
    }

    @inline(__always) mutating func took(joint j: Int) {
        let islands = world.islands
        islands.solveJoint[jointList + solvedJoints] = Int32(j)
        islands.solveJointIsland[jointList + solvedJoints] = Int32(islands.islandCount)
        solvedJoints += 1
    }

    @inline(__always) mutating func endIsland() { world.islands.islandCount += 1 }
}
