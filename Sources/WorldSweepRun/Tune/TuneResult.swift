import Foundation
import WorldSweepScene

/// What a finished search found, in words and files: the best point, the Pareto front, the
/// honest failures (an unreachable target, constraints that cannot hold together), best.yaml.
public enum TuneResult {
    /// The best evaluation (for several objectives: the Pareto point nearest the ideal, each
    /// objective scaled to the front's range).
    public static func best(_ all: [TuneEvaluation], scoring: TuneScoring) -> TuneEvaluation? {
        guard !all.isEmpty else { return nil }
        let scores = all.map(scoring.score)
        if scoring.tune.objectiveCount >= 2 {
            let front = paretoFront(all, scoring: scoring)
            if !front.isEmpty {
                let objectives = front.map { scoring.score($0).objectives }
                let m = objectives[0].count
                let lo = (0..<m).map { k in objectives.map { $0[k] }.min()! }, hi = (0..<m).map { k in objectives.map { $0[k] }.max()! }
                let distance = objectives.map { o in (0..<m).reduce(0.0) { s, k in
                    let span = hi[k] - lo[k]; let v = span > 0 ? (o[k] - lo[k]) / span : 0; return s + v * v } }
                return front[distance.indices.min { distance[$0] < distance[$1] || (distance[$0] == distance[$1] && $0 < $1) }!]
            }
        }
        return all[TuneScoring.orderBy(scores)[0]]
    }

    /// The feasible evaluations no other feasible one dominates, in search order.
    public static func paretoFront(_ all: [TuneEvaluation], scoring: TuneScoring) -> [TuneEvaluation] {
        let scores = all.map(scoring.score)
        let ranks = TuneScoring.paretoRanks(scores)
        return all.indices.filter { ranks[$0] == 0 }.map { all[$0] }
    }

    public static func progressLine(generation: Int, worlds: Int, budget: Int, best: TuneEvaluation?, tune: TuneSpec,
                                    scoring: TuneScoring) -> String {
        var line = "generation \(generation): \(worlds)/\(budget) worlds"
        guard let best else { return line }
        line += "; best " + describe(values: best.values, tune: tune) + " → " + describe(metrics: best, tune: tune)
        if scoring.score(best).met { line += " (met)" }
        return line
    }

    public static func describe(values: [Double], tune: TuneSpec) -> String {
        zip(tune.parameters, values).map { "\($0.path) \(number($1))" }.joined(separator: ", ")
    }

    public static func describe(metrics e: TuneEvaluation, tune: TuneSpec) -> String {
        var parts = tune.wants.enumerated().map { i, w in "\(w.metric) \(e.means[i].map(number) ?? "none")" }
        if let c = e.curveError { parts.append("curve rms \(number(c)) pt") }
        return parts.joined(separator: ", ")
    }

    /// Six significant digits: enough to tell candidates apart, short enough to read.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
        if x == x.rounded() && abs(x) < 1e9 { return String(Int(x)) }
        return String(format: "%.6g", x)
    }

    // MARK: honest failure

    /// Per target never met: the closest mean found, and whether the range would need to be
    /// wider (the best point sits on a bound of a parameter).
    public static func unmetTargets(_ all: [TuneEvaluation], numbers: TuneNumbers) -> [String] {
        let tune = numbers.tune
        var lines: [String] = []
        for (i, want) in tune.wants.enumerated() {
            guard case let .target(target, within) = want.kind else { continue }
            let usable = all.filter { $0.means[i] != nil && $0.counts[i] == $0.replicas }
            guard let closest = usable.min(by: { abs($0.means[i]! - target) < abs($1.means[i]! - target) }) else {
                lines.append("\(want.metric): no evaluated point had it in every replica (target \(numbers.given(target, want.metric)))")
                continue
            }
            let mean = closest.means[i]!
            if abs(mean - target) <= within { continue }
            var line = "\(want.metric) cannot reach " + numbers.withUnit("\(number(target)) ± \(number(within))", want.metric)
                + " in the given ranges: the closest was "
                + numbers.metric(mean, want.metric, replicas: closest.replicas, spread: closest.stds[i])
                + " at " + numbers.values(closest.values)
            // Which way the range would have to grow: the parameters at a bound there.
            let atBounds = zip(tune.parameters, closest.values).compactMap { p, v -> String? in
                guard case let .range(low, high, _, _) = p.domain else { return nil }
                let u = p.unit(of: v)
                if u <= 0.02 { return "\(p.path) below \(number(low))" }
                if u >= 0.98 { return "\(p.path) above \(number(high))" }
                return nil
            }
            if !atBounds.isEmpty { line += "; it would need " + atBounds.joined(separator: " or ") }
            lines.append(line)
        }
        return lines
    }

    /// When no point met every bound: each bound alone, and the pairs no evaluated point met together.
    public static func conflicts(_ all: [TuneEvaluation], numbers: TuneNumbers) -> [String] {
        let tune = numbers.tune
        var checks: [(name: String, holds: (TuneEvaluation) -> Bool)] = []
        for (i, want) in tune.wants.enumerated() {
            switch want.kind {
            case let .bounds(low, high):
                let text = [low.map { "≥ \(numbers.given($0, want.metric))" }, high.map { "≤ \(numbers.given($0, want.metric))" }].compactMap { $0 }.joined(separator: " and ")
                checks.append(("\(want.metric) \(text)", { e in
                    guard let m = e.means[i], e.counts[i] == e.replicas else { return false }
                    return (low.map { m >= $0 } ?? true) && (high.map { m <= $0 } ?? true)
                }))
            case let .target(t, within) where tune.objectiveCount > 0:
                checks.append(("\(want.metric) = " + numbers.withUnit("\(number(t)) ± \(number(within))", want.metric), { e in
                    guard let m = e.means[i], e.counts[i] == e.replicas else { return false }
                    return abs(m - t) <= within
                }))
            default: continue
            }
        }
        guard !checks.isEmpty, !all.contains(where: { e in checks.allSatisfy { $0.holds(e) } }) else { return [] }
        var lines: [String] = []
        for check in checks where !all.contains(where: check.holds) {
            lines.append("\(check.name) held at no evaluated point")
        }
        for a in checks.indices {
            for b in checks.indices where b > a {
                let na = all.filter(checks[a].holds).count, nb = all.filter(checks[b].holds).count
                guard na > 0, nb > 0, !all.contains(where: { checks[a].holds($0) && checks[b].holds($0) }) else { continue }
                lines.append("\(checks[a].name) and \(checks[b].name) conflict: \(na) of \(all.count) points met the first, "
                             + "\(nb) the second, none both")
            }
        }
        if lines.isEmpty { lines.append("no evaluated point met every bound together: " + checks.map(\.name).joined(separator: ", ")) }
        return lines
    }

    // MARK: best.yaml

    /// The sweep file with the found values written where the tuned keys were, and without its
    /// `tune:` section: run it, trace it or sweep around it (TunedFile.swift). Nil when the text
    /// cannot carry them faithfully, which the parser refuses before a search starts.
    public static func bestFile(_ text: String, tune: TuneSpec, values: [Double]) -> String? {
        TunedFile.best(text, tune: tune, values: values)
    }
}
