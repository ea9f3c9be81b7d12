import Foundation

// A finished sweep point's rows in every per-point file, made where the point finishes: on the
// worker that ran all its replicas (most points), or on the collecting thread for a point whose
// replicas fell in two chunks. Both use `PointFormatter`, so the bytes do not depend on who made
// them (resume rebuilds them from worlds.csv and must give the same files).

/// The rows of some finished points, in point order: points.csv and partner_points.csv rows, the
/// rows of summary.json's two point tables (each row preceded by a comma), and the points the
/// report keeps.
struct PointRecords: Sendable {
    var pointsCSV: [UInt8] = []
    var partnerPointsCSV: [UInt8] = []
    var pointsJSON: [UInt8] = []
    var partnerPointsJSON: [UInt8] = []
    var kept: [PointSummary] = []
}

/// Makes each finished point's rows. With one replica per point it writes no rows at all: each
/// point is one world, which worlds.csv and partners.csv already hold (docs/data.md).
struct PointFormatter: Sendable {
    let layout: CSVLayout
    let table: PointsCSV
    /// Whether the per-point files are written: whole runs (a shard leaves them to merge) of more
    /// than one replica per point.
    let writesTables: Bool
    /// Points with `point % keepStride == 0` are kept for the report.
    let keepStride: Int

    init(layout: CSVLayout, replicas: Int, writesTables: Bool, keepStride: Int) {
        self.layout = layout
        table = PointsCSV(layout: layout)
        self.writesTables = writesTables && replicas > 1
        self.keepStride = keepStride
    }

    /// Whether a finished point needs its statistics at all (for the files or the report).
    func needsSummary(ofPoint point: Int) -> Bool { writesTables || point % keepStride == 0 }

    func add(_ p: PointSummary, to records: inout PointRecords) {
        if p.point % keepStride == 0 { records.kept.append(p) }
        guard writesTables else { return }
        var csv = RowText(bytes: records.pointsCSV), json = JSONOutput(bytes: records.pointsJSON)
        records.pointsCSV = []; records.pointsJSON = []
        // points.csv: point, parameters, replicas, failed_replicas, then per metric mean, std, min, max
        // (and count, never for a metric worlds can lack: PointsCSV.header).
        // summary.json's row: the same, with each metric's count first (PointTable.columns).
        csv.integer(p.point); json.raw(",["); json.integer(p.point)
        for v in p.parameters {
            let text = NumberText.double(v)
            csv.comma(); csv.append(text); json.raw(","); json.append(text)
        }
        csv.comma(); csv.integer(p.replicas); csv.comma(); csv.integer(p.failedReplicas)
        json.raw(","); json.integer(p.replicas); json.raw(","); json.integer(p.failedReplicas)
        let worlds = p.replicas - p.failedReplicas
        for (metric, counted) in zip(table.metrics, table.counted) {
            let stats = p.metrics[metric]
            if let stats {
                Self.append(stats, csv: &csv, json: &json)
            } else {
                csv.comma(); csv.comma(); csv.comma(); csv.comma()
                json.raw(",0,null,null,null,null")
            }
            // A metric worlds can lack: how many have it, and the share of working worlds that
            // never got there (blank when every world failed: nothing can be said).
            if counted {
                let n = stats?.count ?? 0
                csv.comma(); csv.integer(n)
                csv.comma(); if worlds > 0 { csv.append(NumberText.double(Double(worlds - n) / Double(worlds))) }
            }
        }
        csv.newline(); json.raw("]")
        records.pointsCSV = csv.bytes; records.pointsJSON = json.bytes
        addPartners(p, to: &records)
    }

    /// partner_points.csv's rows of one point (items in file order, then partners by name), and the
    /// same rows in summary.json's partner table.
    private func addPartners(_ p: PointSummary, to records: inout PointRecords) {
        var found: [(item: Int, partner: Substring, stats: MetricStats)] = []
        for (key, stats) in p.metrics {
            if let (i, partner) = PartnerPointsCSV.partnerKey(key, layout: layout) { found.append((i, partner, stats)) }
        }
        guard !found.isEmpty else { return }
        found.sort { ($0.item, $0.partner) < ($1.item, $1.partner) }
        var csv = RowText(bytes: records.partnerPointsCSV), json = JSONOutput(bytes: records.partnerPointsJSON)
        records.partnerPointsCSV = []; records.partnerPointsJSON = []
        for f in found {
            csv.integer(p.point); csv.comma(); csv.append(layout.items[f.item]); csv.comma(); csv.append(f.partner)
            json.raw(",["); json.integer(p.point); json.raw(","); json.string(utf8: layout.items[f.item].utf8)
            json.raw(","); json.string(utf8: f.partner.utf8)
            Self.append(f.stats, csv: &csv, json: &json)
            csv.newline(); json.raw("]")
        }
        records.partnerPointsCSV = csv.bytes; records.partnerPointsJSON = json.bytes
    }

