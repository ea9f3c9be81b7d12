import WorldSweep
import WorldSweepScene

/// Runs single worlds of a sweep file. A value type holding only the validated file, so any
/// number of threads can share one; every world builds its own animator.
public struct WorldRunner: Sendable {
    public let scene: SceneFile
    /// Makes the file's worlds (its swept paths resolved once).
    let worldMaker: SweepWorlds
    /// How many worlds the file makes (1 without a sweep).
    public var worldCount: Int { scene.worldCount }
    public var replicas: Int { scene.sweep?.replicas ?? 1 }
    public var pointCount: Int { scene.pointCount }
    public var ticksPerWorld: Int { scene.world.ticks }
    /// Swept parameter paths in file order.
    public var parameterPaths: [String] { scene.sweep?.parameters.map(\.path) ?? [] }
    public var itemNames: [String] { scene.items.map(\.name) }
    /// Which engine steps the worlds: the batched one (default) or one world at a time.
    public var engine: SweepEngine = .batched(.simd)
    /// How the batch gives pairs rows (tests run small worlds sparse too, to compare).
    package var rowPolicy: LaneRowPolicy = .bySize
    /// The batches' layout; nil: `PlanBatchLayout.of` each batch (tests force one, to compare).
    package var layout: PlanBatchLayout?
    /// Whether a lanes batch's metrics fold eight worlds at a time (tests fold world by world too, to compare).
    package var foldsLanes = true
    /// Threads a batch's big world (the `.solo` layout) may split its sub-steps over: the
    /// scheduler's spare threads when it has fewer chunks of worlds than threads. Results are the
    /// same bits at any count.
    public var threadsPerWorld = 1

    /// Speeds over this (pt/s), or any non-finite state, fail a world.
    public var speedLimit = 24_000.0

    /// The memory one world and one batch of this file's worlds need.
    public let memoryPlan: MemoryPlan
    /// Why the file's own values are past the engine's limits (a scene made in code; files that
    /// parsed never are): then every world is failed without running.
    let ruleProblem: String?

    public init(scene: SceneFile) {
        self.scene = scene
        ruleProblem = scene.ruleProblem()
        worldMaker = SweepWorlds(scene)
        memoryPlan = MemoryPlan(scene: scene)
    }

    /// Runs world `index` (point × replicas + replica) to the end of its ticks, or until it blows up.
    public func run(world index: Int) -> WorldResult {
        // The values the world is made from are the ones its result records.
        let made = worldMaker.make(index)
        let failedResult = self.failedResult(index, made)
        guard ruleProblem == nil, case .success(let worldScene) = made.scene else { return failedResult }
        let built = worldScene.makeAnimator()
        let recorder = MetricsRecorder(built, speedLimit: speedLimit)
        recorder.attach()
        let ticks = worldScene.world.ticks
        var tick = 0
        while tick < ticks {
            tick += 1
            built.animator.tick(built.tick)
            guard recorder.afterTick(tick) else { return failedResult }
            // A paused animator stays exactly as it is until a behavior changes, and none will:
            // the remaining ticks would change nothing.
            if recorder.paused { break }
        }
        return WorldResult(world: index, point: made.point, replica: made.replica, parameters: made.parameters,
                           items: recorder.finish(), failed: false)
    }

    /// Runs worlds `range` in order, on the chosen engine.
    public func run(worlds range: Range<Int>) -> [WorldResult] {
        switch engine {
        case .single: range.map { run(world: $0) }
        case .batched(let integrator): runBatched(Array(range), integrator: integrator)
        }
    }

