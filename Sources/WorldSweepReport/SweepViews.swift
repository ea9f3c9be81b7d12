// Whole-sweep views of one metric (Optuna's plot_slice and plot_contour are the models): against
// one parameter, every point's mean plus, at each value of that parameter, the mean and min–max of
// the point means over all the other parameters; over two parameters, the mean over the rest.
// Random sweeps have no repeated values, so their parameters are cut into equal-width bins. Every
// point counts: a metric's values are its complete form (Censoring.swift), with the never-shares.
import Foundation
import WorldSweepRun

struct SliceLevel: Sendable {
    /// The parameter's value (grid), or the mean value of the points in the bin (random).
    var x: Double
    var mean: Double
    var min: Double
    var max: Double
    var points: Int
    /// For a metric worlds can lack (bounces, rest and settle times): the mean share of the
    /// points' worlds without a value.
    var never: Double?
}

struct SliceView: Sendable {
    var parameter: Int
    var column: String
    /// Every point with a value: (parameter value, the point's mean, the point's index in the
    /// summary's points).
    var dots: [(x: Double, y: Double, point: Int)]
    var levels: [SliceLevel]
    /// True when the levels are bins of a continuous parameter.
    var binned: Bool
    /// The bins' edges (binned views only): equal widths, of the logarithm for a log-uniform
    /// parameter (`log`).
    var edges: [Double] = []
    var log = false
}

struct PairView: Sendable {
    var xParameter: Int
    var yParameter: Int
    var column: String
    /// Column and row centres (values, or bin centres).
    var xValues: [Double]
    var yValues: [Double]
    /// cells[row][column]: mean of the point means in that cell, how many points it averages and
    /// (a metric worlds can lack) the mean share of their worlds without a value.
    var cells: [[(mean: Double, points: Int, never: Double?)?]]
    var binned: Bool
    /// Values of an axis left out to keep the map readable (grid sweeps with many values).
    var capped: Bool
}

/// One parameter's distinct values over a sweep's points, ascending, and each point's place among
/// them: worked out once per report, so that each slice and pair map of a grid sweep groups its
/// points by index instead of hashing every point's value again in sets and dictionaries of
/// values per view.
struct ParameterLevels: Sendable {
    /// The distinct values, ascending, as `Array(Set(values)).sorted()` makes them.
    let values: [Double]
    /// Per point, its value's index in `values` (−1 for a point without the parameter); nil when
    /// some value is NaN or −0, where which of equal values a set keeps (0 or −0) or whether it
    /// finds one at all (NaN) depends on the points a view takes: those views hash, as before.
    let index: [Int32]?

    /// Every parameter's levels over points with these parameters (`count` parameters); none for
    /// a random sweep, whose views bin.
    static func of(_ parameters: [[Double]], count: Int, random: Bool) -> [ParameterLevels] {
        random ? [] : (0..<count).map { ParameterLevels(parameters, parameter: $0) }
    }

    /// Parameter `j`'s levels over points with these parameters.
    init(_ parameters: [[Double]], parameter j: Int) {
        let present = parameters.compactMap { $0[safe: j] }
        values = Array(Set(present)).sorted()
        guard !present.contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }), values.count < Int(Int32.max) else {
            index = nil
            return
        }
        let distinct = values
        index = parameters.map { point in
            guard let v = point[safe: j] else { return -1 }
            return Int32(SweepViews.position(of: v, in: distinct)!)
        }
    }

    /// The values at least one of `points` (indices into the summary's points) has, ascending:
    /// `Array(Set(their values)).sorted()`, read through the index.
    func values(of points: some Sequence<Int>, index: [Int32]) -> [Double] {
        var seen = [Bool](repeating: false, count: values.count)
        for p in points where index[p] >= 0 { seen[Int(index[p])] = true }
        return values.indices.filter { seen[$0] }.map { values[$0] }
    }
}

enum SweepViews {
    static let bins = 10
    static let pairBins = 8

