// The broad phase of the batched engine (PhysicsWorld.computeBoxes and findNewContacts): the
// moving bodies' boxes eight lanes per instruction from the vertex columns (lane by lane where
// the lanes' shapes differ in vertex count), and new contacts where boxes newly overlap.
//
// Two boxes per (body, lane): the box at the body's transform (`details.box…`, which the contact
// update reads) and the swept box (here, which new contacts are found with). Box2D's step makes
// them from the same two transforms, so each is kept rather than made again: the swept box of a
// sub-step is its end's box joined with its start's, and its start is where the last sub-step
// ended — the box at the transform before the solve — for a body whose transform was made from
// its position (`transformsAndSleepTimers`). The end's box is the next sub-step's box at the
// transform. A body whose state came in from elsewhere (loading, a time-of-impact pass, an
// animator) is `outdated` until a solve has made its transform again: its boxes are computed
// afresh from its sweep, as PhysicsWorld.computeBoxes does every time.

/// The swept boxes per (body, lane), and which bodies' boxes cannot be carried over.
final class LaneSweptBoxes {
    private let columns = Columns()
    let lowerX: UnsafeMutablePointer<Float>, lowerY: UnsafeMutablePointer<Float>
    let upperX: UnsafeMutablePointer<Float>, upperY: UnsafeMutablePointer<Float>
    /// −1 where the body's boxes must be computed from its sweep (see above), else 0.
    let outdated: UnsafeMutablePointer<Int32>
    /// Whether some running lane may have an outdated body: false once a swept-box pass after a
    /// solve found none, true again when `readBodies` marks one.
    var mayBeOutdated = true

    /// Static bodies never move: their swept box is their box. Moving bodies start outdated.
    init(details: LaneBodyDetails, isStatic: [Bool], lanes: Int) {
        let n = isStatic.count * lanes
        lowerX = columns.make(n, 0); lowerY = columns.make(n, 0); upperX = columns.make(n, 0); upperY = columns.make(n, 0)
        lowerX.update(from: details.boxLowerX, count: n); lowerY.update(from: details.boxLowerY, count: n)
        upperX.update(from: details.boxUpperX, count: n); upperY.update(from: details.boxUpperY, count: n)
        outdated = columns.make(n, -1)
        columns.expect(Self.bytes(bodyCount: isStatic.count, lanes: lanes), of: "LaneSweptBoxes")
    }

    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them: four box columns and `outdated` per (body, lane).
    static func bytes(bodyCount: Int, lanes: Int) -> Int {
        4 * Columns.bytes(Float.self, bodyCount * lanes) + Columns.bytes(Int32.self, bodyCount * lanes)
    }
}

extension LaneWorld {
    /// The boxes at the moving bodies' transforms, for the contact update (PhysicsWorld.computeBoxes
    /// unswept): only groups with an outdated body compute them; every other body's box is the
    /// one its last swept box was made with, at the transform it still has.
    func updateBoxesAtTransforms() {
        guard sweptBoxes.mayBeOutdated else { return }
        let groups = lanes / Self.width
        forEachRunningGroup { group, _ in
            for b in 0..<bodies.movingBodyCount where !isStatic[b] {
                let i = b * lanes + group
                guard anyLane(loadMask(sweptBoxes.outdated, i)) else { continue }
                let count = Int(details.groupVertexCount[b * groups + group / Self.width])
                guard count > 0 else {
                    for lane in group..<(group + Self.width) where running[lane] {
                        let k = b * lanes + lane
                        setBox(details.shapes[k].broadPhaseBox(transform(k)), k)
                    }
                    continue
                }
                storeBox(boxAtTransform(b, group, count: count), i)
            }
        }
    }

