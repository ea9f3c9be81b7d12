// The batched engine: many worlds of one structure (same bodies, kinds and pairs; numbers may
// differ) advanced together, lane = world. It follows PhysicsWorld.step stage by stage and calls
// the same rules: the narrow phase and contact refresh per lane (branchy, scalar); islands per
// lane with the single world's walk (LaneIslands.swift), which also orders each world's
// contacts; the broad-phase boxes, the time-of-impact pre-check and the integrators on eight
// lanes per instruction (SIMD8); the contact solver constraint-major, eight worlds' k-th
// contacts per bundle (LaneBundles.swift). A lane that needs a time-of-impact pass hands its
// state to its own PhysicsWorld for that pass and takes it back, so that rare, branchy stage
// exists once.

/// Why worlds cannot share a batch.
public struct BatchStructureError: Error, CustomStringConvertible {
    public var world: Int
    public var reason: String
    public var description: String { "world \(world) cannot join the batch: \(reason)" }
}

final class LaneWorld {
    typealias V = SIMD8<Float>
    typealias IV = SIMD8<Int32>
    static let width = V.scalarCount

    // Structure, shared by every lane.
    let lanes: Int
    let bodyCount: Int
    let pairCount: Int
    let pairs: [BodyPair]
    let isStatic: [Bool]
    let usesTOI: [Bool]
    /// Pairs that time of impact looks at: a static body and one it is used for.
    let toiCandidates: [(pair: Int, fixed: Int, moving: Int)]
    /// Per (candidate, lane): the static side in world terms when it is an edge (static bodies
    /// never move), so the time-of-impact pre-check runs eight lanes at a time.
    let toiEdgeX: UnsafeMutablePointer<Float>, toiEdgeY: UnsafeMutablePointer<Float>
    let toiNormalX: UnsafeMutablePointer<Float>, toiNormalY: UnsafeMutablePointer<Float>
    /// Per (candidate, lane): −1 where the static side is an edge (else the pre-check passes).
    let toiIsEdge: UnsafeMutablePointer<Int32>
    let integrator: LaneIntegrator
    /// The sub-step the damping factors were computed for.
    let h: Float

    /// Each lane's own world: shapes come from it, time-of-impact passes run in it, and the
    /// animator reads it between ticks.
    let worlds: [PhysicsWorld]
    /// Shape of each (body, lane). A raw column like the others: its subscript lends the shape
    /// in place, where an array's would copy it (two array retains per use, in the hottest loops).
    let shapes: UnsafeMutablePointer<Shape>
    let bodies: LaneBodies

    // More per-(body, lane) columns.
    let c0x: UnsafeMutablePointer<Float>, c0y: UnsafeMutablePointer<Float>, a0: UnsafeMutablePointer<Float>
    let px: UnsafeMutablePointer<Float>, py: UnsafeMutablePointer<Float>
    let qs: UnsafeMutablePointer<Float>, qc: UnsafeMutablePointer<Float>
    let lcx: UnsafeMutablePointer<Float>, lcy: UnsafeMutablePointer<Float>
    let sleepTime: UnsafeMutablePointer<Float>
    let friction: UnsafeMutablePointer<Float>, restitution: UnsafeMutablePointer<Float>, radius: UnsafeMutablePointer<Float>
    /// The body's gravity scale; `bodies.gravityScale` is this while the body is in a solved island, else 0.
    let baseGravityScale: UnsafeMutablePointer<Float>
    /// Flags as 0 / −1 so eight of them load as a SIMD mask.
    let awake: UnsafeMutablePointer<Int32>, inIsland: UnsafeMutablePointer<Int32>
    /// The island slot (`LaneIslands`) of a body in a solved island this sub-step.
    let islandOfBody: UnsafeMutablePointer<Int32>
    /// Broad-phase boxes per (body, lane), as four columns so eight lanes store at once.
    let boxLowerX: UnsafeMutablePointer<Float>, boxLowerY: UnsafeMutablePointer<Float>
    let boxUpperX: UnsafeMutablePointer<Float>, boxUpperY: UnsafeMutablePointer<Float>
    /// Body-local vertices of the moving bodies' shapes, index = (body × maxVertexCount + k) ×
    /// lanes + lane, so the boxes of eight lanes come from one vector pass over the vertices.
    let vertexX: UnsafeMutablePointer<Float>, vertexY: UnsafeMutablePointer<Float>
    let maxVertexCount: Int
    /// Per (moving body, group): the vertex count all eight lanes' shapes share, or −1 when
    /// they differ (a swept size can turn an ellipse into a circle); such groups go lane by lane.
    let groupVertexCount: UnsafeMutablePointer<Int32>
    // Per (pair, lane): index = pair × lanes + lane.
    let contacts: UnsafeMutablePointer<Contact?>
    /// The contact's flags and manifold as columns, so the solver loads eight lanes at once. The
    /// impulses live here (the `Contact`'s copies are refreshed from these before it is used);
    /// everything else mirrors `contacts` after every change.
    let exists: UnsafeMutablePointer<Int32>, touching: UnsafeMutablePointer<Int32>, enabled: UnsafeMutablePointer<Int32>
    let faceA: UnsafeMutablePointer<Int32>, faceB: UnsafeMutablePointer<Int32>, pointCount: UnsafeMutablePointer<Int32>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    let pointX: UnsafeMutablePointer<Float>, pointY: UnsafeMutablePointer<Float>
    let point0X: UnsafeMutablePointer<Float>, point0Y: UnsafeMutablePointer<Float>
    let point1X: UnsafeMutablePointer<Float>, point1Y: UnsafeMutablePointer<Float>
    let normalImpulse0: UnsafeMutablePointer<Float>, tangentImpulse0: UnsafeMutablePointer<Float>
    let normalImpulse1: UnsafeMutablePointer<Float>, tangentImpulse1: UnsafeMutablePointer<Float>
    // Per lane (raw, like the columns: read in every per-lane loop).
    let running: UnsafeMutablePointer<Bool>
    let nextSerial: UnsafeMutablePointer<Int>

