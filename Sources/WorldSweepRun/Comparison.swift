import Foundation

/// Two finished runs side by side (`worldsweep compare A B`): their points matched by parameter
/// values, and per matched point and metric the means of A and B, B − A and (B − A) / |A|.
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

        public init(label: String, summary: SweepSummary, fixedValues: [String: Double] = [:]) {
            self.label = label; self.summary = summary; self.fixedValues = fixedValues
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
        /// (B − A) / |A|: nil unless both exist; ±infinity when A is 0 and B is not.
        public var relative: Double? {
            guard let a, let b else { return nil }
            if a == b { return 0 }
            return (b - a) / abs(a)
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
    /// one side only (a third bounce in A, none in B), and the largest |B − A| and |relative|
    /// where both have one (relative only where A is not 0; nil when there is none).
    public struct MetricSummary: Sendable, Hashable {
        public var metric: String
        public var points: Int
        public var differing: Int
        public var oneSided: Int
        public var largestDelta: Double?
        public var largestRelative: Double?
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

    /// Every differing (point, metric): first those with both values, largest |relative| first
    /// (A not 0), then those from A = 0 by |B − A|, then those with a value on one side only.
    public var differing: [(point: MatchedPoint, difference: Difference)] {
        let all = matched.flatMap { m in m.differences.filter(\.differs).map { (m, $0) } }
        func rank(_ d: Difference) -> (Int, Double) {
            guard let a = d.a, let delta = d.delta else { return (0, 0) }
            return a == 0 ? (1, abs(delta)) : (2, abs(delta / a))
        }
        return all.sorted {
            let (x, y) = (rank($0.1), rank($1.1))
            if x != y { return x > y }
            return ($0.0.pointA, $0.1.metric) < ($1.0.pointA, $1.1.metric)
        }
    }

    /// Per metric: those that differ somewhere first, largest relative difference first.
    public var metricSummaries: [MetricSummary] {
        var byMetric: [String: MetricSummary] = [:]
        for m in matched {
            for d in m.differences {
                var s = byMetric[d.metric] ?? MetricSummary(metric: d.metric, points: 0, differing: 0, oneSided: 0)
                s.points += 1
                if d.differs {
                    s.differing += 1
                    if let a = d.a, let delta = d.delta {
                        s.largestDelta = max(s.largestDelta ?? 0, abs(delta))
                        if a != 0 { s.largestRelative = max(s.largestRelative ?? 0, abs(delta / a)) }
                    } else {
                        s.oneSided += 1
                    }
                }
                byMetric[d.metric] = s
            }
        }
        return byMetric.values.sorted {
            let x = ($0.differing > 0 ? 1 : 0, $0.largestRelative ?? -1, $0.largestDelta ?? -1)
            let y = ($1.differing > 0 ? 1 : 0, $1.largestRelative ?? -1, $1.largestDelta ?? -1)
            if x != y { return x > y }
            return $0.metric < $1.metric
        }
    }
}
