import WorldSweep
import WorldSweepScene

/// The metrics of a plan batch's worlds: the batch's contact records fold straight into each
/// world's tracks (as MetricsRecorder's delegate calls would: an item pair's began once per
/// collision behavior holding both, a boundary's once), and item states come from the lanes.
/// One object for the whole batch, its worlds' values in one array: a tick folds every running
/// world in one call. A lanes batch folds eight worlds per instruction (LaneMetricFold.swift);
/// a solo batch world by world, from item states read a block of worlds per call.
final class PlanMetricsRecorder {
    /// One world's part, in lane order.
    struct World {
        let up: (x: Double, y: Double)
        let tickLength: Double
        /// Ticks the world runs at most.
        let ticks: Int
        let bodies: [Int?]
        /// Where the file put each item (items no behavior acts on stay there).
        let placed: [(center: Point, angle: Double)]
        var tracks: MetricTracks
        var ticksRun = 0
        var failed = false
    }
    let speedLimit: Double
    /// Who hears of a pair's contacts (shared by the batch's worlds).
    private let hearers: ContactHearers
    /// Item names in file order (the same in every world of a file).
    private let names: [String]
    /// Each item's index by name (`MetricTracks.indexOfItem`), for arming each world's checks.
    private let indexOfItem: [String: Int]
    /// (The lane fold, LaneMetricFold.swift, folds into them too.)
    @exclusivity(unchecked) var worlds: [World] = []
    /// A lanes batch's item tracks in columns (LaneMetricFold.swift), made at its first tick.
    private var laneTracks: LaneItemTracks?
    /// Whether a lanes batch folds eight worlds at a time (false: world by world, as a solo
    /// batch does; tests compare the two).
    var foldsLanes = true
    /// The item states of a block of worlds (`block` of them, item by item within a world), read
    /// from the batch in one call per block (kept between ticks, so a tick allocates nothing).
    /// Only items with a body are written and read: ItemState is plain data, so the others may
    /// stay uninitialized.
    private let states: UnsafeMutablePointer<ItemState>
    /// What the batch says of each world of the block.
    private let readings: UnsafeMutablePointer<PlanBatch.WorldReading>
    private static let block = 64
    /// Each item's body, the same in every world added (a sweep cannot change which behaviors
    /// hold an item): one list to read every world's states by.
    private var bodies: [Int?]?
    /// Owns `states` and `readings`.
    private let columns = Columns()
    /// The last world's boundary loops and what they were worked out from: a batch's worlds
    /// mostly share them, so a small world need not work them out again.
    private var lastLoops: (inputs: MetricTracks.BoundaryLoopInputs, loops: [MetricTracks.Loop?])?

    /// `hearers` must answer for the bodies and rule of every plan added (one batch's).
    init(hearers: ContactHearers, itemNames: [String], speedLimit: Double) {
        self.hearers = hearers
        names = itemNames
        indexOfItem = Dictionary(uniqueKeysWithValues: itemNames.enumerated().map { ($1, $0) })
        self.speedLimit = speedLimit
        states = columns.make(uninitialized: itemNames.count * Self.block)
        readings = columns.make(uninitialized: Self.block)
    }

    /// Adds the next lane's world (`gravity`: its direction, as `PlanInput.gravity`).
    /// False, adding nothing, when its items are on other bodies than the first world's.
    func add(scene: SceneFile, gravity: Vector?, plan: WorldPlan) -> Bool {
        if bodies == nil { bodies = plan.bodyOfItem }
        guard plan.bodyOfItem == bodies else { return false }
        var tracks = MetricTracks(itemCount: scene.items.count)
        let inputs = MetricTracks.BoundaryLoopInputs(scene)
        if lastLoops?.inputs != inputs {
            lastLoops = (inputs, MetricTracks.boundaryLoops(scene, indexOfItem: indexOfItem))
        }
        tracks.watchForSaturation(scene, loops: lastLoops!.loops)
        tracks.watchRest(RestTarget.targets(of: scene))
        tracks.watchWritten(scene) { plan.massAndInertia(ofItem: $0) }
        worlds.append(World(up: MetricTracks.up(gravity: gravity), tickLength: scene.world.tick, ticks: scene.world.ticks,
                            bodies: plan.bodyOfItem, placed: scene.items.map { ($0.center, $0.angle) }, tracks: tracks))
        return true
    }

