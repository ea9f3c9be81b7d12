// The batched engine: many worlds of one structure (same bodies, kinds and pairs; numbers may
// differ) advanced together, lane = world. It follows PhysicsWorld.step stage by stage and calls
// the same rules: the narrow phase and contact refresh eight lanes at a time where a row's lanes
// hold a pair the lane kernels cover (LaneNarrowPhase.swift), else per lane; islands per
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

final class LaneWorld: StepStages {
    typealias V = SIMD8<Float>
    typealias IV = SIMD8<Int32>
    static let width = V.scalarCount

    // Structure, shared by every lane.
    let lanes: Int
    let bodyCount: Int
    /// Which bodies may collide, and the pair order.
    let rule: CollisionRule
    /// Each body's shape kind (the same in every lane where it decides which way round a pair is).
    let shapeKinds: [Shape.Kind]
    let isStatic: [Bool]
    let usesTOI: [Bool]
    /// The joints' bodies, the same in every lane (their definitions and impulses live in each
    /// lane's own world, whose `joints` the joint stage solves: LaneJoints.swift).
    let jointBodies: [BodyPair]
    let jointKinds: [JointKind]
    let integrator: LaneIntegrator
    /// The sub-step the damping factors were computed for.
    let h: Float

    /// Each lane's own world: time-of-impact passes run in it, and the animator reads it
    /// between ticks.
    let worlds: [PhysicsWorld]
    // The stores, one per concept, each owning its columns (index = body or row × lanes + lane).
    /// What the integrators advance: positions, velocities, forces, masses (hot).
    let bodies: LaneBodies
    /// The rest of each body: transform, sweep start, material, shape, sleep, flags, boxes.
    let details: LaneBodyDetails
    /// The swept boxes the broad phase finds new contacts with (LaneBroadPhase.swift).
    let sweptBoxes: LaneSweptBoxes
    /// Polygon normals, centroids and edge end points, for the lane kernels (LaneNarrowPhase.swift).
    let shapeColumns: LaneShapeColumns
    /// The contact update's scratch where it gathers one world's contacts into the lanes, and
    /// whether it does (LanePairNarrowPhase.swift).
    let pairNarrowPhase: LanePairNarrowPhase
    @exclusivity(unchecked) var narrowPhaseLayout = NarrowPhaseLayout.initial
    /// Which pairs have rows in the stores below, in pair order (LaneRows.swift).
    let rows: LaneRows
    // The stores sized by rows: replaced by bigger ones when the rows fill (`growRows`).
    /// Each (row, lane)'s contact and its manifold columns (LaneContacts.swift).
    @exclusivity(unchecked) var contacts: LaneContacts
    /// Each lane's islands and the contacts it solves, in Box2D's order (LaneIslands.swift).
    @exclusivity(unchecked) var islands: LaneIslands
    /// The solver's bundles of eight lanes (LaneBundles.swift).
    @exclusivity(unchecked) var bundles: ContactBundles
    /// The joints' bundles (LaneJoints.swift).
    let jointBundles: JointBundles
    /// The fields and their numbers per lane (LaneFields.swift).
    let fields: LaneFields
    /// What the time-of-impact pre-check keeps per moving body (LaneTimeOfImpact.swift).
    let toiBodies: LaneTimeOfImpactBodies
    /// Each row's time-of-impact candidate and static edge (LaneTimeOfImpact.swift).
    @exclusivity(unchecked) var toi: LaneTimeOfImpact
    /// Each lane's sort and sweep (worlds whose pairs do not all have rows), and its scratch.
    @exclusivity(unchecked) var sweeps: [SortAndSweep] = []
    @exclusivity(unchecked) var laneBoxes: [AABB] = []
    @exclusivity(unchecked) var fresh: [(order: PairOrder, pair: BodyPair)] = []
    // Per lane (raw, like the columns: read in every per-lane loop).
    private let laneColumns = Columns()
    /// Per lane: −1 while it is stepped, 0 once stopped (0 / −1 so a group's eight load as one mask).
    private let runningFlags: UnsafeMutablePointer<Int32>
    /// The bytes `laneColumns` allocates: the running flags, the next contact serials and the
    /// waiting-changes flags.
    static func laneColumnBytes(lanes: Int) -> Int { 2 * Columns.bytes(Int32.self, lanes) + Columns.bytes(Int.self, lanes) }
    var laneColumnByteCount: Int { laneColumns.byteCount }
    /// Whether each lane is still stepped (`runningFlags` read one lane at a time).
    var running: LaneFlags { LaneFlags(runningFlags) }
    let nextSerial: UnsafeMutablePointer<Int>
    /// Per lane: −1 once its world recorded a contact change (every append sets it), until a plan batch
    /// takes them and clears it: what a sweep asks of every world after every tick, answered
    /// without reaching into the world's own record list.
    let changesWaiting: UnsafeMutablePointer<Int32>