    @exclusivity(unchecked) private var stepCount: Int
    @exclusivity(unchecked) private var needsNewContacts = true
    /// Each lane's islands and the contacts it solves, in Box2D's order (LaneIslands.swift).
    let islands: LaneIslands
    /// The solver's bundles of eight lanes (LaneBundles.swift).
    let bundles: ContactBundles

    // Scratch.
    private let floatBlock: UnsafeMutablePointer<Float>
    private let intBlock: UnsafeMutablePointer<Int32>

    /// Takes over `worlds` (one per lane; `active` says which lanes are real worlds rather than
    /// padding) as configured by their animators, before their first step.
    init(worlds: [PhysicsWorld], active: [Bool], integrator: LaneIntegrator, h: Float = EngineSettings.subStep) throws {
        precondition(!worlds.isEmpty && worlds.count % Self.width == 0 && active.count == worlds.count)
        let first = worlds[0]
        lanes = worlds.count
        bodyCount = first.bodies.count
        pairs = first.pairs
        pairCount = pairs.count
        isStatic = first.bodies.map(\.isStatic)
        usesTOI = first.bodies.map(\.usesTOI)
        let staticBodies = isStatic, toiBodies = usesTOI
        toiCandidates = pairs.enumerated().compactMap { p, pair in
            if staticBodies[pair.a] && toiBodies[pair.b] { return (p, pair.a, pair.b) }
            if staticBodies[pair.b] && toiBodies[pair.a] { return (p, pair.b, pair.a) }
            return nil
        }
        for (k, w) in worlds.enumerated() {
            guard w.bodies.count == bodyCount else { throw BatchStructureError(world: k, reason: "\(w.bodies.count) bodies, not \(bodyCount)") }
            guard w.pairs == pairs else { throw BatchStructureError(world: k, reason: "different collision pairs") }
            guard w.bodies.map(\.isStatic) == isStatic, w.bodies.map(\.usesTOI) == usesTOI else {
                throw BatchStructureError(world: k, reason: "items anchored or driven differently")
            }
            guard w.bodies.allSatisfy(\.alive), w.stepCount == first.stepCount else {
                throw BatchStructureError(world: k, reason: "a world already stepped or changed")
            }
        }
        self.worlds = worlds
        self.integrator = integrator
        self.h = h
        running = .allocate(capacity: lanes)
        running.initialize(from: active, count: lanes)
        nextSerial = .allocate(capacity: lanes)
        nextSerial.initialize(from: worlds.map(\.nextSerial), count: lanes)
        stepCount = first.stepCount

        let n = bodyCount * lanes, np = pairCount * lanes
        let laneCount = lanes
        shapes = .allocate(capacity: n)
        shapes.initialize(from: (0..<n).map { i in worlds[i % laneCount].bodies[i / laneCount].shape }, count: n)
        // Items come before boundary edges, so the moving bodies are the first rows.
        bodies = LaneBodies(bodyCount: bodyCount, lanes: lanes, movingBodyCount: (isStatic.lastIndex(of: false) ?? -1) + 1)

        let moving = bodies.movingBodyCount
        maxVertexCount = (0..<moving).map { b in (0..<laneCount).map { worlds[$0].bodies[b].shape.vertices.count }.max() ?? 1 }.max() ?? 1
        let nv = moving * maxVertexCount * lanes
        floatBlock = .allocate(capacity: 18 * n + 12 * np + 2 * nv)
        floatBlock.initialize(repeating: 0, count: 18 * n + 12 * np + 2 * nv)
        var nextFloat = floatBlock
        func floats(_ size: Int) -> UnsafeMutablePointer<Float> { defer { nextFloat += size }; return nextFloat }
        c0x = floats(n); c0y = floats(n); a0 = floats(n); px = floats(n); py = floats(n); qs = floats(n); qc = floats(n)
        lcx = floats(n); lcy = floats(n); sleepTime = floats(n); friction = floats(n); restitution = floats(n)
        radius = floats(n); baseGravityScale = floats(n)
        boxLowerX = floats(n); boxLowerY = floats(n); boxUpperX = floats(n); boxUpperY = floats(n)
        vertexX = floats(nv); vertexY = floats(nv)
        normalX = floats(np); normalY = floats(np); pointX = floats(np); pointY = floats(np)
        point0X = floats(np); point0Y = floats(np); point1X = floats(np); point1Y = floats(np)
        normalImpulse0 = floats(np); tangentImpulse0 = floats(np); normalImpulse1 = floats(np); tangentImpulse1 = floats(np)
        intBlock = .allocate(capacity: 3 * n + 6 * np)
        intBlock.initialize(repeating: 0, count: 3 * n + 6 * np)
        var nextInt = intBlock
        func ints(_ size: Int) -> UnsafeMutablePointer<Int32> { defer { nextInt += size }; return nextInt }
        awake = ints(n); inIsland = ints(n); islandOfBody = ints(n)
        exists = ints(np); touching = ints(np); enabled = ints(np)
        faceA = ints(np); faceB = ints(np); pointCount = ints(np)
        let groups = lanes / Self.width
        groupVertexCount = .allocate(capacity: max(moving * groups, 1))
        for b in 0..<moving {
            for g in 0..<groups {
                let counts = Set((g * Self.width..<(g + 1) * Self.width).map { worlds[$0].bodies[b].shape.vertices.count })
                groupVertexCount[b * groups + g] = counts.count == 1 ? Int32(counts.first!) : -1
            }
        }
        contacts = .allocate(capacity: np)
        contacts.initialize(repeating: nil, count: np)
        let nt = max(toiCandidates.count * lanes, 1)
        toiEdgeX = .allocate(capacity: 4 * nt)
        toiEdgeX.initialize(repeating: 0, count: 4 * nt)
        toiEdgeY = toiEdgeX + nt; toiNormalX = toiEdgeX + 2 * nt; toiNormalY = toiEdgeX + 3 * nt
        toiIsEdge = .allocate(capacity: nt)
        toiIsEdge.initialize(repeating: 0, count: nt)
        for (k, candidate) in toiCandidates.enumerated() {
            for lane in 0..<lanes {
                let fixed = worlds[lane].bodies[candidate.fixed], i = k * lanes + lane
                guard fixed.shape.kind == .edge else { continue }
                let edge = EdgeLanes(fixed.shape, fixed.xf)
                toiEdgeX[i] = edge.pointX; toiEdgeY[i] = edge.pointY; toiNormalX[i] = edge.normalX; toiNormalY[i] = edge.normalY
                toiIsEdge[i] = -1
            }
        }
        islands = LaneIslands(lanes: lanes, bodyCount: bodyCount, pairCount: pairCount)
        bundles = ContactBundles(lanes: lanes, pairCount: pairCount)

        for lane in 0..<lanes {
            let w = worlds[lane]
            for b in 0..<bodyCount {
                let body = w.bodies[b], i = b * lanes + lane
                bodies.load(body, body: b, lane: lane, gravity: w.gravity, h: h)
                c0x[i] = body.sweep.c0.x; c0y[i] = body.sweep.c0.y; a0[i] = body.sweep.a0
                px[i] = body.xf.p.x; py[i] = body.xf.p.y; qs[i] = body.xf.q.s; qc[i] = body.xf.q.c
                lcx[i] = body.sweep.localCenter.x; lcy[i] = body.sweep.localCenter.y
                sleepTime[i] = body.sleepTime
                friction[i] = body.friction; restitution[i] = body.restitution; radius[i] = body.shape.radius
                baseGravityScale[i] = bodies.gravityScale[i]
                awake[i] = body.awake ? -1 : 0
                setBox(body.shape.broadPhaseBox(body.xf), i)
                if b < moving {
                    for (k, v) in body.shape.vertices.enumerated() {
                        vertexX[(b * maxVertexCount + k) * lanes + lane] = v.x
                        vertexY[(b * maxVertexCount + k) * lanes + lane] = v.y
                    }
                }
            }
            for p in 0..<pairCount {
                contacts[p * lanes + lane] = w.contacts[p]
                mirror(p * lanes + lane, impulses: true)
            }
        }
    }

