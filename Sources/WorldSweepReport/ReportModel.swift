// What the report shows, worked out once from the summary and shared by the Markdown and HTML
// renderers: what matters (importance, the finding, which metrics are noise), the whole-sweep
// views of the key metrics, the extremes and the worlds to replay.
import Foundation
import WorldSweepRun

struct ReportModel {
    static let maxHeatmapSide = 40
    static let maxItemsCharted = 4
    static let maxSensitivityRows = 80
    static let maxPairs = 6
    static let maxParallelLines = 2000
    /// Dots per chart; the lines and bands still use every point.
    static let maxDots = 4000
    static let maxInteractionLines = 16
    /// Findings the page leads with, at most.
    static let maxHeadlines = 3
    static let maxTrajectories = 4
    /// The metrics every item gets whole-sweep views of, in this order (the spring metrics only
    /// exist for items with a rest target).
    /// (A time metric's never-share is in its charts' captions and marks, not charted twice.)
    static let keyMetrics = ["bounce1", "contacts", "rest_time", "overshoot", "settle_time", "oscillations"]
    /// The metrics a page leads with when they have signal, first choice first: what a sweep of
    /// bounces, or of springs, asks about.
    static let headlineMetrics = ["bounce1", "overshoot"]

    struct MetricAnalysis {
        var column: String
        /// The variance decomposition of the metric's complete form (Decomposition.swift).
        var importance: VarianceDecomposition?
        var fit: SensitivityFit?
        var signal: MetricSignal
        /// Why there is no fit (too few points, constant), when there is none.
        var unfitted: String?
    }

    let summary: SweepSummary
    let sample: [WorldResult]
    let replay: WorldReplay?
    /// The run folder's data files the report links to (names relative to the report).
    let dataFiles: [String]
    let isRandom: Bool
    let isGrid: Bool
    /// Simulated seconds per world: what a time never reached counts as.
    let runSeconds: Double
    /// False for runs written before summary.json said (the longest time seen stands in).
    let runSecondsKnown: Bool
    /// Every metric column, in `metricColumns` order.
    let analyses: [MetricAnalysis]
    /// Per metric column, the points with a value and that value: looked up once per point and
    /// column, not again by every view that charts it (issue 29: dictionary look-ups by string per
    /// value were a tenth of the report's time).
    let valuedColumns: [String: [(PointSummary, Double)]]
    /// Which parameters vary over the points (a grid axis with one value does not): worked out
    /// once, as every chart asks.
    let varyingParameters: [Int]
    /// What the page leads with and orders by, worked out once (every section asks, and each
    /// answer walks or sorts every metric): the key metric columns present, item by item; the
    /// metrics with signal and a fit, key metrics first, then by R²; the headline metric.
    private(set) var keyColumns: [String] = []
    private(set) var rankedMetrics: [MetricAnalysis] = []
    private(set) var headline: MetricAnalysis?
    /// The best-supported findings, best first (Findings.swift).
    private(set) var headlines: [MetricAnalysis] = []
    /// Per key metric, its highest and lowest points (both reports and the replays ask).
    private var extremeList: [Extreme] = []

