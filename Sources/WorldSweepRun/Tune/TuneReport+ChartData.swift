// The tune report's pictures as plain numbers (WorldSweepResults' TuneChartData), so the report
// module draws them whichever compilation of this module ran the search.

extension TuneReport {
    /// The Pareto front's and the best world's numbers for `TuneCharts`: objectives signed as
    /// pareto.csv writes them (maximized ones back to their sign).
    public var chartData: TuneChartData {
        let signs = objectiveSigns
        func shown(_ e: TuneEvaluation) -> [Double] { zip(scoring.score(e).objectives, signs).map { $0 * $1 } }
        let feasible = outcome.evaluations.filter { scoring.score($0).violation == 0 }.map(shown)
        let front = TuneResult.paretoFront(outcome.evaluations, scoring: scoring).map(shown)
        let bestWorld = best.map {
            TuneChartData.BestWorld(values: $0.values, description: numbers.values($0.values),
                                    firstWorld: $0.point * $0.replicas)
        }
        var data = TuneChartData(objectiveNames: objectiveNames, feasible: feasible, front: front, answer: best.map(shown),
                                 best: bestWorld)
        data.parameterNames = tune.parameters.map(\.path)
        data.parameterLog = tune.parameters.map { p in if case let .range(_, _, log, _) = p.domain { log } else { false } }
        // One objective: its metric as measured; targets only: the largest target error, in
        // tolerances (1 or less meets every target); several objectives: the first.
        let single = tune.objectiveCount >= 1
        if single, let k = tune.wants.firstIndex(where: { w in
            if case .minimize = w.kind { return true }
            if case .maximize = w.kind { return true }
            return false
        }) {
            let metric = tune.wants[k].metric
            let unit = numbers.unit(metric)
            data.objectiveLabel = metric + (unit.isEmpty ? "" : " (\(unit))")
            data.evaluated = outcome.evaluations.map { e in
                TuneChartData.Evaluated(values: e.values, objective: e.counts[k] == e.replicas ? e.means[k] : nil,
                                        feasible: scoring.score(e).violation == 0, generation: e.generation)
            }
        } else {
            data.objectiveLabel = tune.curve != nil ? "curve rms (pt)" : "largest target error (tolerances)"
            data.evaluated = outcome.evaluations.map { e in
                let score = scoring.score(e)
                let value = tune.curve != nil ? e.curveError : score.worstTarget
                return TuneChartData.Evaluated(values: e.values, objective: value.flatMap { $0.isFinite ? $0 : nil },
                                               feasible: score.violation == 0, generation: e.generation)
            }
        }
        data.answerValues = best?.values
        return data
    }
}
