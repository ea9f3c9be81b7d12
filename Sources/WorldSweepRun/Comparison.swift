import Foundation

/// Two finished runs side by side (`worldsweep compare A B`): their points matched by parameter
/// values, and per matched point and metric the means of A and B, B − A, |B − A| over the
/// metric's spread (the ranking) and (B − A) / |A| (where A is not near zero).
///
/// Points match when every parameter either run sweeps has the same value in both; a parameter
/// only one run sweeps takes, in the other, the value its sweep file gives it (from the run
/// folder's sweep.yaml), so a run over elasticity alone matches the points of a run over
/// elasticity × gravity where gravity is the first run's. Values compare exactly: grid values are
/// the decimals as written, so 0.3 from a range matches 0.3 from a list.
public struct Comparison: Sendable {
    public struct Side: Sendable {
        public var label: String
        public var summary: SweepSummary
        /// Values of parameters this run does not sweep, by path (from its sweep file).
        public var fixedValues: [String: Double]
        /// The run folder's sweep.yaml (the file it ran, then any overrides), when it has one.
        public var sweepFile: String?

        public init(label: String, summary: SweepSummary, fixedValues: [String: Double] = [:], sweepFile: String? = nil) {
            self.label = label; self.summary = summary; self.fixedValues = fixedValues; self.sweepFile = sweepFile
        }
    }

    /// One metric of one matched point.
    public struct Difference: Sendable, Hashable {
        public var metric: String
        /// Means over the point's replicas; nil where that run has no value (no third bounce).
        public var a: Double?
        public var b: Double?
        /// B − A, nil unless both exist.
        public var delta: Double? { a.flatMap { a in b.map { $0 - a } } }
        /// (B − A) / |A|: nil unless both exist, and nil when A is near zero (|A| below
        /// `nearZero`): a velocity going from 4e-17 to -6e-7 is no change of −1.4e12 %.
        public var relative: Double? {
            guard let a, let b else { return nil }
            if a == b { return 0 }
            return abs(a) < Comparison.nearZero ? nil : (b - a) / abs(a)
        }
        public var differs: Bool { a != b }
    }

    public struct MatchedPoint: Sendable {
        public var pointA: Int
        public var pointB: Int
        /// The matching values, by parameter (the union of both runs' swept parameters).
        public var values: [Double]
        /// Every metric either point has, in a stable order.
        public var differences: [Difference]
    }

    /// Per metric over all matched points: how many differ, how many of those have a value on
    /// one side only (a third bounce in A, none in B), and the largest |B − A|, |B − A| / spread
    /// and |relative| where both have one (relative only where A is not near zero; nil when there
    /// is none).
    public struct MetricSummary: Sendable, Hashable {
        public var metric: String
        public var points: Int
        public var differing: Int
        public var oneSided: Int
        public var largestDelta: Double?
        public var largestRelative: Double?
        public var largestScaled: Double?
    }

    /// Below this a metric's value is "zero" in its units (points, seconds, pt/s, counts): far
    /// under anything a person reads, far over Float rounding of values near zero. Relative
    /// differences from such a value are not given; spreads are at least this.
    public static let nearZero = 1e-4

    /// Per metric, max − min of the point means over both runs (every point, matched or not):
    /// how much the metric moves across the sweep, the yardstick differences are ranked by.
    public let spreads: [String: Double]

    /// |B − A| over the metric's spread (at least `nearZero`); nil unless both values exist.
    public func scaled(_ d: Difference) -> Double? {
        d.delta.map { abs($0) / max(spreads[d.metric] ?? 0, Self.nearZero) }
    }

    public let a: Side
    public let b: Side
    /// The parameters points are matched on: A's swept ones, then B's that A does not sweep.
    public let parameters: [String]
    public let matched: [MatchedPoint]
    /// Points of A (B) with no partner, with their values over `parameters` (nil where unknown).
    public let onlyInA: [(point: Int, values: [Double?])]
    public let onlyInB: [(point: Int, values: [Double?])]

