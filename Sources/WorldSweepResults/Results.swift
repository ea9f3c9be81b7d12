// What one world produces and what a sweep point aggregates: the data model shared by the
// runner (which fills it), worlds.csv / summary.json (which store it) and the report (which reads it).
// Plain data in a module built once, so both compilations of the run path (Package.swift) hand the
// commands the same types.

/// The metrics of one item in one world (contract: bounce_heights, contact_counts, rest_time,
/// final_state).
public struct ItemResult: Sendable, Hashable, Codable {
    /// "began" contact events in total.
    public var contacts: Int
    /// "began" events per partner: another item's name, a boundary identifier, or `bounds`.
    public var contactsByPartner: [String: Int]
    /// After each contact ends, how far the centre rises against gravity before the next contact
    /// begins (apex above the point where it left), in points; the first eight.
    public var bounceHeights: [Double]
    /// Simulated time (s) at which the item fell asleep for good; nil if never.
    public var restTime: Double?
    /// Final x, y (pt), angle (rad), vx, vy (pt/s), angular velocity (rad/s).
    public var x: Double, y: Double, angle: Double
    public var vx: Double, vy: Double, angularVelocity: Double
    /// Overshoot, settle time and oscillations, for an item with a rest target (a snap, a spring,
    /// a pendulum); nil for the others.
    public var spring: SpringResult?
    /// The values of the metrics the file writes for the item (`measure:`), in file order; nil
    /// where a world has none (a first time never reached).
    public var written: [Double?] = []

    public init(contacts: Int = 0, contactsByPartner: [String: Int] = [:], bounceHeights: [Double] = [],
                restTime: Double? = nil, x: Double = 0, y: Double = 0, angle: Double = 0,
                vx: Double = 0, vy: Double = 0, angularVelocity: Double = 0, spring: SpringResult? = nil) {
        self.contacts = contacts
        self.contactsByPartner = contactsByPartner
        self.bounceHeights = bounceHeights
        self.restTime = restTime
        self.x = x; self.y = y; self.angle = angle
        self.vx = vx; self.vy = vy; self.angularVelocity = angularVelocity
        self.spring = spring
    }
}

/// One world's results: its place in the sweep, the swept values it ran with, and per item
/// (in file order) its metrics.
public struct WorldResult: Sendable, Hashable, Codable {
    public var world: Int
    public var point: Int
    public var replica: Int
    /// One value per swept parameter, in file order (jitter not included).
    public var parameters: [Double]
    public var items: [ItemResult]
    /// True when the world blew up (NaN, infinite, past the speed cap); its metrics are not used.
    public var failed: Bool

    public init(world: Int, point: Int, replica: Int, parameters: [Double], items: [ItemResult], failed: Bool = false) {
        self.world = world; self.point = point; self.replica = replica
        self.parameters = parameters; self.items = items; self.failed = failed
    }
}

/// Mean, standard deviation (sample, n − 1; 0 for one value), min and max of one metric over the
/// replicas of a sweep point. `count` is how many replicas had a value (rest time may be absent).
public struct MetricStats: Sendable, Hashable, Codable {
    public var count: Int
    public var mean: Double
    public var std: Double
    public var min: Double
    public var max: Double

    public init(count: Int, mean: Double, std: Double, min: Double, max: Double) {
        self.count = count; self.mean = mean; self.std = std; self.min = min; self.max = max
    }

    /// The statistics of one finite value: count 1, spread 0, and the mean a running sum of it
    /// (0 + v: a mean of −0 reads as +0, its min and max keep the sign).
    @inlinable public init(oneValue v: Double) {
        count = 1; mean = 0 + v; std = 0; min = v; max = v
    }

    /// Statistics of the finite values given; nil when there are none.
    public init?(_ values: [Double]) {
        let v = values.filter(\.isFinite)
        guard !v.isEmpty else { return nil }
        count = v.count
        mean = v.reduce(0, +) / Double(v.count)
        let m = mean
        std = v.count > 1 ? (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot() : 0
        min = v.min()!
        max = v.max()!
    }
}

/// One sweep point in summary.json: its parameter values and the statistics of every metric
/// column (named as in worlds.csv: `ITEM.contacts`, `ITEM.bounces`, `ITEM.bounce1` …
/// `ITEM.bounce8`, `ITEM.rest_time`, `ITEM.x`, `ITEM.y`, `ITEM.angle`, `ITEM.vx`, `ITEM.vy`,
/// `ITEM.angular_velocity`, for an item with a rest target `ITEM.overshoot`, `ITEM.settle_time`,
/// `ITEM.oscillations`, and per partner `ITEM.contacts.PARTNER`).
public struct PointSummary: Sendable, Hashable, Codable {
    public var point: Int
    public var parameters: [Double]
    public var replicas: Int
    public var failedReplicas: Int
    public var metrics: PointMetrics

    public init(point: Int, parameters: [Double], replicas: Int, failedReplicas: Int, metrics: PointMetrics) {
        self.point = point; self.parameters = parameters; self.replicas = replicas
        self.failedReplicas = failedReplicas; self.metrics = metrics
    }

    public init(point: Int, parameters: [Double], replicas: Int, failedReplicas: Int, metrics: [String: MetricStats]) {
        self.init(point: point, parameters: parameters, replicas: replicas, failedReplicas: failedReplicas, metrics: PointMetrics(metrics))
    }

