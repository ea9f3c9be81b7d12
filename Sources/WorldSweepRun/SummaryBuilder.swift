import Foundation

/// Aggregates world results, fed strictly in world order, into per-point statistics on the fly
/// (a point's worlds are contiguous; each folds into the point's running statistics as it
/// arrives, so memory does not grow with the replicas), and keeps a
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
    /// The point in progress, folded so far.
    private var current: PointAccumulator?
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
        if let point = current?.point, point != r.point { try finishPoint() }
        if current == nil { current = PointAccumulator(layout: layout, point: r.point, parameters: r.parameters) }
        current!.add(r)
        worldsSeen += 1
        if r.world % sampleStride == 0 { sample.append(r) }
        if !r.failed {
            for (i, item) in r.items.enumerated() where !item.contactsByPartner.isEmpty {
                partners[layout.items[i], default: []].formUnion(item.contactsByPartner.keys)
            }
        }
        if current!.replicas == replicas { try finishPoint() }
    }

    /// Closes the point in progress (at the end of a run whose last point is complete).
    public mutating func finish() throws {
        if current != nil { try finishPoint() }
    }

    private mutating func finishPoint() throws {
        let summary = current!.summary
        current = nil
        if summary.point % pointStride == 0 { keptPoints.append(summary) }
        pointsDone += 1
        try pointSink(summary)
    }

    /// The statistics of one point's worlds (failed ones counted, not used).
    public static func summarize(_ worlds: [WorldResult], layout: CSVLayout) -> PointSummary {
        var point = PointAccumulator(layout: layout, point: worlds[0].point, parameters: worlds[0].parameters)
        for w in worlds { point.add(w) }
        return point.summary
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