    @exclusivity(unchecked) var stepCount: Int
    /// First-round time-of-impact searches run on the lanes, and lanes handed to their own world
    /// for a time-of-impact pass, so far (tests read them).
    @exclusivity(unchecked) var timeOfImpactSearches = 0, timeOfImpactHandOvers = 0
    /// Lane sub-steps whose islands were walked, and those that kept their last walk's (tests read them).
    @exclusivity(unchecked) var islandWalks = 0, islandReuses = 0
    /// Sub-steps that packed their bundles, and those that kept the last packing (tests read them).
    @exclusivity(unchecked) var bundlePackings = 0, bundleReuses = 0
    /// Whether the bundles' packing (LaneBundles.swift) still holds: no lane's solve list or
    /// island slots changed since it was made, and no lane stopped.
    @exclusivity(unchecked) var packingValid = false
    @exclusivity(unchecked) var needsNewContacts = true

    /// Takes over `worlds` (one per lane; `active` says which lanes are real worlds rather than
    /// padding) as configured by their animators, before their first step.
    /// `worlds` padded to whole lane groups: the padding lanes never run and borrow the first
    /// world's structure.
    convenience init(padding worlds: [PhysicsWorld], integrator: LaneIntegrator, rowPolicy: LaneRowPolicy = .bySize) throws {
        let padded = (worlds.count + Self.width - 1) / Self.width * Self.width
        let active = worlds.map { _ in true } + Array(repeating: false, count: padded - worlds.count)
        try self.init(worlds: worlds + Array(repeating: worlds[0], count: padded - worlds.count), active: active,
                      integrator: integrator, rowPolicy: rowPolicy)
    }

