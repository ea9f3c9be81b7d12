import Foundation

/// The `sweep:` section: which parameters vary, how, and how often each point is repeated.
///
/// Worlds are numbered `world = point × replicas + replica`. Every number a world gets is a pure
/// function of (file, point, replica): random draws come from a counter-based hash of the seed and
/// those indices, never from a shared generator, so threads and shards cannot change them.
public struct SweepSpec: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Every combination; the last parameter varies fastest.
        case grid
        /// The i-th value of every parameter together; all need the same count.
        case zip
        /// `samples` independent draws of every parameter.
        case random
    }

    public var kind: Kind
    /// In file order (the order of the CSV columns).
    public var parameters: [SweepParameter]
    /// Random sweeps only: how many points.
    public var samples: Int?
    public var seed: UInt64
    /// How many worlds each point makes, each with its own jitter draw.
    public var replicas: Int
    /// One entry per scalar path: `top.center: [2, 2]` becomes `top.center.x` and `top.center.y`.
    public var jitter: [JitterSpec]
    /// Every point draws the same jitter for replica r (common random numbers): `tune` compares
    /// candidates on the same noise, so their difference is the parameters', not the draws'.
    public var jitterSharedByPoints = false

    public init(kind: Kind = .grid, parameters: [SweepParameter] = [], samples: Int? = nil, seed: UInt64 = 0,
                replicas: Int = 1, jitter: [JitterSpec] = []) {
        self.kind = kind
        self.parameters = parameters
        self.samples = samples
        self.seed = seed
        self.replicas = replicas
        self.jitter = jitter
    }

    /// How many distinct parameter points: the product of the value counts (grid), their common
    /// count (zip), or `samples` (random). The parser guarantees this does not overflow.
    public var pointCount: Int {
        switch kind {
        case .grid: parameters.reduce(1) { $0 * ($1.range.count ?? 1) }
        case .zip: parameters.first?.range.count ?? 1
        case .random: samples ?? 1
        }
    }

    /// `pointCount × replicas`.
    public var worldCount: Int { pointCount * replicas }

    /// The point and replica of a world index.
    public func position(ofWorld world: Int) -> (point: Int, replica: Int) {
        (world / replicas, world % replicas)
    }

    /// The swept values of one point, one per parameter in file order.
    public func values(atPoint point: Int) -> [(path: String, value: Double)] {
        zip(parameters, parameterValues(atPoint: point)).map { ($0.path, $1) }
    }

    /// `values(atPoint:)` without the paths: what every world of a run asks for (with the paths,
    /// most of its work would be copies of the parameters).
    public func parameterValues(atPoint point: Int) -> [Double] {
        // (Checked as the digits are taken on a grid: `pointCount` walks every parameter again.)
        precondition(point >= 0 && (kind == .grid || point < pointCount), "point \(point) is outside 0..<\(pointCount)")
        return parameters.withUnsafeBufferPointer { swept in
            switch kind {
            case .grid:
                // Mixed-radix digits of the point index, the last parameter being the fastest digit.
                var remainder = point
                var values = [Double](repeating: 0, count: swept.count)
                for i in swept.indices.reversed() {
                    let count = swept[i].range.count!
                    values[i] = swept[i].range.value(at: remainder % count)
                    remainder /= count
                }
                precondition(remainder == 0, "point \(point) is outside 0..<\(pointCount)")
                return values
            case .zip:
                return swept.map { $0.range.value(at: point) }
            case .random:
                return swept.indices.map { index in swept[index].range.draw(unitDraw(seed: seed, stream: 1, point, index, 0)) }
            }
        }
    }

    /// The values of point 0, as `trace` runs it (no jitter).
    public func firstPointOverrides() -> [(path: String, value: Double)] {
        values(atPoint: 0)
    }

    /// Noise to add to each jittered path for one world: uniform in ±amplitude.
    public func jitterOffsets(point: Int, replica: Int) -> [(path: String, delta: Double)] {
        jitter.enumerated().map { index, spec in
            let u = unitDraw(seed: seed, stream: 2, jitterSharedByPoints ? 0 : point, replica, index)
            return (spec.path, spec.amplitude * (2 * u - 1))
        }
    }
}

public struct SweepParameter: Sendable, Hashable {
    /// `NAME.KEY` as written in the file.
    public var path: String
    public var range: ParameterRange
    /// Where the path appears in the file.
    public var location: SceneLocation

    public init(path: String, range: ParameterRange, location: SceneLocation = .none) {
        self.path = path
        self.range = range
        self.location = location
    }
}

