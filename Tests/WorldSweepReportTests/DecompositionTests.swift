import Foundation
import Testing
import WorldSweepRun
@testable import WorldSweepReport

/// Every combination of the axes (last fastest), one PointValue each from f.
private func grid(_ axes: [[Double]], variance: Double = 0, worlds: Int = 1, _ f: ([Double]) -> Double) -> [PointValue] {
    var combos: [[Double]] = [[]]
    for a in axes { combos = combos.flatMap { c in a.map { c + [$0] } } }
    return combos.map { PointValue(parameters: $0, mean: f($0), variance: variance, worlds: worlds) }
}

private func decompose(_ pts: [PointValue], p: Int, replicated: Bool = false) throws -> VarianceDecomposition {
    try Decomposition.decompose(metric: "y", parameterCount: p, points: pts, replicated: replicated).get()
}

private func pair(_ d: VarianceDecomposition, _ a: Int, _ b: Int) -> Double {
    d.pairs.first { $0.a == a && $0.b == b }?.share ?? -1
}

private func total(_ d: VarianceDecomposition) -> Double {
    d.terms(parameters: ["a", "b", "c", "d"].prefix(d.mains.count).map { $0 }).reduce(0) { $0 + $1.share }
}

@Suite struct DecompositionTests {
    let a = (0..<8).map { Double($0) / 7 }
    let b = [0.5, 1, 2, 4, 8]
    let c = [-1.0, 0, 1]

    @Test func aStepInOneParameterIsAllThatParameter() throws {
        // A linear fit of this step gives a well under 1; the decomposition counts it fully.
        let d = try decompose(grid([a, b, c]) { $0[0] > 0.6 ? 3 : 0 }, p: 3)
        #expect(d.method == .grid)
        #expect(abs(d.mains[0]! - 1) < 0.01)
        #expect(abs(d.mains[1]!) < 0.01 && abs(d.mains[2]!) < 0.01)
        #expect(d.pairs.allSatisfy { abs($0.share) < 0.01 } && abs(d.higherOrder) < 0.01)
        #expect(d.noise == nil)   // one world per point: no noise term at all
        #expect(!d.terms(parameters: ["a", "b", "c"]).contains { $0.term.contains("noise") })
        #expect(abs(total(d) - 1) < 1e-9)
    }

    @Test func aPureInteractionIsAPairTerm() throws {
        // y = 2·s + s·t with s, t = ±1: Var(2s) = 4, Var(st) = 1, st has no main effect.
        let d = try decompose(grid([[-1, 1], [-1, 1], c]) { 2 * $0[0] + $0[0] * $0[1] }, p: 3)
        #expect(abs(d.mains[0]! - 0.8) < 0.01)
        #expect(abs(d.mains[1]!) < 0.01 && abs(d.mains[2]!) < 0.01)
        #expect(abs(pair(d, 0, 1) - 0.2) < 0.01)
        #expect(abs(pair(d, 0, 2)) < 0.01 && abs(pair(d, 1, 2)) < 0.01)
        #expect(abs(d.higherOrder) < 0.01)
        #expect(d.ranked == [0, 1, 2] || d.ranked.first == 0)
        #expect(abs(total(d) - 1) < 1e-9)
    }

    @Test func aThreeWayProductIsHigherOrder() throws {
        let d = try decompose(grid([[-1, 1], [-1, 1], [-1, 1]]) { $0[0] * $0[1] * $0[2] }, p: 3)
        #expect(abs(d.higherOrder - 1) < 0.01)
        #expect(d.mains.allSatisfy { abs($0!) < 0.01 } && d.pairs.allSatisfy { abs($0.share) < 0.01 })
    }

    @Test func replicasWithKnownNoise() throws {
        // Point means 0, 0, 2, 2 over a (variance 1) and ±1 between replicas (variance 1): half noise.
        let pts = grid([[0, 1, 2, 3], [1, 2]], variance: 1, worlds: 2) { $0[0] >= 2 ? 2 : 0 }
        let d = try decompose(pts, p: 2, replicated: true)
        #expect(abs(d.noise! - 0.5) < 0.01)
        #expect(abs(d.mains[0]! - 0.5) < 0.01 && abs(d.mains[1]!) < 0.01)
        #expect(abs(d.explained - 0.5) < 0.01)
        #expect(abs(total(d) - 1) < 1e-9)
        // Replicas that agree exactly: the noise share is stated, and is zero.
        let exact = try decompose(grid([[0, 1, 2, 3], [1, 2]], worlds: 4) { $0[0] }, p: 2, replicated: true)
        #expect(exact.noise == 0)
        #expect(abs(exact.mains[0]! - 1) < 1e-9)
    }