    init(worlds: [PhysicsWorld], active: [Bool], integrator: LaneIntegrator, h: Float = EngineSettings.subStep,
         rowPolicy: LaneRowPolicy = .bySize) throws {
        precondition(!worlds.isEmpty && worlds.count % Self.width == 0 && active.count == worlds.count)
        let first = worlds[0]
        lanes = worlds.count
        bodyCount = first.bodies.count
        rule = first.rule
        shapeKinds = first.bodies.map(\.shape.kind)
        isStatic = first.bodies.map(\.isStatic)
        usesTOI = first.bodies.map(\.usesTOI)
        let joints = first.joints.map { BodyPair(a: $0.bodyA, b: $0.bodyB) }
        jointBodies = joints
        jointKinds = first.joints.map(\.kind)
        for (k, w) in worlds.enumerated() {
            guard w.bodies.count == bodyCount else { throw BatchStructureError(world: k, reason: "\(w.bodies.count) bodies, not \(bodyCount)") }
            guard w.rule == first.rule else { throw BatchStructureError(world: k, reason: "different collision pairs") }
            guard w.bodies.map(\.isStatic) == isStatic, w.bodies.map(\.usesTOI) == usesTOI else {
                throw BatchStructureError(world: k, reason: "items anchored or driven differently")
            }
            guard w.joints.map({ BodyPair(a: $0.bodyA, b: $0.bodyB) }) == joints,
                  w.joints.map(\.kind) == first.joints.map(\.kind) else {
                throw BatchStructureError(world: k, reason: "different joints")
            }
            guard w.bodies.allSatisfy(\.alive), w.stepCount == first.stepCount else {
                throw BatchStructureError(world: k, reason: "a world already stepped or changed")
            }
            // A body whose shape kind differs may turn a pair the other way round (the rows
            // share one order of each pair).
            for d in 0..<bodyCount where w.bodies[d].shape.kind != shapeKinds[d] {
                for o in 0..<bodyCount {
                    guard let allowed = rule.allowedOrder(d, o) else { continue }
                    let a = allowed.pair.a, b = allowed.pair.b
                    if Collide.shapeAComesFirst(w.bodies[a].shape.kind, w.bodies[b].shape.kind)
                        != Collide.shapeAComesFirst(shapeKinds[a], shapeKinds[b]) {
                        throw BatchStructureError(world: k, reason: "different collision pairs")
                    }
                }
            }
        }
        let fixedPairs = LaneRows.fixedPairs(rule: rule, kinds: shapeKinds, rowPolicy: rowPolicy)
        rows = LaneRows(fixed: fixedPairs != nil)
        let capacity = LaneRows.initialCapacity(fixedPairCount: fixedPairs?.count, bodyCount: bodyCount)
        self.worlds = worlds
        self.integrator = integrator
        self.h = h
        runningFlags = laneColumns.make(lanes, 0)
        runningFlags.update(from: active.map { $0 ? -1 : 0 }, count: lanes)
        nextSerial = laneColumns.make(lanes, 0)
        nextSerial.update(from: worlds.map(\.nextSerial), count: lanes)
        changesWaiting = laneColumns.make(lanes, 0)
        changesWaiting.update(from: worlds.map { $0.changes.isEmpty ? 0 : -1 }, count: lanes)
        laneColumns.expect(Self.laneColumnBytes(lanes: lanes), of: "LaneWorld")
        stepCount = first.stepCount

        // Items come before boundary edges, so the moving bodies are the first rows.
        bodies = LaneBodies(bodyCount: bodyCount, lanes: lanes, movingBodyCount: LaneBodies.movingBodyCount(isStatic))
        for (lane, w) in worlds.enumerated() {
            for b in 0..<bodyCount { bodies.load(w.bodies[b], body: b, lane: lane, gravity: w.gravity, h: h) }
        }
        details = LaneBodyDetails(worlds: worlds, bodies: bodies)
        sweptBoxes = LaneSweptBoxes(details: details, isStatic: isStatic, lanes: lanes)
        toiBodies = LaneTimeOfImpactBodies(details: details, movingBodyCount: bodies.movingBodyCount, isStatic: isStatic,
                                           usesTOI: usesTOI, lanes: lanes)
        shapeColumns = LaneShapeColumns(details: details, bodyCount: bodyCount, movingBodyCount: bodies.movingBodyCount, lanes: lanes)
        pairNarrowPhase = LanePairNarrowPhase(maxVertexCount: details.maxVertexCount)
        contacts = LaneContacts(lanes: lanes, capacity: capacity)
        islands = LaneIslands(lanes: lanes, bodyCount: bodyCount, capacity: capacity, jointCount: joints.count)
        bundles = ContactBundles(lanes: lanes, capacity: capacity)
        jointBundles = JointBundles(lanes: lanes, jointCount: joints.count)
        toi = LaneTimeOfImpact(lanes: lanes, capacity: capacity)
        fields = try LaneFields(worlds: worlds, isStatic: isStatic)
        if let fixedPairs {
            for f in fixedPairs { _ = row(for: f.pair, order: f.order) }
        } else {
            sweeps = Array(repeating: SortAndSweep(), count: lanes)
            laneBoxes = Array(repeating: AABB(lower: .zero, upper: .zero), count: bodyCount)
        }
        // Each lane's contacts from its world.
        for (lane, w) in worlds.enumerated() {
            for (i, pair) in w.pairs.enumerated() {
                guard let c = w.contacts[i] else { continue }
                addContact(c, row: row(for: pair, order: w.pairOrders[i]), lane: lane)
            }
        }
    }

    /// Takes lane `lane` out: it is never stepped again (its world paused, failed or ended).
    func stop(_ lane: Int) {
        runningFlags[lane] = 0
        packingValid = false
        for b in 0..<bodyCount { details.inIsland[b * lanes + lane] = 0 }
        islands.solveCount[lane] = 0
        islands.solveJointCount[lane] = 0
        islandsChanged(lane)
    }