    init(summary: SweepSummary, sample: [WorldResult], replay: WorldReplay? = nil, dataFiles: [String] = []) {
        self.summary = summary
        self.sample = sample
        self.replay = replay
        self.dataFiles = dataFiles
        let kind = summary.sweepKind.lowercased()
        isRandom = kind == "random"
        isGrid = !(isRandom || kind == "zip")
        let columns = Self.metricColumns(summary)
        let p = summary.parameters.count
        varyingParameters = summary.parameters.indices.filter { j in Set(summary.points.compactMap { $0.parameters[safe: j] }).count > 1 }
        let seconds = summary.run.seconds ?? replay?.scene.world.duration
        runSecondsKnown = seconds != nil
        runSeconds = seconds ?? summary.points.flatMap { p in p.metrics.filter { Censoring.missing($0.key) == .runLength }.map(\.value.max) }.max() ?? 0
        valuedColumns = Dictionary(columns.map { [runSeconds] in ($0, SweepViews.valued(summary.points, $0, runSeconds: runSeconds)) },
                                   uniquingKeysWith: { a, _ in a })
        let replicated = summary.replicas > 1
        analyses = columns.map { [runSeconds] column -> MetricAnalysis in
            let pts = summary.points.compactMap { p in Censoring.value(p, column, runSeconds: runSeconds).map { (p, $0) } }
            let values = pts.map(\.1)
            let unit = Units.metric(column)
            guard p > 0 else {
                return MetricAnalysis(column: column, importance: nil, fit: nil,
                                      signal: MetricSignal.classify(values, unit: unit, decomposition: nil, replicated: replicated), unfitted: "nothing is swept")
            }
            let y = values.map(\.mean)
            let x = (0..<p).map { j in pts.map { $0.0.parameters[safe: j] ?? .nan } }
            let fit = pts.count > p + 1 ? Sensitivity.fit(metric: column, parameters: x, values: y) : nil
            switch Decomposition.decompose(metric: column, parameterCount: p, points: values, replicated: replicated) {
            case .success(let d):
                return MetricAnalysis(column: column, importance: d, fit: fit,
                                      signal: MetricSignal.classify(values, unit: unit, decomposition: d, replicated: replicated), unfitted: nil)
            case .failure(let why):
                return MetricAnalysis(column: column, importance: nil, fit: fit,
                                      signal: MetricSignal.classify(values, unit: unit, decomposition: nil, replicated: replicated), unfitted: why.description)
            }
        }
        keyColumns = computedKeyColumns
        rankedMetrics = computedRankedMetrics
        headlines = computedHeadlines
        headline = computedHeadline
        extremeList = computedExtremes
    }

    var parameterNames: [String] { summary.parameters }
    var binned: Bool { isRandom }

    /// A grid axis of three or more positive values spread by a constant ratio over at least a
    /// decade (`logspace`): drawn on a log axis.
    func isLogSpaced(_ j: Int) -> Bool {
        guard !isRandom else { return false }
        let v = Array(Set(summary.points.compactMap { $0.parameters[safe: j] })).sorted()
        guard v.count >= 3, let lo = v.first, let hi = v.last, lo > 0, hi / lo >= 10 else { return false }
        let ratios = zip(v.dropFirst(), v).map { $0 / $1 }
        return ratios.allSatisfy { abs($0 / ratios[0] - 1) < 0.01 }
    }

    func axisLabel(_ i: Int) -> String { Units.label(summary.parameters[i], unit: Units.parameter(summary.parameters[i])) }

    func metricLabel(_ column: String) -> String { Units.label(column, unit: Units.metric(column)) }

    /// Heights, times, counts and shares cannot be negative.
    static func nonNegative(_ column: String) -> Bool {
        let key = Units.metricKey(column)
        return key.hasPrefix("bounce") || key.hasPrefix("contacts") || key == "rest_time"
            || key == "overshoot" || key == "settle_time" || key == "oscillations" || key.hasPrefix("never_")
    }

    static func isCount(_ column: String) -> Bool { Units.metric(column) == "count" }

    /// Up to `cap` elements spread evenly over the list (first and last kept).
    static func thinned<T>(_ v: [T], _ cap: Int) -> [T] {
        guard v.count > cap, cap >= 2 else { return v }
        return capped(v.indices.map(Double.init), cap).map { v[Int($0)] }
    }

    /// Up to `cap` values spread evenly over the list (first and last kept).
    static func capped(_ v: [Double], _ cap: Int) -> [Double] {
        guard v.count > cap, cap >= 2 else { return v }
        return (0..<cap).map { v[Int((Double($0) * Double(v.count - 1) / Double(cap - 1)).rounded())] }
    }

    /// "elasticity = 0.5, density = 1" for a point.
    func describe(_ p: PointSummary) -> String {
        guard !summary.parameters.isEmpty else { return "point \(p.point)" }
        return zip(summary.parameters, p.parameters).map { "\($0) = \(Text.value($1))" }.joined(separator: ", ")
    }

    var itemsCharted: [String] { Array(summary.items.prefix(Self.maxItemsCharted)) }

    func analysis(_ column: String) -> MetricAnalysis? { analyses.first { $0.column == column } }

    // MARK: what matters

