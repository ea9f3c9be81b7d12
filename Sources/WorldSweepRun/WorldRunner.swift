import WorldSweep
import WorldSweepScene

/// Runs single worlds of a sweep file. A value type holding only the validated file, so any
/// number of threads can share one; every world builds its own animator.
public struct WorldRunner: Sendable {
    public let scene: SceneFile
    /// How many worlds the file makes (1 without a sweep).
    public var worldCount: Int { scene.worldCount }
    public var replicas: Int { scene.sweep?.replicas ?? 1 }
    public var pointCount: Int { scene.sweep?.pointCount ?? 1 }
    public var ticksPerWorld: Int { scene.world.ticks }
    /// Swept parameter paths in file order.
    public var parameterPaths: [String] { scene.sweep?.parameters.map(\.path) ?? [] }
    public var itemNames: [String] { scene.items.map(\.name) }
    /// Which engine steps the worlds: the batched one (default) or one world at a time.
    public var engine: SweepEngine = .batched(.simd)

    /// Speeds over this (pt/s), or any non-finite state, fail a world.
    public var speedLimit = 24_000.0

    /// The memory one world and one batch of this file's worlds need.
    public let memoryPlan: MemoryPlan

    public init(scene: SceneFile) {
        self.scene = scene
        memoryPlan = MemoryPlan(scene: scene)
    }

    /// The swept values of a point, in file order.
    public func parameters(ofPoint point: Int) -> [Double] {
        scene.sweep.map { $0.values(atPoint: point).map(\.value) } ?? []
    }

    /// Runs world `index` (point × replicas + replica) to the end of its ticks, or until it blows up.
    public func run(world index: Int) -> WorldResult {
        let point = index / replicas, replica = index % replicas
        let parameters = self.parameters(ofPoint: point)
        let failedResult = WorldResult(world: index, point: point, replica: replica, parameters: parameters,
                                       items: Array(repeating: ItemResult(), count: scene.items.count), failed: true)
        guard let worldScene = try? scene.world(index) else { return failedResult }
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
        return WorldResult(world: index, point: point, replica: replica, parameters: parameters,
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
    /// the others and drops out when it pauses, fails or reaches its last tick. Worlds that cannot
    /// share the batch's structure run one at a time instead.
    func runBatched(_ worlds: [Int], integrator: LaneIntegrator) -> [WorldResult] {
        // A batch's per-(pair, lane) columns grow with the square of the items: worlds whose
        // batch would not fit run one at a time, with the same results bit for bit.
        guard memoryPlan.batchFits else { return worlds.map { run(world: $0) } }
        struct Member { var slot: Int; var index: Int; var built: BuiltScene; var recorder: MetricsRecorder; var ticks: Int }
        var results = [WorldResult?](repeating: nil, count: worlds.count)
        var members: [Member] = []
        for (slot, index) in worlds.enumerated() {
            guard let worldScene = try? scene.world(index) else { results[slot] = failedResult(index); continue }
            let built = worldScene.makeAnimator()
            let recorder = MetricsRecorder(built, speedLimit: speedLimit)
            recorder.attach()
            members.append(Member(slot: slot, index: index, built: built, recorder: recorder, ticks: worldScene.world.ticks))
        }
        guard let first = members.first else { return results.map { $0! } }
        guard members.allSatisfy({ $0.built.tick == first.built.tick }),
              let batch = try? BatchAnimator(members.map(\.built.animator), integrator: integrator)
        else { return worlds.map { run(world: $0) } }
        var failed = [Bool](repeating: false, count: members.count)
        var running = members.count
        var tick = 0
        while running > 0 {
            tick += 1
            batch.tick(first.built.tick)
            // By index: copying a Member per world and tick costs more than the metrics.
            for k in members.indices where batch.isRunning(k) {
                let recorder = members[k].recorder
                if !recorder.afterTick(tick) {
                    failed[k] = true
                } else if !recorder.paused && tick < members[k].ticks {
                    continue
                }
                // Failed, paused (nothing would change again) or done.
                batch.stop(k)
            }
            // Animators that paused inside the tick already left the batch.
            running = members.indices.filter { batch.isRunning($0) }.count
        }
        for (k, m) in members.enumerated() {
            let point = m.index / replicas, replica = m.index % replicas
            results[m.slot] = failed[k] ? failedResult(m.index)
                : WorldResult(world: m.index, point: point, replica: replica, parameters: parameters(ofPoint: point),
                              items: m.recorder.finish(), failed: false)
        }
        return results.map { $0! }
    }

    private func failedResult(_ index: Int) -> WorldResult {
        let point = index / replicas
        return WorldResult(world: index, point: point, replica: index % replicas, parameters: parameters(ofPoint: point),
                           items: Array(repeating: ItemResult(), count: scene.items.count), failed: true)
    }
}

/// The engine a sweep runs on.
public enum SweepEngine: Sendable, Equatable {
    /// One world at a time, through DynamicAnimator.tick.
    case single
    /// Many worlds per instruction (BatchAnimator), with the given integrator back end.
    case batched(LaneIntegrator)

    /// The name the engine goes by in run info.
    public var name: String {
        switch self {
        case .single: "single-world"
        case .batched(let integrator): "batched-\(integrator.rawValue)"
        }
    }
}
