import Foundation

/// CMA-ES (μ/μ_w, λ) on the unit cube [0, 1]ⁿ, after Hansen's tutorial ("The CMA Evolution
/// Strategy", 2016): weighted recombination, cumulative step-size adaptation, rank-one and
/// rank-μ covariance updates. Bounds: a sample outside the cube is mirrored back into it, and the
/// mirrored point is both evaluated and used in the update (the search learns where it looked).
struct CMAES {
    let n: Int
    let lambda: Int
    let mu: Int
    private let weights: [Double]
    private let muEff: Double
    private let cc, cs, c1, cmu, damps, chiN: Double
    private(set) var mean: [Double]
    private(set) var sigma: Double
    private var c: [[Double]]
    private var b: [[Double]]
    private var d: [Double]
    private var pc: [Double]
    private var ps: [Double]
    private var generation = 0
    /// The last generation's samples (unit points), for `tell`.
    private var pending: [[Double]] = []
    /// What `tell` learns from each sample: the sample itself, or for an injected point one no
    /// farther from the mean (in the covariance's metric) than a typical sample (Hansen 2011,
    /// "Injecting external solutions into CMA-ES"), so one far point cannot blow up the spread.
    private var learned: [[Double]] = []
    /// A point to evaluate as the next generation's last sample (see TargetStep).
    private var injection: [Double]?