    private var computedKeyColumns: [String] {
        let present = Set(analyses.map(\.column))
        return Self.keyMetrics.flatMap { key in itemsCharted.map { "\($0).\(key)" } }.filter(present.contains)
    }

    private var computedRankedMetrics: [MetricAnalysis] {
        let keys = keyColumns
        return analyses.filter { $0.signal == .signal && $0.importance != nil }.sorted { a, b in
            let ka = keys.firstIndex(of: a.column) ?? Int.max, kb = keys.firstIndex(of: b.column) ?? Int.max
            if ka != kb { return ka < kb }
            return a.importance!.explained > b.importance!.explained
        }
    }

    /// Metrics that vary only as noise does, with the reason.
    var noiseMetrics: [(String, String)] {
        analyses.compactMap { a in if case .noise(let why) = a.signal { return (a.column, why) }; return nil }
    }

    var constantMetrics: [String] { analyses.filter { $0.signal == .constant }.map(\.column) }

    /// The metric the page leads with: the first of `headlines`.
    private var computedHeadline: MetricAnalysis? { headlines.first }

    /// Why "What matters" ranks nothing, said where the section is (nil when something is ranked):
    /// the distinct reasons no metric was fitted ("3 points for 2 parameters: a fit needs more
    /// than 3").
    var nothingRanked: String? {
        guard rankedMetrics.isEmpty, !summary.parameters.isEmpty else { return nil }
        var reasons: [String] = []
        for a in analyses where a.signal != .constant {
            if let why = a.unfitted, !reasons.contains(why) { reasons.append(why) }
        }
        let why = reasons.isEmpty ? "every metric is constant over the points" : reasons.joined(separator: "; ")
        return "Nothing is ranked for this sweep (\(why))."
    }

    /// Parameters in order of importance for a metric (unfitted ones last, in file order).
    func parameterOrder(_ column: String) -> [Int] {
        let ranked = analysis(column)?.importance?.ranked ?? []
        return ranked + summary.parameters.indices.filter { !ranked.contains($0) }
    }

    // MARK: whole-sweep views

    /// The metric against every parameter, most important first.
    func slices(_ column: String) -> [SliceView] {
        parameterOrder(column).map { SweepViews.slice(points: summary.points, parameter: $0, column: column, binned: binned, runSeconds: runSeconds) }
    }


    /// Pair maps over the most important pairs (the pair's summed shares); none for zip sweeps,
    /// whose parameters move together. A pair always has the parameter earlier in the file across
    /// (one axis order per pair on the whole page).
    func pairs(_ column: String) -> (maps: [PairView], total: Int) {
        guard !summary.sweepKind.lowercased().hasPrefix("zip") else { return ([], 0) }
        let order = parameterOrder(column).filter(varyingParameters.contains)
        guard order.count >= 2 else { return ([], 0) }
        var all: [(Int, Int)] = []
        for a in order.indices { for b in order.indices where b > a { all.append((min(order[a], order[b]), max(order[a], order[b]))) } }
        let kept = all.prefix(Self.maxPairs)
        return (kept.map { SweepViews.pair(points: summary.points, x: $0.0, y: $0.1, column: column, binned: binned, maxSide: Self.maxHeatmapSide, runSeconds: runSeconds) }, all.count)
    }

    /// The headline metric against its strongest parameter, one line per value of the second
    /// (grid sweeps), averaged over the rest: where the two combine, or do not.
    func interaction() -> (column: String, x: Int, group: Int, lines: [(value: Double, points: [(x: Double, mean: Double, n: Int)])], cappedFrom: Int?)? {
        guard isGrid, let h = headline else { return nil }
        let order = parameterOrder(h.column).filter(varyingParameters.contains)
        guard order.count >= 2 else { return nil }
        // The pair with the largest interaction share, the stronger parameter across.
        var (x, g) = (order[0], order[1])
        if let top = h.importance?.pairs.first, top.share >= 0.02 {
            (x, g) = (h.importance!.mains[top.a] ?? 0) >= (h.importance!.mains[top.b] ?? 0) ? (top.a, top.b) : (top.b, top.a)
        }
        let vals = valued(h.column)
        let groups = Array(Set(vals.compactMap { $0.0.parameters[safe: g] })).sorted()
        let kept = Self.capped(groups, Self.maxInteractionLines)
        let lines = kept.map { gv -> (value: Double, points: [(x: Double, mean: Double, n: Int)]) in
            var acc: [Double: (Double, Int)] = [:]
            for (p, v) in vals where p.parameters[safe: g] == gv {
                guard let xv = p.parameters[safe: x] else { continue }
                acc[xv, default: (0, 0)].0 += v; acc[xv, default: (0, 0)].1 += 1
            }
            return (gv, acc.keys.sorted().map { (x: $0, mean: acc[$0]!.0 / Double(acc[$0]!.1), n: acc[$0]!.1) })
        }
        return (h.column, x, g, lines, kept.count < groups.count ? groups.count : nil)
    }

