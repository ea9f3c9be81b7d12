import WorldSweep
import WorldSweepScene

/// The metrics of one world of a plan batch: the batch's contact records fold straight into the
/// tracks (as MetricsRecorder's delegate calls would: an item pair's began once per collision
/// behavior holding both, a boundary's once), and item states come from the lanes.
final class PlanMetricsRecorder {
    private let speedLimit: Double
    private let up: (x: Double, y: Double)
    private let tickLength: Double
    private let plan: WorldPlan
    private let bodies: [Int?]
    /// Item names in file order (an item pair's partner is named by the other item).
    private let names: [String]
    /// Where the file put each item (items no behavior acts on stay there).
    private let placed: [(center: Point, angle: Double)]
    @exclusivity(unchecked) private var tracks: MetricTracks
    @exclusivity(unchecked) private var ticksRun = 0
    @exclusivity(unchecked) private(set) var failed = false

    init(scene: SceneFile, input: PlanInput, plan: WorldPlan, speedLimit: Double) {
        self.speedLimit = speedLimit
        up = MetricTracks.up(gravity: input.gravity)
        tickLength = scene.world.tick
        self.plan = plan
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
            switch plan.contactPartners(a, b) {
            case .items(let a, let b, let listeners):
                for behavior in listeners {
                    if began {
                        tracks.itemPairBegan(a, b, names: (names[a], names[b]), behavior: behavior)
                    } else {
                        tracks.ended(a); tracks.ended(b)
                    }
                }
            case .boundary(let item, _, let identifier):
                if began { tracks.boundaryBegan(item, partner: identifier ?? SceneFile.referenceBoundsPartner) } else { tracks.ended(item) }
            case nil: break   // the engine makes contacts only for pairs the rule allows
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