    /// Every point with a world that did not fail, by its index in `points`, and its mean of
    /// `column` in the complete form (Censoring: a time never reached counts as the run's length, a
    /// bounce never made as 0). Indices, not copies of the points: a copy retained and released the
    /// point's arrays and dictionary, per metric column and per view.
    static func valued(_ points: [PointSummary], _ column: String, _ metrics: MetricCatalog, runSeconds: Double) -> [(Int, Double)] {
        let form = Censoring.Form(column, metrics)
        return points.indices.compactMap { i in
            guard let v = Censoring.value(points[i], form, runSeconds: runSeconds), v.mean.isFinite else { return nil }
            return (i, v.mean)
        }
    }

    /// The share of a point's worlds without a value of `column` (nil for a metric every world
    /// has), as one function for every point of the column: the rule read once, not per point.
    static func never(_ column: String, _ metrics: MetricCatalog) -> (PointSummary) -> Double? {
        !Censoring.missing(column, metrics).countsNever ? { _ in nil } : { Censoring.neverShare($0, column) }
    }

    /// Per valued point, the share of its worlds without a value of `column` (nil entries for a
    /// metric every world has): what the slices and pair maps of the column show beside the means.
    static func neverShares(_ valued: [(Int, Double)], of points: [PointSummary], _ column: String, _ metrics: MetricCatalog) -> [Double?] {
        let never = never(column, metrics)
        return valued.map { never(points[$0.0]) }
    }

    static func meanOf(_ v: [Double?]) -> Double? {
        let x = v.compactMap { $0 }
        return x.isEmpty ? nil : x.reduce(0, +) / Double(x.count)
    }

    /// `count` equal-width bins over [lo, hi], or over [log lo, log hi] for a log-uniform
    /// parameter: where v falls (the top edge belongs to the last bin), the bins' edges and a
    /// bin's centre, in the parameter's own units.
    struct Bins {
        var lo: Double, hi: Double, count: Int, logarithmic: Bool
        /// Log bins need positive values (a `loguniform` range has only those); otherwise linear.
        init(_ values: [Double], count: Int, logarithmic: Bool) {
            let logs = logarithmic && !values.isEmpty && values.allSatisfy { $0 > 0 }
            let v = logs ? values.map { log($0) } : values
            self.lo = v.min() ?? 0; self.hi = v.max() ?? 1; self.count = count; self.logarithmic = logs
        }
        func index(_ x: Double) -> Int { SweepViews.bin(logarithmic ? log(x) : x, lo: lo, hi: hi, count: count) }
        private func unit(_ t: Double) -> Double { logarithmic ? exp(t) : t }
        var edges: [Double] { (0...count).map { unit(lo + Double($0) * (hi - lo) / Double(count)) } }
        func centre(_ i: Int) -> Double { unit(lo + (Double(i) + 0.5) * (hi - lo) / Double(count)) }
        /// Where a bin's points stand: their mean, or for log bins their geometric mean.
        func middle(_ xs: [Double]) -> Double {
            logarithmic ? exp(xs.map { log($0) }.reduce(0, +) / Double(xs.count)) : xs.reduce(0, +) / Double(xs.count)
        }
    }

    /// Where `v` is in `sorted` (ascending, distinct, as `Array(Set(…)).sorted()` makes them), or
    /// nil: found by `==`, as a dictionary keyed by the values would find it (0 and −0 alike,
    /// NaN never).
    static func position(of v: Double, in sorted: [Double]) -> Int? {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == v ? lo : nil
    }

    /// Equal-width bin index of v in [lo, hi] (the top edge belongs to the last bin).
    static func bin(_ v: Double, lo: Double, hi: Double, count: Int) -> Int {
        guard hi > lo else { return 0 }
        return Swift.min(count - 1, Swift.max(0, Int((v - lo) / (hi - lo) * Double(count))))
    }

