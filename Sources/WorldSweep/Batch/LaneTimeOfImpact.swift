// Time of impact in the batched engine: which lanes need a pass (the first round of
// PhysicsWorld.solveTOI's search on the lane's columns: the shared pre-check eight lanes at a
// time, then the shared time of impact for the candidates it lets through), and the pass itself,
// run by the lane's own PhysicsWorld on the lane's state (the one implementation of that stage).

/// Per row: whether time of impact looks at its pair (a static body and one it is used for),
/// and the static side per lane, in memory this store owns.
final class LaneTimeOfImpact {
    let lanes: Int, capacity: Int
    private let columns = Columns()
    /// Per row: the static and the moving body of a candidate pair (−1: not a candidate).
    let fixed: UnsafeMutablePointer<Int32>, moving: UnsafeMutablePointer<Int32>
    /// Per (row, lane): the static side in world terms when it is an edge (static bodies never
    /// move), so the pre-check runs eight lanes at a time.
    let edgeX: UnsafeMutablePointer<Float>, edgeY: UnsafeMutablePointer<Float>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    /// Per (row, lane): −1 where the static side is an edge (else the pre-check passes).
    let isEdge: UnsafeMutablePointer<Int32>
    /// Per lane, this sub-step: the row whose first-round time makes the lane need a pass, and
    /// that time (handed to solveTOI, which would compute the same).
    let impactRow: UnsafeMutablePointer<Int32>, impactAlpha: UnsafeMutablePointer<Float>

    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them: the candidate pair per row, the static side's
    /// edge, normal and flag per (row, lane), the impact row and time per lane.
    static func bytes(lanes: Int, capacity: Int) -> Int {
        let n = capacity * lanes
        return 2 * Columns.bytes(Int32.self, capacity) + 4 * Columns.bytes(Float.self, n) + Columns.bytes(Int32.self, n)
            + Columns.bytes(Int32.self, lanes) + Columns.bytes(Float.self, lanes)
    }

    init(lanes: Int, capacity: Int, copying old: LaneTimeOfImpact? = nil) {
        self.lanes = lanes; self.capacity = capacity
        fixed = columns.make(capacity, -1); moving = columns.make(capacity, -1)
        let n = capacity * lanes
        edgeX = columns.make(n, 0); edgeY = columns.make(n, 0)
        normalX = columns.make(n, 0); normalY = columns.make(n, 0)
        isEdge = columns.make(n, 0)
        impactRow = columns.make(lanes, -1); impactAlpha = columns.make(lanes, 1)
        columns.expect(Self.bytes(lanes: lanes, capacity: capacity), of: "LaneTimeOfImpact")
        guard let old else { return }
        impactRow.update(from: old.impactRow, count: lanes); impactAlpha.update(from: old.impactAlpha, count: lanes)
        fixed.update(from: old.fixed, count: old.capacity); moving.update(from: old.moving, count: old.capacity)
        let m = old.capacity * lanes
        for (to, from) in [(edgeX, old.edgeX), (edgeY, old.edgeY), (normalX, old.normalX), (normalY, old.normalY)] {
            to.update(from: from, count: m)
        }
        isEdge.update(from: old.isEdge, count: m)
    }

    /// Row `r` now stands for `pair`.
    func setRow(_ r: Int, pair: BodyPair, worlds: [PhysicsWorld], isStatic: [Bool], usesTOI: [Bool]) {
        let candidate: (fixed: Int, moving: Int)? =
            isStatic[pair.a] && usesTOI[pair.b] ? (pair.a, pair.b) : isStatic[pair.b] && usesTOI[pair.a] ? (pair.b, pair.a) : nil
        fixed[r] = Int32(candidate?.fixed ?? -1); moving[r] = Int32(candidate?.moving ?? -1)
        for lane in 0..<lanes {
            let i = r &* lanes &+ lane
            isEdge[i] = 0
            guard let candidate else { continue }
            worlds[lane].bodies.withUnsafeBufferPointer { bodies in
                let body = bodies.baseAddress! + candidate.fixed
                guard body.pointee.shape.kind == .edge else { return }
                let edge = EdgeLanes(body.pointee.shape, body.pointee.xf)
                edgeX[i] = edge.pointX; edgeY[i] = edge.pointY; normalX[i] = edge.normalX; normalY[i] = edge.normalY
                isEdge[i] = -1
            }
        }
    }
}

