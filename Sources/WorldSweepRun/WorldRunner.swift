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
    /// The name the engine goes by in run info.
    public static let engineName = "single-world"

    /// Speeds over this (pt/s), or any non-finite state, fail a world.
    public var speedLimit = 24_000.0

    public init(scene: SceneFile) { self.scene = scene }

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

    /// Runs worlds `range` in order.
    public func run(worlds range: Range<Int>) -> [WorldResult] {
        range.map { run(world: $0) }
    }
}