    /// Copies contact `ci`'s flags and manifold into the columns (and its impulses, when they
    /// are the newer copy: after a refresh or a time-of-impact pass).
    @inline(__always) private func mirror(_ ci: Int, impulses: Bool) {
        guard let c = contacts[ci] else { exists[ci] = 0; touching[ci] = 0; enabled[ci] = 0; return }
        exists[ci] = -1
        touching[ci] = c.touching ? -1 : 0
        enabled[ci] = c.enabled ? -1 : 0
        let m = c.manifold
        faceA[ci] = m.kind == .faceA ? -1 : 0; faceB[ci] = m.kind == .faceB ? -1 : 0
        pointCount[ci] = Int32(m.pointCount)
        normalX[ci] = m.localNormal.x; normalY[ci] = m.localNormal.y
        pointX[ci] = m.localPoint.x; pointY[ci] = m.localPoint.y
        point0X[ci] = m.point0.localPoint.x; point0Y[ci] = m.point0.localPoint.y
        point1X[ci] = m.point1.localPoint.x; point1Y[ci] = m.point1.localPoint.y
        if impulses {
            normalImpulse0[ci] = m.point0.normalImpulse; tangentImpulse0[ci] = m.point0.tangentImpulse
            normalImpulse1[ci] = m.point1.normalImpulse; tangentImpulse1[ci] = m.point1.tangentImpulse
        }
    }