    /// Parallel coordinates for sweeps of three or more varying axes, and random sweeps of two or more.
    var wantsParallel: Bool {
        let n = varyingParameters.count
        return n >= 3 || (isRandom && n >= 2)
    }

    // MARK: spread over replicas

    /// The key metric whose value varies most between the replicas of a point (mean std).
    var spreadColumn: String? {
        guard summary.replicas > 1 else { return nil }
        func spread(_ c: String) -> Double {
            let s = summary.points.compactMap { $0.metrics[c]?.std }.filter(\.isFinite)
            return s.isEmpty ? -1 : s.reduce(0, +) / Double(s.count)
        }
        let candidates = keyColumns.filter { Units.metricKey($0) == "bounce1" && spread($0) > 0 }
        return candidates.max { spread($0) < spread($1) }
    }

    /// First-bounce heights of the sampled worlds (failed ones left out), and how many of them
    /// never bounced.
    func sampleBounces(item: String) -> (values: [Double], neverBounced: Int, worlds: Int) {
        guard let k = summary.items.firstIndex(of: item) else { return ([], 0, 0) }
        let ok = sample.filter { !$0.failed }
        let values = ok.compactMap { $0.items[safe: k]?.bounceHeights.first }
        return (values, ok.count - values.count, ok.count)
    }

    // MARK: extremes

    struct Extreme { var column: String; var high: (PointSummary, Double); var low: (PointSummary, Double) }

    func extremes() -> [Extreme] { extremeList }

    /// The points with a value of `column`, and that value (`SweepViews.valued`, made once).
    func valued(_ column: String) -> [(PointSummary, Double)] {
        valuedColumns[column] ?? SweepViews.valued(summary.points, column, runSeconds: runSeconds)
    }

    private var computedExtremes: [Extreme] {
        keyColumns.compactMap { column in
            let vals = valued(column)
            guard let hi = vals.max(by: { $0.1 < $1.1 }), let lo = vals.min(by: { $0.1 < $1.1 }), hi.1 > lo.1 else { return nil }
            return Extreme(column: column, high: hi, low: lo)
        }
    }

    /// The world the report replays for a point: its first replica.
    func world(of p: PointSummary) -> Int { p.point * max(1, summary.replicas) }

    /// The sweep file as the command line named it, for the commands the report prints.
    var sweepFile: String {
        if let f = replay?.file { return f }
        if let c = summary.run.commandLine, let i = c.firstIndex(of: "run"), c.indices.contains(i + 1) { return c[i + 1] }
        return "SWEEP_FILE"
    }