    static func slice(points: [PointSummary], parameter j: Int, column: String, _ metrics: MetricCatalog, binned: Bool, log: Bool = false,
                      runSeconds: Double) -> SliceView {
        let valued = valued(points, column, metrics, runSeconds: runSeconds)
        return slice(valued: valued, of: points, never: neverShares(valued, of: points, column, metrics), parameter: j, column: column,
                     binned: binned, log: log)
    }

    /// `valued`: `valued(points, column, …)`, when the caller has it already; `never`:
    /// `neverShares(valued, of: points, column)`, likewise.
    /// `levels`: the parameter's levels over `points` (ReportModel's, made once), for a grid's
    /// levels grouped by index.
    static func slice(valued: [(Int, Double)], of points: [PointSummary], never shares: [Double?], parameter j: Int, column: String,
                      binned: Bool, log: Bool = false, levels: ParameterLevels? = nil) -> SliceView {
        var vals: [(x: Double, y: Double, point: Int)] = [], never: [Double?] = []
        vals.reserveCapacity(valued.count); never.reserveCapacity(valued.count)
        for (i, (p, y)) in valued.enumerated() {
            guard let x = points[p].parameters[safe: j] else { continue }
            vals.append((x, y, p)); never.append(shares[i])
        }
        // The levels' points, by level in order: bins by index (an array, not a dictionary keyed
        // by each point's bin, which would hash per point),
        // grid values by value.
        typealias Member = (x: Double, y: Double, never: Double?)
        let ordered: [[Member]]
        var cut: Bins?
        if binned, !vals.isEmpty {
            let b = Bins(vals.map(\.x), count: bins, logarithmic: log)
            cut = b
            var byBin = [[Member]](repeating: [], count: bins)
            for (v, n) in zip(vals, never) { byBin[b.index(v.x)].append((v.x, v.y, n)) }
            ordered = byBin.filter { !$0.isEmpty }
        } else if let levels, let index = levels.index {
            // By the value's level: the levels ascending, as the sorted keys below.
            var byLevel = [[Member]](repeating: [], count: levels.values.count)
            for (v, n) in zip(vals, never) { byLevel[Int(index[v.point])].append((v.x, v.y, n)) }
            ordered = byLevel.filter { !$0.isEmpty }
        } else {
            var groups: [Double: [Member]] = [:]
            for (v, n) in zip(vals, never) { groups[v.x, default: []].append((v.x, v.y, n)) }
            ordered = groups.keys.sorted().map { groups[$0]! }
        }
        let levels = ordered.map { g -> SliceLevel in
            let ys = g.map(\.y)
            return SliceLevel(x: cut?.middle(g.map(\.x)) ?? g[0].x, mean: ys.reduce(0, +) / Double(ys.count),
                              min: ys.min()!, max: ys.max()!, points: g.count, never: meanOf(g.map(\.never)))
        }
        return SliceView(parameter: j, column: column, dots: vals, levels: levels, binned: binned, edges: cut?.edges ?? [], log: cut?.logarithmic ?? false)
    }

    static func pair(points: [PointSummary], x jx: Int, y jy: Int, column: String, _ metrics: MetricCatalog, binned: Bool,
                     log: (x: Bool, y: Bool) = (false, false), maxSide: Int, runSeconds: Double) -> PairView {
        let valued = valued(points, column, metrics, runSeconds: runSeconds)
        return pair(valued: valued, of: points, never: neverShares(valued, of: points, column, metrics), x: jx, y: jy, column: column,
                    binned: binned, log: log, maxSide: maxSide)
    }

