// Time of impact in the batched engine: which lanes need a pass (PhysicsWorld.solveTOI's
// candidates through the shared pre-check, eight lanes at a time), and the pass itself, run by
// the lane's own PhysicsWorld on the lane's state (the one implementation of that stage).

/// The pairs time of impact looks at, and their static side per lane, in memory this store owns.
final class LaneTimeOfImpact {
    /// Pairs of a static body and one it is used for.
    let candidates: [(pair: Int, fixed: Int, moving: Int)]
    private let columns = Columns()
    /// Per (candidate, lane): the static side in world terms when it is an edge (static bodies
    /// never move), so the pre-check runs eight lanes at a time.
    let edgeX: UnsafeMutablePointer<Float>, edgeY: UnsafeMutablePointer<Float>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    /// Per (candidate, lane): −1 where the static side is an edge (else the pre-check passes).
    let isEdge: UnsafeMutablePointer<Int32>

    init(worlds: [PhysicsWorld], pairs: [BodyPair], isStatic: [Bool], usesTOI: [Bool]) {
        candidates = pairs.enumerated().compactMap { p, pair in
            if isStatic[pair.a] && usesTOI[pair.b] { return (p, pair.a, pair.b) }
            if isStatic[pair.b] && usesTOI[pair.a] { return (p, pair.b, pair.a) }
            return nil
        }
        let lanes = worlds.count, n = candidates.count * lanes
        edgeX = columns.make(n, 0); edgeY = columns.make(n, 0)
        normalX = columns.make(n, 0); normalY = columns.make(n, 0)
        isEdge = columns.make(n, 0)
        for (k, candidate) in candidates.enumerated() {
            for lane in 0..<lanes {
                let fixed = worlds[lane].bodies[candidate.fixed], i = k * lanes + lane
                guard fixed.shape.kind == .edge else { continue }
                let edge = EdgeLanes(fixed.shape, fixed.xf)
                edgeX[i] = edge.pointX; edgeY[i] = edge.pointY; normalX[i] = edge.normalX; normalY[i] = edge.normalY
                isEdge[i] = -1
            }
        }
    }
}

extension LaneWorld {
    /// The running lanes of `group ..< group + 8` that have a contact whose time-of-impact search
    /// could find a touch (PhysicsWorld.solveTOI's candidates, through the same pre-check, eight
    /// lanes at a time; lane by lane where the lanes' moving shapes differ in vertex count).
    func lanesNeedingTimeOfImpact(_ group: Int, running: SIMDMask<IV>) -> SIMDMask<IV> {
        var needs = SIMDMask<IV>(repeating: false)
        let groups = lanes / Self.width
        for (candidate, (p, fixed, moving)) in toi.candidates.enumerated() {
            let ci = p * lanes + group, fi = fixed * lanes + group, mi = moving * lanes + group
            let active = running .& .!needs .& loadMask(contacts.exists, ci) .& loadMask(contacts.enabled, ci) .& loadMask(details.awake, mi)
            guard anyLane(active) else { continue }
            let ti = candidate * lanes + group
            let onEdge = loadMask(toi.isEdge, ti)
            needs = needs .| (active .& .!onEdge)   // only an edge can rule a search out
            let check = active .& onEdge
            guard anyLane(check) else { continue }
            let count = Int(details.groupVertexCount[moving * groups + group / Self.width])
            guard count > 0 else {
                for k in 0..<Self.width where check[k] {
                    if toiMayTouch(staticShape: details.shapes[fi + k], transform(fi + k), moving: details.shapes[mi + k], sweep(mi + k)) { needs[k] = true }
                }
                continue
            }
            let column = moving * details.maxVertexCount * lanes + group
            let edge = EdgeLanes(pointX: loadLanes(toi.edgeX, ti), pointY: loadLanes(toi.edgeY, ti),
                                 normalX: loadLanes(toi.normalX, ti), normalY: loadLanes(toi.normalY, ti), radius: loadLanes(details.radius, fi))
            needs = needs .| toiMayTouchEdge(edge, movingRadius: loadLanes(details.radius, mi),
                                             from: PositionLanes(cx: loadLanes(details.c0x, mi), cy: loadLanes(details.c0y, mi), a: loadLanes(details.a0, mi)),
                                             to: PositionLanes(cx: loadLanes(bodies.cx, mi), cy: loadLanes(bodies.cy, mi), a: loadLanes(bodies.a, mi)),
                                             localCenterX: loadLanes(details.lcx, mi), localCenterY: loadLanes(details.lcy, mi),
                                             count: count, active: check) { k in
                (loadLanes(details.vertexX, column + k * lanes), loadLanes(details.vertexY, column + k * lanes))
            }
        }
        return needs
    }

    /// Runs PhysicsWorld.solveTOI on the lane's own world with the lane's state, and takes the
    /// result back: the one implementation of that stage.
    func solveTimeOfImpact(_ lane: Int) {
        let w = worlds[lane]
        writeBodies(toWorldOf: lane)
        var laneContacts: [Contact] = [], lanePairs: [BodyPair] = []
        for p in 0..<pairCount {
            let ci = p * lanes + lane
            if var c = contacts.contact[ci] { contacts.takeImpulses(&c, ci); laneContacts.append(c); lanePairs.append(pairs[p]) }
        }
        w.setContacts(lanePairs, laneContacts)
        w.nextSerial = nextSerial[lane]
        w.contactsWereReplaced()
        w.solveTOI(h)
        readBodies(fromWorldOf: lane)
        for p in 0..<pairCount where contacts.contact[p * lanes + lane] != nil {
            contacts.contact[p * lanes + lane] = nil
            contacts.mirror(p * lanes + lane, impulses: true)
        }
        for (i, pair) in w.pairs.enumerated() where w.contacts[i] != nil {
            let ci = pairIndex[PhysicsWorld.pairKey(pair.a, pair.b)]! * lanes + lane
            contacts.contact[ci] = w.contacts[i]
            contacts.mirror(ci, impulses: true)
        }
        nextSerial[lane] = w.nextSerial
        w.contactsWereReplaced()
        contactsChanged(lane)   // the pass may have made contacts
    }
}
