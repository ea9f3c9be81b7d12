// What the report shows, worked out once from the summary and shared by the Markdown and HTML
// renderers: which axes to plot, which points, the extremes and the sensitivity fits.
import Foundation
import WorldSweepRun

struct ReportModel {
    static let maxLines = 8
    static let maxHeatmapSide = 40
    static let maxWhiskers = 60
    static let maxScatter = 4000
    static let maxItemsCharted = 4
    static let maxSensitivityRows = 80

    let summary: SweepSummary
    let sample: [WorldResult]
    /// The swept parameter on the x axis (one ending in `elasticity` if any), nil for no parameters.
    let xAxis: Int?
    /// The parameter that makes one line per value (one ending in `density` if any), nil if none.
    let groupAxis: Int?
    /// The points charted: other parameters at their first value (grid), or all (zip, random).
    let chartPoints: [PointSummary]
    /// Says which points are charted.
    let selectionNote: String
    let isRandom: Bool
    let isGrid: Bool

    init(summary: SweepSummary, sample: [WorldResult]) {
        self.summary = summary
        self.sample = sample
        let params = summary.parameters
        let kind = summary.sweepKind.lowercased()
        isRandom = kind == "random"
        isGrid = !(isRandom || kind == "zip")
        if params.isEmpty {
            xAxis = nil; groupAxis = nil
        } else {
            let x = params.firstIndex { $0.lowercased().hasSuffix("elasticity") } ?? 0
            xAxis = x
            if (isGrid || isRandom) && params.count >= 2 {
                let distinct = { (i: Int) in Set(summary.points.map { $0.parameters[safe: i] ?? .nan }).count }
                let others = params.indices.filter { $0 != x }
                groupAxis = others.first { params[$0].lowercased().hasSuffix("density") && distinct($0) > 1 }
                    ?? others.first { distinct($0) > 1 } ?? others.first
            } else {
                groupAxis = nil
            }
        }
        // Points charted.
        let first = summary.points.first?.parameters ?? []
        let (xa, ga) = (xAxis, groupAxis)
        let held = params.indices.filter { $0 != xa && $0 != ga }
        if isGrid && !held.isEmpty {
            chartPoints = summary.points.filter { p in held.allSatisfy { i in p.parameters[safe: i] == first[safe: i] } }
            let fixed = held.map { "\(params[$0]) = \(Text.value(first[safe: $0] ?? .nan))" }.joined(separator: ", ")
            selectionNote = "Only points with the other swept parameters at their first value: \(fixed)."
        } else if isRandom && params.count > 1 {
            chartPoints = summary.points
            selectionNote = "All \(summary.points.count) random points; the other parameters vary between them."
        } else {
            chartPoints = summary.points
            selectionNote = summary.sweepKind.lowercased() == "zip" && params.count > 1
                ? "A zip sweep: all parameters change together along the x axis." : ""
        }
    }

    var parameterNames: [String] { summary.parameters }

    func axisLabel(_ i: Int) -> String { Units.label(summary.parameters[i], unit: Units.parameter(summary.parameters[i])) }

    func metricLabel(_ column: String) -> String { Units.label(column, unit: Units.metric(column)) }

