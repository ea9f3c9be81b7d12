// What the report shows, worked out once from the summary and shared by the Markdown and HTML
// renderers: what matters (importance, the finding, which metrics are noise), the whole-sweep
// views of the key metrics, the extremes and the worlds to replay. This file holds the model and its
// columns; the views are in ReportModel+Views.swift, the extremes in ReportModel+Extremes.swift.
import Dispatch
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
    /// The declared metrics with a view (`MetricDeclaration.view`: the built-in key metrics, then
    /// those the file writes), by their rank.
    static func keyMetrics(_ metrics: MetricCatalog) -> [String] {
        metrics.all.filter { $0.view != nil }.sorted { $0.view!.rank < $1.view!.rank }.map(\.name)
    }
    /// The metrics a page leads with when they have signal, first choice first: what a sweep of
    /// bounces, or of springs, asks about (the declarations' `view.headline`).
    static func headlineMetrics(_ metrics: MetricCatalog) -> [String] {
        metrics.all.filter { $0.view?.headline != nil }.sorted { $0.view!.headline! < $1.view!.headline! }.map(\.name)
    }

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
    let sample: WorldSample
    /// The run's metrics (built-in and written), as its summary declares them.
    let metrics: MetricCatalog
    /// `keyMetrics(metrics)` and `headlineMetrics(metrics)`, made once.
    let keyMetrics: [String], headlineMetrics: [String]
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
    /// Per metric column, the points with a value (their indices in `summary.points`) and that
    /// value: looked up once per point and column, not again by every view that charts it (issue
    /// 29: dictionary look-ups by string per value were a tenth of the report's time).
    let valuedColumns: [String: [(Int, Double)]]
    /// Per metric column worlds can lack, for each of `valuedColumns`' points the share of its
    /// worlds without a value, and the column's tally (ColumnTally.swift): read once, not by each
    /// slice, pair map and sentence.
    let neverColumns: [String: [Double?]]
    let tallies: [String: ColumnTally]
    /// Which parameters vary over the points (a grid axis with one value does not): worked out
    /// once, as every chart asks.
    let varyingParameters: [Int]
    /// Per parameter of a grid or zip sweep, its levels over the points (none for random sweeps,
    /// whose views bin): what the slices and pair maps group by.
    let parameterLevels: [ParameterLevels]
    /// Per parameter, whether a grid sweep's values are log-spaced (`isLogSpaced`): worked out
    /// once, as every slice, pair map and chart of the parameter asks (each answer sorted the
    /// points' distinct values).
    private var logSpacedGrid: [Bool] = []
    /// What the page leads with and orders by, worked out once (every section asks, and each
    /// answer walks or sorts every metric): the key metric columns present, item by item; the
    /// metrics with signal and a fit, key metrics first, then by R²; the headline metric.
    private(set) var keyColumns: [String] = []
    private(set) var rankedMetrics: [MetricAnalysis] = []
    private(set) var headline: MetricAnalysis?
    /// The best-supported findings, best first (Findings.swift).
    private(set) var headlines: [MetricAnalysis] = []
    /// Per headline, the other items' metrics that say the same (said in its sentence).
    private(set) var headlineEchoes: [String: [String]] = [:]
    /// The times no world reached, one sentence per metric (`computedUnreachedOutcomes`).
    private(set) var unreachedOutcomes: [String] = []
    /// Per key metric, its highest and lowest points (both reports and the replays ask).
    private(set) var extremeList: [Extreme] = []
    /// Per point id, its dots' hover text before and after what the dot shows, made once (a
    /// point's dot is in every slice; ReportModel+Hover.swift).
    private(set) var hoverParts: [Int: (String, String)] = [:]
    /// The views of the metrics the pages chart or put in words (every parameter's slice, the
    /// pair maps), made once, side by side over the threads: the Markdown page, the HTML page and
    /// the findings' words each ask for them.
    var sliceCache: [String: [SliceView]] = [:]
    var pairCache: [String: (maps: [PairView], total: Int)] = [:]
    /// The extreme worlds replayed, per world (`trajectories()`): made once, all together, by the
    /// report writer's first job beside the pages.
    let replays = MadeOnce<Int, Trajectory?>()
    /// What the per-metric jobs shared (designs, parameter copies), kept to be freed with the
    /// model, which the writer frees on another thread: freed at the end of `init`, the designs
    /// and copies were a step of the report's thread alone.
    private let analysisWork: [any AnyObject & Sendable]

    /// `threads`: how many threads the per-metric work (each metric's views, fit and decomposition:
    /// independent of one another) is spread over; the model is the same for any count.
    /// `groundwork`: what the run made of its points' parameters while the worlds ran (used if it
    /// is over these points, else made here).
    init(summary: SweepSummary, sample: WorldSample, replay: WorldReplay? = nil, dataFiles: [String] = [], threads: Int = 1,
         groundwork: ReportGroundwork? = nil) {
        self.summary = summary
        self.sample = sample
        let metrics = summary.metricCatalog
        self.metrics = metrics
        keyMetrics = Self.keyMetrics(metrics)
        headlineMetrics = Self.headlineMetrics(metrics)
        self.replay = replay
        self.dataFiles = dataFiles
        let kind = summary.sweepKind.lowercased()
        isRandom = kind == "random"
        isGrid = !(isRandom || kind == "zip")
        let present = MetricTable.names(of: summary.points)
        let forms = Self.metricForms(summary, present: present)
        let columns = forms.map(\.form.column)
        let table = MetricTable(summary.points, names: present, columns: { forms.map { Censoring.readColumn($0.form) } }, threads: threads)
        let p = summary.parameters.count
        let prepared = groundwork?.matching(summary.points, parameterCount: p, isRandom: isRandom)
        let ownParameters = prepared?.parameters ?? summary.points.map(\.parameters)
        let levels = prepared?.levels ?? ParameterLevels.of(ownParameters, count: p, random: isRandom)
        parameterLevels = levels
        varyingParameters = summary.parameters.indices.filter { j in
            (levels[safe: j]?.values.count ?? Set(summary.points.compactMap { $0.parameters[safe: j] }).count) > 1
        }
        logSpacedGrid = levels.map { Self.logSpaced($0.values) }
        let seconds = summary.run.seconds ?? replay?.scene.world.duration
        runSecondsKnown = seconds != nil
        runSeconds = seconds ?? summary.points.flatMap { p in p.metrics.filter { Censoring.missing($0.key, metrics) == .runLength }.map(\.value.max) }.max() ?? 0
        let replicated = summary.replicas > 1
        // What the decompositions read of the parameters alone, made once for the metrics every
        // point has a value of (made per metric, it would be most of a big sweep's report): the
        // groundwork's, or made by the first job, beside the partner metrics' own (made before
        // the jobs, it would be a step of one thread alone).
        let fullDesign = MadeOnce<[Int], Decomposition.Design>()
        let sharedDesign = {
            prepared?.design ?? fullDesign.value([-1]) { Decomposition.Design(parameters: ownParameters, parameterCount: p) }
        }
        let designJobs = p > 0 && prepared?.design == nil ? 1 : 0
        let subsetDesigns = MadeOnce<[Int], Decomposition.Design>(), sensitivityDesigns = MadeOnce<[Int], SensitivityDesign>()
        // What the jobs read of every point besides its statistics, read once: a point copied
        // in each job took references another thread's job had just taken. Each thread has its
        // own copy of the parameter arrays, which the designs and the values of a metric some
        // points lack hold: a reference count taken on one core and then on another moves the
        // count between the cores' caches (docs/journal.md has what that cost).
        let pointWorlds = summary.points.map(Censoring.worlds)
        let workers = ParallelMap.workers(designJobs + columns.count, threads: threads)
        // Each made by its own thread in its first job, and freed on another thread after (made
        // and freed here, they would be two serial steps of the report).
        let parametersByWorker = PerWorker<[[Double]]>(workers) { w in w == 0 ? ownParameters : ownParameters.map { $0.map { $0 } } }
        // One job per metric: its points' complete values (read once, kept for the views), its fit
        // and its decomposition.
        typealias ColumnWork = (analysis: MetricAnalysis, valued: [(Int, Double)], never: [Double?]?, tally: ColumnTally?)
        // A partner's contact count lacks the points whose worlds never touched that partner: its
        // decomposition makes a design of its own, several times the work of another metric's.
        // Those start first, so that no thread is left alone with one at the end.
        let partnerColumns = Set(summary.items.flatMap { item in (summary.partners[item] ?? []).map { "\(item).contacts.\($0)" } })
        let order = columns.indices.filter { partnerColumns.contains(columns[$0]) } + columns.indices.filter { !partnerColumns.contains(columns[$0]) }
        let jobs = ParallelMap.map(designJobs + columns.count, threads: threads) { [runSeconds] j, worker -> ColumnWork? in
            guard j >= designJobs else { _ = sharedDesign(); return nil }
            let k = order[j - designJobs]
            let column = columns[k], pointParameters = parametersByWorker.value(worker)
            let form = forms[k].form
            let lacking = form.missing.countsNever
            // Each point's statistics read once, for its value, its never-share and the tally.
            let stored = table.column(Censoring.readColumn(form))
            // The values alone go to the analyses (a PointValue carries the point's parameters): a
            // copy of each PointSummary per metric cost a retain and a release of its dictionary.
            var pts: [PointValue] = [], valued: [(Int, Double)] = [], never: [Double?] = [], taken: [Int] = []
            var tally = ColumnTally()
            pts.reserveCapacity(summary.points.count); valued.reserveCapacity(summary.points.count); never.reserveCapacity(summary.points.count)
            for i in summary.points.indices {
                let stats = stored?[i], n = pointWorlds[i]
                if lacking { tally.add(worlds: n, stats: stats) }
                guard let v = Censoring.value(parameters: [], worlds: n, form, stats: stats, runSeconds: runSeconds) else { continue }
                pts.append(v); taken.append(i)
                guard v.mean.isFinite else { continue }
                valued.append((i, v.mean))
                never.append(lacking ? Censoring.neverShare(worlds: n, stats: stats) : nil)
            }
            // The analyses read a point's parameters only to make a design. The designs over every
            // point are made from the points' own parameters (`sharedDesign`, and `sensitivity`
            // below), so only a metric some points lack carries its points' parameters (a
            // reference taken and dropped per point and metric was a tenth of the per-metric work
            // at 4 096 points).
            let everyPoint = taken.count == summary.points.count
            if !everyPoint { for k in pts.indices { pts[k].parameters = pointParameters[taken[k]] } }
            let subset = everyPoint ? nil : { [pts, taken] in subsetDesigns.value(taken) { Decomposition.Design(pts, parameterCount: p) } }
            // Most metrics have every point: their set is filed under one short key (not hashing
            // and comparing the whole index list per metric).
            let sensitivity = everyPoint
                ? { prepared?.sensitivity ?? sensitivityDesigns.value([-1]) { Self.sensitivityDesign(parameters: pointParameters, parameterCount: p) } }
                : { [pts, taken] in sensitivityDesigns.value(taken) { Self.sensitivityDesign(pts, parameterCount: p) } }
            return (Self.analyse(column, unit: forms[k].unit, pts, parameterCount: p, replicated: replicated,
                                 design: everyPoint && p > 0 ? sharedDesign() : nil, subsetDesign: subset,
                                 sensitivityDesign: sensitivity), valued, never, lacking ? tally : nil)
        }
        DispatchQueue.global(qos: .utility).async { parametersByWorker.clear() }
        analysisWork = [fullDesign, subsetDesigns, sensitivityDesigns, parametersByWorker]
        // Column k's work is job `job[k]`, read in place (each copy of a work retained its parts).
        var job = [Int](repeating: 0, count: columns.count)
        for (j, k) in order.enumerated() { job[k] = designJobs + j }
        var never: [String: [Double?]] = [:], tallies: [String: ColumnTally] = [:], valuedColumns: [String: [(Int, Double)]] = [:]
        never.reserveCapacity(columns.count); valuedColumns.reserveCapacity(columns.count)   // no regrowth over a big world's columns
        for (k, column) in columns.enumerated() where valuedColumns[column] == nil {
            valuedColumns[column] = jobs[job[k]]!.valued
            never[column] = jobs[job[k]]!.never
            tallies[column] = jobs[job[k]]!.tally
        }
        self.valuedColumns = valuedColumns
        neverColumns = never
        self.tallies = tallies
        analyses = job.map { jobs[$0]!.analysis }
        keyColumns = computedKeyColumns
        rankedMetrics = computedRankedMetrics
        extremeList = computedExtremes
        hoverParts = computedHoverParts
        // The views before the findings, whose words read the key metrics' slices (made one by
        // one on this thread alone when the findings came first).
        cacheViews(threads: threads)
        (headlines, headlineEchoes) = computedHeadlines
        headline = computedHeadline
        unreachedOutcomes = computedUnreachedOutcomes
    }

    /// A metric's fit, decomposition and signal from its points' complete values.
    /// `design`: the decompositions' design over exactly these values' points, in their order
    /// (the caller knows when a metric has every point, so each point's parameters are not
    /// compared with the design's);
    /// `subsetDesign`: otherwise, the design over its points, asked for only if needed.
    static func analyse(_ column: String, unit: String, _ values: [PointValue], parameterCount p: Int, replicated: Bool,
                        design: Decomposition.Design? = nil, subsetDesign: (() -> Decomposition.Design)? = nil,
                        sensitivityDesign: (() -> SensitivityDesign)? = nil) -> MetricAnalysis {
        guard p > 0 else {
            return MetricAnalysis(column: column, importance: nil, fit: nil,
                                  signal: MetricSignal.classify(values, unit: unit, decomposition: nil, replicated: replicated), unfitted: "nothing is swept")
        }
        let fit = values.count > p + 1
            ? Sensitivity.fit(metric: column, design: sensitivityDesign?() ?? Self.sensitivityDesign(values, parameterCount: p), values: values.map(\.mean))
            : nil
        // (A caller's values over every point may leave their parameters out: the design has them.)
        assert(design.map { d in values.count == d.parameters.count && values.allSatisfy { $0.parameters.isEmpty } || d.fits(values) } ?? true,
               "\(column): the design is over other points")
        let full = design
        switch Decomposition.decompose(metric: column, parameterCount: p, points: values, replicated: replicated,
                                       design: full, makeDesign: full == nil ? subsetDesign : nil) {
        case .success(let d):
            return MetricAnalysis(column: column, importance: d, fit: fit,
                                  signal: MetricSignal.classify(values, unit: unit, decomposition: d, replicated: replicated), unfitted: nil)
        case .failure(let why):
            return MetricAnalysis(column: column, importance: nil, fit: fit,
                                  signal: MetricSignal.classify(values, unit: unit, decomposition: nil, replicated: replicated), unfitted: why.description)
        }
    }

    /// The sensitivity fit's parameters over these points (one per set of points: MadeOnce).
    static func sensitivityDesign(_ values: [PointValue], parameterCount p: Int) -> SensitivityDesign {
        sensitivityDesign(parameters: values.map(\.parameters), parameterCount: p)
    }

    /// The same over points given by their parameters alone.
    static func sensitivityDesign(parameters: [[Double]], parameterCount p: Int) -> SensitivityDesign {
        SensitivityDesign(parameters: (0..<p).map { j in parameters.map { $0[safe: j] ?? .nan } }, points: parameters.count)
    }

    var parameterNames: [String] { summary.parameters }
    var binned: Bool { isRandom }

    /// A grid axis of three or more positive values spread by a constant ratio (geometric:
    /// `logspace`, or 0.5, 1, 2, 4) over a factor of at least 3, or a random sweep's `loguniform`
    /// parameter: drawn on a log axis (and a random one binned in equal widths of its logarithm),
    /// in every chart of the parameter.
    func isLogSpaced(_ j: Int) -> Bool {
        guard !isRandom else { return isLogUniform(j) }
        return logSpacedGrid[safe: j] ?? Self.logSpacedValues(summary.points, j)
    }

    /// Whether the points' values of parameter `j` are geometric (`logSpaced`).
    static func logSpacedValues(_ points: [PointSummary], _ j: Int) -> Bool {
        logSpaced(Array(Set(points.compactMap { $0.parameters[safe: j] })).sorted())
    }

    /// Whether distinct ascending values are three or more positive values spread by a constant
    /// ratio over a factor of at least 3.
    static func logSpaced(_ v: [Double]) -> Bool {
        guard v.count >= 3, let lo = v.first, let hi = v.last, lo > 0, hi / lo >= 3 else { return false }
        let ratios = zip(v.dropFirst(), v).map { $0 / $1 }
        return ratios.allSatisfy { abs($0 / ratios[0] - 1) < 0.01 }
    }

    /// A random sweep's parameter drawn `loguniform`, as the sweep file says (a report written
    /// without the file, from summary.json alone, cannot tell and draws it linearly).
    func isLogUniform(_ j: Int) -> Bool {
        guard isRandom, let sweep = replay?.scene.sweep, let path = summary.parameters[safe: j] else { return false }
        return sweep.parameters.contains { p in
            if p.path == path, case .loguniform = p.range { return true }
            return false
        }
    }

    /// A grid or zip parameter's swept values (ticks of its log axis); none for a random sweep.
    func sweptValues(_ j: Int) -> [Double] { isRandom ? [] : parameterLevels[safe: j]?.values ?? [] }

    func axisLabel(_ i: Int) -> String { Units.label(summary.parameters[i], unit: Units.parameter(summary.parameters[i])) }

    func metricLabel(_ column: String) -> String { Units.label(column, unit: Units.metric(column, metrics)) }

    /// Heights, times, counts and shares cannot be negative (the metric's declared kind; a
    /// never-share is a share).
    static func nonNegative(_ column: String, _ metrics: MetricCatalog) -> Bool {
        let key = Units.metricKey(column)
        if metrics.counted(byNever: key) != nil { return true }
        return metrics.named(key)?.isNonNegative ?? false
    }

    static func isCount(_ column: String, _ metrics: MetricCatalog) -> Bool { Units.metric(column, metrics) == "count" }

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

    // MARK: columns


    /// Metric columns in item order, then the contract's metric order, then partner contacts,
    /// with their forms and units. `present`: every metric some point has (`MetricTable.names`).
    static func metricForms(_ summary: SweepSummary, present: Set<String>) -> [Censoring.ColumnForm] {
        var out: [Censoring.ColumnForm] = []
        let metrics = summary.metricCatalog
        // Each key's form and its never-share's, once (`KeyForm`).
        let keys = metrics.all.map { d in
            let form = Censoring.KeyForm(key: d.name, metrics)
            return (name: d.name, form: form, never: form.neverKey.map { ($0, Censoring.KeyForm(key: $0, metrics)) })
        }
        let partnerKey = Censoring.KeyForm(key: "contacts.", metrics)
        for item in summary.items {
            // Each item's key columns made once as text (a big world asks this of every item and key).
            let prefix = item + "."
            // (An item name with a dot of its own, which no file can give, is read column by column.)
            let ownDot = item.utf8.contains(UInt8(ascii: "."))
            for key in keys {
                let column = prefix + key.name
                guard present.contains(column) else { continue }
                out.append(ownDot ? Censoring.ColumnForm(column, metrics) : key.form.column(column, prefix: prefix))
                if let (never, form) = key.never {
                    out.append(ownDot ? Censoring.ColumnForm(prefix + never, metrics) : form.column(prefix + never, prefix: prefix))
                }
            }
            for partner in summary.partners[item] ?? [] {
                let column = prefix + "contacts." + partner
                guard present.contains(column) else { continue }
                // A written never-share key could be any name: looked up when the file writes metrics.
                out.append(ownDot || !metrics.written.isEmpty ? Censoring.ColumnForm(column, metrics) : partnerKey.column(column, prefix: prefix))
            }
        }
        let known = Set(out.map(\.form.column))
        return out + present.filter { !known.contains($0) }.sorted().map { Censoring.ColumnForm($0, metrics) }
    }

    var metricColumns: [String] { analyses.map(\.column) }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