/// How one parameter's values are chosen.
public enum ParameterRange: Sendable, Hashable {
    case values([Double])
    /// `count` evenly spaced values from `from` to `to`, both included.
    case linspace(from: Double, to: Double, count: Int)
    /// `count` values from `from` to `to` (both positive, both included) with a constant ratio:
    /// the end points are values, not exponents.
    case logspace(from: Double, to: Double, count: Int)
    /// `start, start + step, ...` up to `stop`, which is included when it lands on the grid.
    case range(start: Double, stop: Double, step: Double)
    /// Random sweeps only.
    case uniform(Double, Double)
    /// Random sweeps only: uniform in the logarithm; both bounds positive.
    case loguniform(Double, Double)

    /// The number of values of a discrete range; nil for a distribution.
    public var count: Int? {
        switch self {
        case .values(let values): values.count
        case .linspace(_, _, let count), .logspace(_, _, let count): count
        case let .range(start, stop, step): Self.rangeCount(start: start, stop: stop, step: step)
        case .uniform, .loguniform: nil
        }
    }

    /// The i-th value of a discrete range. Computed values are the decimals a person writes
    /// (0.3, not 0.30000000000000004: see `WrittenDecimals`), and the engine runs exactly those.
    public func value(at i: Int) -> Double {
        switch self {
        case .values(let values):
            return values[i]
        case let .linspace(from, to, count):
            if count == 1 || i == 0 { return from }
            if i == count - 1 { return to }
            let step = (to - from) / Double(count - 1)
            let computed = from + (to - from) * Double(i) / Double(count - 1)
            return WrittenDecimals.snap(computed, places: WrittenDecimals.places(from: from, step: step, stepTyped: false), scale: step)
        case let .logspace(from, to, count):
            if count == 1 || i == 0 { return from }
            if i == count - 1 { return to }
            let computed = from * pow(to / from, Double(i) / Double(count - 1))
            return WrittenDecimals.snap(computed, places: WrittenDecimals.places(ofComputed: computed, digits: WrittenDecimals.stepDigits),
                                        scale: computed)
        case let .range(start, _, step):
            let computed = start + Double(i) * step
            return WrittenDecimals.snap(computed, places: WrittenDecimals.places(from: start, step: step, stepTyped: true), scale: step)
        case .uniform, .loguniform:
            preconditionFailure("a distribution has no i-th value")
        }
    }

    /// All values of a discrete range; nil for a distribution.
    public var allValues: [Double]? {
        count.map { n in (0..<n).map(value(at:)) }
    }

    /// A draw given a uniform `u` in [0, 1): discrete ranges pick one of their values.
    public func draw(_ u: Double) -> Double {
        switch self {
        case let .uniform(a, b):
            return a + (b - a) * u
        case let .loguniform(a, b):
            return exp(log(a) + (log(b) - log(a)) * u)
        default:
            let n = count!
            return value(at: min(n - 1, Int(u * Double(n))))
        }
    }

    /// The smallest and largest value this range can produce.
    var bounds: (min: Double, max: Double) {
        switch self {
        case let .uniform(a, b), let .loguniform(a, b): return (min(a, b), max(a, b))
        case .values(let values): return (values.min()!, values.max()!)
        default:
            // Monotonic ranges: the ends are the extremes (no need to list a long range).
            let first = value(at: 0), last = value(at: count! - 1)
            return (min(first, last), max(first, last))
        }
    }

    /// How many grid points of `start + i·step` lie within [start, stop], allowing for the rounding
    /// of decimal steps (0 to 1.5 by 0.1 is 16 values).
    static func rangeCount(start: Double, stop: Double, step: Double) -> Int {
        let span = (stop - start) / step
        // The parser refuses such ranges; never trap on one made in code.
        guard span.isFinite, span >= 0, span < 0x1p62 else { return span >= 0x1p62 ? Int.max : 0 }
        return Int((span + 1e-9 * max(1, abs(span))).rounded(.down)) + 1
    }
}

public struct JitterSpec: Sendable, Hashable {
    /// A scalar `NAME.KEY`.
    public var path: String
    /// Half-width of the uniform noise.
    public var amplitude: Double
    public var location: SceneLocation

    public init(path: String, amplitude: Double, location: SceneLocation = .none) {
        self.path = path
        self.amplitude = amplitude
        self.location = location
    }
}

extension SceneFile {
    /// The scene one world of the sweep runs: the point's values, then that replica's jitter added.
    /// World 0 of a file without a sweep is the file itself.
    public func world(_ index: Int) throws(SceneError) -> SceneFile {
        try SweepWorlds(self).world(index)
    }
}

