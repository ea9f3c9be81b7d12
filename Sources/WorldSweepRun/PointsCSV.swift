import Foundation

/// points.csv: summary.json's points as one flat table for pandas, polars or a spreadsheet. One
/// row per sweep point: `point`, the swept parameters (as worlds.csv writes them), `replicas`,
/// `failed_replicas`, then `METRIC.mean`, `METRIC.std`, `METRIC.min`, `METRIC.max` for every
/// worlds.csv metric, item by item. The per-partner statistics are PartnerPointsCSV's long table
/// (a column per item and possible partner would be quadratic in the items).
public struct PointsCSV: Sendable {
    public static let statistics = ["mean", "std", "min", "max"]
    public let layout: CSVLayout
    /// summary.json's key of every metric column, in column order; made once, not per row (this
    /// runs on the thread that collects results, once per point).
    public let metrics: [String]

    public init(layout: CSVLayout) {
        self.layout = layout
        metrics = layout.metricColumns
    }

    public var header: String {
        (["point"] + layout.parameters + ["replicas", "failed_replicas"]
            + metrics.flatMap { m in Self.statistics.map { "\(m).\($0)" } }).joined(separator: ",")
    }

    /// One line, newline included. A metric no replica had (no third bounce, never at rest) leaves
    /// its four cells empty.
    public func row(_ p: PointSummary) -> String {
        var s = RowText(capacity: 16 + 24 * p.parameters.count + 64 * metrics.count)
        s.integer(p.point)
        for v in p.parameters { s.comma(); s.append(NumberText.double(v)) }
        s.comma(); s.integer(p.replicas); s.comma(); s.integer(p.failedReplicas)
        for metric in metrics {
            if let stats = p.metrics[metric] { Self.append(stats, to: &s) } else { s.comma(); s.comma(); s.comma(); s.comma() }
        }
        s.newline()
        return s.string
    }

    /// Four cells; a value equal to one already written reuses its text (one replica: min = mean =
    /// max and std = 0), since formatting numbers is most of a row's cost.
    static func append(_ stats: MetricStats, to s: inout RowText) {
        let mean = NumberText.double(stats.mean)
        s.comma(); s.append(mean)
        s.comma(); s.append(stats.std == 0 ? "0" : NumberText.double(stats.std))
        s.comma(); s.append(stats.min == stats.mean ? mean : NumberText.double(stats.min))
        s.comma(); s.append(stats.max == stats.mean ? mean : stats.max == stats.min ? NumberText.double(stats.min) : NumberText.double(stats.max))
    }
}

/// partner_points.csv: summary.json's `ITEM.contacts.PARTNER` statistics as a long table,
/// `point,item,partner,mean,std,min,max`: one row per point, item and partner that some replica of
/// the point touched (statistics over the point's replicas that did not fail, 0 for those that did
/// not touch it). A pair no replica of a point touched has no row: its count there is 0.
public struct PartnerPointsCSV: Sendable {
    public static let header = "point,item,partner,mean,std,min,max"

    /// The rows of one point, newlines included, items in file order, then partners by name.
    public static func rows(_ p: PointSummary, layout: CSVLayout) -> String {
        var found: [(item: Int, partner: Substring, stats: MetricStats)] = []
        for (key, stats) in p.metrics {
            if let (i, partner) = partnerKey(key, layout: layout) { found.append((i, partner, stats)) }
        }
        found.sort { ($0.item, $0.partner) < ($1.item, $1.partner) }
        var s = RowText(capacity: found.count * 64)
        for f in found {
            s.integer(p.point); s.comma(); s.append(layout.items[f.item]); s.comma(); s.append(f.partner)
            PointsCSV.append(f.stats, to: &s)
            s.newline()
        }
        return s.string
    }
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