    /// Folds tick `tick` of every running world of `batch` (world k in lane k): its contact
    /// changes, then its states; stops the worlds that failed, paused (every body asleep:
    /// nothing would change again) or ran their last tick. Returns how many it stopped.
    func afterTick(_ tick: Int, batch: PlanBatch) -> Int {
        guard let bodies else { return 0 }
        if foldsLanes, let groups = batch.laneGroupCount {
            let lanes = laneTracks ?? LaneItemTracks(worlds, lanes: groups * 8, itemCount: names.count)
            laneTracks = lanes
            return afterLaneTick(tick, batch: batch, groups: groups, bodies: bodies, lanes: lanes)
        }
        var stopped = 0
        let n = names.count, states = self.states, readings = self.readings
        worlds.withUnsafeMutableBufferPointer { worlds in
            for start in stride(from: 0, to: worlds.count, by: Self.block) {
                let range = start..<min(start + Self.block, worlds.count)
                batch.readRunning(range, bodies: bodies, states: states, readings: readings)
                for k in range {
                    let slot = k - start, reading = readings[slot]
                    guard reading.contains(.running) else { continue }
                    if fold(&worlds[k], tick, batch: batch, world: k, states: states + slot * n,
                            contactChanges: reading.contains(.contactChanges))
                        && !reading.contains(.asleep) && tick < worlds[k].ticks { continue }
                    batch.stop(k)
                    stopped += 1
                }
            }
        }
        return stopped
    }

    /// One world's tick from its item states (`states`, by item); false when it blew up.
    private func fold(_ world: inout World, _ tick: Int, batch: PlanBatch, world k: Int, states: UnsafeMutablePointer<ItemState>,
                      contactChanges: Bool) -> Bool {
        world.ticksRun = tick
        if contactChanges { takeContactChanges(&world, batch: batch, world: k) }
        guard world.tracks.fold(tick: tick, bodies: world.bodies, up: world.up, speedLimit: speedLimit,
                                state: { i, _ in states[i] }) else {
            world.failed = true
            return false
        }
        return true
    }

    /// World `k`'s contact changes into its tracks.
    func takeContactChanges(_ world: inout World, batch: PlanBatch, world k: Int) {
        batch.takeContactChanges(k) { a, b, began in
            switch hearers.of(a, b) {
            case .items(let a, let b, let names, let listeners):
                for behavior in listeners {
                    if began {
                        world.tracks.itemPairBegan(a, b, names: names, behavior: behavior)
                    } else {
                        world.tracks.ended(a); world.tracks.ended(b)
                    }
                }
            case .boundary(let item, let partner):
                if began { world.tracks.boundaryBegan(item, partner: partner) } else { world.tracks.ended(item) }
            case .nobody: break   // the engine makes contacts only for pairs the rule allows
            }
        }
    }

    /// World `k`'s results after its last tick.
    func finish(batch: PlanBatch, world k: Int) -> [ItemResult] {
        if worlds[k].failed { return Array(repeating: ItemResult(), count: names.count) }
        laneTracks?.writeBack(into: &worlds[k].tracks, world: k)
        let bodies = worlds[k].bodies, placed = worlds[k].placed
        return worlds[k].tracks.finish(ticksRun: worlds[k].ticksRun, ticks: worlds[k].ticks, tickLength: worlds[k].tickLength, up: worlds[k].up,
                                       state: { i in bodies[i].map { batch.itemState(k, body: $0) } },
                                       placed: { placed[$0] })
    }
}

/// Who hears of a body pair's contacts and under which names, worked out once per pair for a
/// whole batch: `WorldPlan.contactPartners` walks the rule and allocates its listener list on
/// every call, and every world of a batch has the same bodies and rule (`sharesStructure`), so
/// one answer serves them all.
final class ContactHearers {
    enum Hearers {
        /// Two items (input item indices) and their names; each listed collision behavior reports it.
        case items(Int, Int, names: (String, String), listeners: [Int])
        /// An item and the boundary it touched, by the partner name metrics use.
        case boundary(item: Int, partner: String)
        /// The rule keeps the pair apart.
        case nobody
    }
    private let plan: WorldPlan
    /// Item names in file order.
    private let names: [String]
    /// By `a × bodyCount + b`: a table while it stays small (up to 64 bodies: hashing the key
    /// cost more than folding the contact change), else a dictionary.
    @exclusivity(unchecked) private var table: [Hearers?]
    @exclusivity(unchecked) private var known: [Int: Hearers] = [:]
    private let bodyCount: Int
    private static let tableBodies = 64

    init(plan: WorldPlan, names: [String]) {
        self.plan = plan
        self.names = names
        bodyCount = plan.bodyCount
        table = bodyCount <= Self.tableBodies ? Array(repeating: nil, count: bodyCount * bodyCount) : []
    }

    /// Who hears of a contact between bodies a and b (in the order the batch reports them).
    func of(_ a: Int, _ b: Int) -> Hearers {
        let key = a * bodyCount + b
        if table.isEmpty {
            if let known = known[key] { return known }
        } else if let known = table[key] {
            return known
        }
        let hearers: Hearers = switch plan.contactPartners(a, b) {
        case .items(let a, let b, let listeners): .items(a, b, names: (names[a], names[b]), listeners: listeners)
        case .boundary(let item, _, let identifier): .boundary(item: item, partner: identifier ?? SceneFile.referenceBoundsPartner)
        case nil: .nobody
        }
        if table.isEmpty { known[key] = hearers } else { table[key] = hearers }
        return hearers
    }
}