    /// Runs `worlds` (any indices, in this order) as one batch: every world ticks in lockstep with
    /// the others and drops out when it pauses, fails or reaches its last tick. Each world is its
    /// scene's plan (no views, behaviors, delegates or animators): pushes act on the lanes and the
    /// metrics fold the batch's contact records. Worlds that cannot share the batch's structure
    /// run one at a time instead.
    func runBatched(_ worlds: [Int], integrator: LaneIntegrator) -> [WorldResult] {
        // Worlds whose batch would not fit the batch budget run one at a time, with the same
        // results bit for bit.
        guard memoryPlan.batchFits, ruleProblem == nil else { return worlds.map { run(world: $0) } }
        // What a world's result records of how it was made (not its scene, which the batch's plan replaces).
        struct Member { var slot: Int; var index: Int; var tick: Double; var point: Int; var replica: Int; var parameters: [Double] }
        var results = [WorldResult?](repeating: nil, count: worlds.count)
        var members: [Member] = []
        var plans: [WorldPlan] = []
        var recorder: PlanMetricsRecorder?   // hears contacts by the first plan: the batch's worlds share its structure
        // The first world compiled: the others are its plan with their values set (or, where
        // they differ in more than values, compiled with its collisions).
        var template: PlanTemplate?
        for (slot, index) in worlds.enumerated() {
            let world = worldMaker.make(index)
            guard case .success(let worldScene) = world.scene else { results[slot] = failedResult(index, world); continue }
            let made: (plan: WorldPlan, gravity: Vector?)
            if let template {
                made = template.plan(for: worldScene)
            } else {
                let first = PlanTemplate(worldScene, of: worldMaker)
                template = first
                made = (first.plan, first.input.gravity)
            }
            let plan = made.plan
            let metrics = recorder ?? {
                let names = worldScene.items.map(\.name)
                return PlanMetricsRecorder(hearers: ContactHearers(plan: plan, names: names), itemNames: names, speedLimit: speedLimit)
            }()
            metrics.foldsLanes = foldsLanes
            recorder = metrics
            // Worlds whose items sit on other bodies (not a sweep's) run one at a time.
            guard metrics.add(scene: worldScene, gravity: made.gravity, plan: plan) else { return worlds.map { run(world: $0) } }
            members.append(Member(slot: slot, index: index, tick: worldScene.world.tick, point: world.point, replica: world.replica,
                                  parameters: world.parameters))
            plans.append(plan)
        }
        guard let first = members.first, let recorder else { return results.map { $0! } }
        guard members.allSatisfy({ $0.tick == first.tick }),
              let batch = try? PlanBatch(plans, integrator: integrator, rowPolicy: rowPolicy, layout: layout,
                                         threadsPerWorld: threadsPerWorld)
        else { return worlds.map { run(world: $0) } }
        plans = []   // the batch holds what it needs
        var running = members.count
        var tick = 0
        batch.keepingHelpersAwake {
            while running > 0 {
                tick += 1
                batch.tick(first.tick)
                // Folds every running world and stops those that failed, paused or are done.
                running -= recorder.afterTick(tick, batch: batch)
            }
        }
        for (k, m) in members.enumerated() {
            results[m.slot] = WorldResult(world: m.index, point: m.point, replica: m.replica, parameters: m.parameters,
                                          items: recorder.worlds[k].failed ? failedItems : recorder.finish(batch: batch, world: k),
                                          failed: recorder.worlds[k].failed)
        }
        return results.map { $0! }
    }

    /// World `index` failed (its values break a rule, or it blew up): its values, no measurements.
    private func failedResult(_ index: Int, _ made: SweepWorlds.World) -> WorldResult {
        WorldResult(world: index, point: made.point, replica: made.replica, parameters: made.parameters, items: failedItems, failed: true)
    }

    /// A failed world's items: no measurements.
    private var failedItems: [ItemResult] { Array(repeating: ItemResult(), count: scene.items.count) }
}

/// The engine a sweep runs on.
public enum SweepEngine: Sendable, Equatable {
    /// One world at a time, through DynamicAnimator.tick.
    case single
    /// Many worlds per instruction (PlanBatch), with the given integrator back end.
    case batched(LaneIntegrator)

    /// The name the engine goes by in run info.
    public var name: String {
        switch self {
        case .single: "single-world"
        case .batched(let integrator): "batched-\(integrator.rawValue)"
        }
    }
}