    /// Swept boxes of the moving bodies of every running lane (PhysicsWorld.computeBoxes swept),
    /// and their boxes at the new transforms. After a solve (`afterSolve`), a group with no
    /// outdated body takes each start's box from the box at the transform before the solve;
    /// bodies outside the solved islands did not move and keep both boxes.
    func updateSweptBoxes(afterSolve: Bool) {
        let groups = lanes / Self.width
        let swept = sweptBoxes
        var outdatedLeft = false
        forEachRunningGroup { group, runningLanes in
            for b in 0..<bodies.movingBodyCount where !isStatic[b] {
                let i = b * lanes + group
                let outdated = loadLanes(swept.outdated, i), solved = loadLanes(details.inIsland, i)
                // Solved bodies' transforms were made from their positions just now.
                let left = afterSolve ? outdated & ~solved : outdated
                storeLanes(left, swept.outdated, i)
                if anyLane(maskFromFlags(left) .& runningLanes) { outdatedLeft = true }
                let count = Int(details.groupVertexCount[b * groups + group / Self.width])
                guard count > 0 else {
                    for lane in group..<(group + Self.width) where running[lane] {
                        let k = b * lanes + lane
                        setBox(details.shapes[k].broadPhaseBox(transform(k)), k)
                        setSweptBox(details.shapes[k].broadPhaseBox(transform(k), sweptFrom: sweep(k)), k)
                    }
                    continue
                }
                let end: BoxLanes<V>, box: BoxLanes<V>
                if !afterSolve || anyLane(maskFromFlags(outdated)) {
                    end = boxAtTransform(b, group, count: count)
                    let column = b * details.maxVertexCount * lanes + group
                    let xf0 = TransformLanes(PositionLanes(cx: loadLanes(details.c0x, i), cy: loadLanes(details.c0y, i), a: loadLanes(details.a0, i)),
                                             localCenterX: loadLanes(details.lcx, i), localCenterY: loadLanes(details.lcy, i))
                    box = end.union(broadPhaseBox(count: count, radius: loadLanes(details.radius, i), xf0) { k in
                        (loadLanes(details.vertexX, column + k * lanes), loadLanes(details.vertexY, column + k * lanes))
                    })
                } else {
                    let m = maskFromFlags(solved)
                    guard anyLane(m) else { continue }
                    end = boxAtTransform(b, group, count: count)
                    let joined = end.union(boxLanes(i)), kept = sweptBoxLanes(i)
                    box = BoxLanes(lowerX: kept.lowerX.blended(with: joined.lowerX, where: m), lowerY: kept.lowerY.blended(with: joined.lowerY, where: m),
                                   upperX: kept.upperX.blended(with: joined.upperX, where: m), upperY: kept.upperY.blended(with: joined.upperY, where: m))
                }
                storeBox(end, i)
                storeLanes(box.lowerX, swept.lowerX, i); storeLanes(box.lowerY, swept.lowerY, i)
                storeLanes(box.upperX, swept.upperX, i); storeLanes(box.upperY, swept.upperY, i)
            }
        }
        if afterSolve { swept.mayBeOutdated = outdatedLeft }
    }

    /// The boxes of moving body `b` at the transforms of lanes `group ..< group + 8`, whose shapes
    /// have `count` vertices.
    @inline(__always) private func boxAtTransform(_ b: Int, _ group: Int, count: Int) -> BoxLanes<V> {
        let i = b * lanes + group, column = b * details.maxVertexCount * lanes + group
        return broadPhaseBox(count: count, radius: loadLanes(details.radius, i),
                             TransformLanes(px: loadLanes(details.px, i), py: loadLanes(details.py, i), s: loadLanes(details.qs, i), c: loadLanes(details.qc, i))) { k in
            (loadLanes(details.vertexX, column + k * lanes), loadLanes(details.vertexY, column + k * lanes))
        }
    }

    @inline(__always) private func storeBox(_ box: BoxLanes<V>, _ i: Int) {
        storeLanes(box.lowerX, details.boxLowerX, i); storeLanes(box.lowerY, details.boxLowerY, i)
        storeLanes(box.upperX, details.boxUpperX, i); storeLanes(box.upperY, details.boxUpperY, i)
    }