    /// Puts the columns' impulses into contact `ci` before scalar code reads it.
    @inline(__always) private func takeImpulses(_ c: inout Contact, _ ci: Int) {
        c.manifold.point0.normalImpulse = normalImpulse0[ci]; c.manifold.point0.tangentImpulse = tangentImpulse0[ci]
        c.manifold.point1.normalImpulse = normalImpulse1[ci]; c.manifold.point1.tangentImpulse = tangentImpulse1[ci]
    }

    deinit {
        shapes.deinitialize(count: bodyCount * lanes); shapes.deallocate()
        floatBlock.deallocate(); intBlock.deallocate(); groupVertexCount.deallocate(); contacts.deallocate()
        toiEdgeX.deallocate(); toiIsEdge.deallocate()
        running.deallocate(); nextSerial.deallocate()
    }

    /// Takes lane `lane` out: it is never stepped again (its world paused, failed or ended).
    func stop(_ lane: Int) {
        running[lane] = false
        for b in 0..<bodyCount { inIsland[b * lanes + lane] = 0 }
        islands.solveCount[lane] = 0
    }

    // MARK: Masks from Int32 lanes
    // SIMD8<Int32> comparisons compile to a lane-by-lane loop through memory at this target;
    // these build the same masks with whole-vector integer operations.

    /// A flag column (0 or −1 per lane) read as a mask.
    @inline(__always) private func loadMask(_ p: UnsafeMutablePointer<Int32>, _ i: Int) -> SIMDMask<IV> {
        maskFromFlags(loadLanes(p, i))
    }

    // MARK: Per-lane views

    @inline(__always) func box(_ i: Int) -> AABB {
        AABB(lower: Vec2(boxLowerX[i], boxLowerY[i]), upper: Vec2(boxUpperX[i], boxUpperY[i]))
    }
    /// The boxes of lanes `i ..< i + 8`.
    @inline(__always) private func boxLanes(_ i: Int) -> BoxLanes<V> {
        BoxLanes(lowerX: loadLanes(boxLowerX, i), lowerY: loadLanes(boxLowerY, i),
                 upperX: loadLanes(boxUpperX, i), upperY: loadLanes(boxUpperY, i))
    }
    @inline(__always) private func setBox(_ box: AABB, _ i: Int) {
        boxLowerX[i] = box.lower.x; boxLowerY[i] = box.lower.y; boxUpperX[i] = box.upper.x; boxUpperY[i] = box.upper.y
    }

    @inline(__always) func transform(_ i: Int) -> Transform {
        Transform(p: Vec2(px[i], py[i]), q: Rot(s: qs[i], c: qc[i]))
    }

    @inline(__always) func sweep(_ i: Int) -> Sweep {
        Sweep(localCenter: Vec2(lcx[i], lcy[i]), c0: Vec2(c0x[i], c0y[i]), c: Vec2(bodies.cx[i], bodies.cy[i]),
              a0: a0[i], a: bodies.a[i], alpha0: 0)
    }

    /// Body.setAwake(true).
    @inline(__always) func wake(_ i: Int) {
        if awake[i] == 0 { awake[i] = -1; sleepTime[i] = 0 }
    }