/// Per (moving body, lane): what the pre-check would otherwise compute again each sub-step.
/// The core's radius about the centre of mass, from the shape (eight lanes at a time where the
/// group's shapes share a vertex count), and the last angle whose sine and cosine the engine
/// knew, with them: a body solved in this sub-step starts the next one's sweep at the angle it
/// ends at now, so the pre-check needs no trigonometry for a body resting on a boundary. The
/// pair is only ever stored as an angle with the sine and cosine `sinCos` gives for it, and used
/// only where the angle's bits are the same, so it gives what `sinCos` would.
final class LaneTimeOfImpactBodies {
    private let columns = Columns()
    let coreRadius: UnsafeMutablePointer<Float>
    let angle: UnsafeMutablePointer<Float>, sin: UnsafeMutablePointer<Float>, cos: UnsafeMutablePointer<Float>
    /// −1 where `angle`, `sin` and `cos` hold a pair.
    let known: UnsafeMutablePointer<Int32>
    /// The moving bodies time of impact is used for.
    let bodies: [Int]
    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them: four numbers and a flag per (moving body, lane).
    static func bytes(movingBodyCount: Int, lanes: Int) -> Int {
        4 * Columns.bytes(Float.self, movingBodyCount * lanes) + Columns.bytes(Int32.self, movingBodyCount * lanes)
    }

    init(details: LaneBodyDetails, movingBodyCount: Int, isStatic: [Bool], usesTOI: [Bool], lanes: Int) {
        let n = movingBodyCount * lanes, width = SIMD8<Float>.scalarCount, groups = lanes / width
        coreRadius = columns.make(n, 0)
        angle = columns.make(n, 0); sin = columns.make(n, 0); cos = columns.make(n, 0)
        known = columns.make(n, 0)
        columns.expect(Self.bytes(movingBodyCount: movingBodyCount, lanes: lanes), of: "LaneTimeOfImpactBodies")
        bodies = (0..<movingBodyCount).filter { !isStatic[$0] && usesTOI[$0] }
        for b in bodies {
            for group in stride(from: 0, to: lanes, by: width) {
                let count = Int(details.groupVertexCount[b &* groups &+ group / width])
                guard count > 0 else { continue }   // such groups take the pre-check lane by lane
                let i = b &* lanes &+ group, column = b &* details.maxVertexCount &* lanes &+ group
                storeLanes(toiCoreRadius(count: count, localCenterX: loadLanes(details.lcx, i), localCenterY: loadLanes(details.lcy, i)) { k in
                    (loadLanes(details.vertexX, column &+ k &* lanes), loadLanes(details.vertexY, column &+ k &* lanes))
                }, coreRadius, i)
            }
        }
    }
}

