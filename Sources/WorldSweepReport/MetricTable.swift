// Every point's statistics of every metric, laid out by metric: each point's dictionary is walked
// once. Looked up by name per point and metric instead, each look-up missed the cache (a point's
// dictionary is kilobytes, visited once per metric column), about a quarter of a grid sweep's
// report (issue 29).
import WorldSweepRun

struct MetricTable: Sendable {
    /// Each metric's column in `columns`.
    private(set) var index: [String: Int] = [:]
    /// Per metric, per point (in the points' order): its statistics, nil where it has none.
    private(set) var columns: [[MetricStats?]] = []

    init(_ points: [PointSummary]) {
        for (i, p) in points.enumerated() {
            for (key, stats) in p.metrics {
                let c: Int
                if let known = index[key] {
                    c = known
                } else {
                    c = columns.count
                    index[key] = c
                    columns.append([MetricStats?](repeating: nil, count: points.count))
                }
                columns[c][i] = stats
            }
        }
    }

    /// Every metric some point has.
    var names: Set<String> { Set(index.keys) }

    /// The metric's statistics per point; nil for a metric no point has.
    func column(_ name: String) -> [MetricStats?]? { index[name].map { columns[$0] } }
}
