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
    static let maxInteractionLines = 8
    static let maxTrajectories = 4
    /// The metrics every item gets whole-sweep views of, in this order (the spring metrics only
    /// exist for items with a rest target).
    static let keyMetrics = ["bounce1", "contacts", "rest_time", "overshoot", "settle_time", "oscillations"]
    /// The metrics a page leads with when they have signal, first choice first: what a sweep of
    /// bounces, or of springs, asks about.
    static let headlineMetrics = ["bounce1", "overshoot"]

    struct MetricAnalysis {
        var column: String
        var importance: ParameterImportance?
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
    /// Every metric column, in `metricColumns` order.
    let analyses: [MetricAnalysis]
    /// Which parameters vary over the points (a grid axis with one value does not): worked out
    /// once, as every chart asks.
    let varyingParameters: [Int]
    /// What the page leads with and orders by, worked out once (every section asks, and each
    /// answer walks or sorts every metric): the key metric columns present, item by item; the
    /// metrics with signal and a fit, key metrics first, then by R²; the headline metric.
    private(set) var keyColumns: [String] = []
    private(set) var rankedMetrics: [MetricAnalysis] = []
    private(set) var headline: MetricAnalysis?
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
        analyses = columns.map { column -> MetricAnalysis in
            let pts = SweepViews.valued(summary.points, column)
            let stats = pts.compactMap { $0.0.metrics[column] }
            let unit = Units.metric(column)
            guard p > 0 else {
                return MetricAnalysis(column: column, importance: nil, fit: nil,
                                      signal: MetricSignal.classify(stats: stats, unit: unit, fit: nil, points: 0, parameters: 0), unfitted: "nothing is swept")
            }
            let y = pts.map(\.1)
            let x = (0..<p).map { j in pts.map { $0.0.parameters[safe: j] ?? .nan } }
            // A fit through no more points than parameters + 1 says nothing: none is made.
            let enough = pts.count > p + 1
            let imp = enough ? Sensitivity.importance(metric: column, parameters: x, values: y) : nil
            let fit = enough ? Sensitivity.fit(metric: column, parameters: x, values: y) : nil
            let signal = MetricSignal.classify(stats: stats, unit: unit, fit: imp, points: summary.points.count, parameters: p)
            let why: String? = imp != nil ? nil
                : !enough ? "\(Text.count(pts.count, "point")) for \(Text.count(p, "parameter")): a fit needs more than \(p + 1)"
                : "constant over the points"
            return MetricAnalysis(column: column, importance: imp, fit: fit, signal: signal, unfitted: why)
        }
        keyColumns = computedKeyColumns
        rankedMetrics = computedRankedMetrics
        headline = computedHeadline
        extremeList = computedExtremes
    }

    var parameterNames: [String] { summary.parameters }
    var binned: Bool { isRandom }

    func axisLabel(_ i: Int) -> String { Units.label(summary.parameters[i], unit: Units.parameter(summary.parameters[i])) }

    func metricLabel(_ column: String) -> String { Units.label(column, unit: Units.metric(column)) }

    /// Heights, times and counts cannot be negative.
    static func nonNegative(_ column: String) -> Bool {
        let key = Units.metricKey(column)
        return key.hasPrefix("bounce") || key.hasPrefix("contacts") || key == "rest_time"
            || key == "overshoot" || key == "settle_time" || key == "oscillations"
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
            return a.importance!.rSquared > b.importance!.rSquared
        }
    }

    /// Metrics that vary only as noise does, with the reason.
    var noiseMetrics: [(String, String)] {
        analyses.compactMap { a in if case .noise(let why) = a.signal { return (a.column, why) }; return nil }
    }

    var constantMetrics: [String] { analyses.filter { $0.signal == .constant }.map(\.column) }

    /// The metric the page leads with: the key metric whose strongest parameter explains most
    /// (first bounce heights first, then overshoot, as the sweeps ask about them).
    private var computedHeadline: MetricAnalysis? {
        let keyed = rankedMetrics.filter { keyColumns.contains($0.column) }
        func top(_ a: MetricAnalysis) -> Double { a.importance!.ranked.first.flatMap { a.importance!.shares[$0] } ?? 0 }
        let preferred = Self.headlineMetrics.lazy.map { key in keyed.filter { Units.metricKey($0.column) == key } }.first { !$0.isEmpty }
        return (preferred ?? keyed).max { top($0) < top($1) } ?? rankedMetrics.first
    }

    /// How a parameter moves a metric, from the sign of its straight-line coefficient; "bends"
    /// when the straight line explains little of what the parameter does.
    func direction(_ a: MetricAnalysis, _ j: Int) -> String {
        guard let imp = a.importance, let share = imp.shares[j] else { return "" }
        let slope = imp.slopes[safe: j].flatMap { $0 } ?? 0
        if slope * slope < 0.5 * share { return "changes it, not in one direction" }
        return slope > 0 ? "raises it" : "lowers it"
    }

    static func percent(_ share: Double) -> String {
        let p = share * 100
        return p < 1 ? "under 1 %" : "\(Int(p.rounded())) %"
    }

    /// One sentence on a metric: what drives it and how.
    func finding(_ a: MetricAnalysis) -> String {
        guard let imp = a.importance, let first = imp.ranked.first, let s1 = imp.shares[first] else { return "" }
        let names = summary.parameters
        var text = "\(a.column) is driven by \(names[first]) (\(Self.percent(s1)) of its variation across the \(imp.points) points; higher \(names[first]) \(direction(a, first)))"
        // Parameters left out of the fit although they vary move in lockstep with a kept one.
        let lockstep = varyingParameters.filter { imp.shares[$0] == nil }
        if !lockstep.isEmpty {
            text += ", or by " + lockstep.map { names[$0] }.joined(separator: " and ") + ", which move" + (lockstep.count == 1 ? "s" : "")
                + " in lockstep with it: the sweep cannot tell them apart"
        }
        let rest = imp.ranked.dropFirst()
        let notable = rest.filter { (imp.shares[$0] ?? 0) >= 0.02 }
        if !notable.isEmpty {
            text += "; " + notable.map { "\(names[$0]) \(direction(a, $0)) (\(Self.percent(imp.shares[$0]!)))" }.joined(separator: ", ")
        }
        let minor = rest.filter { (imp.shares[$0] ?? 0) < 0.02 }
        if !minor.isEmpty {
            text += "; " + minor.map { names[$0] }.joined(separator: " and ") + (minor.count == 1 ? " barely matters" : " barely matter")
        }
        if imp.rSquared < 0.8 { text += "; \(Self.percent(1 - imp.rSquared)) is left unexplained (interactions, or noise)" }
        return text + "."
    }

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
        parameterOrder(column).map { SweepViews.slice(points: summary.points, parameter: $0, column: column, binned: binned) }
    }

    /// Pair maps over the most important pairs (the pair's summed shares); none for zip sweeps,
    /// whose parameters move together.
    func pairs(_ column: String) -> (maps: [PairView], total: Int) {
        guard !summary.sweepKind.lowercased().hasPrefix("zip") else { return ([], 0) }
        let order = parameterOrder(column).filter(varyingParameters.contains)
        guard order.count >= 2 else { return ([], 0) }
        var all: [(Int, Int)] = []
        for a in order.indices { for b in order.indices where b > a { all.append((order[a], order[b])) } }
        let kept = all.prefix(Self.maxPairs)
        return (kept.map { SweepViews.pair(points: summary.points, x: $0.0, y: $0.1, column: column, binned: binned, maxSide: Self.maxHeatmapSide) }, all.count)
    }

    /// The headline metric against its strongest parameter, one line per value of the second
    /// (grid sweeps), averaged over the rest: where the two combine, or do not.
    func interaction() -> (column: String, x: Int, group: Int, lines: [(value: Double, points: [(x: Double, mean: Double, n: Int)])], cappedFrom: Int?)? {
        guard isGrid, let h = headline else { return nil }
        let order = parameterOrder(h.column).filter(varyingParameters.contains)
        guard order.count >= 2 else { return nil }
        let (x, g) = (order[0], order[1])
        let vals = SweepViews.valued(summary.points, h.column)
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

    private var computedExtremes: [Extreme] {
        keyColumns.compactMap { column in
            let vals = SweepViews.valued(summary.points, column)
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
            for key in metricOrder where present.contains("\(item).\(key)") { out.append("\(item).\(key)") }
            for partner in summary.partners[item] ?? [] where present.contains("\(item).contacts.\(partner)") {
                out.append("\(item).contacts.\(partner)")
            }
        }
        let known = Set(out)
        return out + present.filter { !known.contains($0) }.sorted()
    }

    var metricColumns: [String] { analyses.map(\.column) }

    // MARK: header

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
            ("Wall time", String(format: "%.2f s", r.wallSeconds)),
            ("Throughput", "\(Text.grouped(r.worldTicksPerSecond)) world-ticks/s"),
        ]
        if let v = r.version { rows.append(("Version", v)) }
        if let c = r.commandLine { rows.append(("Command", (["worldsweep"] + c).joined(separator: " "))) }
        return rows
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