    /// Distinct values of a parameter over the given points, ascending.
    func values(_ axis: Int, in points: [PointSummary]) -> [Double] {
        Array(Set(points.compactMap { $0.parameters[safe: axis] })).sorted()
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

    func stats(_ p: PointSummary, _ column: String) -> MetricStats? { p.metrics[column] }

    var itemsCharted: [String] { Array(summary.items.prefix(Self.maxItemsCharted)) }

    // MARK: bounce height against the x parameter

    struct BounceGroup {
        var value: Double?
        /// For random sweeps: the range of the colour parameter this group covers.
        var range: ClosedRange<Double>? = nil
        var points: [(x: Double, stats: MetricStats, point: PointSummary)]
        /// Legend text.
        var label: String? {
            if let r = range { return "\(Text.short(r.lowerBound))–\(Text.short(r.upperBound))" }
            return value.map { Text.value($0) }
        }
    }

    static let randomBins = 4

    /// Per item, the line groups (one per value of the group axis, capped) with their points by x;
    /// for random sweeps, dots coloured by equal-width ranges of the group axis.
    func bounceGroups(item: String) -> (groups: [BounceGroup], cappedFrom: Int?) {
        guard let x = xAxis else { return ([], nil) }
        let column = "\(item).bounce1"
        var cappedFrom: Int? = nil
        var pts = chartPoints
        if isRandom && pts.count > Self.maxScatter { pts = Array(pts.prefix(Self.maxScatter)); cappedFrom = chartPoints.count }
        func line(_ members: [PointSummary]) -> [(x: Double, stats: MetricStats, point: PointSummary)] {
            members.compactMap { p -> (x: Double, stats: MetricStats, point: PointSummary)? in
                guard let xv = p.parameters[safe: x], let st = p.metrics[column], st.mean.isFinite else { return nil }
                return (x: xv, stats: st, point: p)
            }.sorted { $0.x < $1.x }
        }
        guard let g = groupAxis else { return ([BounceGroup(value: nil, points: line(pts))], cappedFrom) }
        if isRandom {
            let gv = pts.compactMap { $0.parameters[safe: g] }
            guard let lo = gv.min(), let hi = gv.max(), hi > lo else { return ([BounceGroup(value: nil, points: line(pts))], cappedFrom) }
            let w = (hi - lo) / Double(Self.randomBins)
            let bin = { (v: Double) in min(Self.randomBins - 1, Int((v - lo) / w)) }
            return ((0..<Self.randomBins).map { b in
                BounceGroup(value: nil, range: (lo + Double(b) * w)...(lo + Double(b + 1) * w),
                            points: line(pts.filter { $0.parameters[safe: g].map(bin) == b }))
            }, cappedFrom)
        }
        let all = values(g, in: chartPoints)
        let kept = Self.capped(all, Self.maxLines)
        if kept.count < all.count { cappedFrom = all.count }
        return (kept.map { gv in BounceGroup(value: gv, points: line(pts.filter { $0.parameters[safe: g] == gv })) }, cappedFrom)
    }

    // MARK: contacts heatmap

    struct Grid { var xValues: [Double]; var yValues: [Double]; var cells: [[PointSummary?]]; var capped: Bool }

    /// The points over the x and group axes (capped per side), nil unless a grid with two axes.
    func heatmapGrid() -> Grid? {
        guard isGrid, let x = xAxis, let g = groupAxis else { return nil }
        let allX = values(x, in: chartPoints), allY = values(g, in: chartPoints)
        let xs = Self.capped(allX, Self.maxHeatmapSide), ys = Self.capped(allY, Self.maxHeatmapSide)
        var index: [[Double]: PointSummary] = [:]
        for p in chartPoints { index[[p.parameters[x], p.parameters[g]]] = p }
        let cells = ys.map { yv in xs.map { xv in index[[xv, yv]] } }
        return Grid(xValues: xs, yValues: ys, cells: cells, capped: xs.count < allX.count || ys.count < allY.count)
    }

    // MARK: distributions

    /// The item whose first bounce varies most over replicas (mean std over points).
    var distributionItem: String? {
        guard summary.replicas > 1, !summary.items.isEmpty else { return nil }
        func spread(_ item: String) -> Double {
            let s = summary.points.compactMap { $0.metrics["\(item).bounce1"]?.std }
            return s.isEmpty ? -1 : s.reduce(0, +) / Double(s.count)
        }
        return summary.items.max { spread($0) < spread($1) }
    }

    func whiskerPoints(column: String) -> (points: [(PointSummary, MetricStats)], cappedFrom: Int?) {
        let all = chartPoints.compactMap { p in p.metrics[column].map { (p, $0) } }
        guard all.count > Self.maxWhiskers else { return (all, nil) }
        let idx = Self.capped(all.indices.map(Double.init), Self.maxWhiskers).map { Int($0) }
        return (idx.map { all[$0] }, all.count)
    }

    /// First-bounce heights of the sampled worlds (failed ones left out).
    func sampleBounces(item: String) -> [Double] {
        guard let k = summary.items.firstIndex(of: item) else { return [] }
        return sample.filter { !$0.failed }.compactMap { $0.items[safe: k]?.bounceHeights.first }
    }

    // MARK: extremes

    struct Extreme { var column: String; var high: (PointSummary, Double); var low: (PointSummary, Double) }

    func extremes() -> [Extreme] {
        var out: [Extreme] = []
        for item in summary.items {
            for key in ["bounce1", "contacts", "rest_time"] {
                let column = "\(item).\(key)"
                let vals = summary.points.compactMap { p in p.metrics[column].flatMap { $0.mean.isFinite ? (p, $0.mean) : nil } }
                guard let hi = vals.max(by: { $0.1 < $1.1 }), let lo = vals.min(by: { $0.1 < $1.1 }) else { continue }
                out.append(Extreme(column: column, high: hi, low: lo))
            }
        }
        return out
    }

    // MARK: sensitivity

    static let metricOrder = ["contacts", "bounces", "bounce1", "bounce2", "bounce3", "bounce4", "bounce5", "bounce6",
                              "bounce7", "bounce8", "rest_time", "x", "y", "angle", "vx", "vy", "angular_velocity"]

    /// Metric columns in item order, then the contract's metric order, then partner contacts.
    var metricColumns: [String] {
        let present = Set(summary.points.flatMap { $0.metrics.keys })
        var out: [String] = []
        for item in summary.items {
            for key in Self.metricOrder where present.contains("\(item).\(key)") { out.append("\(item).\(key)") }
            for partner in summary.partners[item] ?? [] where present.contains("\(item).contacts.\(partner)") {
                out.append("\(item).contacts.\(partner)")
            }
        }
        let known = Set(out)
        return out + present.filter { !known.contains($0) }.sorted()
    }

    /// Fits for every metric that varies; metrics missing at some points use the points that have them.
    func sensitivity() -> (fits: [SensitivityFit], skipped: [String]) {
        guard !summary.parameters.isEmpty else { return ([], []) }
        var fits: [SensitivityFit] = [], skipped: [String] = []
        for column in metricColumns {
            let pts = summary.points.filter { $0.failedReplicas < $0.replicas && ($0.metrics[column]?.mean.isFinite ?? false) }
            let y = pts.map { $0.metrics[column]!.mean }
            let x = summary.parameters.indices.map { j in pts.map { $0.parameters[safe: j] ?? .nan } }
            if let f = Sensitivity.fit(metric: column, parameters: x, values: y) { fits.append(f) } else { skipped.append(column) }
        }
        return (fits, skipped)
    }

    // MARK: header

    var header: [(String, String)] {
        let r = summary.run
        let pts = summary.points.count
        return [
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
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
