// Every point's statistics of every metric, read by metric: each metric's job reads its own
// column of the points. Looked up by name per point and metric, each look-up hashed the name; laid
// out by metric up front (a copy of every point's statistics), the copy was the serial start of a
// big sweep's report: 50 000 points, ~40 columns of 48-byte statistics, mostly page faults
// (issue 29). Points share one table of names (PointMetrics), so a column is one slot of it.
import WorldSweepResults
import WorldSweepRun

struct MetricTable: Sendable {
    let points: [PointSummary]
    /// Every metric some point has.
    let names: Set<String>

    init(_ points: [PointSummary]) {
        self.points = points
        var names = Set<String>()
        // Per run of points sharing a table of names, which of its slots some point fills.
        var table: MetricNames?
        var filled: [Bool] = []
        func collect() {
            guard let table else { return }
            for (s, isFilled) in filled.enumerated() where isFilled { names.insert(table.names[s]) }
        }
        for point in points {
            let metrics = point.metrics
            if metrics.names !== table {
                collect()
                table = metrics.names
                filled = Array(repeating: false, count: metrics.names.names.count)
            }
            for s in filled.indices where !filled[s] && metrics.hasStats(inSlot: s) { filled[s] = true }
            for key in metrics.unslotted.keys { names.insert(key) }
        }
        collect()
        self.names = names
    }

    /// The metric's statistics per point (`metricColumn`); nil for a metric no point has.
    func column(_ name: String) -> [MetricStats?]? { names.contains(name) ? points.metricColumn(name) : nil }
}
