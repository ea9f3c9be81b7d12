/// One metric's statistics folded value by value: count, sum, the running mean and squared
/// deviations (Welford), min and max. The mean is the plain sum over the count, as a list's
/// would be; the spread is Welford's, within rounding of the two-pass figure.
struct RunningStats {
    private var count = 0
    private var sum = 0.0
    private var runningMean = 0.0
    private var squares = 0.0
    private var low = Double.infinity
    private var high = -Double.infinity

    /// `zeros` values of 0 already seen (a partner first met after that many replicas).
    init(zeros: Int = 0) {
        guard zeros > 0 else { return }
        count = zeros; low = 0; high = 0
    }

    /// Non-finite values are left out, as `MetricStats([Double])` leaves them.
    mutating func add(_ v: Double) {
        guard v.isFinite else { return }
        count += 1
        sum += v
        let d = v - runningMean
        runningMean += d / Double(count)
        squares += d * (v - runningMean)
        low = min(low, v); high = max(high, v)
    }

    var stats: MetricStats? {
        guard count > 0 else { return nil }
        return MetricStats(count: count, mean: sum / Double(count),
                           std: count > 1 ? (max(0, squares) / Double(count - 1)).squareRoot() : 0, min: low, max: high)
    }
}

/// One point's statistics, folded as its replicas arrive: its memory does not grow with the
/// number of replicas (a million replicas of one point held every world's result before).
struct PointAccumulator {
    let layout: CSVLayout
    let point: Int
    let parameters: [Double]
    private(set) var replicas = 0
    private var failed = 0
    /// Per item, per metric column (`layout.itemMetricKeys` order).
    private var columns: [[RunningStats]]
    /// Per item, per partner met so far (a point meets one or two): contacts with it (0 in
    /// replicas that did not meet it). A short list: a dictionary per item per point cost more
    /// to make than to search.
    private var partners: [[(name: String, stats: RunningStats)]]

    init(layout: CSVLayout, point: Int, parameters: [Double]) {
        self.layout = layout
        self.point = point
        self.parameters = parameters
        columns = layout.itemMetricKeys.map { Array(repeating: RunningStats(), count: $0.count) }
        partners = Array(repeating: [], count: layout.items.count)
    }

    mutating func add(_ r: WorldResult) {
        replicas += 1
        guard !r.failed else { failed += 1; return }
        let earlier = replicas - failed - 1   // successful replicas before this one
        for (i, item) in r.items.enumerated() {
            Self.forEachValue(of: item, item: i, layout: layout) { c, v in columns[i][c].add(v) }
            guard !(item.contactsByPartner.isEmpty && partners[i].isEmpty) else { continue }
            for partner in item.contactsByPartner.keys where !partners[i].contains(where: { $0.name == partner }) {
                partners[i].append((partner, RunningStats(zeros: earlier)))
            }
            for k in partners[i].indices { partners[i][k].stats.add(Double(item.contactsByPartner[partners[i][k].name] ?? 0)) }
        }
    }

    /// An item's values by its metric column (`layout.itemCells[i]`'s order), those it has:
    /// what every point's statistics are folded from. A spring item's missing spring results read
    /// as worlds.csv writes them (no swing, no settling).
    @inline(__always)
    static func forEachValue(of item: ItemResult, item i: Int, layout: CSVLayout, _ body: (Int, Double) -> Void) {
        for (c, cell) in layout.itemCells[i].enumerated() {
            switch cell.field {
            case .overshoot: body(c, item.spring?.overshoot ?? 0)
            case .oscillations: body(c, Double(item.spring?.oscillations ?? 0))
            default: if let v = cell.field.value(of: item) { body(c, v) }
            }
        }
    }

    /// The statistics of a point of one world, as folding that world gives them (`summary` after
    /// one `add`), made without the running statistics: a one-replica sweep's points are each one
    /// world, and the fold's set-up was most of what making their rows beside the engine cost.
    static func summary(ofOneWorld r: WorldResult, layout: CSVLayout) -> PointSummary {
        let names = layout.pointMetricNames
        // Each slot the world's value (NaN: none), read as MetricStats(oneValue:).
        var values = [Double](repeating: .nan, count: names.names.count)
        var extra: [(key: String, value: MetricStats)] = []
        if !r.failed {
            var base = 0
            for (i, item) in r.items.enumerated() {
                forEachValue(of: item, item: i, layout: layout) { c, v in if v.isFinite { values[base + c] = v } }
                base += layout.itemMetricKeys[i].count
            }
            for (i, item) in r.items.enumerated() {
                for (partner, n) in item.contactsByPartner {
                    if let at = layout.partnerSlots[i].slot(of: partner) { values[at] = Double(n) } else {
                        extra.append((layout.items[i] + ".contacts." + partner, MetricStats(oneValue: Double(n))))
                    }
                }
            }
        }
        return PointSummary(point: r.point, parameters: r.parameters, replicas: 1, failedReplicas: r.failed ? 1 : 0,
                            metrics: PointMetrics(names: names, oneWorldValues: values, extra: extra))
    }

    /// The point's statistics, filed in the layout's shared names (partners past its table, in a
    /// big world, filed by name).
    var summary: PointSummary {
        let names = layout.pointMetricNames
        var slots = [MetricStats?](repeating: nil, count: names.names.count)
        var extra: [(key: String, value: MetricStats)] = []
        var slot = 0
        for i in layout.items.indices {
            for k in columns[i].indices { slots[slot] = columns[i][k].stats; slot += 1 }
        }
        for i in layout.items.indices {
            for (partner, running) in partners[i] {
                guard let s = running.stats else { continue }
                if let at = layout.partnerSlots[i].slot(of: partner) { slots[at] = s } else { extra.append((layout.items[i] + ".contacts." + partner, s)) }
            }
        }
        return PointSummary(point: point, parameters: parameters, replicas: replicas, failedReplicas: failed,
                            metrics: PointMetrics(names: names, slots: slots, extra: extra))
    }
}
