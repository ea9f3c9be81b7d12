import Foundation

/// Aggregates world results, fed strictly in world order, into per-point statistics on the fly
/// (a point's worlds are contiguous, so only the current point's worlds are held), and keeps a
/// bounded, deterministic sample of worlds and points for the report.
public struct SummaryBuilder {
    public let layout: CSVLayout
    public let replicas: Int
    /// Worlds with `world % sampleStride == 0` are kept in `sample`.
    public let sampleStride: Int
    /// Points with `point % pointStride == 0` are kept in `keptPoints`.
    public let pointStride: Int
    public static let maxSample = 20_000

    public private(set) var sample: [WorldResult] = []
    public private(set) var keptPoints: [PointSummary] = []
    public private(set) var pointsDone = 0
    public private(set) var worldsSeen = 0
    /// Partners seen per item over every world so far.
    public private(set) var partners: [String: Set<String>] = [:]
    private var current: [WorldResult] = []
    /// Receives every finished point, in order (e.g. to stream it to a file).
    public var pointSink: (PointSummary) throws -> Void

    public init(layout: CSVLayout, replicas: Int, totalWorlds: Int, totalPoints: Int,
                pointSink: @escaping (PointSummary) throws -> Void = { _ in }) {
        self.layout = layout
        self.replicas = replicas
        sampleStride = max(1, (totalWorlds + Self.maxSample - 1) / Self.maxSample)
        pointStride = max(1, (totalPoints + Self.maxSample - 1) / Self.maxSample)
        self.pointSink = pointSink
    }

    public mutating func add(_ r: WorldResult) throws {
        if let first = current.first, first.point != r.point { try finishPoint() }
        current.append(r)
        worldsSeen += 1
        if r.world % sampleStride == 0 { sample.append(r) }
        if !r.failed {
            for (i, item) in r.items.enumerated() where !item.contactsByPartner.isEmpty {
                partners[layout.items[i], default: []].formUnion(item.contactsByPartner.keys)
            }
        }
        if current.count == replicas { try finishPoint() }
    }

    /// Closes the point in progress (at the end of a run whose last point is complete).
    public mutating func finish() throws {
        if !current.isEmpty { try finishPoint() }
    }

    private mutating func finishPoint() throws {
        let summary = Self.summarize(current, layout: layout)
        current.removeAll(keepingCapacity: true)
        if summary.point % pointStride == 0 { keptPoints.append(summary) }
        pointsDone += 1
        try pointSink(summary)
    }

    /// The statistics of one point's worlds (failed ones counted, not used).
    public static func summarize(_ worlds: [WorldResult], layout: CSVLayout) -> PointSummary {
        let ok = worlds.filter { !$0.failed }
        // Gathered first, then filed in a table made for exactly that many: growing it rehashed
        // every key already in it, and a table sized for every possible column holds memory for
        // each of the (up to 20 000) points the report keeps.
        var found: [(key: String, stats: MetricStats)] = []
        for (i, name) in layout.items.enumerated() {
            let items = ok.map { $0.items[i] }
            // The item's column names in `columns(ofItem:)` order: contacts, bounces, bounce1 …
            // bounce8, rest_time, x, y, angle, vx, vy, angular_velocity, then its spring metrics.
            let keys = layout.itemMetricKeys[i]
            func put(_ column: Int, _ values: [Double]) {
                if let s = MetricStats(values) { found.append((keys[column], s)) }
            }
            put(0, items.map { Double($0.contacts) })
            put(1, items.map { Double($0.bounceHeights.count) })
            for k in 0..<8 { put(2 + k, items.compactMap { k < $0.bounceHeights.count ? $0.bounceHeights[k] : nil }) }
            put(10, items.compactMap(\.restTime))
            put(11, items.map(\.x)); put(12, items.map(\.y)); put(13, items.map(\.angle))
            put(14, items.map(\.vx)); put(15, items.map(\.vy)); put(16, items.map(\.angularVelocity))
            if layout.springItems[i] {
                for (k, column) in layout.springColumns.enumerated() {
                    switch column {
                    case "overshoot": put(CSVLayout.itemColumns.count + k, items.map { $0.spring?.overshoot ?? 0 })
                    case "settle_time": put(CSVLayout.itemColumns.count + k, items.compactMap { $0.spring?.settleTime })
                    default: put(CSVLayout.itemColumns.count + k, items.map { Double($0.spring?.oscillations ?? 0) })
                    }
                }
            }
            let seen = Set(items.flatMap(\.contactsByPartner.keys))
            for partner in seen.sorted() {
                if let s = MetricStats(items.map { Double($0.contactsByPartner[partner] ?? 0) }) { found.append((name + ".contacts." + partner, s)) }
            }
        }
        var metrics = [String: MetricStats](minimumCapacity: found.count)
        for (key, stats) in found { metrics[key] = stats }
        let first = worlds[0]
        return PointSummary(point: first.point, parameters: first.parameters, replicas: worlds.count,
                            failedReplicas: worlds.count - ok.count, metrics: metrics)
    }

    /// Partners per item, sorted, as summary.json lists them.
    public var sortedPartners: [String: [String]] { partners.mapValues { $0.sorted() } }
}

/// JSON text with sorted keys (stable across runs and machines).
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
