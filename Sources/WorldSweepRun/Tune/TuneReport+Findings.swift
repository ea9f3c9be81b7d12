// What the tune page says beyond the answer: the points that tie with it within what the metric
// can tell apart, the bounds that bind (a parameter's range, a wanted bound), what the
// confirmation confirms, and the convergence as the generations that changed the answer.
import WorldSweepResults
import WorldSweepScene

extension TuneReport {
    /// A number in a sentence: three significant digits (the search's six are in tune.json).
    public static func readable(_ x: Double) -> String {
        guard x.isFinite else { return TuneResult.number(x) }
        if x == x.rounded() && abs(x) < 1e6 { return String(Int(x)) }
        return String(format: "%.3g", x)
    }

    /// A metric's unit by its key (`card.settle_time` → s), from the metric declarations; none
    /// for a count.
    public static func unit(_ metric: String) -> String {
        let key = metric.split(separator: ".").dropFirst().first.map(String.init) ?? metric
        let unit = MetricDeclaration.named(key)?.unit ?? ""
        return unit == "count" ? "" : unit
    }

    /// `x` with its metric's unit.
    static func with(_ x: Double, _ metric: String) -> String {
        let u = unit(metric)
        return readable(x) + (u.isEmpty ? "" : " " + u)
    }

    /// The smallest difference a metric can show: a time is read on the tick (`tick` seconds);
    /// other metrics are compared as they are.
    static func resolution(_ metric: String, tick: Double) -> Double {
        let key = metric.split(separator: ".").dropFirst().first.map(String.init) ?? metric
        return MetricDeclaration.named(key)?.kind == .time ? tick : 0
    }

    /// The points that tie with the answer: with one objective, the feasible points whose
    /// objective is within the metric's resolution of the answer's; with targets only, the points
    /// that meet every target. Nil when the answer stands alone.
    public func ties(tick: Double) -> (count: Int, ranges: [(path: String, low: Double, high: Double)], rule: String)? {
        guard let best else { return nil }
        let evaluations = outcome.evaluations
        var tied: [TuneEvaluation]
        var rule: String
        if tune.objectiveCount == 1, tune.curve == nil, let k = tune.wants.firstIndex(where: { w in
            if case .minimize = w.kind { return true }
            if case .maximize = w.kind { return true }
            return false
        }), let answer = best.means[k] {
            let metric = tune.wants[k].metric
            let within = Self.resolution(metric, tick: tick)
            tied = evaluations.filter { e in
                scoring.score(e).violation == 0 && e.means[k].map { abs($0 - answer) <= within } ?? false
            }
            let what = within > 0 ? "within one tick (\(Self.readable(within)) s, what \(metric) can tell apart) of the answer's \(Self.with(answer, metric))"
                : "at the answer's \(Self.with(answer, metric))"
            rule = "\(tied.count) evaluated points meeting every bound have \(metric) \(what)"
            var lowest = true
            if case .maximize = tune.wants[k].kind { lowest = false }
            rule += "; the answer is the one with the \(lowest ? "lowest" : "highest") mean, the first evaluated on an exact tie"
        } else if tune.objectiveCount == 0 {
            tied = evaluations.filter { scoring.score($0).met }
            rule = "\(tied.count) evaluated points meet every want; the answer is the one with the smallest sum of squared target errors (in tolerances), the first evaluated on an exact tie"
        } else {
            return nil
        }
        guard tied.count > 1 else { return nil }
        let ranges = tune.parameters.indices.map { j in
            (tune.parameters[j].path, tied.map { $0.values[j] }.min()!, tied.map { $0.values[j] }.max()!)
        }
        return (tied.count, ranges, rule)
    }

    /// One sentence on the ties, or nil.
    public func tiesSentence(tick: Double) -> String? {
        guard let t = ties(tick: tick) else { return nil }
        let spans = t.ranges.map { "\($0.path) \(Self.readable($0.low))–\(Self.readable($0.high))" }.joined(separator: ", ")
        return "\(t.rule). They span \(spans): the search cannot tell them apart by this metric."
    }

    /// Per parameter at a bound of its range, and per wanted bound, one sentence: whether it binds
    /// at the answer and how many evaluated points met it.
    public var boundLines: [String] {
        guard let best else { return [] }
        var lines: [String] = []
        for (j, p) in tune.parameters.enumerated() {
            guard case let .range(low, high, _, _) = p.domain else { continue }
            let u = p.unit(of: best.values[j])
            if u <= 0.01 { lines.append("\(p.path) sits at the low end of its range (\(Self.readable(low))): a lower value may do better.") }
            if u >= 0.99 { lines.append("\(p.path) sits at the high end of its range (\(Self.readable(high))): a higher value may do better.") }
        }
        let all = outcome.evaluations
        for (i, w) in tune.wants.enumerated() {
            guard case let .bounds(low, high) = w.kind else { continue }
            let usable = all.filter { $0.means[i] != nil && $0.counts[i] == $0.replicas }
            let met = usable.filter { e in (low.map { e.means[i]! >= $0 } ?? true) && (high.map { e.means[i]! <= $0 } ?? true) }.count
            let bound = [low.map { "at least \(Self.with($0, w.metric))" }, high.map { "at most \(Self.with($0, w.metric))" }].compactMap { $0 }.joined(separator: " and ")
            var line = "\(w.metric) \(bound): met by \(met) of \(all.count) evaluated points"
            if let m = best.means[i] {
                let margin = min(low.map { m - $0 } ?? .infinity, high.map { $0 - m } ?? .infinity)
                let span = max(abs(low ?? 0), abs(high ?? 0), 1e-9)
                line += margin <= 0.05 * span
                    ? "; it binds: the answer's \(Self.with(m, w.metric)) is at the bound"
                    : "; it does not bind: the answer's \(Self.with(m, w.metric)) is well inside it"
            }
            lines.append(line + ".")
        }
        return lines
    }

    /// What the confirmation run confirms.
    public var confirmationLines: [String] {
        guard let best, let confirmation else { return [] }
        guard jittered else {
            return ["No jitter: every replica of a point is the same world, so the confirmation repeats the search's world and confirms only that it reproduces (" +
                    tune.wants.enumerated().compactMap { i, w in confirmation.means[i].map { "\(w.metric) \(Self.with($0, w.metric))" } }.joined(separator: ", ") + ")."]
        }
        var lines: [String] = []
        for (i, w) in tune.wants.enumerated() {
            func text(_ e: TuneEvaluation) -> String {
                guard let m = e.means[i] else { return "none" }
                return "\(Self.with(m, w.metric)) ± \(Self.readable(e.stds[i]))"
            }
            lines.append("\(w.metric): \(text(best)) over the search's \(best.replicas) jittered replicas, \(text(confirmation)) over \(confirmation.replicas) fresh jitter draws")
        }
        if let a = best.curveError, let b = confirmation.curveError {
            lines.append("curve rms: \(Self.readable(a)) pt in the search, \(Self.readable(b)) pt over fresh jitter draws")
        }
        return lines
    }

    /// The convergence rows at which the best so far changed (and the last): the rest repeat.
    var convergenceChanges: [Convergence] {
        let rows = convergence
        return rows.enumerated().filter { k, row in k == 0 || k == rows.count - 1 || row.best != rows[k - 1].best }.map(\.element)
    }
}
