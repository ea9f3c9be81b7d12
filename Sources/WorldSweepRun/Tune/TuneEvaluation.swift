import WorldSweepScene

/// One candidate point of a search, evaluated: its values and, per want, the mean over its
/// replicas. Kept in the checkpoint, so a resumed search replays the same decisions.
public struct TuneEvaluation: Sendable, Hashable, Codable {
    public var generation: Int
    /// Numbered across the whole search (worlds.csv's `point`).
    public var point: Int
    /// One per tuned parameter, in file order.
    public var values: [Double]
    /// Per want (file order): the mean over the replicas that have the metric; nil when none has.
    public var means: [Double?]
    /// Per want: the sample standard deviation over those replicas.
    public var stds: [Double]
    /// Per want: how many replicas have the metric (a world that never bounces has no bounce1).
    public var counts: [Int]
    /// The curve's root-mean-square distance (pt), averaged over the replicas; nil without a curve.
    public var curveError: Double?
    public var replicas: Int
}

/// Mean and sample standard deviation (n − 1; 0 for one value).
func meanAndStd(_ values: [Double]) -> (mean: Double, std: Double)? {
    guard !values.isEmpty else { return nil }
    let mean = values.reduce(0, +) / Double(values.count)
    guard values.count > 1 else { return (mean, 0) }
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    return (mean, variance.squareRoot())
}

extension WorldResult {
    /// The value of worlds.csv's column `COLUMN` for item `item` (a metric of `metrics`); nil
    /// when the cell is empty (a failed world, a bounce that never came, a spring that never
    /// settled, a first time never reached).
    public func metric(item: Int, column: String, in metrics: MetricCatalog) -> Double? {
        guard !failed, item < items.count, let metric = metrics.named(column) else { return nil }
        return metric.value(of: items[item])
    }
}