    @inline(__always) private func isActive(_ body: Int, _ lane: Int) -> Bool {
        !isStatic[body] && awake[body * lanes + lane] != 0
    }

    /// Copies lane `lane`'s moving bodies into its PhysicsWorld (for the animator and metrics).
    func writeBodies(toWorldOf lane: Int) {
        // One access to the world's bodies for the whole copy (each `w.bodies[b].x = …` would be
        // an exclusivity-checked access of its own).
        worlds[lane].bodies.withUnsafeMutableBufferPointer { worldBodies in
            for b in 0..<bodyCount where !isStatic[b] {
                let i = b * lanes + lane
                worldBodies[b].sweep = sweep(i)
                worldBodies[b].xf = transform(i)
                worldBodies[b].v = Vec2(bodies.vx[i], bodies.vy[i])
                worldBodies[b].w = bodies.w[i]
                worldBodies[b].force = Vec2(bodies.fx[i], bodies.fy[i])
                worldBodies[b].torque = bodies.torque[i]
                worldBodies[b].awake = awake[i] != 0
                worldBodies[b].sleepTime = sleepTime[i]
            }
        }
    }

    /// Takes lane `lane`'s moving bodies back from its PhysicsWorld (after pushes, or a
    /// time-of-impact pass, changed them there).
    func readBodies(fromWorldOf lane: Int) {
        // Field by field through one access: copying a whole Body would retain its shape's arrays.
        worlds[lane].bodies.withUnsafeBufferPointer { worldBodies in
            for b in 0..<bodyCount where !isStatic[b] {
                let i = b * lanes + lane
                let body = worldBodies.baseAddress! + b
                let sweep = body.pointee.sweep, xf = body.pointee.xf
                bodies.cx[i] = sweep.c.x; bodies.cy[i] = sweep.c.y; bodies.a[i] = sweep.a
                c0x[i] = sweep.c0.x; c0y[i] = sweep.c0.y; a0[i] = sweep.a0
                px[i] = xf.p.x; py[i] = xf.p.y; qs[i] = xf.q.s; qc[i] = xf.q.c
                bodies.vx[i] = body.pointee.v.x; bodies.vy[i] = body.pointee.v.y; bodies.w[i] = body.pointee.w
                bodies.fx[i] = body.pointee.force.x; bodies.fy[i] = body.pointee.force.y; bodies.torque[i] = body.pointee.torque
                awake[i] = body.pointee.awake ? -1 : 0
                sleepTime[i] = body.pointee.sleepTime
            }
        }
    }

    /// Forces and torques last one tick (the animator clears them after its sub-steps).
    func clearForces() {
        let n = bodyCount * lanes
        bodies.fx.update(repeating: 0, count: n)
        bodies.fy.update(repeating: 0, count: n)
        bodies.torque.update(repeating: 0, count: n)
    }

    var allAsleepOrStopped: Bool {
        for lane in 0..<lanes where running[lane] {
            for b in 0..<bodyCount where isActive(b, lane) { return false }
        }
        return true
    }

    // MARK: The sub-step (PhysicsWorld.step, stage by stage)

    func step() {
        let dtRatio: Float = stepCount == 0 ? 0 : 1   // no impulses to carry on the first step
        if needsNewContacts {
            movingBoxes(swept: true)
            forEachRunningGroup(findNewContacts(group:running:))
            needsNewContacts = false
        }
        movingBoxes(swept: false)
        forEachRunningGroup(updateContacts(group:running:))
        islands.islandCount = 0
        for lane in 0..<lanes where running[lane] { buildIslands(lane) }
        solve(dtRatio: dtRatio)
        movingBoxes(swept: true)
        forEachRunningGroup(findNewContacts(group:running:))
        forEachRunningGroup { group, running in
            let needs = lanesNeedingTimeOfImpact(group, running: running)
            guard anyLane(needs) else { return }
            for k in 0..<Self.width where needs[k] { solveTimeOfImpact(group + k) }
        }
        stepCount += 1
    }

