// What the findings' words ask of a metric that worlds can lack, summed over every point once per
// column: how many worlds have a value, and the sums of the values reached. The words ask again
// for every comparison of the findings' sort, which must not walk every point's metrics by name
// each time.
import WorldSweepRun

struct ColumnTally: Sendable {
    /// Worlds that did not fail, and the values they have, over every point (`neverShare`).
    var allWorlds = 0
    var allValued = 0
    /// Over the points with a world that did not fail: worlds, worlds with a value, and the sums of
    /// the values and of their squares, weighted by worlds (`censoredShare`).
    var worlds = 0.0
    var reached = 0.0
    var sum = 0.0
    var squares = 0.0

    init() {}

    /// One walk over the points, in their order (the sums are the same bits whoever asks).
    init(_ points: [PointSummary], _ column: String) {
        for p in points { add(worlds: Censoring.worlds(p), stats: p.metrics[column]) }
    }

    /// Counts the next point (`n` worlds that ran: `Censoring.worlds`), with its statistics of
    /// the column.
    mutating func add(worlds n: Int, stats: MetricStats?) {
        allWorlds += n
        allValued += stats?.count ?? 0
        guard n > 0 else { return }
        let c = Double(min(n, stats?.count ?? 0))
        worlds += Double(n); reached += c
        if let st = stats, c > 0 {
            sum += c * st.mean
            squares += c * (Censoring.population(st) + st.mean * st.mean)
        }
    }

    /// The share of all (not failed) worlds without a value.
    var neverShare: Double? { allWorlds > 0 ? Double(allWorlds - allValued) / Double(allWorlds) : nil }

    /// `ReportModel.censoredShare` for run length `t`.
    func censoredShare(runSeconds t: Double) -> Double {
        guard worlds > 0 else { return 0 }
        let never = worlds - reached
        let mean = (sum + never * t) / worlds
        let variance = (squares + never * t * t) / worlds - mean * mean
        guard variance > 1e-12 * max(1, t * t) else { return 0 }
        guard reached > 0 else { return 1 }
        let p = never / worlds, meanReached = sum / reached
        return min(1, max(0, p * (1 - p) * (t - meanReached) * (t - meanReached) / variance))
    }
}
