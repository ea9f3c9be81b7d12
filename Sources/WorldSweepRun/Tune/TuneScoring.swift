import WorldSweepScene

/// How good a candidate is, from its replica means: constraint violation first (a point that
/// breaks a bound, misses a metric altogether or a target when objectives also count, is worse
/// than any that does not), then the squared target errors in tolerances, or the objective.
public struct TuneScore: Sendable, Hashable {
    /// 0 when every bound holds (and every target, where objectives rank the rest).
    public var violation: Double
    /// Lower is better: Σ((mean − target)/within)² with targets only, else the one objective.
    public var primary: Double
    /// Every objective, lower is better (maximize is negated).
    public var objectives: [Double]
    /// Every bound holds and every target is met within its tolerance.
    public var met: Bool
    /// The worst target error in tolerances (0 without targets).
    public var worstTarget: Double
}

public struct TuneScoring: Sendable {
    public let tune: TuneSpec
    /// Target errors are counted in tolerances times this constant: 1, or the smallest tolerance when
    /// one is so small that the squared errors could overflow (a constant factor keeps the order).
    let errorScale: Double

    public init(tune: TuneSpec) {
        self.tune = tune
        let smallest = tune.wants.compactMap { want -> Double? in if case let .target(_, within) = want.kind { within } else { nil } }.min() ?? 1
        errorScale = smallest < 1e-100 ? smallest : 1
    }

    public func score(_ e: TuneEvaluation) -> TuneScore {
        let ranked = tune.objectiveCount > 0
        var violation = 0.0, squared = 0.0, worst = 0.0
        var objectives: [Double] = []
        for (i, want) in tune.wants.enumerated() {
            guard let mean = e.means[i], e.counts[i] == e.replicas else {
                // Some replicas lack the metric (no bounce, never settled): not a usable answer.
                violation += 1 + Double(e.replicas - e.counts[i]) / Double(max(e.replicas, 1))
                if case .target = want.kind { worst = .infinity }
                if case .minimize = want.kind { objectives.append(.infinity) }
                if case .maximize = want.kind { objectives.append(.infinity) }
                continue
            }
            switch want.kind {
            case let .target(target, within):
                let error = abs(mean - target) / within
                worst = max(worst, error)
                let scaled = errorScale == 1 ? error : abs(mean - target) * (errorScale / within)
                if ranked { violation += max(0, error - 1) } else { squared += scaled * scaled }
            case let .bounds(low, high):
                if let low, mean < low { violation += (low - mean) / Self.scale(low) }
                if let high, mean > high { violation += (mean - high) / Self.scale(high) }
            case .minimize: objectives.append(mean)
            case .maximize: objectives.append(-mean)
            }
        }
        if tune.curve != nil {
            let error = e.curveError ?? .infinity
            if !error.isFinite { violation += 1 }
            objectives.append(error)
        }
        let primary = ranked ? (objectives.count == 1 ? objectives[0] : objectives.reduce(0, +)) : squared
        return TuneScore(violation: violation, primary: primary, objectives: objectives,
                         met: violation == 0 && worst <= 1, worstTarget: worst)
    }

    static func scale(_ bound: Double) -> Double { abs(bound) > 1e-9 ? abs(bound) : 1 }

    /// Indices of `scores`, best first; ties keep their order (the search stays deterministic).
    public func order(_ scores: [TuneScore]) -> [Int] {
        let ranks = tune.objectiveCount >= 2 ? Self.paretoRanks(scores) : scores.map { _ in 0 }
        return scores.indices.sorted { a, b in
            let sa = scores[a], sb = scores[b]
            if (sa.violation > 0) != (sb.violation > 0) { return sb.violation > 0 }
            if sa.violation > 0 && sa.violation != sb.violation { return sa.violation < sb.violation }
            if ranks[a] != ranks[b] { return ranks[a] < ranks[b] }
            if sa.primary != sb.primary { return sa.primary < sb.primary }
            return a < b
        }
    }

    /// Non-dominated sorting of the feasible scores (front 0 is the Pareto front); infeasible: Int.max.
    static func paretoRanks(_ scores: [TuneScore]) -> [Int] {
        var ranks = scores.map { $0.violation > 0 ? Int.max : -1 }
        var rank = 0
        while ranks.contains(-1) {
            let open = ranks.indices.filter { ranks[$0] == -1 }
            let front = open.filter { i in !open.contains { j in j != i && dominates(scores[j], scores[i]) } }
            for i in front { ranks[i] = rank }
            rank += 1
        }
        return ranks
    }

    static func dominates(_ a: TuneScore, _ b: TuneScore) -> Bool {
        zip(a.objectives, b.objectives).allSatisfy { $0 <= $1 } && zip(a.objectives, b.objectives).contains { $0 < $1 }
    }
}
