import WorldSweep
import WorldSweepScene

/// Records the contract's per-item metrics of one live animator's world while it runs (the
/// single-world engine; sweeps on the batched engine use PlanMetricsRecorder): contact counts
/// (in total and per partner), bounce heights, rest time and final state, and blow-ups.
///
/// Install it with `attach()` before the first tick, call `afterTick(_:)` after every tick.
final class MetricsRecorder {
    /// Speeds above this (pt/s) mark the world as blown up.
    static let defaultSpeedLimit = 24_000.0
    private let speedLimit: Double
    /// How many bounce heights each item keeps.
    static let maxBounces = 8

    fileprivate let built: BuiltScene
    fileprivate let indexOfItem: [ObjectIdentifier: Int]
    /// Unit vector against gravity (up), in points; from the scene's last gravity behavior.
    private let up: (x: Double, y: Double)
    private let tickLength: Double

    /// Everything that changes while the world runs, in one value that a tick folds into
    /// through one mutating call.
    @exclusivity(unchecked) fileprivate var tracks: MetricTracks
    var items: [ItemResult] { tracks.items }
    @exclusivity(unchecked) private(set) var ticksRun = 0
    @exclusivity(unchecked) private(set) var failed = false
    @exclusivity(unchecked) fileprivate(set) var paused = false
    /// The delegate the animator and behaviors hold (weakly) on the recorder's behalf.
    private var listener: Listener?
    /// Each view's body in the animator, as of configuration `bodiesConfiguration`.
    @exclusivity(unchecked) private var bodies: [Int?] = []
    @exclusivity(unchecked) private var bodiesConfiguration = -1

    init(_ built: BuiltScene, speedLimit: Double = MetricsRecorder.defaultSpeedLimit) {
        self.built = built
        self.speedLimit = speedLimit
        indexOfItem = Dictionary(uniqueKeysWithValues: built.views.enumerated().map { (ObjectIdentifier($1), $0) })
        var gravity: Vector?
        for entry in built.behaviors {
            if let behavior = entry.behavior as? GravityBehavior { gravity = behavior.gravityDirection }
        }
        up = MetricTracks.up(gravity: gravity)
        tickLength = built.tick
        tracks = MetricTracks(itemCount: built.views.count)
        tracks.watchForSaturation(built.scene)
        tracks.watchRest(RestTarget.targets(of: built.scene))
        let scene = built.scene
        var plan: WorldPlan?
        tracks.watchWritten(scene) { item in
            if plan == nil { plan = scene.worldPlan() }
            return plan!.massAndInertia(ofItem: item)
        }
    }

    func attach() {
        let listener = Listener(self)
        self.listener = listener
        built.animator.delegate = listener
        for (_, behavior) in built.collisionBehaviors { behavior.collisionDelegate = listener }
    }

    // MARK: After each tick

    /// Folds the tick's events and states into the metrics; returns false when the world blew up.
    @discardableResult
    func afterTick(_ tick: Int) -> Bool {
        ticksRun = tick
        let animator = built.animator
        if animator.configurationCount != bodiesConfiguration {
            bodies = built.views.map { animator.bodyIndex(of: $0) }
            bodiesConfiguration = animator.configurationCount
        }
        guard tracks.fold(tick: tick, bodies: bodies, up: up, speedLimit: speedLimit, state: { animator.itemState(ofBody: $1) }) else {
            failed = true
            return false
        }
        return true
    }

    /// The results after the last tick.
    func finish() -> [ItemResult] {
        if failed { return Array(repeating: ItemResult(), count: items.count) }
        let animator = built.animator, views = built.views
        return tracks.finish(ticksRun: ticksRun, ticks: built.tickCount, tickLength: tickLength, up: up,
                             state: { animator.itemState(for: views[$0]) },
                             placed: { (views[$0].center, views[$0].angle) })
    }
}

/// The recorder's ears: it collects a tick's contact events and pauses into the recorder's
/// tracks. Animators and behaviors hold their delegates weakly, and a weakly referenced object
/// keeps its reference counts in a side table, where every retain takes the runtime's slow path;
/// the recorder, retained every tick, stays out of that by listening through this small object.
private final class Listener: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    unowned let recorder: MetricsRecorder
    init(_ recorder: MetricsRecorder) { self.recorder = recorder }

    private func index(_ item: DynamicItem) -> Int? { recorder.indexOfItem[ObjectIdentifier(item)] }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at point: Point) {
        guard let a = index(item1), let b = index(item2) else { return }
        let views = recorder.built.views
        recorder.tracks.itemPairBegan(a, b, names: (views[a].name, views[b].name),
                                      behavior: Int(bitPattern: UInt(bitPattern: ObjectIdentifier(behavior))))
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {
        guard let a = index(item1), let b = index(item2) else { return }
        recorder.tracks.ended(a); recorder.tracks.ended(b)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?, at point: Point) {
        guard let a = index(item) else { return }
        recorder.tracks.boundaryBegan(a, partner: identifier ?? SceneFile.referenceBoundsPartner)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?) {
        guard let a = index(item) else { return }
        recorder.tracks.ended(a)
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { recorder.paused = true }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { recorder.paused = false }
}