    /// An equal point that shares no storage with this one, allocated by the calling thread: a
    /// run keeps points a worker made, and kept as they were they lay among the memory the
    /// worker's engine allocates from (SummaryBuilder.add).
    public var ownCopy: PointSummary {
        PointSummary(point: point, parameters: parameters.map { $0 }, replicas: replicas, failedReplicas: failedReplicas,
                     metrics: metrics.ownCopy)
    }
}

/// How a run went: written into summary.json beside the points.
public struct RunInfo: Sendable, Hashable, Codable {
    public var engine: String
    public var threads: Int
    public var worlds: Int
    public var ticksPerWorld: Int
    public var wallSeconds: Double
    /// World-ticks per second over the whole run (the worlds this process ran over `wallSeconds`);
    /// 0 for merged shards, whose work no one process timed.
    public var worldTicksPerSecond: Double
    /// The worlds this process simulated: fewer than `worlds` after `--resume` (the kept rows are
    /// read back, not run); nil in older runs and for merged shards.
    public var worldsRun: Int?
    /// The engine's own time: the workers' seconds inside the engine, summed over threads; nil in
    /// older runs and for merged shards. `simulationWorldTicksPerSecond` is the rate it gives.
    public var engineThreadSeconds: Double?
    /// World-ticks per second of the simulation alone: `worldsRun` × ticks over
    /// `engineThreadSeconds` / `threads` (the rate `bench` measures); nil where those are.
    public var simulationWorldTicksPerSecond: Double?
    /// The worldsweep version that produced the run (`WorldSweepVersion.current`); nil in older runs.
    public var version: String?
    /// The command line that started the run, as typed (arguments after the executable); nil in older runs.
    public var commandLine: [String]?
    /// Which compilation of the engine ran it (`CodePath.current`: `portable` or `avx2`; the same
    /// results either way, not the same speed); `mixed` for merged shards that ran on both; nil in older runs.
    public var codePath: String?
    /// Simulated seconds per world (ticks × tick): what a time that never happened is censored
    /// at; nil in older runs.
    public var seconds: Double?
    /// Points in the whole sweep; nil in older runs (where `points` held them all up to 20 000).
    public var sweepPoints: Int?
    /// The summary's `points` are the sweep's points whose index is a multiple of this (every
    /// point of a sweep up to 20 000 points: 1); nil in older runs.
    public var pointStride: Int?
    /// Worlds that failed, of every world in the sweep (the points hold only their own); nil in
    /// older runs.
    public var failedWorlds: Int?

    public init(engine: String, threads: Int, worlds: Int, ticksPerWorld: Int, wallSeconds: Double, worldTicksPerSecond: Double,
                version: String? = nil, commandLine: [String]? = nil, codePath: String? = nil, seconds: Double? = nil) {
        self.engine = engine; self.threads = threads; self.worlds = worlds; self.ticksPerWorld = ticksPerWorld
        self.wallSeconds = wallSeconds; self.worldTicksPerSecond = worldTicksPerSecond
        self.version = version; self.commandLine = commandLine; self.codePath = codePath; self.seconds = seconds
    }
}

extension RunInfo {
    /// Records the engine's own time: `worldsRun` worlds took `engineThreadSeconds` inside the
    /// engine, summed over the `threadsUsed` workers that shared them.
    public mutating func recordEngineTime(worldsRun: Int, engineThreadSeconds: Double, threadsUsed: Int) {
        self.worldsRun = worldsRun
        self.engineThreadSeconds = engineThreadSeconds
        let perThread = engineThreadSeconds / Double(max(1, threadsUsed))
        simulationWorldTicksPerSecond = perThread > 0 ? Double(worldsRun) * Double(ticksPerWorld) / perThread : nil
    }
}

/// summary.json: the sweep's description and one entry per point.
public struct SweepSummary: Sendable, Hashable, Codable {
    public var name: String
    public var description: String
    /// Swept parameter paths in file order (`bouncy.elasticity`, …).
    public var parameters: [String]
    /// Item names in file order.
    public var items: [String]
    /// Contact partners seen per item (other items, boundary identifiers, `bounds`), sorted.
    public var partners: [String: [String]]
    public var sweepKind: String
    public var replicas: Int
    public var points: [PointSummary]
    public var run: RunInfo
    /// The metrics the file writes (`measure:`), declared: what the report reads of their columns.
    public var writtenMetrics: [MetricDeclaration] = []

    /// The run's metrics: the built-in ones and the file's.
    public var metricCatalog: MetricCatalog { MetricCatalog(written: writtenMetrics) }

    public init(name: String, description: String, parameters: [String], items: [String], partners: [String: [String]],
                sweepKind: String, replicas: Int, points: [PointSummary], run: RunInfo) {
        self.name = name; self.description = description; self.parameters = parameters; self.items = items
        self.partners = partners; self.sweepKind = sweepKind; self.replicas = replicas; self.points = points; self.run = run
    }
}

extension SweepSummary {
    /// Worlds that failed in the whole sweep (`run.failedWorlds`); in a summary from before it
    /// was kept, those of the points it holds.
    public var failedWorlds: Int { run.failedWorlds ?? points.reduce(0) { $0 + $1.failedReplicas } }
}

extension RunInfo {
    /// Seconds of wall time as every place that states them writes them (the terminal, the
    /// report, summary.json's number read by a person): two decimals from a second up, else two
    /// significant digits (a 4 ms run reads "0.0041 s", not "0.00 s").
    public static func secondsText(_ s: Double) -> String {
        guard s.isFinite, s > 0 else { return "0 s" }
        return s >= 1 ? String(format: "%.2f s", s) : String(format: "%.2g s", s)
    }

    /// The run's wall time (`wallSeconds`: its worlds and data files, not the report after them).
    public var wallText: String { Self.secondsText(wallSeconds) }
}