    @Test func aConstantParameterHasNoShareAndAConstantMetricIsRefused() throws {
        let d = try decompose(grid([a, [5]]) { $0[0] }, p: 2)
        #expect(d.mains[1] == nil && abs(d.mains[0]! - 1) < 1e-9)
        #expect(Decomposition.decompose(metric: "flat", parameterCount: 2, points: grid([a, b]) { _ in 1 }, replicated: false) == .failure(.constant))
    }

    @Test func aRandomSweepIsDecomposedThroughItsSurrogate() throws {
        // y = s + t² + s·t, s and t uniform on [−1, 1]: Var(s) = 1/3, Var(t²) = 4/45, Var(st) = 1/9;
        // shares 15/24, 4/24 and 5/24 of 24/45. Within 0.03 (the sample's marginals are not exact).
        var rng = Rand(11)
        let pts = (0..<600).map { _ -> PointValue in
            let x = [rng.next() * 2 - 1, rng.next() * 2 - 1, rng.next()]
            return PointValue(parameters: x, mean: x[0] + x[1] * x[1] + x[0] * x[1])
        }
        let d = try decompose(pts, p: 3)
        #expect(d.rSquared.map { $0 > 0.999 } == true)
        #expect(abs(d.mains[0]! - 15.0 / 24) < 0.03)
        #expect(abs(d.mains[1]! - 4.0 / 24) < 0.03)
        #expect(abs(pair(d, 0, 1) - 5.0 / 24) < 0.03)
        #expect(abs(d.mains[2]!) < 0.01 && abs(d.higherOrder) < 0.01)
        #expect(abs(total(d) - 1) < 1e-9)
        // A step is not quadratic: what the fit misses is stated, and the shares still add up.
        let step = try decompose(pts.map { PointValue(parameters: $0.parameters, mean: $0.parameters[0] > 0.2 ? 1 : 0) }, p: 3)
        #expect(step.unfitted > 0.05)
        #expect(abs(step.unfitted - (1 - step.rSquared!)) < 1e-9)
        #expect(abs(total(step) - 1) < 1e-9)
    }

    @Test func oneDesignServesEveryMetricOverTheSamePoints() throws {
        // The report makes the design once from the points' parameters; each metric's shares must
        // be those of its own decomposition, on a grid and on a random sweep alike.
        var rng = Rand(5)
        let random = (0..<400).map { _ in [rng.next() * 2 - 1, rng.next(), rng.next() * 3] }
        let gridded = grid([a, b, c]) { _ in 0 }.map(\.parameters)
        let metrics: [([Double]) -> Double] = [{ $0[0] + $0[1] * $0[1] }, { $0[0] * $0[2] > 0.3 ? 1 : 0 }, { sin(3 * $0[1]) }]
        for params in [random, gridded] {
            let design = Decomposition.Design(params.map { PointValue(parameters: $0, mean: 0) }, parameterCount: 3)
            for f in metrics {
                let pts = params.map { PointValue(parameters: $0, mean: f($0)) }
                #expect(design.fits(pts))
                let shared = Decomposition.decompose(metric: "y", parameterCount: 3, points: pts, replicated: false, design: design)
                #expect(shared == Decomposition.decompose(metric: "y", parameterCount: 3, points: pts, replicated: false))
                #expect((try? shared.get()) != nil)
            }
            // A metric some points lack has other points: the design does not fit it.
            #expect(!design.fits(Array(params.dropLast()).map { PointValue(parameters: $0, mean: 1) }))
        }
    }

    @Test func tooFewPointsPerCoefficientIsRefused() {
        var rng = Rand(3)
        let pts = (0..<12).map { _ -> PointValue in
            let x = [rng.next(), rng.next()]
            return PointValue(parameters: x, mean: x[0] - x[1])
        }
        // Intercept, 2 linear, 2 squares, 1 product: 6 coefficients need 24 points.
        #expect(Decomposition.decompose(metric: "y", parameterCount: 2, points: pts, replicated: false) == .failure(.tooFewPoints(points: 12, coefficients: 6)))
    }
}