    /// Four CSV cells (mean, std, min, max) and five JSON ones (count first); each number is
    /// formatted once and a value equal to one already written reuses its text (formatting numbers
    /// is most of a row's cost).
    static func append(_ stats: MetricStats, csv: inout RowText, json: inout JSONOutput) {
        let mean = text(stats.mean)
        let std = stats.std == 0 ? "0" : text(stats.std)
        let min = stats.min == stats.mean ? mean : text(stats.min)
        let max = stats.max == stats.mean ? mean : stats.max == stats.min ? min : text(stats.max)
        json.raw(","); json.integer(stats.count)
        for cell in [mean, std, min, max] {
            csv.comma(); csv.append(cell)
            json.raw(","); if cell.isEmpty { json.raw("null") } else { json.append(cell) }
        }
    }

    /// A statistic's text; empty (a blank cell, JSON null) when it overflowed to a non-finite number.
    static func text(_ x: Double) -> String { x.isFinite ? NumberText.double(x) : "" }
}

/// summary.json's per-point tables: their column names, and reading them back into points.
/// `{"columns": [...], "data": [[...], ...]}`, pandas' "split" layout
/// (`pd.DataFrame(**summary["points"])`): the names once, a row of values per point.
enum PointTable {
    /// Each metric's statistics in summary.json, in column order.
    static let statistics = PointTableColumns.statistics
    static let partnerColumns = PointTableColumns.partnerColumns

    static func columns(layout: CSVLayout) -> [String] {
        ["point"] + layout.parameters + ["replicas", "failedReplicas"]
            + layout.metricColumns.flatMap { m in statistics.map { "\(m).\($0)" } }
    }
}

/// The four per-point files of a whole run as points finish, under temporary names until the run
/// is whole: points.csv and partner_points.csv (`.tmp`), and summary.json's two tables (their rows
/// only; `SweepRun.writeSummary` wraps them). Writes are buffered: one `write` per megabyte, not
/// one per point.
final class PointFiles {
    let directory: String
    private let files: [BufferedFile]
    /// Whether each JSON table has a row yet (rows come with a leading comma, dropped from the first).
    private var jsonStarted = [false, false]

    static let pointsJSONName = "summary.points.tmp"
    static let partnerPointsJSONName = "summary.partners.tmp"
    var names: [String] {
        ["\(SweepRun.pointsTableName).tmp", "\(SweepRun.partnerPointsTableName).tmp", Self.pointsJSONName, Self.partnerPointsJSONName]
    }

    init(directory: String, layout: CSVLayout) throws {
        self.directory = directory
        let names = ["\(SweepRun.pointsTableName).tmp", "\(SweepRun.partnerPointsTableName).tmp", Self.pointsJSONName, Self.partnerPointsJSONName]
        files = try names.map { try BufferedFile(path: "\(directory)/\($0)") }
        try files[0].append(Array((PointsCSV(layout: layout).header + "\n").utf8))
        try files[1].append(Array((PartnerPointsCSV.header + "\n").utf8))
    }

    func append(_ r: PointRecords) throws {
        if !r.pointsCSV.isEmpty { try files[0].append(r.pointsCSV) }
        if !r.partnerPointsCSV.isEmpty { try files[1].append(r.partnerPointsCSV) }
        for (k, bytes) in [(0, r.pointsJSON), (1, r.partnerPointsJSON)] where !bytes.isEmpty {
            try files[2 + k].append(jsonStarted[k] ? bytes[...] : bytes.dropFirst())
            jsonStarted[k] = true
        }
    }

    /// Flushes and closes every file; renames the CSV tables into place (the JSON rows stay for
    /// `writeSummary`).
    func finish() throws {
        for f in files { try f.flush(); try f.file.sync(); f.file.close() }
        for name in [SweepRun.pointsTableName, SweepRun.partnerPointsTableName] {
            let p = "\(directory)/\(name)"
            guard rename(p + ".tmp", p) == 0 else { throw RunFileError("cannot rename \(p).tmp to \(p)") }
        }
    }

    /// Drops the unfinished files (an interrupted run rebuilds them on --resume).
    func discard() {
        for (f, name) in zip(files, names) {
            f.file.close()
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}

/// An AppendFile behind a buffer: bytes reach the file a megabyte at a time.
final class BufferedFile {
    let file: AppendFile
    private var buffer: [UInt8] = []
    static let capacity = 1 << 20

    init(path: String) throws {
        file = try AppendFile(path: path, truncate: true)
        buffer.reserveCapacity(Self.capacity)
    }

    func append(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.append(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
