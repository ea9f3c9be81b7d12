// Sensitivity of each metric to the swept parameters: an ordinary least-squares fit of the
// metric's per-point mean on the parameters, both standardized (z-scores), solved with LAPACK's
// QR as dgels does it (LeastSquares.swift). The coefficients are then comparable across
// parameters: the change in the metric, in standard deviations, per standard deviation of the
// parameter, the others held fixed.

public struct SensitivityFit: Sendable, Hashable {
    /// The metric column (`bottom.bounce1`, …).
    public var metric: String
    /// One standardized coefficient per swept parameter; nil where the parameter was left out of
    /// the fit (constant over the points used, or collinear with an earlier parameter).
    public var coefficients: [Double?]
    /// Coefficient of determination of the fit (1 − residual / total sum of squares).
    public var rSquared: Double
    /// How many sweep points went into the fit.
    public var points: Int
}

/// The parameters' side of a sensitivity fit over one set of points: each parameter standardized,
/// those constant or (nearly) collinear with an earlier one left out. It reads only the points'
/// parameters, so one serves every metric valued at the same points (made per metric, it was
/// redone some forty times over the same columns).
public struct SensitivityDesign: Sendable {
    /// The points it is over.
    let count: Int
    /// How many parameters were swept.
    let parameterCount: Int
    /// The parameters fitted, and their standardized columns.
    let kept: [Int]
    let columns: [[Double]]
    /// The columns as a least-squares matrix, factored once (nil without columns).
    let matrix: LeastSquaresMatrix?

    /// `x[j]`: parameter j over the `m` points.
    public init(parameters x: [[Double]], points m: Int) {
        var kept: [Int] = [], columns: [[Double]] = []
        for (j, col) in x.enumerated() {
            guard col.count == m, col.allSatisfy(\.isFinite), let z = Sensitivity.standardize(col) else { continue }
            let collinear = columns.contains { abs(Sensitivity.dot($0, z)) / Double(m - 1) > 0.999_999 }
            if collinear { continue }
            kept.append(j); columns.append(z)
        }
        count = m; parameterCount = x.count; self.kept = kept; self.columns = columns
        // Fitted only with more points than columns (`fit`): no factoring otherwise.
        matrix = columns.isEmpty || m <= columns.count ? nil : LeastSquaresMatrix(columns: columns)
    }
}

public enum Sensitivity {
    /// Least squares of y on the columns of x (x[i] is the i-th parameter over the points),
    /// after standardizing both. Returns nil when y is constant (or not finite), or when there are
    /// not more points than usable parameters.
    public static func fit(metric: String, parameters x: [[Double]], values y: [Double]) -> SensitivityFit? {
        guard x.allSatisfy({ $0.count == y.count }) else { return nil }
        return fit(metric: metric, design: SensitivityDesign(parameters: x, points: y.count), values: y)
    }

    /// The same fit on a design made for these points (`design.count == y.count`).
    public static func fit(metric: String, design: SensitivityDesign, values y: [Double]) -> SensitivityFit? {
        let m = y.count
        guard m >= 2, design.count == m, y.allSatisfy(\.isFinite) else { return nil }
        guard let yz = standardize(y) else { return nil }
        let kept = design.kept, columns = design.columns
        var coefficients = [Double?](repeating: nil, count: design.parameterCount)
        let n = columns.count
        guard n == 0 || m > n else { return nil }
        var fitted = [Double](repeating: 0, count: m)
        if n > 0 {
            guard let beta = design.matrix?.solve(yz) else { return nil }
            for (k, j) in kept.enumerated() {
                coefficients[j] = beta[k]
                for i in 0..<m { fitted[i] += beta[k] * columns[k][i] }
            }
        }
        var ssr = 0.0, sst = 0.0
        for i in 0..<m { ssr += (yz[i] - fitted[i]) * (yz[i] - fitted[i]); sst += yz[i] * yz[i] }
        let r2 = sst > 0 ? max(0, 1 - ssr / sst) : 0
        return SensitivityFit(metric: metric, coefficients: coefficients, rSquared: r2, points: m)
    }

    /// z-scores (sample standard deviation); nil for a constant column.
    static func standardize(_ v: [Double]) -> [Double]? {
        let n = Double(v.count)
        let mean = v.reduce(0, +) / n
        let ss = v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let sd = (ss / max(1, n - 1)).squareRoot()
        guard sd > 1e-12 * max(1, abs(mean)), sd.isFinite else { return nil }
        return v.map { ($0 - mean) / sd }
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var s = 0.0
        for i in a.indices { s += a[i] * b[i] }
        return s
    }
}