    // MARK: Masks from Int32 lanes
    // SIMD8<Int32> comparisons compile to a lane-by-lane loop through memory at this target;
    // these build the same masks with whole-vector integer operations.

    /// A flag column (0 or −1 per lane) read as a mask.
    @inline(__always) func loadMask(_ p: UnsafeMutablePointer<Int32>, _ i: Int) -> SIMDMask<IV> {
        maskFromFlags(loadLanes(p, i))
    }

    // MARK: Per-lane views

    @inline(__always) func box(_ i: Int) -> AABB {
        AABB(lower: Vec2(details.boxLowerX[i], details.boxLowerY[i]), upper: Vec2(details.boxUpperX[i], details.boxUpperY[i]))
    }
    /// The boxes of lanes `i ..< i + 8`.
    @inline(__always) func boxLanes(_ i: Int) -> BoxLanes<V> {
        BoxLanes(lowerX: loadLanes(details.boxLowerX, i), lowerY: loadLanes(details.boxLowerY, i),
                 upperX: loadLanes(details.boxUpperX, i), upperY: loadLanes(details.boxUpperY, i))
    }
    @inline(__always) func setBox(_ box: AABB, _ i: Int) {
        details.boxLowerX[i] = box.lower.x; details.boxLowerY[i] = box.lower.y; details.boxUpperX[i] = box.upper.x; details.boxUpperY[i] = box.upper.y
    }

    @inline(__always) func transform(_ i: Int) -> Transform {
        Transform(p: Vec2(details.px[i], details.py[i]), q: Rot(s: details.qs[i], c: details.qc[i]))
    }

    @inline(__always) func sweep(_ i: Int) -> Sweep {
        Sweep(localCenter: Vec2(details.lcx[i], details.lcy[i]), c0: Vec2(details.c0x[i], details.c0y[i]), c: Vec2(bodies.cx[i], bodies.cy[i]),
              a0: details.a0[i], a: bodies.a[i], alpha0: 0)
    }

    /// Body.setAwake(true) (`wakeUp`). Waking changes what the lane's island walk reads.
    @inline(__always) func wake(_ i: Int) {
        if wakeUp(&details.awake[i], sleepTime: &details.sleepTime[i]) { islandsChanged(i % lanes) }
    }

    @inline(__always) func isActive(_ body: Int, _ lane: Int) -> Bool {
        !isStatic[body] && details.awake[body * lanes + lane] != 0
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

    // MARK: The sub-step (StepStages.swift: the stages PhysicsWorld.step runs, over lanes)

    func step() { runStages(h) }

    func findNewContacts(afterSolve: Bool) {
        updateSweptBoxes(afterSolve: afterSolve)
        dropEmptyRows()
        forEachRunningGroup(findNewContacts(group:running:))
    }

    func updateContacts() {
        updateBoxesAtTransforms()
        forEachRunningGroup(updateContacts(group:running:))
    }

    func solveIslands(_ step: StepContext) {
        islands.islandCount = 0
        for lane in 0..<lanes where running[lane] { buildIslands(lane) }
        solve(dtRatio: step.dtRatio)
    }

    func solveTimeOfImpact(_ step: StepContext) {
        forEachRunningGroup { group, running in
            let needs = lanesNeedingTimeOfImpact(group, running: running)
            guard anyLane(needs) else { return }
            for k in 0..<Self.width where needs[k] { solveTimeOfImpact(group + k) }
        }
    }

    /// Runs `stage` on every group of eight lanes with a running lane, with that group's running
    /// lanes as a mask (loaded once per group and stage, not again inside the stage).
    @inline(__always) func forEachRunningGroup(_ stage: (_ group: Int, _ running: SIMDMask<IV>) -> Void) {
        for group in stride(from: 0, to: lanes, by: Self.width) {
            let running = runningMask(group)
            if anyLane(running) { stage(group, running) }
        }
    }

    /// The group's running lanes as a mask.
    @inline(__always) func runningMask(_ group: Int) -> SIMDMask<IV> {
        loadMask(runningFlags, group)
    }
}
