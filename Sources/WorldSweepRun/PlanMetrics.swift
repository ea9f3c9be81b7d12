import WorldSweep
import WorldSweepScene

/// The metrics of one world of a plan batch: the batch's contact records fold straight into the
/// tracks (as MetricsRecorder's delegate calls would: an item pair's began once per collision
/// behavior holding both, a boundary's once), and item states come from the lanes.
final class PlanMetricsRecorder {
    private let speedLimit: Double
    private let up: (x: Double, y: Double)
    private let tickLength: Double
    /// Who hears of a pair's contacts (shared by the batch's worlds).
    private let hearers: ContactHearers
    private let bodies: [Int?]
    /// Item names in file order (an item pair's partner is named by the other item).
    private let names: [String]
    /// Where the file put each item (items no behavior acts on stay there).
    private let placed: [(center: Point, angle: Double)]
    @exclusivity(unchecked) private var tracks: MetricTracks
    @exclusivity(unchecked) private var ticksRun = 0
    @exclusivity(unchecked) private(set) var failed = false

    /// `hearers` must answer for this plan's bodies and rule (any plan of the same batch).
    init(scene: SceneFile, input: PlanInput, plan: WorldPlan, hearers: ContactHearers, speedLimit: Double) {
        self.speedLimit = speedLimit
        up = MetricTracks.up(gravity: input.gravity)
        tickLength = scene.world.tick
        self.hearers = hearers
        bodies = plan.bodyOfItem
        names = scene.items.map(\.name)
        placed = scene.items.map { ($0.center, $0.angle) }
        tracks = MetricTracks(itemCount: scene.items.count)
        tracks.watchForSaturation(scene)
        tracks.watchRest(RestTarget.targets(of: scene))
    }

    /// Folds world `k`'s tick: its contact changes, then its states. False when it blew up.
    func afterTick(_ tick: Int, batch: PlanBatch, world k: Int) -> Bool {
        ticksRun = tick
        batch.takeContactChanges(k) { a, b, began in
            switch hearers.of(a, b) {
            case .items(let a, let b, let names, let listeners):
                for behavior in listeners {
                    if began {
                        tracks.itemPairBegan(a, b, names: names, behavior: behavior)
                    } else {
                        tracks.ended(a); tracks.ended(b)
                    }
                }
            case .boundary(let item, let partner):
                if began { tracks.boundaryBegan(item, partner: partner) } else { tracks.ended(item) }
            case .nobody: break   // the engine makes contacts only for pairs the rule allows
            }
        }
        guard tracks.fold(tick: tick, bodies: bodies, up: up, speedLimit: speedLimit, state: { batch.itemState(k, body: $0) }) else {
            failed = true
            return false
        }
        return true
    }

    /// The results after the last tick.
    func finish(batch: PlanBatch, world k: Int) -> [ItemResult] {
        if failed { return Array(repeating: ItemResult(), count: names.count) }
        let bodies = self.bodies, placed = self.placed
        return tracks.finish(ticksRun: ticksRun, tickLength: tickLength, up: up,
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
    /// By `a × bodyCount + b`.
    private var known: [Int: Hearers] = [:]

    init(plan: WorldPlan, names: [String]) {
        self.plan = plan
        self.names = names
    }

    /// Who hears of a contact between bodies a and b (in the order the batch reports them).
    func of(_ a: Int, _ b: Int) -> Hearers {
        let key = a * plan.bodyCount + b
        if let known = known[key] { return known }
        let hearers: Hearers = switch plan.contactPartners(a, b) {
        case .items(let a, let b, let listeners): .items(a, b, names: (names[a], names[b]), listeners: listeners)
        case .boundary(let item, _, let identifier): .boundary(item: item, partner: identifier ?? SceneFile.referenceBoundsPartner)
        case nil: .nobody
        }
        known[key] = hearers
        return hearers
    }
}