@Suite struct CensoringTests {
    /// A point of four worlds of which `valued` have rest time `t` (and the others never rest).
    private func point(_ params: [Double], valued: [Double], worlds: Int = 4, failed: Int = 0) -> PointSummary {
        var metrics: [String: MetricStats] = [:]
        if let s = MetricStats(valued) { metrics["box.rest_time"] = s }
        if let s = MetricStats(valued.map { _ in 10.0 }) { metrics["box.bounce1"] = s }
        return PointSummary(point: 0, parameters: params, replicas: worlds, failedReplicas: failed, metrics: metrics)
    }

    @Test func neverCountsAsTheRunLengthAndAsAShare() throws {
        let p = point([0], valued: [1, 3])   // two of four never rest; run 5 s
        let t = try #require(Censoring.value(p, "box.rest_time", .builtIn, runSeconds: 5))
        #expect(abs(t.mean - 3.5) < 1e-12)                  // (1 + 3 + 5 + 5) / 4
        #expect(abs(t.variance - 2.75) < 1e-12)             // (6.25 + 0.25 + 2.25 + 2.25) / 4
        let never = try #require(Censoring.value(p, "box.never_rest", .builtIn, runSeconds: 5))
        #expect(never.mean == 0.5 && never.variance == 0.25)
        let b = try #require(Censoring.value(p, "box.bounce1", .builtIn, runSeconds: 5))
        #expect(b.mean == 5)                                // 10, 10, 0, 0
        // A failed world is not a world that never rested.
        let f = point([0], valued: [1, 3], worlds: 4, failed: 1)
        #expect(Censoring.neverShare(f, "box.rest_time").map { abs($0 - 1.0 / 3) < 1e-12 } == true)
        #expect(Censoring.neverColumn("box.rest_time", .builtIn) == "box.never_rest")
        #expect(Censoring.timeColumn(ofNever: "box.never_settle", .builtIn) == "box.settle_time")
    }

    @Test func aColumnTallyGivesTheNeverShareAndTheCensoredSplit() {
        // Two points of four worlds: rest times 1, 1 (two never rest) and 3, 3, 3, 3; run 5 s.
        // Never: 2 of 8 worlds. With never as 5 s: mean (2 + 12 + 10) / 8 = 3, mean square
        // (2 + 36 + 50) / 8 = 11, variance 2. Between reached (mean 14/6 = 7/3) and never (5):
        // p(1 − p)(5 − 7/3)² = 3/16 · 64/9 = 4/3, two thirds of the variance.
        let points = [point([0], valued: [1, 1]), point([1], valued: [3, 3, 3, 3])]
        let tally = ColumnTally(points, "box.rest_time")
        #expect(tally.neverShare == 0.25)
        #expect(abs(tally.censoredShare(runSeconds: 5) - 2.0 / 3) < 1e-12)
        // Every world reached: nothing is censored.
        #expect(ColumnTally([point([1], valued: [3, 4, 3, 4])], "box.rest_time").censoredShare(runSeconds: 5) == 0)
        // A failed world is no world: 1 of 3 never rests.
        #expect(ColumnTally([point([0], valued: [1, 3], worlds: 4, failed: 1)], "box.rest_time").neverShare.map { abs($0 - 1.0 / 3) < 1e-12 } == true)
    }

    @Test func aNeverShareThatStepsWithAParameterIsThatParameter() throws {
        // Parameter a ∈ {0, 1, 2, 3} × b ∈ {0, 1}: at a ≥ 2 one world of four never rests (share
        // 0.25); below, all rest. The never-share's point means step in a alone: share 1 of the
        // means; the replicas' Bernoulli variance (3/16 at a ≥ 2) is the noise.
        var pts: [PointValue] = []
        for a in 0..<4 { for b in 0..<2 {
            let p = point([Double(a), Double(b)], valued: a >= 2 ? [1, 1, 1] : [1, 1, 1, 1])
            pts.append(try #require(Censoring.value(p, "box.never_rest", .builtIn, runSeconds: 5)))
        } }
        #expect(pts.map(\.mean) == [0, 0, 0, 0, 0.25, 0.25, 0.25, 0.25])
        let d = try Decomposition.decompose(metric: "box.never_rest", parameterCount: 2, points: pts, replicated: true).get()
        // Between: means 0 / 0.25 → variance 1/64; within: mean of 0 and 3/16 → 3/32. Total 7/64.
        #expect(abs(d.mains[0]! - 1.0 / 7) < 0.01)
        #expect(abs(d.noise! - 6.0 / 7) < 0.01)
        #expect(abs(d.mains[1]!) < 0.01)
    }
}

@Suite struct ShapeTests {
    private func levels(_ xs: [Double], _ f: (Double) -> Double) -> [(x: Double, y: Double)] { xs.map { ($0, f($0)) } }
    let xs = stride(from: 0.0, through: 1.5, by: 0.1).map { ($0 * 10).rounded() / 10 }