    /// Broad-phase boxes of the moving bodies of every running lane (PhysicsWorld.computeBoxes),
    /// eight lanes per instruction where the lanes' shapes have one vertex count.
    private func movingBoxes(swept: Bool) {
        let groups = lanes / Self.width
        forEachRunningGroup { group, _ in
            for b in 0..<bodies.movingBodyCount where !isStatic[b] {
                let i = b * lanes + group
                let count = Int(groupVertexCount[b * groups + group / Self.width])
                guard count > 0 else {
                    for lane in group..<(group + Self.width) where running[lane] { movingBox(b, lane, swept: swept) }
                    continue
                }
                let column = b * maxVertexCount * lanes + group
                let box = broadPhaseBox(count: count, radius: loadLanes(radius, i),
                                        TransformLanes(px: loadLanes(px, i), py: loadLanes(py, i), s: loadLanes(qs, i), c: loadLanes(qc, i)),
                                        sweptFrom: swept ? PositionLanes(cx: loadLanes(c0x, i), cy: loadLanes(c0y, i), a: loadLanes(a0, i)) : nil,
                                        localCenterX: loadLanes(lcx, i), localCenterY: loadLanes(lcy, i)) { k in
                    (loadLanes(vertexX, column + k * lanes), loadLanes(vertexY, column + k * lanes))
                }
                storeLanes(box.lowerX, boxLowerX, i); storeLanes(box.lowerY, boxLowerY, i)
                storeLanes(box.upperX, boxUpperX, i); storeLanes(box.upperY, boxUpperY, i)
            }
        }
    }

    /// One lane's box of moving body `b`, for groups whose shapes differ.
    private func movingBox(_ b: Int, _ lane: Int, swept: Bool) {
        let i = b * lanes + lane
        setBox(shapes[i].broadPhaseBox(transform(i), sweptFrom: swept ? sweep(i) : nil), i)
    }

    /// The broad phase (PhysicsWorld.findNewContacts).
    /// Boxes are tested eight lanes at a time; a contact is made only in the lanes whose boxes
    /// newly overlap. Each lane still meets its pairs in pair order, so its serials are the
    /// single world's.
    private func findNewContacts(group: Int, running: SIMDMask<IV>) {
        for p in 0..<pairCount {
            let a = pairs[p].a, b = pairs[p].b
            guard !isStatic[a] || !isStatic[b] else { continue }
            let ci = p * lanes + group
            let apart = boxLanes(a * lanes + group).isApart(from: boxLanes(b * lanes + group))
            let fresh = running .& .!loadMask(exists, ci) .& .!apart
            guard anyLane(fresh) else { continue }
            for k in 0..<Self.width where fresh[k] {
                let lane = group + k
                contacts[ci + k] = Contact(serial: nextSerial[lane])
                nextSerial[lane] += 1
                mirror(ci + k, impulses: true)
                contactsChanged(lane)
            }
        }
    }

    /// Manifolds of the awake contacts (PhysicsWorld.updateContacts). Pairs with no contact in
    /// any running lane of the group are passed over eight lanes at a time; each lane still
    /// meets its contacts in pair order (wakes and events as in the single world).
    private func updateContacts(group: Int, running: SIMDMask<IV>) {
        for p in 0..<pairCount {
            let live = running .& loadMask(exists, p * lanes + group)
            guard anyLane(live) else { continue }
            for k in 0..<Self.width where live[k] { updateContact(p, lane: group + k) }
        }
    }

    private func updateContact(_ p: Int, lane: Int) {
        let ci = p * lanes + lane
        let a = pairs[p].a, b = pairs[p].b
        if !isActive(a, lane) && !isActive(b, lane) { return }
        let ia = a * lanes + lane, ib = b * lanes + lane
        if !box(ia).overlaps(box(ib)) {
            if touching[ci] != 0 { worlds[lane].changes.append(.ended(a: a, b: b)) }
            contacts[ci] = nil
            mirror(ci, impulses: false)
            contactsChanged(lane)
            return
        }
        let xfA = transform(ia), xfB = transform(ib)
        if Self.isCurrent(&contacts[ci]!, xfA, xfB) {
            // What refresh would do (see Contact.isCurrent); the columns already hold the rest.
            contacts[ci]!.enabled = true; enabled[ci] = -1
            return
        }
        // In place: the contact is not copied out and back.
        takeImpulses(&contacts[ci]!, ci)
        let change = Self.refresh(&contacts[ci]!, &shapes[ia], xfA, &shapes[ib], xfB)
        mirror(ci, impulses: true)
        switch change {
        case .none: break
        case .began(let point):
            wake(ia); wake(ib)
            worlds[lane].changes.append(.began(a: a, b: b, point: point))
        case .ended:
            wake(ia); wake(ib)
            worlds[lane].changes.append(.ended(a: a, b: b))
        }
    }

    /// `Contact.refresh` with the shapes lent where they lie. Read through the column's pointer,
    /// each shape would be copied first (four array retains and releases per contact), since
    /// the compiler cannot tell that the narrow phase leaves that memory alone; an `inout` access
    /// is exclusive, so it passes them as they are. Nothing here writes to them.
    @inline(never)
    private static func refresh(_ c: inout Contact, _ shapeA: inout Shape, _ xfA: Transform,
                                _ shapeB: inout Shape, _ xfB: Transform) -> TouchChange {
        c.refresh(shapeA, xfA, shapeB, xfB)
    }

