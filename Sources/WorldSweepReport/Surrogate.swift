// The stand-in for a metric's point means where the points are no grid (random and zip sweeps):
// least squares (LAPACK dgels, as the sensitivity table) on an intercept, each parameter, its
// square (three or more values) and every pair's product, all on standardized parameters. It is
// fitted only with `Decomposition.minPointsPerCoefficient` points per coefficient; its R² is stated
// beside every share drawn from it.
import Foundation

/// What a surrogate needs of the points' parameters alone: the standardized parameters, the model's
/// terms at every point and at every cell of the quantile grid. It is the same for every metric over
/// the same points, so a report makes it once per sweep (`Decomposition.Design`) instead of once per
/// metric (each metric would sort and hash every parameter's values again).
struct SurrogateDesign: Sendable {
    /// The parameters in the fit (varying, not in lockstep with an earlier one).
    var parameters: [Int]
    var centre: [Double]
    var scale: [Double]
    /// Which parameters (positions in `parameters`) have a squared term.
    var squared: [Bool]
    /// Per point, the model's terms (`features`), point after point, `coefficientCount` apiece
    /// (one array: an array per point cost a reference count per point in every metric's fit).
    var rowTerms: [Double]
    /// The same terms by column: the least-squares matrix, factored once for every metric fitted
    /// on these points.
    var columns: [[Double]] { matrix.columns }
    let matrix: LeastSquaresMatrix
    var coefficientCount: Int
    /// A grid over each fitted parameter's quantiles, and the terms at each of its cells (cell after
    /// cell, `coefficientCount` apiece).
    var grid: Grid
    var cellTerms: [Double]

    static func make(_ points: [PointValue], parameters varying: [Int]) -> Result<SurrogateDesign, Decomposition.Refusal> {
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
        let squared = kept.map { j in Self.hasThreeValues(points, j) }
        var zi = [Double](repeating: 0, count: z.count)
        let count = Self.features(zi, squared: squared).count
        var rowTerms: [Double] = []
        rowTerms.reserveCapacity(m * count)
        for i in 0..<m {
            for k in z.indices { zi[k] = z[k][i] }
            appendFeatures(zi, squared: squared, to: &rowTerms)
        }
        guard m >= Decomposition.minPointsPerCoefficient * count else { return .failure(.tooFewPoints(points: m, coefficients: count)) }
        let grid = Self.quantileGrid(points, parameters: kept)
        var cellTerms: [Double] = []
        cellTerms.reserveCapacity(grid.cellCount * count)
        var zc = [Double](repeating: 0, count: grid.levels.count)
        for c in 0..<grid.cellCount {
            for k in grid.levels.indices { zc[k] = (grid.levels[k][grid.level(c, k)] - centre[k]) / scale[k] }
            appendFeatures(zc, squared: squared, to: &cellTerms)
        }
        let columns = (0..<count).map { k in (0..<m).map { i in rowTerms[i * count + k] } }
        return .success(SurrogateDesign(parameters: kept, centre: centre, scale: scale, squared: squared, rowTerms: rowTerms,
                                        matrix: LeastSquaresMatrix(columns: columns), coefficientCount: count,
                                        grid: grid, cellTerms: cellTerms))
    }

    /// The model's terms at standardized parameters z: intercept, linear terms, squares (where
    /// kept), then pair products (a < b).
    /// (Made in one array of the final size: the rows of a big sweep's design are one such array
    /// per point, and growing each would be most of the design's work.)
    static func features(_ z: [Double], squared: [Bool]) -> [Double] {
        var f: [Double] = []
        f.reserveCapacity(1 + z.count + squared.count + z.count * (z.count - 1) / 2)
        appendFeatures(z, squared: squared, to: &f)
        return f
    }

    /// `features(z, squared:)` appended to `f`.
    static func appendFeatures(_ z: [Double], squared: [Bool], to f: inout [Double]) {
        f.append(1)
        f.append(contentsOf: z)
        for (k, sq) in squared.enumerated() where sq { f.append(z[k] * z[k]) }
        for a in z.indices { for b in z.indices where b > a { f.append(z[a] * z[b]) } }
    }

    /// A grid over each fitted parameter's quantiles (as many as it has values, up to a side that
    /// keeps the grid under about 50 000 cells), standing for the sweep's distribution.
    /// Whether parameter `j` takes three values or more over the points (looked at until it does).
    static func hasThreeValues(_ points: [PointValue], _ j: Int) -> Bool {
        var seen: [Double] = []
        for p in points where !seen.contains(p.parameters[j]) {
            seen.append(p.parameters[j])
            if seen.count == 3 { return true }
        }
        return false
    }

    /// The distinct values among sorted ones (as `Set(sorted).count`, −0 and 0 one value).
    static func distinctCount(sorted v: [Double]) -> Int {
        var count = 0
        for i in v.indices where i == 0 || v[i] != v[i - 1] { count += 1 }
        return count
    }

    static func quantileGrid(_ points: [PointValue], parameters: [Int]) -> Grid {
        let side = max(2, min(24, Int(pow(50_000, 1 / Double(parameters.count)))))
        let levels = parameters.map { j -> [Double] in
            let v = points.map { $0.parameters[j] }.sorted()
            let k = min(side, Self.distinctCount(sorted: v))
            return (0..<k).map { i in v[min(v.count - 1, Int((Double(i) + 0.5) / Double(k) * Double(v.count)))] }
        }
        return Grid(levels: levels)
    }
}

/// A fitted surrogate: its design's terms weighted by `beta`.
struct Surrogate {
    var design: SurrogateDesign
    /// Intercept, linear terms, squares (where kept), then pair products (a < b).
    var beta: [Double]
    var rSquared: Double
    var parameters: [Int] { design.parameters }
    var coefficientCount: Int { beta.count }

    /// The fit of the point means `y` (in the design's point order).
    static func fit(_ design: SurrogateDesign, y: [Double]) -> Result<Surrogate, Decomposition.Refusal> {
        let m = y.count
        guard let beta = design.matrix.solve(y) else { return .failure(.fitFailed) }
        let mean = y.reduce(0, +) / Double(m)
        var ssr = 0.0, sst = 0.0
        let n = beta.count
        design.rowTerms.withUnsafeBufferPointer { terms in
            for i in 0..<m {
                var f = 0.0
                for k in 0..<n { f = f + beta[k] * terms[i * n + k] }
                ssr += (y[i] - f) * (y[i] - f); sst += (y[i] - mean) * (y[i] - mean)
            }
        }
        guard sst > 0 else { return .failure(.constant) }
        return .success(Surrogate(design: design, beta: beta, rSquared: min(1, max(0, 1 - ssr / sst))))
    }

    /// The surrogate at every cell of its design's quantile grid (the terms summed in the order
    /// `value` at a cell's parameters would sum them).
    func evaluateGrid() -> [Double] {
        let n = beta.count
        return design.cellTerms.withUnsafeBufferPointer { terms in
            (0..<design.grid.cellCount).map { c in
                var s = 0.0
                for k in 0..<n { s = s + beta[k] * terms[c * n + k] }
                return s
            }
        }
    }
}
