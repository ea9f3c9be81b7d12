import Foundation
import WorldSweep
import WorldSweepScene

/// Runs candidate points as one sweep: a `zip` sweep over the tuned paths with one value per
/// candidate, the file's replicas and jitter (common to every candidate), through the same
/// WorldRunner and Scheduler as `run`, so each world is bit for bit what `run` would make of it.
public struct TuneEvaluator: Sendable {
    public let scene: SceneFile
    public let tune: TuneSpec
    public let replicas: Int
    /// worlds.csv's columns: the tuned paths as parameters (the layout of every generation).
    public let layout: CSVLayout
    /// Per want: the item index and column.
    private let wantColumns: [(item: Int, column: String)]
    private let curveItem: Int?
    public var engine: SweepEngine = .batched(.simd)

    public init(scene: SceneFile) {
        precondition(scene.tune != nil, "a tune needs a tune section")
        self.scene = scene
        tune = scene.tune!
        replicas = scene.sweep?.replicas ?? 1
        layout = CSVLayout(scene: Self.scene(scene, candidates: [scene.tune!.parameters.map { _ in 0 }], jitterSeed: 0))
        wantColumns = scene.tune!.wants.map { want in
            let parts = want.metric.split(separator: ".", maxSplits: 1).map(String.init)
            return (scene.items.firstIndex { $0.name == parts[0] }!, parts[1])
        }
        curveItem = scene.tune!.curve.map { c in scene.items.firstIndex { $0.name == c.item }! }
    }

    /// The file as a sweep of these candidates: zip over the tuned paths, the file's replicas and
    /// jitter, each point with the same jitter draws; the file's own swept parameters are dropped.
    public static func scene(_ scene: SceneFile, candidates: [[Double]], jitterSeed: UInt64) -> SceneFile {
        var s = scene
        let base = scene.sweep ?? SweepSpec()
        let parameters = scene.tune!.parameters.enumerated().map { k, p in
            SweepParameter(path: p.path, range: .values(candidates.map { $0[k] }), location: p.location)
        }
        var sweep = SweepSpec(kind: .zip, parameters: parameters, seed: jitterSeed, replicas: base.replicas, jitter: base.jitter)
        sweep.jitterSharedByPoints = true
        s.sweep = sweep
        s.tune = nil
        return s
    }

    public struct Batch: Sendable {
        public var evaluations: [TuneEvaluation]
        /// worlds.csv rows of every world, in order, with the generation column.
        public var rows: String
    }

    /// Evaluates `candidates` (values per tuned parameter); nil when cancelled before the end.
    public func evaluate(_ candidates: [[Double]], generation: Int, firstPoint: Int, jitterSeed: UInt64, threads: Int,
                         cancel: CancellationFlag) throws -> Batch? {
        let generationScene = Self.scene(scene, candidates: candidates, jitterSeed: jitterSeed)
        var generationRunner = WorldRunner(scene: generationScene)
        generationRunner.engine = engine
        let runner = generationRunner
        let worlds = generationScene.worldCount
        let replicas = self.replicas, layout = self.layout
        let curve = tune.curve, curveItem = self.curveItem
        let worldMaker = SweepWorlds(generationScene)
        let scheduler = Scheduler(threads: threads, chunkSize: max(Scheduler.smallestTailChunk, min(64, worlds / max(1, threads))))
        var results: [WorldResult] = []
        var curveErrors: [Double?] = []
        results.reserveCapacity(worlds)
        let end = try scheduler.run(0..<worlds, cancel: cancel, work: { chunk in
            let r = runner.run(worlds: chunk)
            let errors: [Double?] = curve.map { c in chunk.map { i in (try? worldMaker.world(i)).flatMap { CurveFit.error(of: $0, item: curveItem!, curve: c) } } }
                ?? chunk.map { _ in nil }
            return (r, errors)
        }, consume: { _, out in
            results += out.0
            curveErrors += out.1
        })
        guard end == worlds else { return nil }
        var rows = ""
        let worldOffset = firstPoint * replicas
        for var r in results {
            r.world += worldOffset
            r.point += firstPoint
            rows += layout.row(r).dropLast() + ",\(generation)\n"
        }
        let metrics = scene.metricCatalog
        let evaluations = candidates.indices.map { c in
            let mine = results[(c * replicas)..<((c + 1) * replicas)]
            var means: [Double?] = [], stds: [Double] = [], counts: [Int] = []
            for (item, column) in wantColumns {
                let values = mine.compactMap { $0.metric(item: item, column: column, in: metrics) }
                let stats = meanAndStd(values)
                means.append(stats?.mean); stds.append(stats?.std ?? 0); counts.append(values.count)
            }
            var curveError: Double?
            if curve != nil {
                let errors = curveErrors[(c * replicas)..<((c + 1) * replicas)]
                // A world that fails its curve (it blew up) counts as infinitely far.
                curveError = errors.contains(where: { $0 == nil }) ? Double.infinity
                    : errors.reduce(0) { $0 + $1! } / Double(errors.count)
            }
            return TuneEvaluation(generation: generation, point: firstPoint + c, values: candidates[c], means: means, stds: stds,
                                  counts: counts, curveError: curveError, replicas: replicas)
        }
        return Batch(evaluations: evaluations, rows: rows)
    }
}

/// A world's distance from a curve: the item's state after the tick nearest each sample's time,
/// as `trace` prints it (the single-world animator).
public enum CurveFit {
    /// The root-mean-square distance in points (the angle, when given, counts at the item's half
    /// diagonal: an angle error of δ moves its corners by about that many points times δ).
    public static func error(of scene: SceneFile, item: Int, curve: TuneCurve) -> Double? {
        let built = scene.makeAnimator()
        let tick = scene.world.tick
        let size = scene.items[item].size
        let arm = 0.5 * (size.width * size.width + size.height * size.height).squareRoot()
        var sum = 0.0
        var done = 0
        var current = 0
        var center = scene.items[item].center, angle = scene.items[item].angle
        for sample in curve.samples {
            let target = min(scene.world.ticks, Int((sample.time / tick).rounded()))
            while current < target {
                current += 1
                built.animator.tick(built.tick)
                if let s = built.animator.itemState(for: built.views[item]) { center = s.center; angle = s.angle }
            }
            let dx = center.x - sample.x, dy = center.y - sample.y
            guard dx.isFinite, dy.isFinite else { return nil }
            var d2 = dx * dx + dy * dy
            if let wanted = sample.angle { let da = (angle - wanted) * arm; d2 += da * da }
            sum += d2
            done += 1
        }
        return (sum / Double(max(done, 1))).squareRoot()
    }
}