    /// `Contact.isCurrent` on the contact where it lies (a plain read would copy it out first).
    @inline(never)
    private static func isCurrent(_ c: inout Contact, _ xfA: Transform, _ xfB: Transform) -> Bool {
        c.isCurrent(xfA, xfB)
    }

    /// The group's running lanes as a mask.
    @inline(__always) private func runningMask(_ group: Int) -> SIMDMask<IV> {
        var flags = IV(repeating: 0)
        for k in 0..<Self.width where running[group + k] { flags[k] = -1 }
        return maskFromFlags(flags)
    }

    // MARK: Solving, eight lanes at a time

    private func solve(dtRatio: Float) {
        let n = bodies.movingCount
        // Solved islands start their sweeps here; only they feel gravity (asleep and static
        // bodies have no velocity or force, so integrating every lane leaves them in place).
        var i = 0
        while i < n {
            let m = loadMask(inIsland, i)
            storeLanes(loadLanes(c0x, i).blended(with: loadLanes(bodies.cx, i), where: m), c0x, i)
            storeLanes(loadLanes(c0y, i).blended(with: loadLanes(bodies.cy, i), where: m), c0y, i)
            storeLanes(loadLanes(a0, i).blended(with: loadLanes(bodies.a, i), where: m), a0, i)
            storeLanes(V(repeating: 0).blended(with: loadLanes(baseGravityScale, i), where: m), bodies.gravityScale, i)
            i += Self.width
        }
        integrator.integrateVelocities(bodies, h: h)
        packBundles()
        setUpBundles(dtRatio: dtRatio)
        solveBundleVelocities()
        integrator.integratePositions(bodies, h: h)
        correctBundlePositions()
        let slots = islands.islandCount
        islands.minSleepTime.update(repeating: Float.greatestFiniteMagnitude, count: slots)
        forEachRunningGroup { group, _ in transformsAndSleepTimers(group) }
        // Which island slots fall asleep, as 0 / −1: `solved` turns into that verdict in place.
        var anySleeps = false
        for g in 0..<slots {
            let sleeps = islandFallsAsleep(minSleepTime: islands.minSleepTime[g], positionSolved: islands.solved[g] != 0)
            islands.solved[g] = sleeps ? -1 : 0
            if sleeps { anySleeps = true }
        }
        if anySleeps { forEachRunningGroup { group, _ in sleepIslands(group, islands.solved) } }
    }

    /// Runs `stage` on every group of eight lanes with a running lane, with that group's running
    /// lanes as a mask (worked out once per group and stage, not again inside the stage).
    @inline(__always) private func forEachRunningGroup(_ stage: (_ group: Int, _ running: SIMDMask<IV>) -> Void) {
        for group in stride(from: 0, to: lanes, by: Self.width) {
            let running = runningMask(group)
            if anyLane(running) { stage(group, running) }
        }
    }

    /// Transforms of the solved bodies of lanes `group ..< group + 8`, their sleep timers, and
    /// each island's smallest timer (the rest of PhysicsWorld.solveIsland).
    private func transformsAndSleepTimers(_ group: Int) {
        let h = V(repeating: self.h)
        for b in 0..<bodyCount where !isStatic[b] {
            let i = b * lanes + group
            let m = loadMask(inIsland, i)
            guard anyLane(m) else { continue }
            let xf = TransformLanes(PositionLanes(cx: loadLanes(bodies.cx, i), cy: loadLanes(bodies.cy, i), a: loadLanes(bodies.a, i)),
                                    localCenterX: loadLanes(lcx, i), localCenterY: loadLanes(lcy, i))
            storeLanes(loadLanes(px, i).blended(with: xf.px, where: m), px, i)
            storeLanes(loadLanes(py, i).blended(with: xf.py, where: m), py, i)
            storeLanes(loadLanes(qs, i).blended(with: xf.s, where: m), qs, i)
            storeLanes(loadLanes(qc, i).blended(with: xf.c, where: m), qc, i)
            let oldSleep = loadLanes(sleepTime, i)
            let sleep = oldSleep.blended(with: sleepTimeAfterStep(oldSleep, vx: loadLanes(bodies.vx, i), vy: loadLanes(bodies.vy, i),
                                                                   w: loadLanes(bodies.w, i), h: h), where: m)
            storeLanes(sleep, sleepTime, i)
            for k in 0..<Self.width where m[k] {
                let g = Int(islandOfBody[i + k])
                islands.minSleepTime[g] = min(islands.minSleepTime[g], sleep[k])
            }
        }
    }

