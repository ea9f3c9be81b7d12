// Which swept parameters matter to a metric, as a variance decomposition (functional ANOVA,
// Sobol's indices on a grid). The variance of the metric over every world, points weighted alike,
// splits exactly into the variance of the point means and the mean variance between a point's
// replicas (noise). On a full grid the point means split further, with no fitting, into each
// parameter's main effect (the mean over all other parameters at each of its values), each pair's
// interaction (the pair's cell means less both main effects), and the rest: higher-order
// interaction. Steps and curves count fully. Random and zip sweeps have no grid: a least-squares
// quadratic with pairwise products (Surrogate.swift) stands in for the means, its share of their
// variance (R²) is stated and the rest is called what it is, not captured by the fit.

/// One point's values of one metric: its parameters, the mean over its worlds and the (population)
/// variance between them; `worlds` is how many worlds the two come from.
public struct PointValue: Sendable, Hashable {
    public var parameters: [Double]
    public var mean: Double
    public var variance: Double
    public var worlds: Int
    public init(parameters: [Double], mean: Double, variance: Double = 0, worlds: Int = 1) {
        self.parameters = parameters; self.mean = mean; self.variance = variance; self.worlds = worlds
    }
}

public struct VarianceDecomposition: Sendable, Hashable {
    public enum Method: Sendable, Hashable {
        /// The exact decomposition over a full grid of the parameters.
        case grid
        /// The decomposition of a fitted quadratic; `rSquared` is its fit to the point means,
        /// `coefficients` how many it has.
        case surrogate(rSquared: Double, coefficients: Int)
    }

    public var metric: String
    public var method: Method
    /// Per swept parameter (file order): its main-effect share (0…1); nil for one that does not
    /// vary or moves in lockstep with an earlier one.
    public var mains: [Double?]
    /// Interaction shares of pairs of parameters (a < b), largest first.
    public var pairs: [(a: Int, b: Int, share: Double)]
    /// The share of the variation between replicas of one point; nil without replicas (a sweep
    /// with one world per point cannot tell noise from anything else).
    public var noise: Double?
    /// Interaction of three or more parameters (grid), or of the fitted surrogate beyond pairs.
    public var higherOrder: Double
    /// Surrogate only: the share of the point means the fit does not reproduce.
    public var unfitted: Double
    /// Points the decomposition is over.
    public var points: Int

    /// Parameter indices with a main share, largest first (file order on ties).
    public var ranked: [Int] {
        mains.indices.filter { mains[$0] != nil }.sorted { (mains[$0]!, -$0) > (mains[$1]!, -$1) }
    }

    /// Whether a term of three or more parameters together can exist: only on a full grid of
    /// three or more varying parameters (a surrogate is a quadratic with pair products, which
    /// has none; two parameters have only a pair).
    public var hasHigherOrder: Bool { method == .grid && mains.compactMap { $0 }.count >= 3 }

    /// Shares below this are rounding residue of sums that cancel, not variation: written as 0.
    public static let residue = 1e-9

    /// Every share below `residue` set to 0, and the higher-order share to 0 where no such term
    /// can exist.
    func withoutResidue() -> Self {
        func clean(_ x: Double) -> Double { abs(x) < Self.residue ? 0 : x }
        var d = self
        d.mains = mains.map { $0.map(clean) }
        d.pairs = pairs.map { ($0.a, $0.b, clean($0.share)) }
        d.noise = noise.map(clean)
        d.higherOrder = hasHigherOrder ? clean(higherOrder) : 0
        d.unfitted = clean(unfitted)
        return d
    }

    /// How much of the variation the parameters explain: all but noise and what the fit misses.
    public var explained: Double { max(0, 1 - (noise ?? 0) - unfitted) }

    public var rSquared: Double? { if case .surrogate(let r2, _) = method { r2 } else { nil } }

    /// Every term and its share, in the order importance.csv writes them: mains (file order), pairs
    /// (largest first), higher order, then what the fit misses and noise where they apply.
    public func terms(parameters names: [String]) -> [(term: String, share: Double)] {
        var out: [(String, Double)] = []
        for (j, s) in mains.enumerated() { if let s { out.append((names[j], s)) } }
        for p in pairs { out.append(("\(names[p.a]) × \(names[p.b])", p.share)) }
        if hasHigherOrder { out.append(("higher order", higherOrder)) }
        if case .surrogate = method { out.append(("not captured by the fit", unfitted)) }
        if let noise { out.append(("noise (replicas)", noise)) }
        return out
    }

