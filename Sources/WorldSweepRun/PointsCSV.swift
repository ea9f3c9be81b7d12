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
        var s = "\(p.point)"
        for v in p.parameters { s += ","; s += NumberText.double(v) }
        s += ",\(p.replicas),\(p.failedReplicas)"
        for metric in metrics {
            if let stats = p.metrics[metric] { Self.append(stats, to: &s) } else { s += ",,,," }
        }
        s += "\n"
        return s
    }

    /// Four cells; a value equal to one already written reuses its text (one replica: min = mean =
    /// max and std = 0), since formatting numbers is most of a row's cost.
    static func append(_ stats: MetricStats, to s: inout String) {
        let mean = NumberText.double(stats.mean)
        s += ","; s += mean
        s += ","; s += stats.std == 0 ? "0" : NumberText.double(stats.std)
        s += ","; s += stats.min == stats.mean ? mean : NumberText.double(stats.min)
        s += ","; s += stats.max == stats.mean ? mean : stats.max == stats.min ? NumberText.double(stats.min) : NumberText.double(stats.max)
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
        // Keys are `ITEM.contacts.PARTNER`; names are letters, digits, '_' and '-', never a dot.
        var found: [(item: Int, partner: Substring, stats: MetricStats)] = []
        for (key, stats) in p.metrics {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1] == "contacts", let i = layout.itemIndex[String(parts[0])] else { continue }
            found.append((i, parts[2], stats))
        }
        found.sort { ($0.item, $0.partner) < ($1.item, $1.partner) }
        var s = ""
        for f in found {
            s += "\(p.point),\(layout.items[f.item]),\(f.partner)"
            PointsCSV.append(f.stats, to: &s)
            s += "\n"
        }
        return s
    }
}

/// points.csv and partner_points.csv written as points complete, under `.tmp` names until the run
/// is whole: neither is ever half a run.
final class PointsCSVFile {
    let table: PointsCSV
    let path: String
    let partnerPath: String
    private let file: AppendFile
    private let partnerFile: AppendFile

    /// `path`: points.csv; partner_points.csv goes beside it.
    init(layout: CSVLayout, path: String) throws {
        table = PointsCSV(layout: layout)
        self.path = path
        partnerPath = (path as NSString).deletingLastPathComponent + "/" + SweepRun.partnerPointsTableName
        file = try AppendFile(path: path + ".tmp", truncate: true)
        try file.append(table.header + "\n")
        partnerFile = try AppendFile(path: partnerPath + ".tmp", truncate: true)
        try partnerFile.append(PartnerPointsCSV.header + "\n")
    }

    func append(_ point: PointSummary) throws {
        try file.append(table.row(point))
        let rows = PartnerPointsCSV.rows(point, layout: table.layout)
        if !rows.isEmpty { try partnerFile.append(rows) }
    }

    /// Syncs and renames the tables into place.
    func finish() throws {
        for (f, p) in [(file, path), (partnerFile, partnerPath)] {
            try f.sync()
            f.close()
            guard rename(p + ".tmp", p) == 0 else { throw RunFileError("cannot rename \(p).tmp to \(p)") }
        }
    }

    /// Drops the unfinished tables (an interrupted run rebuilds them on --resume).
    func discard() {
        for (f, p) in [(file, path), (partnerFile, partnerPath)] {
            f.close()
            try? FileManager.default.removeItem(atPath: p + ".tmp")
        }
    }
}