    init(mean: [Double], sigma: Double, lambda: Int) {
        n = mean.count
        self.lambda = lambda
        mu = lambda / 2
        let raw = (0..<mu).map { log(Double(lambda + 1) / 2) - log(Double($0 + 1)) }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }
        muEff = 1 / weights.reduce(0) { $0 + $1 * $1 }
        let nn = Double(n)
        cc = (4 + muEff / nn) / (nn + 4 + 2 * muEff / nn)
        cs = (muEff + 2) / (nn + muEff + 5)
        c1 = 2 / ((nn + 1.3) * (nn + 1.3) + muEff)
        cmu = min(1 - c1, 2 * (muEff - 2 + 1 / muEff) / ((nn + 2) * (nn + 2) + muEff))
        damps = 1 + 2 * max(0, sqrt((muEff - 1) / (nn + 1)) - 1) + cs
        chiN = sqrt(nn) * (1 - 1 / (4 * nn) + 1 / (21 * nn * nn))
        self.mean = mean
        self.sigma = sigma
        let size = mean.count
        let identity: [[Double]] = (0..<size).map { i in (0..<size).map { i == $0 ? 1 : 0 } }
        c = identity
        b = identity
        d = Array(repeating: 1, count: size)
        pc = Array(repeating: 0, count: size)
        ps = Array(repeating: 0, count: size)
    }

    /// The default population for dimension n (Hansen: 4 + ⌊3 ln n⌋), at least `minimum`.
    static func defaultPopulation(dimension n: Int, minimum: Int = 8) -> Int {
        max(minimum, 4 + Int(3 * log(Double(n))))
    }

    /// λ points of the next generation, inside the unit cube.
    mutating func ask(_ random: inout SearchRandom) -> [[Double]] {
        pending = (0..<lambda).map { _ in
            let z = (0..<n).map { _ in random.normal() }
            var x = mean
            for i in 0..<n {
                var s = 0.0
                for j in 0..<n { s += b[i][j] * d[j] * z[j] }
                x[i] += sigma * s
            }
            return x.map(Self.mirror)
        }
        learned = pending
        if let u = injection, lambda >= 2 {
            pending[lambda - 1] = u
            learned[lambda - 1] = clipped(u)
        }
        injection = nil
        return pending
    }

    mutating func inject(_ u: [Double]) { injection = u }

    /// `u` pulled toward the mean until its Mahalanobis distance is at most √n + 2n/(n+2).
    private func clipped(_ u: [Double]) -> [Double] {
        let y = (0..<n).map { (u[$0] - mean[$0]) / sigma }
        var bt = [Double](repeating: 0, count: n)
        for j in 0..<n { for i in 0..<n { bt[j] += b[i][j] * y[i] }; bt[j] /= d[j] }
        let norm = sqrt(bt.reduce(0) { $0 + $1 * $1 })
        let cap = sqrt(Double(n)) + 2 * Double(n) / Double(n + 2)
        guard norm > cap else { return u }
        return (0..<n).map { mean[$0] + sigma * y[$0] * cap / norm }
    }

    /// Folds the last generation in; `order` lists its samples best first.
    mutating func tell(order: [Int]) {
        generation += 1
        let old = mean
        let best = order.prefix(mu).map { learned[$0] }
        mean = (0..<n).map { i in zip(weights, best).reduce(0) { $0 + $1.0 * $1.1[i] } }
        let step = (0..<n).map { (mean[$0] - old[$0]) / sigma }
        // C^-1/2 · step = B · D^-1 · Bᵀ · step
        var bt = [Double](repeating: 0, count: n)
        for j in 0..<n { for i in 0..<n { bt[j] += b[i][j] * step[i] }; bt[j] /= d[j] }
        var invSqrt = [Double](repeating: 0, count: n)
        for i in 0..<n { for j in 0..<n { invSqrt[i] += b[i][j] * bt[j] } }
        let csFactor = sqrt(cs * (2 - cs) * muEff)
        for i in 0..<n { ps[i] = (1 - cs) * ps[i] + csFactor * invSqrt[i] }
        let psNorm = sqrt(ps.reduce(0) { $0 + $1 * $1 })
        let hsig = psNorm / sqrt(1 - pow(1 - cs, 2 * Double(generation))) / chiN < 1.4 + 2 / (Double(n) + 1)
        let ccFactor = sqrt(cc * (2 - cc) * muEff)
        for i in 0..<n { pc[i] = (1 - cc) * pc[i] + (hsig ? ccFactor * step[i] : 0) }
        let ys = best.map { x in (0..<n).map { (x[$0] - old[$0]) / sigma } }
        let correction = hsig ? 0 : cc * (2 - cc)
        for i in 0..<n {
            for j in 0...i {
                var rankMu = 0.0
                for (w, y) in zip(weights, ys) { rankMu += w * y[i] * y[j] }
                let v = (1 - c1 - cmu) * c[i][j] + c1 * (pc[i] * pc[j] + correction * c[i][j]) + cmu * rankMu
                c[i][j] = v; c[j][i] = v
            }
        }
        sigma *= exp((cs / damps) * (psNorm / chiN - 1))
        sigma = min(sigma, 1)
        (b, d) = Self.eigen(c)
        d = d.map { sqrt(max($0, 1e-30)) }
    }

    /// The largest standard deviation along any axis: the search's remaining spread.
    var spread: Double { sigma * (d.max() ?? 1) }
    /// Largest over smallest axis of the covariance ellipsoid.
    var condition: Double { let lo = d.min() ?? 1, hi = d.max() ?? 1; return (hi * hi) / max(lo * lo, 1e-300) }

    /// Folds a coordinate into [0, 1] by reflection at the faces (periodic, so any value lands inside).
    static func mirror(_ x: Double) -> Double {
        guard x.isFinite else { return 0.5 }
        var y = x.truncatingRemainder(dividingBy: 2)
        if y < 0 { y += 2 }
        return y <= 1 ? y : 2 - y
    }

    /// Eigenvectors (columns of the first) and eigenvalues of a symmetric matrix, by cyclic Jacobi
    /// rotations: exact enough and plenty fast for the handful of parameters a tune searches.
    static func eigen(_ matrix: [[Double]]) -> ([[Double]], [Double]) {
        let n = matrix.count
        var a = matrix
        var v = (0..<n).map { i in (0..<n).map { i == $0 ? 1.0 : 0.0 } }
        for _ in 0..<64 {
            var off = 0.0
            for i in 0..<n { for j in 0..<n where i != j { off += a[i][j] * a[i][j] } }
            if off < 1e-30 { break }
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + sqrt(theta * theta + 1))
                    let cosine = 1 / sqrt(t * t + 1), sine = t * cosine
                    for k in 0..<n {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = cosine * akp - sine * akq
                        a[k][q] = sine * akp + cosine * akq
                    }
                    for k in 0..<n {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = cosine * apk - sine * aqk
                        a[q][k] = sine * apk + cosine * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = cosine * vkp - sine * vkq
                        v[k][q] = sine * vkp + cosine * vkq
                    }
                }
            }
        }
        return (v, (0..<n).map { a[$0][$0] })
    }
}