    public static func == (l: Self, r: Self) -> Bool {
        l.metric == r.metric && l.method == r.method && l.mains == r.mains && l.noise == r.noise && l.higherOrder == r.higherOrder
            && l.unfitted == r.unfitted && l.points == r.points
            && l.pairs.map { [Double($0.a), Double($0.b), $0.share] } == r.pairs.map { [Double($0.a), Double($0.b), $0.share] }
    }

    public func hash(into h: inout Hasher) { h.combine(metric); h.combine(mains); h.combine(points) }
}

public enum Decomposition {
    /// Below this many points per fitted coefficient a surrogate is not fitted (its shares would
    /// describe the fit's freedom, not the data).
    public static let minPointsPerCoefficient = 4

    /// Why a decomposition could not be made.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case constant
        case nothingVaries
        case tooFewPoints(points: Int, coefficients: Int)
        case fitFailed
        public var description: String {
            switch self {
            case .constant: "constant over the worlds"
            case .nothingVaries: "no swept parameter varies"
            case let .tooFewPoints(p, c): "\(p) points for a surrogate of \(c) coefficients: it needs \(Decomposition.minPointsPerCoefficient) points per coefficient"
            case .fitFailed: "the surrogate fit failed"
            }
        }
    }

    /// Decomposes one metric over the points. `replicated`: the sweep repeats points, so the
    /// within-point variance is noise (its share is then stated even when it is zero).
    public static func decompose(metric: String, parameterCount p: Int, points: [PointValue], replicated: Bool) -> Result<VarianceDecomposition, Refusal> {
        decompose(metric: metric, parameterCount: p, points: points, replicated: replicated, design: nil)
    }

    /// What a decomposition reads of the points' parameters alone (which vary, the full grid or
    /// the surrogate's terms): the same for every metric over the same points, so made once per
    /// sweep. A metric some points lack has other points, and its own design.
    struct Design: Sendable {
        /// The parameters' values per point, the points it was made over.
        let parameters: [[Double]]
        /// The varying parameters, less those in lockstep with an earlier one.
        let varying: [Int]
        /// The full grid the points fill, if they fill one.
        let grid: Grid?
        /// Without a grid: the surrogate's design, or why there is none.
        let surrogate: Result<SurrogateDesign, Refusal>?

        /// Over points given by their parameters alone.
        init(parameters: [[Double]], parameterCount p: Int) {
            self.init(parameters.map { PointValue(parameters: $0, mean: 0) }, parameterCount: p)
        }

        init(_ points: [PointValue], parameterCount p: Int) {
            parameters = points.map(\.parameters)
            varying = Decomposition.independent(points, Decomposition.varying(points, p))
            grid = varying.isEmpty ? nil : Grid(points, parameters: varying)
            surrogate = varying.isEmpty || grid != nil ? nil : SurrogateDesign.make(points, parameters: varying)
        }

        /// Whether it was made over these points' parameters (their order included).
        func fits(_ points: [PointValue]) -> Bool {
            points.count == parameters.count && zip(points, parameters).allSatisfy { $0.parameters == $1 }
        }
    }

    /// `design`: made over the same points' parameters (`Design.fits`), or nil to make one here
    /// (by `makeDesign`, when given: a design over the same points, shared by other metrics).
    static func decompose(metric: String, parameterCount p: Int, points: [PointValue], replicated: Bool,
                          design shared: Design?, makeDesign: (() -> Design)? = nil) -> Result<VarianceDecomposition, Refusal> {
        let n = Double(points.count)
        guard n > 0 else { return .failure(.nothingVaries) }
        let mu = points.reduce(0) { $0 + $1.mean } / n
        let between = points.reduce(0) { $0 + ($1.mean - mu) * ($1.mean - mu) } / n
        let within = replicated ? points.reduce(0) { $0 + $1.variance } / n : 0
        let total = between + within
        guard total > 1e-300, total.isFinite else { return .failure(.constant) }
        let noise: Double? = replicated ? within / total : nil
        let design = shared ?? makeDesign?() ?? Design(points, parameterCount: p)
        let varying = design.varying
        guard !varying.isEmpty else {
            // Only replicas differ: all of it is noise (or, without replicas, nothing varies).
            return replicated ? .success(VarianceDecomposition(metric: metric, method: .grid, mains: .init(repeating: nil, count: p), pairs: [],
                                                               noise: noise, higherOrder: between / total, unfitted: 0, points: points.count))
                : .failure(.nothingVaries)
        }
        if let grid = design.grid {
            let parts = grid.split(grid.values(points.map(\.mean)))
            var d = VarianceDecomposition(metric: metric, method: .grid, mains: .init(repeating: nil, count: p), pairs: [],
                                          noise: noise, higherOrder: 0, unfitted: 0, points: points.count)
            for (k, j) in varying.enumerated() { d.mains[j] = parts.mains[k] / total }
            d.pairs = parts.pairs.map { (varying[$0.a], varying[$0.b], $0.variance / total) }.sorted { $0.2 > $1.2 }
            d.higherOrder = max(0, (parts.total - parts.mains.reduce(0, +) - parts.pairs.reduce(0) { $0 + $1.variance }) / total)
            return .success(d.withoutResidue())
        }
        switch (design.surrogate ?? .failure(.nothingVaries)).flatMap({ Surrogate.fit($0, y: points.map(\.mean)) }) {
        case .failure(let why): return .failure(why)
        case .success(let s):
            // The fitted part of the point means, split as the surrogate splits over a grid of each
            // parameter's quantiles (its parameters taken as independent, as a random sweep draws them).
            let fitted = s.rSquared * between
            let grid = s.design.grid
            let parts = grid.split(s.evaluateGrid())
            let scale = parts.total > 1e-300 ? fitted / parts.total / total : 0
            var d = VarianceDecomposition(metric: metric, method: .surrogate(rSquared: s.rSquared, coefficients: s.coefficientCount),
                                          mains: .init(repeating: nil, count: p), pairs: [], noise: noise, higherOrder: 0,
                                          unfitted: (between - fitted) / total, points: points.count)
            for (k, j) in s.parameters.enumerated() { d.mains[j] = parts.mains[k] * scale }
            d.pairs = parts.pairs.map { (s.parameters[$0.a], s.parameters[$0.b], $0.variance * scale) }.sorted { $0.2 > $1.2 }
            d.higherOrder = max(0, (parts.total - parts.mains.reduce(0, +) - parts.pairs.reduce(0) { $0 + $1.variance }) * scale)
            return .success(d.withoutResidue())
        }
    }

    /// The varying parameters less those in lockstep with an earlier one (a zip sweep's): the data
    /// cannot tell those apart, so the first stands for them (the page names the others).
    static func independent(_ points: [PointValue], _ varying: [Int]) -> [Int] {
        var kept: [Int] = [], columns: [[Double]] = []
        let m = Double(points.count)
        for j in varying {
            let col = points.map { $0.parameters[j] }
            let mean = col.reduce(0, +) / m
            let sd = (col.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / m).squareRoot()
            let z = col.map { ($0 - mean) / sd }
            if columns.contains(where: { abs(Sensitivity.dot($0, z)) / m > 0.999_999 }) { continue }
            kept.append(j); columns.append(z)
        }
        return kept
    }

    /// Parameters that take more than one value over the points.
    static func varying(_ points: [PointValue], _ p: Int) -> [Int] {
        (0..<p).filter { j in
            guard let first = points.first?.parameters[safe: j] else { return false }
            return points.contains { ($0.parameters[safe: j] ?? first) != first }
        }
    }
}