extension LaneWorld {
    /// The running lanes of `group ..< group + 8` whose time-of-impact pass would resolve an
    /// impact: the first round of PhysicsWorld.solveTOI's search, run on the lane's own columns.
    /// Its candidates go through the same pre-check, eight lanes at a time (lane by lane where
    /// the lanes' moving shapes differ in vertex count), and those it lets through get their
    /// time from `timeOfImpactAlpha`, the function solveTOI calls.
    ///
    /// Why a lane none of whose candidates is resolved (`timeOfImpactIsResolved`) in that first
    /// round needs no pass: solveTOI first clears its own scratch — every body's island flag and
    /// sweep start time (alpha0), every contact's island flag, TOI count and cached time — which
    /// nothing outside solveTOI reads and the lane does not keep (its sweeps are built with
    /// alpha0 = 0; the next pass clears its contacts' copies again before reading them). In the
    /// first round every alpha0 is 0, so no sweep is advanced (a sweep advances only to catch up
    /// with a later alpha0) and each candidate's time depends on its own two sweeps alone, not on
    /// the order the candidates are met in nor on each other; a candidate the pre-check rules out
    /// gets 1. If none is resolved the search returns at once, having written only those cached
    /// times: no body moved, no contact updated, no touch recorded, no contact made, no serial
    /// taken. Handing the lane over would give back the same bodies and contacts.
    func lanesNeedingTimeOfImpact(_ group: Int, running: SIMDMask<IV>) -> SIMDMask<IV> {
        var needs = SIMDMask<IV>(repeating: false)
        let toi = self.toi, lanes = self.lanes
        let groups = lanes / Self.width
        // The columns every candidate row reads, fetched once: nothing in this loop makes a
        // contact or a row (the passes run after it).
        let exists = contacts.exists, enabled = contacts.enabled, awake = details.awake
        forEachRowInOrder { p in
            let fixedBody = toi.fixed[p]
            // A row no lane has a contact in has no candidate in any group.
            guard fixedBody >= 0, rows.laneCount[p] > 0 else { return }
            let fixed = Int(fixedBody), moving = Int(toi.moving[p])
            let ci = p &* lanes &+ group, fi = fixed &* lanes &+ group, mi = moving &* lanes &+ group
            let active = running .& .!needs .& loadMask(exists, ci) .& loadMask(enabled, ci) .& loadMask(awake, mi)
            guard anyLane(active) else { return }
            let ti = ci
            let onEdge = loadMask(toi.isEdge, ti)
            var mayTouch = active .& .!onEdge   // only an edge can rule a search out
            let check = active .& onEdge
            if anyLane(check) {
                let count = Int(details.groupVertexCount[moving &* groups &+ group / Self.width])
                if count > 0 {
                    let column = moving &* details.maxVertexCount &* lanes &+ group
                    let edge = EdgeLanes(pointX: loadLanes(toi.edgeX, ti), pointY: loadLanes(toi.edgeY, ti),
                                         normalX: loadLanes(toi.normalX, ti), normalY: loadLanes(toi.normalY, ti), radius: loadLanes(details.radius, fi))
                    mayTouch = mayTouch .| toiMayTouchEdge(edge, movingRadius: loadLanes(details.radius, mi),
                                                           from: PositionLanes(cx: loadLanes(details.c0x, mi), cy: loadLanes(details.c0y, mi), a: loadLanes(details.a0, mi)),
                                                           to: PositionLanes(cx: loadLanes(bodies.cx, mi), cy: loadLanes(bodies.cy, mi), a: loadLanes(bodies.a, mi)),
                                                           localCenterX: loadLanes(details.lcx, mi), localCenterY: loadLanes(details.lcy, mi),
                                                           count: count, active: check, coreRadius: { loadLanes(self.toiBodies.coreRadius, mi) },
                                                           rotations: { self.sweepRotations(mi, undecided: $0) }) { k in
                        (loadLanes(details.vertexX, column &+ k &* lanes), loadLanes(details.vertexY, column &+ k &* lanes))
                    }
                } else {
                    for k in 0..<Self.width where check[k] {
                        if toiMayTouch(staticShape: details.shapes[fi + k], transform(fi + k), moving: details.shapes[mi + k], sweep(mi + k)) {
                            mayTouch[k] = true
                        }
                    }
                }
            }
            guard anyLane(mayTouch) else { return }
            for k in 0..<Self.width where mayTouch[k] && firstRoundResolvesImpact(row: p, lane: group + k) { needs[k] = true }
        }
        rememberEndRotations(group)
        return needs
    }

    /// The sines and cosines of the start and end angles of moving body `mi`'s sweeps (lanes
    /// `mi ..< mi + 8`) where `undecided`: the end's from the transform a solved body got from
    /// that angle in this sub-step (`transformsAndSleepTimers`), the start's from the pair
    /// remembered for the same angle; `sinCos` where either is missing.
    @inline(__always) private func sweepRotations(_ mi: Int, undecided: SIMDMask<IV>) -> (s0: V, c0: V, s1: V, c1: V) {
        let start = loadLanes(details.a0, mi), end = loadLanes(bodies.a, mi)
        let solved = loadMask(details.inIsland, mi)
        let (s1, c1) = anyLane(undecided .& .!solved) ? sinCos(end) : (loadLanes(details.qs, mi), loadLanes(details.qc, mi))
        let other = nonZeroLanes(unsafeBitCast(start, to: IV.self) ^ unsafeBitCast(loadLanes(toiBodies.angle, mi), to: IV.self))
        let missing = undecided .& (.!loadMask(toiBodies.known, mi) .| other)
        let (s0, c0) = anyLane(missing) ? sinCos(start) : (loadLanes(toiBodies.sin, mi), loadLanes(toiBodies.cos, mi))
        return (s0, c0, s1, c1)
    }

