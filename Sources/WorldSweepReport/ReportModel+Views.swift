import Foundation
import WorldSweepRun

// What matters (ranked metrics, the headline, noise), the whole-sweep views of a metric, and the spread over replicas.
extension ReportModel {
    // MARK: what matters

    var computedKeyColumns: [String] {
        // (`valuedColumns` has a key per analysed column: the columns present.)
        keyMetrics.flatMap { key in itemsCharted.map { "\($0).\(key)" } }.filter { valuedColumns[$0] != nil }
    }

    var computedRankedMetrics: [MetricAnalysis] {
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

    var constantMetrics: [String] { analyses.compactMap { $0.signal == .constant ? $0.column : nil } }

    /// The times no world reached (a rest, a settling) of metrics the run
    /// recorded, said in one sentence per metric: such a column is empty in every world, so no
    /// analysis, chart or constant names it otherwise.
    /// (Worked out once, as `unreachedOutcomes`: both pages ask twice.)
    var computedUnreachedOutcomes: [String] {
        // Each name once, in first-seen order (a set answers whether it is in: a search of the
        // list per name grew with the square of a big world's columns).
        var tables: [MetricNames] = [], seen = Set<ObjectIdentifier>()
        for p in summary.points where seen.insert(ObjectIdentifier(p.metrics.names)).inserted { tables.append(p.metrics.names) }
        // One table's names are distinct already (most runs have one table).
        var declared: [String] = tables.count == 1 ? tables[0].names : []
        if tables.count > 1 {
            var inDeclared = Set<String>()
            for table in tables { for name in table.names where inDeclared.insert(name).inserted { declared.append(name) } }
        }
        let worlds = summary.points.reduce(0) { $0 + Censoring.worlds($1) }
        guard worlds > 0 else { return [] }
        var byKey: [(key: String, items: [String])] = []
        // A column's censoring is its key's: the keys of times a run can miss, found once (asked
        // of each column, it copied a declaration per column of a big world).
        let runLengthKeys = metrics.all.map(\.name).filter { Censoring.missing("_." + $0, metrics) == .runLength }
        // (`valuedColumns` has a key per analysed column: the columns present.)
        for column in declared {
            guard let (before, columnKey) = Censoring.split(column), runLengthKeys.contains(where: { columnKey == $0 }),
                  valuedColumns[column] == nil else { continue }
            let key = Units.metricKey(column)
            // The text before the first dot (the first part of the dotted name that is not empty).
            guard let item = before.isEmpty ? column.split(separator: ".").first.map(String.init) : String(before) else { continue }
            if let k = byKey.firstIndex(where: { $0.key == key }) { byKey[k].items.append(item) } else { byKey.append((key, [item])) }
        }
        return byKey.map { key, items in
            let who = items.count == 1 ? items[0] : items.dropLast().joined(separator: ", ") + " and " + items.last!
            let what = HTMLReport.lacking("x.\(key)", metrics).replacingOccurrences(of: "in the run", with: "in the \(Text.value(runSeconds)) s run")
            return "In all \(worlds) worlds \(who) \(what): \(items.map { "\($0).\(key)" }.joined(separator: ", ")) \(items.count == 1 ? "has" : "have") no value in any world."
        }
    }

    /// The metric the page leads with: the first of `headlines`.
    var computedHeadline: MetricAnalysis? { headlines.first }

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
        parameterOrder(column).map { slice(column, $0) }
    }

    /// The metric against parameter `j`.
    func slice(_ column: String, _ j: Int) -> SliceView {
        sliceCache[column]?[safe: j] ?? SweepViews.slice(valued: valued(column), of: summary.points, never: neverShares(column), parameter: j, column: column, binned: binned, log: binned && isLogSpaced(j),
                                                         levels: parameterLevels[safe: j])
    }

    /// Fills the view caches: every slice and the pair maps of the charted metrics (the views of a
    /// constant metric are never drawn). The other metrics' findings take the one or two slices
    /// their words need when asked (most of them only the Markdown page asks, beside the HTML page).
    mutating func cacheViews(threads: Int) {
        var charted: [String] = []
        for c in keyColumns where analysis(c).map({ $0.signal != .constant }) ?? false { charted.append(c) }
        let sliced = charted
        let p = summary.parameters.count
        let model = self
        enum View { case slice(SliceView), pairs(maps: [PairView], total: Int) }
        // One job per charted metric's pair maps (the longer jobs: first, so that none ends the
        // step on one thread), then one per (metric, parameter) slice.
        let pairJobs = charted.count
        let views = ParallelMap.map(pairJobs + sliced.count * p, threads: threads) { k -> View in
            guard k >= pairJobs else { let v = model.pairs(charted[k]); return .pairs(maps: v.maps, total: v.total) }
            // (`model` was copied before any view was cached: `slice` makes each one.)
            return .slice(model.slice(sliced[(k - pairJobs) / p], (k - pairJobs) % p))
        }
        for (i, column) in charted.enumerated() {
            if case .pairs(let maps, let total) = views[i] { pairCache[column] = (maps, total) }
        }
        for (i, column) in sliced.enumerated() {
            sliceCache[column] = (0..<p).compactMap { if case .slice(let v) = views[pairJobs + i * p + $0] { v } else { nil } }
        }
    }

    /// Pair maps over the most important pairs (the pair's summed shares); none for zip sweeps,
    /// whose parameters move together. A pair always has the parameter earlier in the file across
    /// (one axis order per pair on the whole page).
    func pairs(_ column: String) -> (maps: [PairView], total: Int) {
        if let cached = pairCache[column] { return cached }
        guard !summary.sweepKind.lowercased().hasPrefix("zip") else { return ([], 0) }
        let order = parameterOrder(column).filter(varyingParameters.contains)
        guard order.count >= 2 else { return ([], 0) }
        var all: [(Int, Int)] = []
        for a in order.indices { for b in order.indices where b > a { all.append((min(order[a], order[b]), max(order[a], order[b]))) } }
        let kept = all.prefix(Self.maxPairs)
        let vals = valued(column), never = neverShares(column)
        return (kept.map { pair in
            let levels = parameterLevels[safe: pair.0].flatMap { x in parameterLevels[safe: pair.1].map { (x, $0) } }
            return SweepViews.pair(valued: vals, of: summary.points, never: never, x: pair.0, y: pair.1, column: column, binned: binned,
                                   log: (binned && isLogSpaced(pair.0), binned && isLogSpaced(pair.1)), maxSide: Self.maxHeatmapSide, levels: levels)
        }, all.count)
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
        let points = summary.points, vals = valued(h.column)
        let groups = Array(Set(vals.compactMap { points[$0.0].parameters[safe: g] })).sorted()
        let kept = Self.capped(groups, Self.maxInteractionLines)
        let lines = kept.map { gv -> (value: Double, points: [(x: Double, mean: Double, n: Int)]) in
            var acc: [Double: (Double, Int)] = [:]
            for (i, v) in vals where points[i].parameters[safe: g] == gv {
                guard let xv = points[i].parameters[safe: x] else { continue }
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
        return sample.bounces(item: k)
    }
}