/// A full grid: every combination of the parameters' values exactly once, as dense cells.
struct Grid {
    /// Per parameter (the decomposed ones, in order): its values, sorted.
    var levels: [[Double]]
    /// Per point: its cell (row-major over `levels`, last fastest).
    var cellOfPoint: [Int]
    var strides: [Int]
    var cellCount: Int

    /// nil unless the points fill every cell exactly once.
    init?(_ points: [PointValue], parameters: [Int]) {
        // Each parameter's distinct values, given up as soon as their combinations outnumber the
        // points (a random sweep's first two parameters do: most of its report's test for a grid
        // went to sorting values no grid would use).
        var distinct: [Set<Double>] = []
        var count = 1
        for j in parameters.reversed() {
            guard count <= points.count else { return nil }
            let values = Set(points.map { $0.parameters[j] })
            count *= values.count
            distinct.append(values)
        }
        guard count == points.count else { return nil }
        levels = distinct.reversed().map { $0.sorted() }
        cellCount = count
        strides = Array(repeating: 1, count: levels.count)
        for k in stride(from: levels.count - 2, through: 0, by: -1) { strides[k] = strides[k + 1] * levels[k + 1].count }
        let index = levels.map { l in Dictionary(uniqueKeysWithValues: l.enumerated().map { ($1, $0) }) }
        var seen = [Bool](repeating: false, count: count)
        cellOfPoint = []
        cellOfPoint.reserveCapacity(points.count)
        for pt in points {
            var c = 0
            for (k, j) in parameters.enumerated() { c += index[k][pt.parameters[j]]! * strides[k] }
            guard !seen[c] else { return nil }
            seen[c] = true
            cellOfPoint.append(c)
        }
    }

