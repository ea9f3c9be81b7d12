import Foundation
import Testing
import WorldSweepRun
@testable import WorldSweepReport

private func sd(_ v: [Double]) -> Double {
    let m = v.reduce(0, +) / Double(v.count)
    return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot()
}

/// R² of y on [1, columns...] by the normal equations (XᵀX β = Xᵀy, Gaussian elimination).
private func rSquaredNormalEquations(_ cols: [[Double]], _ y: [Double]) -> Double {
    let x = [[Double](repeating: 1, count: y.count)] + cols
    let k = x.count
    var a = (0..<k).map { i in (0..<k).map { j in zip(x[i], x[j]).reduce(0) { $0 + $1.0 * $1.1 } } + [zip(x[i], y).reduce(0) { $0 + $1.0 * $1.1 }] }
    for c in 0..<k {
        let p = (c..<k).max { abs(a[$0][c]) < abs(a[$1][c]) }!
        a.swapAt(c, p)
        for r in 0..<k where r != c {
            let f = a[r][c] / a[c][c]
            for j in c...k { a[r][j] -= f * a[c][j] }
        }
    }
    let beta = (0..<k).map { a[$0][k] / a[$0][$0] }
    let mean = y.reduce(0, +) / Double(y.count)
    var ssr = 0.0, sst = 0.0
    for i in y.indices {
        let f = (0..<k).reduce(0) { $0 + beta[$1] * x[$1][i] }
        ssr += (y[i] - f) * (y[i] - f); sst += (y[i] - mean) * (y[i] - mean)
    }
    return 1 - ssr / sst
}

@Suite struct SensitivityTests {
    @Test func exactLinearModelGivesRSquaredOneAndScaledCoefficients() throws {
        var a: [Double] = [], b: [Double] = []
        for i in 0..<6 { for j in 0..<4 { a.append(Double(i) * 0.2); b.append(0.5 + Double(j) * 0.7) } }
        let y = zip(a, b).map { 3 * $0 - 2 * $1 + 1 }
        let fit = try #require(Sensitivity.fit(metric: "y", parameters: [a, b], values: y))
        #expect(abs(fit.rSquared - 1) < 1e-12)
        #expect(abs(fit.coefficients[0]! - 3 * sd(a) / sd(y)) < 1e-10)
        #expect(abs(fit.coefficients[1]! - (-2) * sd(b) / sd(y)) < 1e-10)
        #expect(fit.points == 24)
    }

    @Test func noisyDataMatchesNormalEquations() throws {
        var rng = Rand(42)
        let n = 50
        let a = (0..<n).map { _ in rng.next() * 10 }
        let b = (0..<n).map { _ in rng.next() - 0.5 }
        let c = (0..<n).map { _ in rng.next() * 3 }
        let y = (0..<n).map { i in 0.4 * a[i] + 5 * b[i] + rng.next() * 4 }
        let fit = try #require(Sensitivity.fit(metric: "y", parameters: [a, b, c], values: y))
        let expected = rSquaredNormalEquations([a, b, c], y)
        #expect(expected > 0.1 && expected < 0.99)
        #expect(abs(fit.rSquared - expected) < 1e-9)
        // Pure noise: R² still agrees with the normal equations, and is small.
        let noise = (0..<n).map { _ in rng.next() }
        let fit2 = try #require(Sensitivity.fit(metric: "noise", parameters: [a, b], values: noise))
        #expect(abs(fit2.rSquared - rSquaredNormalEquations([a, b], noise)) < 1e-9)
        #expect(fit2.rSquared < 0.3)
    }

    @Test func constantMetricIsSkippedAndConstantParameterLeftOut() throws {
        let a = [0.0, 1, 2, 3, 4], k = [2.0, 2, 2, 2, 2]
        #expect(Sensitivity.fit(metric: "flat", parameters: [a], values: k) == nil)
        let fit = try #require(Sensitivity.fit(metric: "y", parameters: [a, k], values: a.map { 2 * $0 }))
        #expect(fit.coefficients[1] == nil)
        #expect(abs(fit.coefficients[0]! - 1) < 1e-12)
        #expect(abs(fit.rSquared - 1) < 1e-12)
    }

    @Test func collinearParametersDoNotBreakTheFit() throws {
        let a = [0.0, 1, 2, 3, 4, 5], b = a.map { 10 - 2 * $0 }
        let fit = try #require(Sensitivity.fit(metric: "y", parameters: [a, b], values: a.map { $0 * $0 }))
        #expect(fit.coefficients[0] != nil && fit.coefficients[1] == nil)
        #expect(fit.rSquared > 0.9 && fit.rSquared < 1)
    }

    @Test func reportFitsTheSweepAndSkipsConstantMetrics() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 11)), ("bouncy.density", [0.5, 1, 2])])
        let fits = ReportWriter.sensitivity(summary: summary)
        let byName = Dictionary(uniqueKeysWithValues: fits.map { ($0.metric, $0) })
        let b1 = try #require(byName["bottom.bounce1"])
        #expect(b1.coefficients[0]! > 0.8 && b1.rSquared > 0.8)
        #expect(byName["bottom.y"] == nil)      // constant 442.5
        #expect(byName["bottom.vx"] == nil)
        let md = ReportWriter.markdown(summary: summary)
        #expect(md.contains("Constant: ") && md.contains("bottom.y"))
    }

    /// A 3 × 3 grid of a, b in {-1, 0, 1} (orthogonal, equal spread): shares follow by hand.
    static let grid3: (a: [Double], b: [Double]) = {
        var a: [Double] = [], b: [Double] = []
        for i in -1...1 { for j in -1...1 { a.append(Double(i)); b.append(Double(j)) } }
        return (a, b)
    }()

    @Test func noiseIsToldApartFromSignal() throws {
        // Point means 0 … 19 over one parameter; replicas (5 per point) spread by the given variance.
        func points(_ means: [Double], variance: Double) -> [PointValue] {
            means.enumerated().map { PointValue(parameters: [Double($0.offset)], mean: $0.element, variance: variance, worlds: 5) }
        }
        func judge(_ pts: [PointValue], unit: String) throws -> MetricSignal {
            let d = try Decomposition.decompose(metric: "y", parameterCount: 1, points: pts, replicated: true).get()
            return MetricSignal.classify(pts, unit: unit, decomposition: d, replicated: true)
        }
        let means = (0..<20).map { Double($0) }
        // Between-point variance 33.25 against replica variance 0.01: signal.
        #expect(try judge(points(means, variance: 0.01), unit: "pt") == .signal)
        // Replica variance 400: over 90 % of the variation is between replicas.
        if case .noise = try judge(points(means, variance: 400), unit: "pt") {} else { Issue.record("replica noise not recognised") }
        // A resting body's velocity: moves by 0.285 pt/s over the sweep, under the 1 pt/s floor.
        if case .noise = try judge(points(means.map { $0 * 0.015 }, variance: 0), unit: "pt/s") {} else {
            Issue.record("a velocity below the floor counted as signal")
        }
        #expect(MetricSignal.classify(points([2, 2, 2], variance: 0), unit: "pt", decomposition: nil, replicated: false) == .constant)
    }
}