/// The worlds of a sweep, made with the swept and jittered paths resolved once: resolving a
/// path by name (splitting it, finding the item or behavior, its key table) was most of what
/// making a world cost, and the names and kinds are the same in every world.
public struct SweepWorlds: Sendable {
    public let scene: SceneFile
    /// Per sweep parameter and per jitter entry, its path resolved against the file; nil when one
    /// does not resolve (a file built in code: then each world resolves by name and throws).
    private let resolved: (parameters: [ResolvedParameter], jitter: [ResolvedParameter])?

    public init(_ scene: SceneFile) {
        self.scene = scene
        guard let sweep = scene.sweep else { resolved = nil; return }
        resolved = try? (sweep.parameters.map { p throws(SceneError) in try scene.resolve(p.path).get() },
                         sweep.jitter.map { j throws(SceneError) in try scene.resolve(j.path).get() })
    }

    /// The sweep's paths, resolved once: its parameters, then its jitter (none without a sweep;
    /// nil when some path does not resolve). `PlanTemplate` finds the plan slot of each.
    var valuePaths: [ResolvedParameter]? {
        guard scene.sweep != nil else { return [] }
        return resolved.map { $0.parameters + $0.jitter }
    }

    /// One world of the sweep as it is made: its point's swept values (what its result records, in
    /// file order) and its scene, made from those values (or why they break a rule).
    public struct World: Sendable {
        public let point: Int
        public let replica: Int
        /// The point's swept values, in the order of the sweep's parameters (none without a sweep).
        public let parameters: [Double]
        public let scene: Result<SceneFile, SceneError>
    }

    /// The scene one world of the sweep runs: the point's values, then that replica's jitter added.
    /// World 0 of a file without a sweep is the file itself.
    public func world(_ index: Int) throws(SceneError) -> SceneFile {
        try make(index).scene.get()
    }

    /// World `index` with the values it is made from, which travel with it to its result.
    public func make(_ index: Int) -> World {
        guard let sweep = scene.sweep else {
            precondition(index == 0, "a scene without a sweep has only world 0")
            return World(point: 0, replica: 0, parameters: [], scene: .success(scene))
        }
        precondition(index >= 0 && index < sweep.worldCount, "world \(index) is outside 0..<\(sweep.worldCount)")
        let (point, replica) = sweep.position(ofWorld: index)
        let values = sweep.parameterValues(atPoint: point)
        let made = Result { () throws(SceneError) -> SceneFile in try world(point: point, replica: replica, values: values, of: sweep) }
        return World(point: point, replica: replica, parameters: values, scene: made)
    }

    private func world(point: Int, replica: Int, values: [Double], of sweep: SweepSpec) throws(SceneError) -> SceneFile {
        guard let resolved else {
            var world = try scene.applying(zip(sweep.parameters, values).map { ($0.path, $1) })
            for (path, delta) in sweep.jitterOffsets(point: point, replica: replica) {
                try world.setValue(try world.value(at: path) + delta, at: path)
            }
            return world
        }
        var world = scene
        // The rules between an attachment's keys hold once every value is set, not in between.
        for (k, value) in values.enumerated() {
            try world.setValue(value, at: resolved.parameters[k], path: sweep.parameters[k].path, checkRelations: false)
        }
        for (k, (path, delta)) in sweep.jitterOffsets(point: point, replica: replica).enumerated() {
            let parameter = resolved.jitter[k]
            try world.setValue(world.value(of: parameter) + delta, at: parameter, path: path, checkRelations: false)
        }
        for (k, p) in resolved.parameters.enumerated() {
            if case .behavior(let index) = p.target { try world.checkRelations(ofBehavior: index, path: sweep.parameters[k].path) }
        }
        for (k, p) in resolved.jitter.enumerated() {
            if case .behavior(let index) = p.target { try world.checkRelations(ofBehavior: index, path: sweep.jitter[k].path) }
        }
        return world
    }
}

/// A uniform number in [0, 1) from the seed and up to three indices (SplitMix64 finalizer over a
/// combined key): the same on every machine and independent of evaluation order.
func unitDraw(seed: UInt64, stream: UInt64, _ a: Int, _ b: Int, _ c: Int) -> Double {
    var h = splitMix(seed ^ 0x5851_F42D_4C95_7F2D)
    for word in [stream, UInt64(bitPattern: Int64(a)), UInt64(bitPattern: Int64(b)), UInt64(bitPattern: Int64(c))] {
        h = splitMix(h ^ (word &* 0x9E37_79B9_7F4A_7C15))
    }
    return Double(h >> 11) * 0x1p-53
}

private func splitMix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

extension SceneFile {
    /// The swept values of the sweep's first point (none without a sweep): what `trace` runs.
    public func firstPointOverrides() -> [(path: String, value: Double)] {
        sweep?.firstPointOverrides() ?? []
    }
}