    /// A grid over given levels (every cell is evaluated, no points needed).
    init(levels: [[Double]]) {
        self.levels = levels
        cellCount = levels.reduce(1) { $0 * $1.count }
        strides = Array(repeating: 1, count: levels.count)
        for k in stride(from: levels.count - 2, through: 0, by: -1) { strides[k] = strides[k + 1] * levels[k + 1].count }
        cellOfPoint = []
    }

    func level(_ cell: Int, _ k: Int) -> Int { (cell / strides[k]) % levels[k].count }

    /// The point values laid out by cell.
    func values(_ y: [Double]) -> [Double] {
        var v = [Double](repeating: 0, count: cellCount)
        for (i, c) in cellOfPoint.enumerated() { v[c] = y[i] }
        return v
    }

    /// Variance over the cells, of each main effect and of each pair interaction.
    func split(_ v: [Double]) -> (total: Double, mains: [Double], pairs: [(a: Int, b: Int, variance: Double)]) {
        let n = Double(cellCount)
        let mu = v.reduce(0, +) / n
        let total = v.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / n
        // Main effects: per level, the mean over every other parameter, less the grand mean.
        let effects: [[Double]] = levels.indices.map { k in
            let sums = levelSums(v, outer: k, inner: nil)
            let per = n / Double(levels[k].count)
            return sums.map { $0 / per - mu }
        }
        let mains = effects.map { e in e.reduce(0) { $0 + $1 * $1 } / Double(e.count) }
        var pairs: [(a: Int, b: Int, variance: Double)] = []
        for a in levels.indices {
            for b in levels.indices where b > a {
                let (na, nb) = (levels[a].count, levels[b].count)
                let sums = levelSums(v, outer: a, inner: b)
                let per = n / Double(na * nb)
                var s = 0.0
                for i in 0..<na {
                    for j in 0..<nb {
                        let f = sums[i * nb + j] / per - mu - effects[a][i] - effects[b][j]
                        s += f * f
                    }
                }
                pairs.append((a, b, s / Double(na * nb)))
            }
        }
        return (total, mains, pairs)
    }

    /// The cell values summed per level of parameter `a` (`inner` nil), or per pair of levels of
    /// `a` and a later parameter `inner` (index level(a) × count(inner) + level(inner)), each sum
    /// taken in cell order. The cells are walked as the nested runs the strides make them: a
    /// parameter's level holds for `strides[k]` cells and steps after them (found per cell, by
    /// division or by counters, the levels were most of `split`, which runs for every metric over
    /// grids of up to 50 000 cells, once per parameter and pair).
    func levelSums(_ v: [Double], outer a: Int, inner b: Int?) -> [Double] {
        let na = levels[a].count, sa = strides[a]
        let nb = b.map { levels[$0].count } ?? 1, sb = b.map { strides[$0] } ?? sa
        // Within one level of `a`: `middle` runs of the levels of `b`, each level `sb` cells.
        let middle = sa / (nb * sb)
        var sums = [Double](repeating: 0, count: na * nb)
        v.withUnsafeBufferPointer { v in
            sums.withUnsafeMutableBufferPointer { sums in
                var c = 0
                for _ in 0..<(cellCount / (na * sa)) {
                    for la in 0..<na {
                        for _ in 0..<middle {
                            for lb in 0..<nb {
                                var acc = sums[la * nb + lb]
                                for _ in 0..<sb { acc += v[c]; c += 1 }
                                sums[la * nb + lb] = acc
                            }
                        }
                    }
                }
            }
        }
        return sums
    }
}
