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
            TuneChartData.BestWorld(values: $0.values, description: TuneResult.describe(values: $0.values, tune: tune),
                                    firstWorld: $0.point * $0.replicas)
        }
        return TuneChartData(objectiveNames: objectiveNames, feasible: feasible, front: front, answer: best.map(shown),
                             best: bestWorld)
    }
}
