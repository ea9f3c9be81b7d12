import Foundation

/// points.csv: summary.json's points as one flat table for pandas, polars or a spreadsheet. One
/// row per sweep point: `point`, the swept parameters (as worlds.csv writes them), `replicas`,
/// `failed_replicas`, then `METRIC.mean`, `METRIC.std`, `METRIC.min`, `METRIC.max` for every
/// worlds.csv metric and every `ITEM.contacts.PARTNER` of partners.csv, item by item.
public struct PointsCSV: Sendable {
    public static let statistics = ["mean", "std", "min", "max"]
    public let layout: CSVLayout
    /// summary.json's key of every metric column, in column order, and whether it is a partner's
    /// count (0 when no replica touched it); made once, not per row (this runs on the thread that
    /// collects results, once per point).
    private let columns: [(key: String, isPartner: Bool)]

    public init(layout: CSVLayout) {
        self.layout = layout
        columns = layout.items.indices.flatMap { i in
            layout.columns(ofItem: i).map { ("\(layout.items[i]).\($0)", false) }
                + layout.partners[i].map { ("\(layout.items[i]).contacts.\($0)", true) }
        }
    }

    /// The metric names, in column order: per item, worlds.csv's columns, then its partners'.
    public var metrics: [String] { columns.map(\.key) }

    public var header: String {
        (["point"] + layout.parameters + ["replicas", "failed_replicas"]
            + metrics.flatMap { m in Self.statistics.map { "\(m).\($0)" } }).joined(separator: ",")
    }

    /// One line, newline included. A metric no replica had (no third bounce, never at rest) leaves
    /// its four cells empty; a partner no replica touched is 0 throughout, as partners.csv counts it.
    public func row(_ p: PointSummary) -> String {
        var s = "\(p.point)"
        for v in p.parameters { s += ","; s += NumberText.double(v) }
        s += ",\(p.replicas),\(p.failedReplicas)"
        let anyOK = p.failedReplicas < p.replicas
        for column in columns {
            if let stats = p.metrics[column.key] {
                Self.append(stats, to: &s)
            } else {
                s += column.isPartner && anyOK ? ",0,0,0,0" : ",,,,"
            }
        }
        s += "\n"
        return s
    }

    /// Four cells; a value equal to one already written reuses its text (one replica: min = mean =
    /// max and std = 0), since formatting numbers is most of a row's cost.
    private static func append(_ stats: MetricStats, to s: inout String) {
        let mean = NumberText.double(stats.mean)
        s += ","; s += mean
        s += ","; s += stats.std == 0 ? "0" : NumberText.double(stats.std)
        s += ","; s += stats.min == stats.mean ? mean : NumberText.double(stats.min)
        s += ","; s += stats.max == stats.mean ? mean : stats.max == stats.min ? NumberText.double(stats.min) : NumberText.double(stats.max)
    }
}

/// points.csv written as points complete, under `points.csv.tmp` until the run is whole: a
/// points.csv is never half a run.
final class PointsCSVFile {
    let table: PointsCSV
    let path: String
    private let file: AppendFile

    init(layout: CSVLayout, path: String) throws {
        table = PointsCSV(layout: layout)
        self.path = path
        file = try AppendFile(path: path + ".tmp", truncate: true)
        try file.append(table.header + "\n")
    }

    func append(_ point: PointSummary) throws { try file.append(table.row(point)) }

    /// Syncs and renames the table into place.
    func finish() throws {
        try file.sync()
        file.close()
        guard rename(path + ".tmp", path) == 0 else { throw RunFileError("cannot rename \(path).tmp to \(path)") }
    }

    /// Drops the unfinished table (an interrupted run rebuilds it on --resume).
    func discard() {
        file.close()
        try? FileManager.default.removeItem(atPath: path + ".tmp")
    }
}
