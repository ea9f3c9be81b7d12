// The stand-in for a metric's point means where the points are no grid (random and zip sweeps):
// least squares (LAPACK dgels, as the sensitivity table) on an intercept, each parameter, its
// square (three or more values) and every pair's product, all on standardized parameters. It is
// fitted only with `Decomposition.minPointsPerCoefficient` points per coefficient; its R² is stated
// beside every share drawn from it.
import Foundation

struct Surrogate {
    /// The parameters in the fit (varying, not in lockstep with an earlier one).
    var parameters: [Int]
    var centre: [Double]
    var scale: [Double]
    /// Which parameters (positions in `parameters`) have a squared term.
    var squared: [Bool]
    /// Intercept, linear terms, squares (where kept), then pair products (a < b).
    var beta: [Double]
    var rSquared: Double
    var coefficientCount: Int { beta.count }

    static func fit(_ points: [PointValue], parameters varying: [Int]) -> Result<Surrogate, Decomposition.Refusal> {
        let m = points.count
        var kept: [Int] = [], z: [[Double]] = [], centre: [Double] = [], scale: [Double] = []
        for j in varying {
            let col = points.map { $0.parameters[j] }
            let mean = col.reduce(0, +) / Double(m)
            let sd = (col.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(m)).squareRoot()
            guard sd > 0 else { continue }
            let zc = col.map { ($0 - mean) / sd }
            // Lockstep with a kept parameter (a zip sweep): the data cannot tell them apart.
            if z.contains(where: { abs(Sensitivity.dot($0, zc)) / Double(m) > 0.999_999 }) { continue }
            kept.append(j); z.append(zc); centre.append(mean); scale.append(sd)
        }
        guard !kept.isEmpty else { return .failure(.nothingVaries) }
        let squared = kept.map { j in Set(points.map { $0.parameters[j] }).count >= 3 }
        var s = Surrogate(parameters: kept, centre: centre, scale: scale, squared: squared, beta: [], rSquared: 0)
        let columns = (0..<m).map { i in s.features(z.map { $0[i] }) }
        let count = columns.first?.count ?? 0
        guard m >= Decomposition.minPointsPerCoefficient * count else { return .failure(.tooFewPoints(points: m, coefficients: count)) }
        let y = points.map(\.mean)
        let byColumn = (0..<count).map { k in columns.map { $0[k] } }
        guard let beta = Sensitivity.leastSquares(columns: byColumn, rhs: y) else { return .failure(.fitFailed) }
        s.beta = beta
        let mean = y.reduce(0, +) / Double(m)
        var ssr = 0.0, sst = 0.0
        for i in 0..<m {
            let f = zip(beta, columns[i]).reduce(0) { $0 + $1.0 * $1.1 }
            ssr += (y[i] - f) * (y[i] - f); sst += (y[i] - mean) * (y[i] - mean)
        }
        guard sst > 0 else { return .failure(.constant) }
        s.rSquared = min(1, max(0, 1 - ssr / sst))
        return .success(s)
    }

    /// The model's terms at standardized parameters z.
    func features(_ z: [Double]) -> [Double] {
        var f = [1.0] + z
        for (k, sq) in squared.enumerated() where sq { f.append(z[k] * z[k]) }
        for a in z.indices { for b in z.indices where b > a { f.append(z[a] * z[b]) } }
        return f
    }

    func value(_ x: [Double]) -> Double {
        let z = x.indices.map { (x[$0] - centre[$0]) / scale[$0] }
        return zip(beta, features(z)).reduce(0) { $0 + $1.0 * $1.1 }
    }

    /// A grid over each fitted parameter's quantiles (as many as it has values, up to a side that
    /// keeps the grid under about 50 000 cells), standing for the sweep's distribution.
    func quantileGrid(_ points: [PointValue]) -> Grid {
        let side = max(2, min(24, Int(pow(50_000, 1 / Double(parameters.count)))))
        let levels = parameters.map { j -> [Double] in
            let v = points.map { $0.parameters[j] }.sorted()
            let k = min(side, Set(v).count)
            return (0..<k).map { i in v[min(v.count - 1, Int((Double(i) + 0.5) / Double(k) * Double(v.count)))] }
        }
        return Grid(levels: levels)
    }
}

extension Grid {
    /// The surrogate at every cell.
    func evaluate(_ s: Surrogate) -> [Double] {
        (0..<cellCount).map { c in s.value(levels.indices.map { levels[$0][level(c, $0)] }) }
    }
}