    /// `valued`: `valued(points, column, …)`, when the caller has it already; `never`:
    /// `neverShares(valued, of: points, column)`, likewise.
    /// `levels`: the two parameters' levels over `points` (ReportModel's, made once), for a grid's
    /// cells found by index.
    static func pair(valued: [(Int, Double)], of points: [PointSummary], never shares: [Double?], x jx: Int, y jy: Int, column: String,
                     binned: Bool, log: (x: Bool, y: Bool) = (false, false), maxSide: Int,
                     levels: (x: ParameterLevels, y: ParameterLevels)? = nil) -> PairView {
        let vals = valued.indices.compactMap { i -> (Double, Double, Double, Double?, Int)? in
            let parameters = points[valued[i].0].parameters
            guard let a = parameters[safe: jx], let b = parameters[safe: jy] else { return nil }
            return (a, b, valued[i].1, shares[i], valued[i].0)
        }
        var xs: [Double], ys: [Double]
        var key: (Double, Double, Int) -> (Int, Int)?
        var capped = false
        if binned {
            let n = pairBins
            let bx = Bins(vals.map(\.0), count: n, logarithmic: log.x), by = Bins(vals.map(\.1), count: n, logarithmic: log.y)
            xs = (0..<n).map(bx.centre)
            ys = (0..<n).map(by.centre)
            key = { a, b, _ in (bx.index(a), by.index(b)) }
        } else if let levels, let ix = levels.x.index, let iy = levels.y.index {
            // The values present and each level's column (row) through the levels' index: the
            // same sorted distinct values and binary searches as below, per level, not per point.
            let allX = levels.x.values(of: vals.lazy.map(\.4), index: ix), allY = levels.y.values(of: vals.lazy.map(\.4), index: iy)
            xs = ReportModel.capped(allX, maxSide); ys = ReportModel.capped(allY, maxSide)
            capped = xs.count < allX.count || ys.count < allY.count
            let (sx, sy) = (xs, ys)
            let column = levels.x.values.map { Self.position(of: $0, in: sx) ?? -1 }, row = levels.y.values.map { Self.position(of: $0, in: sy) ?? -1 }
            key = { _, _, p in
                let c = column[Int(ix[p])], r = row[Int(iy[p])]
                return c < 0 || r < 0 ? nil : (c, r)
            }
        } else {
            let allX = Array(Set(vals.map(\.0))).sorted(), allY = Array(Set(vals.map(\.1))).sorted()
            xs = ReportModel.capped(allX, maxSide); ys = ReportModel.capped(allY, maxSide)
            capped = xs.count < allX.count || ys.count < allY.count
            // Each value's column and row by binary search in the sorted, distinct values (a
            // dictionary keyed by Double would hash twice per point and map).
            // (With a NaN among them the sort has no order to search: a dictionary, as before.)
            let (sx, sy) = (xs, ys)
            if sx.contains(where: \.isNaN) || sy.contains(where: \.isNaN) {
                let xi = Dictionary(sx.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                let yi = Dictionary(sy.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                key = { a, b, _ in
                    guard let c = xi[a], let r = yi[b] else { return nil }
                    return (c, r)
                }
            } else {
                key = { a, b, _ in
                    guard let c = Self.position(of: a, in: sx), let r = Self.position(of: b, in: sy) else { return nil }
                    return (c, r)
                }
            }
        }
        var sums = [[(Double, Int, Double)]](repeating: [(Double, Int, Double)](repeating: (0, 0, 0), count: xs.count), count: ys.count)
        // A metric whose never-share is an outcome has one (0 or more) at every point; others none.
        let counted = shares.contains { $0 != nil }
        for (a, b, v, n, p) in vals {
            guard let k = key(a, b, p) else { continue }
            sums[k.1][k.0].0 += v; sums[k.1][k.0].1 += 1; sums[k.1][k.0].2 += n ?? 0
        }
        let cells = sums.map { row in row.map { s -> (mean: Double, points: Int, never: Double?)? in
            s.1 > 0 ? (s.0 / Double(s.1), s.1, counted ? s.2 / Double(s.1) : nil) : nil
        } }
        return PairView(xParameter: jx, yParameter: jy, column: column, xValues: xs, yValues: ys, cells: cells, binned: binned, capped: capped)
    }
}