    @Test func aThresholdIsSaidAsOne() {
        // No effect up to 0.6, then falls: the sentence the issue asks for, not "push lowers it".
        let d = Shape.describe(levels(xs) { $0 <= 0.6 ? 30 : 30 - 20 * ($0 - 0.6) }, unit: "pt")
        #expect(d.short == "no effect up to 0.6, then falls")
        #expect(d.long == "no effect up to 0.6, then falls from 30 pt to 12 pt")
    }

    private func described(_ ys: [Double], _ xs: [Double]? = nil, unit: String = "pt") -> String {
        Shape.describe(Array(zip(xs ?? ys.indices.map(Double.init), ys)).map { (x: $0.0, y: $0.1) }, unit: unit).short
    }

    @Test func aThresholdEndsWhereTheMeansLeaveTheirFlatRun() {
        // twin-drop's bottom.bounce1 against elasticity: flat to 0.2 (the boundaries' 0.2), then
        // a rise whose first step (5.8 → 11.4 pt) is small against the whole range but twenty
        // times the flat run's spread.
        let e = (0..<16).map { Double($0) / 15 }
        let bounce = [5.841, 5.955, 6.06, 5.813, 11.373, 18.636, 27.52, 40.78, 51.809, 66.169, 86.706, 118.165, 140.615, 184.602, 203.824, 232.931]
        #expect(described(bounce, e) == "no effect up to 0.2, then rises")
        // twin-drop's top.contacts against push: a drift of 0.2 before a step of 2.2.
        let push = (0...15).map { Double($0) / 10 }
        let contacts = [2.708, 2.688, 2.604, 2.646, 2.5, 4.667, 5.812, 6.896, 8.312, 9.812, 9.583, 8.583, 9.125, 8.812, 10.125, 9.812]
        #expect(described(contacts, push, unit: "count") == "no effect up to 0.4, then rises")
    }

    @Test func aSmallWiggleIsNotNamedTheTrendIs() {
        // A rise from 5.17 to 8 with one dip of 0.21 (7 % of the range): it rises.
        #expect(described([5.17, 4.96, 5.6, 6.3, 7.1, 8.0]) == "rises")
        // radial-gravity's heavy.contacts: 1, 0, 0.06, then up to 8.
        #expect(described([1, 0, 0.06, 2.9, 2.6, 4.7, 6.8, 8.0], unit: "count") == "rises")
        // twin-drop's mid.bounce1: 52.3, 53.6, 34.6, 29.9 falls.
        #expect(described([52.3, 53.6, 34.6, 29.9]) == "falls")
        // twin-drop's top.rest_time against push: the change is the step from 1.86 to 3.44 s.
        let rest = [1.857, 3.444, 3.449, 3.449, 3.574, 3.587, 3.666, 3.523, 3.372, 3.277, 3.353, 3.274, 3.2, 3.133, 3.246, 3.29]
        #expect(described(rest, (0...15).map { Double($0) / 10 }, unit: "s") == "steps up between 0 and 0.1")
        // A peak large against the range is still one.
        #expect(described([10, 40, 12]) == "peaks at 1")
    }

    @Test func stepsPeaksAndSlopes() {
        #expect(Shape.describe(levels(xs) { $0 > 0.75 ? 3 : 0 }, unit: "count").short == "steps up between 0.7 and 0.8")
        #expect(Shape.describe(levels(xs) { -($0 - 0.7) * ($0 - 0.7) }, unit: "s").short == "peaks at 0.7")
        #expect(Shape.describe(levels(xs) { 2 * $0 }, unit: "pt").long == "rises from 0 pt to 3 pt")
        #expect(Shape.describe(levels(xs) { min($0, 0.5) }, unit: "pt").short == "rises up to 0.5, then no further effect")
        #expect(Shape.describe(levels(xs) { _ in 1 }, unit: "pt").short == "no change")
        // Flat, then a peak that falls back part of the way.
        #expect(Shape.describe(levels(xs) { $0 <= 0.5 ? 0 : $0 <= 1 ? 10 * ($0 - 0.5) : 5 - 6 * ($0 - 1) }, unit: "pt").short
                == "no effect up to 0.5, then peaks at 1")
    }
}