    /// Puts the bodies of islands that fall asleep to sleep (Body.setAwake(false)).
    private func sleepIslands(_ group: Int, _ sleeps: UnsafeMutablePointer<Int32>) {
        for b in 0..<bodyCount where !isStatic[b] {
            let i = b * lanes + group
            var flags = IV(repeating: 0)
            for k in 0..<Self.width where inIsland[i + k] != 0 { flags[k] = sleeps[Int(islandOfBody[i + k])] }
            let s = maskFromFlags(flags)
            guard anyLane(s) else { continue }
            let zero = V(repeating: 0)
            storeLanes(loadLanes(awake, i).blended(with: 0, where: s), awake, i)
            storeLanes(loadLanes(sleepTime, i).blended(with: zero, where: s), sleepTime, i)
            storeLanes(loadLanes(bodies.vx, i).blended(with: zero, where: s), bodies.vx, i)
            storeLanes(loadLanes(bodies.vy, i).blended(with: zero, where: s), bodies.vy, i)
            storeLanes(loadLanes(bodies.w, i).blended(with: zero, where: s), bodies.w, i)
            storeLanes(loadLanes(bodies.fx, i).blended(with: zero, where: s), bodies.fx, i)
            storeLanes(loadLanes(bodies.fy, i).blended(with: zero, where: s), bodies.fy, i)
            storeLanes(loadLanes(bodies.torque, i).blended(with: zero, where: s), bodies.torque, i)
        }
    }

    // MARK: Time of impact

    /// The running lanes of `group ..< group + 8` that have a contact whose time-of-impact search
    /// could find a touch (PhysicsWorld.solveTOI's candidates, through the same pre-check, eight
    /// lanes at a time; lane by lane where the lanes' moving shapes differ in vertex count).
    private func lanesNeedingTimeOfImpact(_ group: Int, running: SIMDMask<IV>) -> SIMDMask<IV> {
        var needs = SIMDMask<IV>(repeating: false)
        let groups = lanes / Self.width
        for (candidate, (p, fixed, moving)) in toiCandidates.enumerated() {
            let ci = p * lanes + group, fi = fixed * lanes + group, mi = moving * lanes + group
            let active = running .& .!needs .& loadMask(exists, ci) .& loadMask(enabled, ci) .& loadMask(awake, mi)
            guard anyLane(active) else { continue }
            let ti = candidate * lanes + group
            let onEdge = loadMask(toiIsEdge, ti)
            needs = needs .| (active .& .!onEdge)   // only an edge can rule a search out
            let check = active .& onEdge
            guard anyLane(check) else { continue }
            let count = Int(groupVertexCount[moving * groups + group / Self.width])
            guard count > 0 else {
                for k in 0..<Self.width where check[k] {
                    if toiMayTouch(staticShape: shapes[fi + k], transform(fi + k), moving: shapes[mi + k], sweep(mi + k)) { needs[k] = true }
                }
                continue
            }
            let column = moving * maxVertexCount * lanes + group
            let edge = EdgeLanes(pointX: loadLanes(toiEdgeX, ti), pointY: loadLanes(toiEdgeY, ti),
                                 normalX: loadLanes(toiNormalX, ti), normalY: loadLanes(toiNormalY, ti), radius: loadLanes(radius, fi))
            needs = needs .| toiMayTouchEdge(edge, movingRadius: loadLanes(radius, mi),
                                             from: PositionLanes(cx: loadLanes(c0x, mi), cy: loadLanes(c0y, mi), a: loadLanes(a0, mi)),
                                             to: PositionLanes(cx: loadLanes(bodies.cx, mi), cy: loadLanes(bodies.cy, mi), a: loadLanes(bodies.a, mi)),
                                             localCenterX: loadLanes(lcx, mi), localCenterY: loadLanes(lcy, mi),
                                             count: count, active: check) { k in
                (loadLanes(vertexX, column + k * lanes), loadLanes(vertexY, column + k * lanes))
            }
        }
        return needs
    }

    /// Runs PhysicsWorld.solveTOI on the lane's own world with the lane's state, and takes the
    /// result back: the one implementation of that stage.
    private func solveTimeOfImpact(_ lane: Int) {
        let w = worlds[lane]
        writeBodies(toWorldOf: lane)
        for p in 0..<pairCount {
            let ci = p * lanes + lane
            if var c = contacts[ci] { takeImpulses(&c, ci); w.contacts[p] = c } else { w.contacts[p] = nil }
        }
        w.nextSerial = nextSerial[lane]
        w.contactsWereReplaced()
        w.solveTOI(h)
        readBodies(fromWorldOf: lane)
        for p in 0..<pairCount {
            contacts[p * lanes + lane] = w.contacts[p]
            mirror(p * lanes + lane, impulses: true)
        }
        nextSerial[lane] = w.nextSerial
        w.contactsWereReplaced()
        contactsChanged(lane)   // the pass may have made contacts
    }
}