    public init(a: Side, b: Side) {
        self.a = a
        self.b = b
        let parameters = a.summary.parameters + b.summary.parameters.filter { !a.summary.parameters.contains($0) }
        self.parameters = parameters
        func key(_ p: PointSummary, _ side: Side) -> [Double?] {
            parameters.map { name in
                if let i = side.summary.parameters.firstIndex(of: name) { return p.parameters[i] }
                return side.fixedValues[name]
            }
        }
        var bByKey: [[Double?]: [PointSummary]] = [:]
        for p in b.summary.points { bByKey[key(p, b), default: []].append(p) }
        var matched: [MatchedPoint] = []
        var onlyInA: [(Int, [Double?])] = []
        var usedB = Set<Int>()
        for p in a.summary.points {
            let k = key(p, a)
            // A value unknown on either side matches nothing: no guessing.
            guard !k.contains(where: { $0 == nil }), let q = bByKey[k]?.first(where: { !usedB.contains($0.point) }) else {
                onlyInA.append((p.point, k))
                continue
            }
            usedB.insert(q.point)
            matched.append(MatchedPoint(pointA: p.point, pointB: q.point, values: k.map { $0! },
                                        differences: Self.differences(p, q, items: a.summary.items + b.summary.items)))
        }
        self.matched = matched
        var ranges: [String: (low: Double, high: Double)] = [:]
        for point in matched {
            for d in point.differences {
                for v in [d.a, d.b].compactMap({ $0 }) {
                    let r = ranges[d.metric] ?? (v, v)
                    ranges[d.metric] = (min(r.low, v), max(r.high, v))
                }
            }
        }
        for p in a.summary.points + b.summary.points {
            for (metric, stats) in p.metrics {
                let r = ranges[metric] ?? (stats.mean, stats.mean)
                ranges[metric] = (min(r.low, stats.mean), max(r.high, stats.mean))
            }
        }
        spreads = ranges.mapValues { $0.high - $0.low }
        self.onlyInA = onlyInA
        self.onlyInB = b.summary.points.filter { !usedB.contains($0.point) }.map { ($0.point, key($0, b)) }
    }

    /// Means of every metric either point has (sorted by name), and the failed replicas. A
    /// partner's count (`ITEM.contacts.PARTNER`) that summary.json leaves out because no replica
    /// touched it is 0 there, as partners.csv counts it, not a missing value.
    static func differences(_ p: PointSummary, _ q: PointSummary, items: [String]) -> [Difference] {
        var out = [Difference(metric: "failed_replicas", a: Double(p.failedReplicas), b: Double(q.failedReplicas))]
        let partnerPrefixes = Set(items).map { "\($0).contacts." }
        func mean(_ point: PointSummary, _ metric: String) -> Double? {
            if let stats = point.metrics[metric] { return stats.mean }
            let ran = point.failedReplicas < point.replicas
            return ran && partnerPrefixes.contains(where: metric.hasPrefix) ? 0 : nil
        }
        for metric in Set(p.metrics.keys).union(q.metrics.keys).sorted() {
            out.append(Difference(metric: metric, a: mean(p, metric), b: mean(q, metric)))
        }
        return out
    }

    /// True when every point matched and no metric of any differs.
    public var identical: Bool {
        onlyInA.isEmpty && onlyInB.isEmpty && matched.allSatisfy { $0.differences.allSatisfy { !$0.differs } }
    }

    /// Every differing (point, metric): first those with both values, largest |B − A| relative
    /// to the metric's spread first (so a difference is large when it is large next to how much
    /// the metric moves across the sweep, not next to a value near zero), then those with a value
    /// on one side only.
    public var differing: [(point: MatchedPoint, difference: Difference)] {
        let all = matched.flatMap { m in m.differences.filter(\.differs).map { (m, $0) } }
        func rank(_ d: Difference) -> (Int, Double) {
            scaled(d).map { (1, $0) } ?? (0, 0)
        }
        return all.sorted {
            let (x, y) = (rank($0.1), rank($1.1))
            if x != y { return x > y }
            return ($0.0.pointA, $0.1.metric) < ($1.0.pointA, $1.1.metric)
        }
    }

    /// Per metric: those that differ somewhere first, largest |B − A| / spread first.
    public var metricSummaries: [MetricSummary] {
        var byMetric: [String: MetricSummary] = [:]
        for m in matched {
            for d in m.differences {
                var s = byMetric[d.metric] ?? MetricSummary(metric: d.metric, points: 0, differing: 0, oneSided: 0)
                s.points += 1
                if d.differs {
                    s.differing += 1
                    if let delta = d.delta {
                        s.largestDelta = max(s.largestDelta ?? 0, abs(delta))
                        if let r = d.relative { s.largestRelative = max(s.largestRelative ?? 0, abs(r)) }
                        if let x = scaled(d) { s.largestScaled = max(s.largestScaled ?? 0, x) }
                    } else {
                        s.oneSided += 1
                    }
                }
                byMetric[d.metric] = s
            }
        }
        return byMetric.values.sorted {
            let x = ($0.differing > 0 ? 1 : 0, $0.largestScaled ?? -1, $0.largestDelta ?? -1)
            let y = ($1.differing > 0 ? 1 : 0, $1.largestScaled ?? -1, $1.largestDelta ?? -1)
            if x != y { return x > y }
            return $0.metric < $1.metric
        }
    }
}
