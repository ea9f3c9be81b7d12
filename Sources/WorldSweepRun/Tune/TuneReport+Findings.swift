// What the tune page says beyond the answer: the points that tie with it within what the metric
// can tell apart, the bounds that bind (a parameter's range, a wanted bound), what the
// confirmation confirms, and the convergence as the generations that changed the answer.
import WorldSweepResults
import WorldSweepScene

extension TuneReport {
    /// How near the answer's value another point's must be to tie with it: a time within one
    /// tick (what a time metric can tell apart); other metrics exactly.
    func tieTolerance(_ metric: String) -> Double {
        numbers.declaration(metric)?.kind == .time ? tick : 0
    }

    /// The points that tie with the answer: with one objective, the feasible points whose
    /// objective is within the metric's resolution of the answer's; with targets only, the points
    /// that meet every target. Nil when the answer stands alone.
    public func ties() -> (tied: [TuneEvaluation], ranges: [(path: String, low: Double, high: Double)], rule: String, alike: Bool)? {
        guard let best else { return nil }
        let evaluations = outcome.evaluations
        var tied: [TuneEvaluation]
        var rule: String
        var alike = false
        if let k = singleObjective, let answer = best.means[k] {
            let metric = tune.wants[k].metric
            let within = tieTolerance(metric)
            let n = numbers, answerText = n.metric(answer, metric, replicas: best.replicas, spread: best.stds[k])
            tied = evaluations.filter { e in
                scoring.score(e).violation == 0 && e.means[k].map { abs($0 - answer) <= within } ?? false
            }
            let what = within > 0 ? "within one tick (\(TuneNumbers.text(within, step: 0)) s, what \(metric) can tell apart) of the answer's \(answerText)"
                : "at the answer's \(answerText)"
            rule = "\(tied.count) evaluated points meeting every bound have \(metric) \(what)"
            var lowest = true
            if case .maximize = tune.wants[k].kind { lowest = false }
            rule += "; the answer is the one with the \(lowest ? "lowest" : "highest") mean, the first evaluated on an exact tie"
            alike = true
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
        return (tied, ranges, rule, alike)
    }

    /// One sentence on the ties, or nil: the rule, then the parameters' span (each to its digits).
    public func tiesSentence() -> String? {
        guard let t = ties() else { return nil }
        let spans = t.ranges.enumerated().map { k, r in
            "\(r.path) \(numbers.value(r.low, parameter: k))–\(numbers.value(r.high, parameter: k))"
        }.joined(separator: ", ")
        // Tied points against an end of a parameter's range: a wider range may hold more of them.
        var ends: [String] = []
        for (k, p) in tune.parameters.enumerated() {
            guard case let .range(low, high, _, _) = p.domain else { continue }
            let units = t.tied.map { p.unit(of: $0.values[k]) }
            let atLow = units.filter { $0 <= 0.01 }.count, atHigh = units.filter { $0 >= 0.99 }.count
            if atLow > 0 { ends.append("\(atLow) of them at the low end of \(p.path)'s range (\(TuneResult.number(low)))") }
            if atHigh > 0 { ends.append("\(atHigh) of them at the high end of \(p.path)'s range (\(TuneResult.number(high)))") }
        }
        return "\(t.rule). They span \(spans)" + (ends.isEmpty ? "" : ", " + ends.joined(separator: ", ")) + ": "
            + (t.alike ? "the search cannot tell them apart by this metric." : "any of them answers the question.")
    }

    /// Per parameter at a bound of its range, and per wanted bound, one sentence: whether it binds
    /// at the answer and how many evaluated points met it.
    public var boundLines: [String] {
        guard let best else { return [] }
        var lines: [String] = []
        for (j, p) in tune.parameters.enumerated() {
            guard case let .range(low, high, _, _) = p.domain else { continue }
            let u = p.unit(of: best.values[j])
            if u <= 0.01 { lines.append("\(p.path) sits at the low end of its range (\(TuneResult.number(low))): a lower value may do better.") }
            if u >= 0.99 { lines.append("\(p.path) sits at the high end of its range (\(TuneResult.number(high))): a higher value may do better.") }
        }
        let all = outcome.evaluations
        for (i, w) in tune.wants.enumerated() {
            guard case let .bounds(low, high) = w.kind else { continue }
            let met = all.filter { holds($0, bound: i) }.count
            let bound = [low.map { "at least \(numbers.given($0, w.metric))" }, high.map { "at most \(numbers.given($0, w.metric))" }].compactMap { $0 }.joined(separator: " and ")
            var line = "\(w.metric) \(bound): met by \(met) of \(all.count) evaluated points"
            if let m = best.means[i] {
                let shown = numbers.metric(m, w.metric, replicas: best.replicas, spread: best.stds[i])
                let margin = min(low.map { m - $0 } ?? .infinity, high.map { $0 - m } ?? .infinity)
                let span = max(abs(low ?? 0), abs(high ?? 0), 1e-9)
                let where_ = margin <= 0.05 * span ? "at the bound" : "inside it"
                if let k = singleObjective, let answer = best.means[k] {
                    // It binds when points that break it (and only it) do better by more than the
                    // objective can tell apart: the bound, not the search, stops the answer there.
                    let objective = tune.wants[k].metric
                    let sign: Double = if case .maximize = tune.wants[k].kind { -1 } else { 1 }
                    let tolerance = tieTolerance(objective)
                    let better = all.compactMap { e -> Double? in
                        guard e.means[i] != nil, !holds(e, bound: i), e.counts[k] == e.replicas, let o = e.means[k],
                              sign * (o - answer) < -tolerance,
                              tune.wants.indices.allSatisfy({ j in j == i || !isBound(j) || holds(e, bound: j) }) else { return nil }
                        return o
                    }
                    let direction = sign > 0 ? "lower" : "higher"
                    if let reach = sign > 0 ? better.min() : better.max() {
                        line += "; it binds: " + (better.count == 1 ? "1 evaluated point that breaks it reaches" : "\(better.count) evaluated points that break it reach")
                            + " a \(direction) \(objective) than the answer's "
                            + numbers.metric(answer, objective, replicas: best.replicas, spread: best.stds[k])
                            + " (as \(direction == "lower" ? "low" : "high") as \(numbers.metric(reach, objective))); the answer's \(shown) is \(where_)"
                    } else {
                        line += "; it does not bind: no evaluated point that breaks it reaches a \(direction) \(objective); the answer's \(shown) is \(where_)"
                    }
                } else {
                    line += margin <= 0.05 * span ? "; it binds: the answer's \(shown) is at the bound"
                        : "; it does not bind: the answer's \(shown) is inside it"
                }
            }
            lines.append(line + ".")
        }
        return lines
    }

    /// Whether want `j` is a bound.
    func isBound(_ j: Int) -> Bool { if case .bounds = tune.wants[j].kind { true } else { false } }

    /// Whether bound `i` holds at `e` (every replica has the metric, its mean within the bound).
    func holds(_ e: TuneEvaluation, bound i: Int) -> Bool {
        guard case let .bounds(low, high) = tune.wants[i].kind, let m = e.means[i], e.counts[i] == e.replicas else { return false }
        return (low.map { m >= $0 } ?? true) && (high.map { m <= $0 } ?? true)
    }

    /// The index of the one objective (minimize or maximize) of a search with one and no curve.
    var singleObjective: Int? {
        guard tune.objectiveCount == 1, tune.curve == nil else { return nil }
        return tune.wants.firstIndex { w in
            if case .minimize = w.kind { return true }
            if case .maximize = w.kind { return true }
            return false
        }
    }

    /// What the confirmation run confirms.
    public var confirmationLines: [String] {
        guard let best, let confirmation else { return [] }
        guard jittered else {
            return ["No jitter: every replica of a point is the same world, so the confirmation repeats the search's world and confirms only that it reproduces (" +
                    numbers.metrics(confirmation) + ")."]
        }
        var lines: [String] = []
        for (i, w) in tune.wants.enumerated() {
            func text(_ e: TuneEvaluation) -> String {
                guard let m = e.means[i] else { return "none" }
                return numbers.metricWithSpread(m, w.metric, replicas: e.replicas, spread: e.stds[i])
            }
            lines.append("\(w.metric): \(text(best)) over the search's \(best.replicas) jittered replicas, \(text(confirmation)) over \(confirmation.replicas) fresh jitter draws")
        }
        if let a = best.curveError, let b = confirmation.curveError {
            lines.append("curve rms: \(TuneNumbers.text(a, step: 0)) pt in the search, \(TuneNumbers.text(b, step: 0)) pt over fresh jitter draws")
        }
        return lines
    }

    /// The convergence rows at which the best so far changed (and the last): the rest repeat.
    var convergenceChanges: [Convergence] {
        let rows = convergence
        return rows.enumerated().filter { k, row in k == 0 || k == rows.count - 1 || row.best != rows[k - 1].best }.map(\.element)
    }
}