    /// The swept box of (body, lane) `i`, and of lanes `i ..< i + 8`.
    @inline(__always) func sweptBox(_ i: Int) -> AABB {
        AABB(lower: Vec2(sweptBoxes.lowerX[i], sweptBoxes.lowerY[i]), upper: Vec2(sweptBoxes.upperX[i], sweptBoxes.upperY[i]))
    }
    @inline(__always) func sweptBoxLanes(_ i: Int) -> BoxLanes<V> {
        BoxLanes(lowerX: loadLanes(sweptBoxes.lowerX, i), lowerY: loadLanes(sweptBoxes.lowerY, i),
                 upperX: loadLanes(sweptBoxes.upperX, i), upperY: loadLanes(sweptBoxes.upperY, i))
    }
    @inline(__always) private func setSweptBox(_ box: AABB, _ i: Int) {
        sweptBoxes.lowerX[i] = box.lower.x; sweptBoxes.lowerY[i] = box.lower.y; sweptBoxes.upperX[i] = box.upper.x; sweptBoxes.upperY[i] = box.upper.y
    }

    /// The broad phase (PhysicsWorld.findNewContacts). Each lane makes its new contacts in pair
    /// order, so its serials are the single world's.
    func findNewContacts(group: Int, running: SIMDMask<IV>) {
        guard rows.fixed else {
            for k in 0..<Self.width where running[k] { findNewContacts(lane: group + k) }
            return
        }
        // Every allowed pair has a row, in pair order: boxes are tested eight lanes at a time,
        // and a contact is made only in the lanes whose boxes newly overlap.
        let lanes = self.lanes
        for p in 0..<rows.count {
            let a = rows.pair[p].a, b = rows.pair[p].b
            guard !isStatic[a] || !isStatic[b] else { continue }
            let ci = p &* lanes &+ group
            // Lanes that have this pair's contact already need no box test.
            let open = running .& .!loadMask(contacts.exists, ci)
            guard anyLane(open) else { continue }
            let apart = sweptBoxLanes(a &* lanes &+ group).isApart(from: sweptBoxLanes(b &* lanes &+ group))
            let fresh = open .& .!apart
            guard anyLane(fresh) else { continue }
            for k in 0..<Self.width where fresh[k] {
                let lane = group + k
                addContact(Contact(serial: nextSerial[lane]), row: p, lane: lane)
                nextSerial[lane] += 1
            }
        }
    }

    /// One lane's broad phase in a bigger world: the lane's sort and sweep finds the boxes that
    /// overlap, the rule says which may collide; those without a contact in this lane get one,
    /// in pair order (and a row if their pair has none).
    func findNewContacts(lane: Int) {
        for b in 0..<bodyCount { laneBoxes[b] = sweptBox(b * lanes + lane) }
        fresh.removeAll(keepingCapacity: true)
        laneBoxes.withUnsafeBufferPointer { boxes in
            sweeps[lane].forEachOverlap(boxes, include: { _ in true }) { a, b in
                guard !isStatic[a] || !isStatic[b] else { return }
                // Most overlaps are contacts the lane has: that look-up first, the rule after.
                if let r = rows.rowOfPair[PhysicsWorld.pairKey(a, b)], contacts.exists[Int(r) * lanes + lane] != 0 { return }
                guard let allowed = rule.allowedOrder(a, b) else { return }
                fresh.append(allowed)
            }
        }
        guard !fresh.isEmpty else { return }
        fresh.sort { $0.order < $1.order }
        for f in fresh {
            let pair = Collide.shapeAComesFirst(shapeKinds[f.pair.a], shapeKinds[f.pair.b]) ? f.pair : BodyPair(a: f.pair.b, b: f.pair.a)
            addContact(Contact(serial: nextSerial[lane]), row: row(for: pair, order: f.order), lane: lane)
            nextSerial[lane] += 1
        }
    }
}
