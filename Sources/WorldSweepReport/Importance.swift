// Which swept parameters matter to a metric, and which metrics only carry noise. The importance
// of a parameter is the share of the metric's variation over the points that only that parameter's
// terms explain: R² of the full least-squares model (each parameter standardized, plus its
// standardized square when it takes three or more values, so curved effects count) minus R² of
// the model without them. Solved with LAPACK dgels like the sensitivity table; interactions are
// not modelled and show up as the part 1 − R² leaves unexplained.
import WorldSweepRun

public struct ParameterImportance: Sendable, Hashable {
    /// The metric column (`bottom.bounce1`, …).
    public var metric: String
    /// Per swept parameter (file order): the share of variation only it explains (0…1); nil where
    /// the parameter is constant over the points or moves in lockstep with an earlier one.
    public var shares: [Double?]
    /// Per swept parameter: the standardized linear coefficient (sign: raises or lowers).
    public var slopes: [Double?]
    /// R² of the full model.
    public var rSquared: Double
    /// Sweep points in the fit.
    public var points: Int

    /// Parameter indices with a share, largest share first (file order on ties).
    public var ranked: [Int] {
        shares.indices.filter { shares[$0] != nil }.sorted { (shares[$0]!, -$0) > (shares[$1]!, -$1) }
    }
}

extension Sensitivity {
    /// Importance of each parameter for one metric; nil when y is constant or there are not more
    /// points than parameters + 1 (a fit through that few points says nothing).
    public static func importance(metric: String, parameters x: [[Double]], values y: [Double]) -> ParameterImportance? {
        let m = y.count
        guard m > x.count + 1, y.allSatisfy(\.isFinite), x.allSatisfy({ $0.count == m }), let yz = standardize(y) else { return nil }
        // Terms per parameter: its z-score and, with three or more distinct values, its centred square.
        var kept: [Int] = []
        var linear: [[Double]] = []
        for (j, col) in x.enumerated() {
            guard col.allSatisfy(\.isFinite), let z = standardize(col) else { continue }
            if linear.contains(where: { abs(dot($0, z)) / Double(m - 1) > 0.999_999 }) { continue }
            kept.append(j); linear.append(z)
        }
        var terms: [[[Double]]] = linear.map { [$0] }
        for (k, j) in kept.enumerated() where Set(x[j]).count >= 3 {
            if let q = standardize(linear[k].map { $0 * $0 }) { terms[k].append(q) }
        }
        // Too few points for the squares: fall back to straight lines.
        if m <= terms.reduce(0, { $0 + $1.count }) + 1 { terms = linear.map { [$0] } }
        func r2(_ columns: [[Double]]) -> Double? {
            guard !columns.isEmpty else { return 0 }
            guard let beta = leastSquares(columns: columns, rhs: yz) else { return nil }
            var ssr = 0.0, sst = 0.0
            for i in 0..<m {
                var f = 0.0
                for (k, c) in columns.enumerated() { f += beta[k] * c[i] }
                ssr += (yz[i] - f) * (yz[i] - f); sst += yz[i] * yz[i]
            }
            return sst > 0 ? max(0, 1 - ssr / sst) : 0
        }
        guard let full = r2(terms.flatMap { $0 }) else { return nil }
        var shares = [Double?](repeating: nil, count: x.count)
        for (k, j) in kept.enumerated() {
            let without = terms.enumerated().filter { $0.offset != k }.flatMap { $0.element }
            guard let rest = r2(without) else { return nil }
            shares[j] = max(0, full - rest)
        }
        let slopes = fit(metric: metric, parameters: x, values: y)?.coefficients ?? [Double?](repeating: nil, count: x.count)
        return ParameterImportance(metric: metric, shares: shares, slopes: slopes, rSquared: full, points: m)
    }
}

/// Whether a metric's variation over the points says something about the parameters.
enum MetricSignal: Sendable, Equatable {
    case signal
    /// The same at every point.
    case constant
    /// Varies, but only as noise would; the reason says why it was judged so.
    case noise(String)

    /// Below these ranges over the sweep a metric is treated as not varying (per unit).
    static func floor(unit: String) -> Double {
        switch unit {
        case "pt": 0.5
        case "pt/s": 1
        case "s": 0.02
        case "rad", "rad/s": 0.01
        default: 0.05   // counts: a mean that moves by less than a twentieth of a contact
        }
    }

    /// Judges a metric from its per-point statistics and (when there is one) its importance fit.
    static func classify(stats: [MetricStats], unit: String, fit: ParameterImportance?, points: Int, parameters: Int) -> MetricSignal {
        let means = stats.map(\.mean).filter(\.isFinite)
        guard let lo = means.min(), let hi = means.max(), hi > lo else { return .constant }
        // A metric most points lack (a fifth bounce, say): what its few points say is not a trend.
        if points > means.count, means.count < max(2 * (parameters + 1), points / 10) {
            return .noise("only \(means.count) of the \(points) points have a value")
        }
        let floor = Self.floor(unit: unit)
        if hi - lo < floor {
            return .noise("its mean moves by less than \(Text.value(floor))\(unit.isEmpty ? "" : " " + unit) over the sweep")
        }
        // Replicas: do the point means differ more than their own replica noise would make them?
        let withReplicas = stats.filter { $0.count > 1 }
        if withReplicas.count == stats.count, means.count > 1 {
            let n = Double(means.count)
            let mean = means.reduce(0, +) / n
            let between = means.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
            let within = withReplicas.reduce(0) { $0 + $1.std * $1.std / Double($1.count) } / Double(withReplicas.count)
            if between < 3 * within {
                return .noise("its point means differ no more than the replicas of one point do")
            }
        }
        if let fit, fit.rSquared < 0.25 {
            return .noise("the swept parameters explain \(Int((fit.rSquared * 100).rounded())) % of its variation")
        }
        return .signal
    }
}