    /// Remembers each solved body's end angle with the sine and cosine its transform was made
    /// with in this sub-step, for the next sub-step's start (before a time-of-impact pass may
    /// move it: a moved body's new angle simply finds no pair).
    private func rememberEndRotations(_ group: Int) {
        let memo = toiBodies
        for b in memo.bodies {
            let i = b &* lanes &+ group
            let solved = loadLanes(details.inIsland, i)
            guard anyLane(maskFromFlags(solved)) else { continue }
            let m = maskFromFlags(solved)
            storeLanes(loadLanes(memo.angle, i).blended(with: loadLanes(bodies.a, i), where: m), memo.angle, i)
            storeLanes(loadLanes(memo.sin, i).blended(with: loadLanes(details.qs, i), where: m), memo.sin, i)
            storeLanes(loadLanes(memo.cos, i).blended(with: loadLanes(details.qc, i), where: m), memo.cos, i)
            storeLanes(loadLanes(memo.known, i) | solved, memo.known, i)
        }
    }

    /// Whether solveTOI's first round would resolve row `p`'s contact in `lane` (a candidate the
    /// pre-check let through): its time from the lane's sweeps, the pair the way round the
    /// lane's world holds it.
    private func firstRoundResolvesImpact(row p: Int, lane: Int) -> Bool {
        let a = rows.pair[p].a &* lanes &+ lane, b = rows.pair[p].b &* lanes &+ lane
        timeOfImpactSearches += 1
        let alpha = timeOfImpactAlpha(details.shapes[a], sweep(a), details.shapes[b], sweep(b), from: 0)
        guard timeOfImpactIsResolved(alpha) else { return false }
        toi.impactRow[lane] = Int32(p); toi.impactAlpha[lane] = alpha
        return true
    }

    /// Runs PhysicsWorld.solveTOI on the lane's own world with the lane's state, and takes the
    /// result back: the one implementation of that stage.
    func solveTimeOfImpact(_ lane: Int) {
        let w = worlds[lane]
        timeOfImpactHandOvers += 1
        writeBodies(toWorldOf: lane)
        w.beginHandOver(capacity: rows.inOrder.count)
        // The first round's time of the contact that made the lane need the pass goes with it
        // (`firstRoundTimesGiven`); every other contact's is left for solveTOI to find.
        let impactRow = toi.impactRow[lane], impactAlpha = toi.impactAlpha[lane]
        for r in rows.inOrder {
            let ci = Int(r) &* lanes &+ lane
            guard var c = contacts.contact[ci] else { continue }
            contacts.takeColumns(&c, ci)
            c.hasTOI = r == impactRow
            c.toi = r == impactRow ? impactAlpha : 1
            w.handOver(rows.pair[Int(r)], rows.order[Int(r)], c)
        }
        w.nextSerial = nextSerial[lane]
        w.contactsWereReplaced()
        w.solveTOI(h, firstRoundTimesGiven: true)
        if !w.changes.isEmpty { changesWaiting[lane] = -1 }   // touches the pass began or ended
        readBodies(fromWorldOf: lane)
        for r in rows.inOrder where contacts.contact[Int(r) &* lanes &+ lane] != nil {
            contacts.contact[Int(r) &* lanes &+ lane] = nil
            contacts.mirror(Int(r) &* lanes &+ lane, impulses: true)
            rows.laneCount[Int(r)] -= 1
        }
        for (i, pair) in w.pairs.enumerated() {
            guard let c = w.contacts[i] else { continue }
            addContact(c, row: row(for: pair, order: w.pairOrders[i]), lane: lane)
        }
        nextSerial[lane] = w.nextSerial
        w.contactsWereReplaced()
        contactsReplaced(lane)   // the pass may have made contacts, and they came back in pair order
    }
}
