// Every point's statistics of every metric, laid out by metric: each point is walked once. Looked up by name per point and metric instead, each look-up missed the cache (a point's
// dictionary is kilobytes, visited once per metric column), about a quarter of a grid sweep's
// report (issue 29).
import WorldSweepRun

struct MetricTable: Sendable {
    /// Each metric's column in `columns`.
    private(set) var index: [String: Int] = [:]
    /// Per metric, per point (in the points' order): its statistics, nil where it has none.
    private(set) var columns: [[MetricStats?]] = []

    init(_ points: [PointSummary]) {
        // A run's points share one table of names (PointMetrics): each slot's column is found
        // once per table, and a point is read slot by slot with no name hashed; names outside
        // the table (a big world's partners) are looked up one by one.
        var table: MetricNames?
        var columnOfSlot: [Int?] = []
        for (i, p) in points.enumerated() {
            let metrics = p.metrics
            if metrics.names !== table {
                table = metrics.names
                columnOfSlot = Array(repeating: nil, count: metrics.names.names.count)
            }
            for (s, stats) in metrics.slots.enumerated() {
                guard let stats else { continue }
                let c: Int
                if let known = columnOfSlot[s] {
                    c = known
                } else {
                    c = column(named: metrics.names.names[s], count: points.count)
                    columnOfSlot[s] = c
                }
                columns[c][i] = stats
            }
            for (key, stats) in metrics.unslotted { columns[column(named: key, count: points.count)][i] = stats }
        }
    }

    /// The column of `name`, made (empty, `count` points long) if it has none yet.
    private mutating func column(named name: String, count: Int) -> Int {
        if let known = index[name] { return known }
        index[name] = columns.count
        columns.append([MetricStats?](repeating: nil, count: count))
        return columns.count - 1
    }

    /// Every metric some point has.
    var names: Set<String> { Set(index.keys) }

    /// The metric's statistics per point; nil for a metric no point has.
    func column(_ name: String) -> [MetricStats?]? { index[name].map { columns[$0] } }
}
