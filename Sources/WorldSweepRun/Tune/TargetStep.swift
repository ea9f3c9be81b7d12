import WorldSweepScene

/// Targets only, on continuous parameters: where a linear model of each target metric, fitted to
/// the latest evaluations, puts the nearest point that meets them all (a Gauss–Newton step from
/// the best point so far). Two targets over four parameters leave a thin set of answers that
/// CMA-ES, learning its shape from ranks alone, reaches slowly; the metrics' own slopes point at it
/// directly. CMA-ES evaluates the step as one of its samples (see `CMAES.inject`), so a misleading
/// model costs one world per generation and nothing else.
enum TargetStep {
    /// The step in unit coordinates, or nil when the model cannot be fitted (fewer usable points
    /// than parameters + 1, a singular fit).
    /// - `recent`: the latest evaluations, newest last; `best`: the best so far.
    static func propose(recent: [TuneEvaluation], best: TuneEvaluation, tune: TuneSpec) -> [Double]? {
        let targets = tune.wants.map { want -> (Double, Double)? in
            if case let .target(t, within) = want.kind { return (t, within) }
            return nil
        }
        guard !targets.isEmpty, targets.allSatisfy({ $0 != nil }), tune.curve == nil,
              tune.parameters.allSatisfy({ $0.isContinuous }) else { return nil }
        let n = tune.parameters.count, m = targets.count
        let unit = { (e: TuneEvaluation) in zip(tune.parameters, e.values).map { $0.unit(of: $1) } }
        let usable = recent.filter { e in e.means.allSatisfy { $0 != nil } && e.counts.allSatisfy { $0 == e.replicas } }
        guard usable.count >= n + 1, best.means.allSatisfy({ $0 != nil }) else { return nil }
        let origin = unit(best)
        // Per target, least squares of (mean − target)/within on [1, u − origin]: the intercept
        // is the model's residual at the best point, the rest its slopes (the Jacobian's row).
        let rows = usable.map { e in [1] + zip(unit(e), origin).map { $0 - $1 } }
        var jacobian: [[Double]] = [], residual: [Double] = []
        for k in 0..<m {
            let (t, within) = targets[k]!
            let ys = usable.map { ($0.means[k]! - t) / within }
            guard let coefficients = leastSquares(rows, ys) else { return nil }
            residual.append((best.means[k]! - t) / within)
            jacobian.append(Array(coefficients.dropFirst()))
        }
        // The smallest step that zeroes the linear residual: Jᵀ (J Jᵀ + εI)⁻¹ (−r).
        var gram = (0..<m).map { i in (0..<m).map { j in zip(jacobian[i], jacobian[j]).reduce(0) { $0 + $1.0 * $1.1 } } }
        let scale = (0..<m).reduce(0) { $0 + gram[$1][$1] } / Double(m)
        guard scale > 0, scale.isFinite else { return nil }
        for i in 0..<m { gram[i][i] += 1e-9 * scale }
        guard let lagrange = solve(gram, residual.map { -$0 }) else { return nil }
        let step = (0..<n).map { j in (0..<m).reduce(0) { $0 + jacobian[$1][j] * lagrange[$1] } }
        let point = zip(origin, step).map { CMAES.mirror($0 + $1) }
        return point.allSatisfy(\.isFinite) ? point : nil
    }

    /// Least squares by the normal equations (a handful of columns; a tiny ridge keeps them solvable).
    static func leastSquares(_ rows: [[Double]], _ ys: [Double]) -> [Double]? {
        let p = rows[0].count
        var a = (0..<p).map { i in (0..<p).map { j in rows.reduce(0) { $0 + $1[i] * $1[j] } } }
        let b = (0..<p).map { i in zip(rows, ys).reduce(0) { $0 + $1.0[i] * $1.1 } }
        let trace = (0..<p).reduce(0) { $0 + a[$1][$1] } / Double(p)
        for i in 1..<p { a[i][i] += 1e-9 * trace }
        return solve(a, b)
    }

    /// Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        let n = rhs.count
        var a = matrix, b = rhs
        for c in 0..<n {
            let pivot = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
            guard abs(a[pivot][c]) > 1e-300 else { return nil }
            a.swapAt(c, pivot); b.swapAt(c, pivot)
            for r in (c + 1)..<max(c + 1, n) {
                let f = a[r][c] / a[c][c]
                for k in c..<n { a[r][k] -= f * a[c][k] }
                b[r] -= f * b[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            x[r] = (b[r] - ((r + 1)..<n).reduce(0) { $0 + a[r][$1] * x[$1] }) / a[r][r]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
