import Foundation

/// points.csv: summary.json's points as one flat table for pandas, polars or a spreadsheet. One
/// row per sweep point: `point`, the swept parameters (as worlds.csv writes them), `replicas`,
/// `failed_replicas`, then `METRIC.mean`, `METRIC.std`, `METRIC.min`, `METRIC.max` for every
/// worlds.csv metric, item by item; a metric some worlds have no value of (a k-th bounce, rest and
/// settle times) adds `METRIC.count` (worlds with a value) and `METRIC.never` (the share of the
/// point's worlds that did not fail without one: never bounced, never at rest in the run). The
/// per-partner statistics are PartnerPointsCSV's long table (a column per item and possible
/// partner would be quadratic in the items).
public struct PointsCSV: Sendable {
    public static let statistics = ["mean", "std", "min", "max"]
    public let layout: CSVLayout
    /// summary.json's key of every metric column, in column order; made once, not per row (this
    /// runs on the thread that collects results, once per point).
    public let metrics: [String]
    /// Per metric: whether worlds can lack a value (so the row counts them).
    public let counted: [Bool]

    public init(layout: CSVLayout) {
        self.layout = layout
        metrics = layout.metricColumns
        counted = layout.itemMetrics.flatMap { $0.map(\.isCounted) }
    }

    /// Built-in metrics a world may have no value of (`ITEM.bounce1` … `ITEM.bounce8`,
    /// `ITEM.rest_time`, `ITEM.settle_time`): those declared censored. (A file's written metrics:
    /// `MetricCatalog.canBeMissing`.)
    public static func canBeMissing(_ metric: String) -> Bool {
        guard let dot = metric.firstIndex(of: ".") else { return false }
        return MetricDeclaration.named(metric[metric.index(after: dot)...])?.isCounted ?? false
    }

    public var header: String {
        (["point"] + layout.parameters + ["replicas", "failed_replicas"]
            + zip(metrics, counted).flatMap { m, c in (Self.statistics + (c ? ["count", "never"] : [])).map { "\(m).\($0)" } }).joined(separator: ",")
    }
}

/// partner_points.csv: summary.json's `ITEM.contacts.PARTNER` statistics as a long table,
/// `point,item,partner,mean,std,min,max`: one row per point, item and partner that some replica of
/// the point touched (statistics over the point's replicas that did not fail, 0 for those that did
/// not touch it). A pair no replica of a point touched has no row: its count there is 0.
public struct PartnerPointsCSV: Sendable {
    public static let header = "point,item,partner,mean,std,min,max"
}

extension PartnerPointsCSV {
    /// `ITEM.contacts.PARTNER` → (ITEM's index, PARTNER); nil for any other key. Names are letters,
    /// digits, '_' and '-', never a dot. Read in place: this runs for every metric of every point,
    /// and splitting each key into new strings cost more than writing the rows.
    static func partnerKey(_ key: String, layout: CSVLayout) -> (Int, Substring)? {
        let utf8 = key.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        var i = utf8.index(after: dot)
        for byte in "contacts.".utf8 {
            guard i != utf8.endIndex, utf8[i] == byte else { return nil }
            i = utf8.index(after: i)
        }
        guard !utf8[i...].contains(UInt8(ascii: ".")), let item = layout.itemIndex[String(key[..<dot])] else { return nil }
        return (item, key[i...])
    }
}