    /// The command that replays one world of the sweep.
    func traceCommand(world: Int) -> String {
        func quoted(_ f: String) -> String {
            f.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=,:".contains($0) } ? f : "'" + f.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return (["worldsweep", "trace", quoted(sweepFile)] + (replay?.overrides ?? []).map(quoted)).joined(separator: " ")
            + " --world \(world)"
    }

    /// Sentences on swept elasticities and frictions that the mixing rules make (partly) idle.
    var mixingNotes: [String] { replay?.scene.mixingNotes() ?? [] }

    /// The extreme worlds to draw: the headline metric's highest and lowest first, then the other
    /// key metrics', each world once.
    func trajectoryWorlds() -> [(world: Int, why: String)] {
        var out: [(world: Int, why: String)] = []
        var ex = extremes()
        if let h = headline?.column, let i = ex.firstIndex(where: { $0.column == h }) { ex.insert(ex.remove(at: i), at: 0) }
        for e in ex {
            for (which, pv) in [("highest", e.high), ("lowest", e.low)] {
                let w = world(of: pv.0)
                guard !out.contains(where: { $0.world == w }), out.count < Self.maxTrajectories else { continue }
                out.append((w, "\(which) mean \(e.column) (\(Text.value(pv.1))): \(describe(pv.0))"))
            }
        }
        return out
    }

    func trajectories() -> [(Trajectory, String)] {
        guard let replay else { return [] }
        return trajectoryWorlds().compactMap { w in Trajectory.replay(replay, world: w.world).map { ($0, w.why) } }
    }

    // MARK: columns

    static let metricOrder = ["contacts", "bounces", "bounce1", "bounce2", "bounce3", "bounce4", "bounce5", "bounce6",
                              "bounce7", "bounce8", "rest_time", "x", "y", "angle", "vx", "vy", "angular_velocity",
                              "overshoot", "settle_time", "oscillations"]

    /// Metric columns in item order, then the contract's metric order, then partner contacts.
    static func metricColumns(_ summary: SweepSummary) -> [String] {
        let present = Set(summary.points.flatMap { $0.metrics.keys })
        var out: [String] = []
        for item in summary.items {
            for key in metricOrder where present.contains("\(item).\(key)") {
                out.append("\(item).\(key)")
                if let never = Censoring.neverColumn("\(item).\(key)") { out.append(never) }
            }
            for partner in summary.partners[item] ?? [] where present.contains("\(item).contacts.\(partner)") {
                out.append("\(item).contacts.\(partner)")
            }
        }
        let known = Set(out)
        return out + present.filter { !known.contains($0) }.sorted()
    }

    var metricColumns: [String] { analyses.map(\.column) }

    // MARK: header

    /// One line on the run (the table folds under it).
    var runSummary: String {
        let r = summary.run
        return "\(r.worlds) worlds, \(summary.points.count) points × \(summary.replicas) replica\(summary.replicas == 1 ? "" : "s"), \(Text.value(runSeconds)) s simulated each; \(String(format: "%.2f", r.wallSeconds)) s wall time"
    }

    var header: [(String, String)] {
        let r = summary.run
        let pts = summary.points.count
        var rows = [
            ("Worlds", "\(r.worlds)"),
            ("Points", summary.parameters.isEmpty ? "\(pts) (nothing swept)" : "\(pts) (\(summary.sweepKind) sweep)"),
            ("Replicas per point", "\(summary.replicas)"),
            ("Swept parameters", summary.parameters.isEmpty ? "none" : summary.parameters.joined(separator: ", ")),
            ("Items", summary.items.joined(separator: ", ")),
            ("Failed worlds", "\(summary.points.reduce(0) { $0 + $1.failedReplicas })"),
            ("Engine", r.engine),
            ("Threads", "\(r.threads)"),
            ("Ticks per world", "\(r.ticksPerWorld)"),
            ("Simulated per world", "\(Text.value(runSeconds)) s\(runSecondsKnown ? "" : " (the longest time seen; the summary does not say)")"),
            ("Wall time", String(format: "%.2f s", r.wallSeconds)),
        ]
        rows += Self.rateRows(r)
        if let v = r.version { rows.append(("Version", v)) }
        if let c = r.commandLine { rows.append(("Command", (["worldsweep"] + c).joined(separator: " "))) }
        return rows
    }
}

extension ReportModel {
    /// The run's rates, labelled apart: the simulation's own (engine time per thread) and the
    /// run's over its wall time (files included); a merged run has neither (no process ran it all).
    static func rateRows(_ r: RunInfo) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let ran = r.worldsRun, ran < r.worlds { rows.append(("Worlds run by this process", "\(ran) (the rest kept before --resume)")) }
        if let sim = r.simulationWorldTicksPerSecond { rows.append(("Simulation rate", "\(Text.grouped(sim)) world-ticks/s")) }
        if r.worldTicksPerSecond > 0 { rows.append(("Whole-run rate", "\(Text.grouped(r.worldTicksPerSecond)) world-ticks/s")) }
        return rows
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
