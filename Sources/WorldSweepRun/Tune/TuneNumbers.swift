// How the tune page writes a number in a sentence: to the digits that mean something, with its
// unit. A metric's mean is written to the coarser of its resolution (a time is a whole number of
// ticks, a count a whole number, each averaged over the point's replicas) and two significant
// digits of its spread over the replicas; a continuous metric with no spread to three significant
// digits. A tuned parameter is written to three significant digits of its range's width (for a
// log range, of the width the range has at that value); a whole-number parameter whole; a choice
// as written. A number the file wrote (a target, a bound) is written as written. tune.json,
// search.json and best.yaml keep every digit.
import Foundation
import WorldSweepResults
import WorldSweepScene

public struct TuneNumbers: Sendable {
    public let tune: TuneSpec
    public let catalog: MetricCatalog
    /// The world's tick length (s): what a time metric can tell apart.
    public let tick: Double

    public init(tune: TuneSpec, catalog: MetricCatalog = .builtIn, tick: Double = 1.0 / 60) {
        self.tune = tune; self.catalog = catalog; self.tick = tick
    }

    /// A wanted metric's declaration (`card.settle_time`, `top.contacts.bottom`, a written
    /// metric's `view.arrival`), built-in or the file's.
    public func declaration(_ metric: String) -> MetricDeclaration? {
        let parts = metric.split(separator: ".")
        return parts.count >= 2 ? catalog.named(parts[1]) : nil
    }

    /// The metric's unit; none for a count.
    public func unit(_ metric: String) -> String {
        let unit = declaration(metric)?.unit ?? ""
        return unit == "count" ? "" : unit
    }

    /// The smallest step a mean of the metric over `replicas` worlds moves by: a tick or one count
    /// shared among the replicas; 0 for a continuous metric.
    public func resolution(_ metric: String, replicas: Int = 1) -> Double {
        let world: Double
        switch declaration(metric)?.kind {
        case .time: world = tick
        case .count: world = 1
        default: return 0
        }
        return world / Double(max(1, replicas))
    }

    /// The step a number is written to: the coarser of `resolution` and the second significant
    /// digit of `spread`; 0 when both are 0 (then three significant digits).
    public static func step(resolution: Double, spread: Double) -> Double {
        let bySpread = spread > 0 && spread.isFinite ? pow(10, exponent(spread) - 1) : 0
        return max(resolution, bySpread)
    }

    /// The decimals a step keeps: 1/60 → 2, 0.001 → 3, 1 or more → 0.
    public static func decimals(step: Double) -> Int { max(0, -Int(exponent(step))) }

    /// The power of ten of `x`'s first significant digit.
    static func exponent(_ x: Double) -> Double { (log10(abs(x)) + 1e-9).rounded(.down) }

    /// `x` written to `step` (its decimals); a step of 0: three significant digits.
    public static func text(_ x: Double, step: Double) -> String {
        guard x.isFinite else { return TuneResult.number(x) }
        let places: Int
        if step > 0 {
            places = decimals(step: step)
        } else {
            if x == 0 { return "0" }
            places = max(0, 2 - Int(exponent(x)))
        }
        let s = String(format: "%.\(places)f", x)
        return s.hasPrefix("-") && Double(s) == 0 ? String(s.dropFirst()) : s
    }

    func withUnit(_ text: String, _ metric: String) -> String {
        let u = unit(metric)
        return u.isEmpty ? text : text + " " + u
    }

    /// A metric's mean over `replicas` worlds whose spread is `spread`, with its unit.
    public func metric(_ x: Double, _ metric: String, replicas: Int = 1, spread: Double = 0) -> String {
        withUnit(Self.text(x, step: Self.step(resolution: resolution(metric, replicas: replicas), spread: spread)), metric)
    }

    /// "0.30 ± 0.02 s": a mean and its spread, both to the mean's step.
    public func metricWithSpread(_ x: Double, _ metric: String, replicas: Int, spread: Double) -> String {
        let step = Self.step(resolution: resolution(metric, replicas: replicas), spread: spread)
        return withUnit(Self.text(x, step: step) + " ± " + Self.text(spread, step: step), metric)
    }

    /// A number the file wrote for the metric (a target, a bound), as written, with the unit.
    public func given(_ x: Double, _ metric: String) -> String { withUnit(TuneResult.number(x), metric) }

    /// The step parameter `k` is written to at `x`; 0 for a choice or a whole number.
    public func parameterStep(_ k: Int, at x: Double) -> Double {
        guard case let .range(low, high, log, integer) = tune.parameters[k].domain, !integer else { return 0 }
        let width = log && low > 0 ? abs(x) * Foundation.log(high / low) : high - low
        return width > 0 ? pow(10, Self.exponent(width) - 2) : 0
    }

    /// Parameter `k`'s value `x`.
    public func value(_ x: Double, parameter k: Int) -> String {
        switch tune.parameters[k].domain {
        case .choice: return TuneResult.number(x)
        case let .range(_, _, _, integer):
            if integer { return String(Int(x.rounded())) }
            let step = parameterStep(k, at: x)
            return step > 0 ? Self.text(x, step: step) : TuneResult.number(x)
        }
    }

    /// "spring.frequency 3.81, spring.damping 0.872".
    public func values(_ values: [Double]) -> String {
        zip(tune.parameters, values).enumerated().map { k, pv in "\(pv.0.path) \(value(pv.1, parameter: k))" }.joined(separator: ", ")
    }

    /// "card.settle_time 0.30 s, card.overshoot 0.113 pt": a point's means, each to its digits.
    public func metrics(_ e: TuneEvaluation) -> String {
        var parts = tune.wants.enumerated().map { i, w in
            "\(w.metric) " + (e.means[i].map { metric($0, w.metric, replicas: e.replicas, spread: e.stds[i]) } ?? "none")
        }
        if let c = e.curveError { parts.append("curve rms \(Self.text(c, step: 0)) pt") }
        return parts.joined(separator: ", ")
    }

    /// "1 generation", "39 generations".
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
