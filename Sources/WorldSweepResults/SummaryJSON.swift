import Foundation

// summary.json's layout: the sweep-level summary keyed by name, and the per-point statistics as
// two tables of columns and rows (PointTable), or `null` with one replica per point, where each
// point is one world and worlds.csv is the per-point table (docs/data.md): a point as an object
// with each metric's five statistics spelled out by key would be many times worlds.csv's size.
// Here, beside SweepSummary's declaration: a
// conformance's own coding must live in the module that declares the conformance.

/// summary.json's per-point table columns that do not depend on the sweep (WorldSweepRun's
/// `PointTable` adds the sweep's own).
public enum PointTableColumns {
    /// Each metric's statistics, in column order.
    public static let statistics = ["count", "mean", "std", "min", "max"]
    public static let partnerColumns = ["point", "item", "partner"] + statistics
}

extension SweepSummary {
    enum CodingKeys: String, CodingKey {
        case name, description, parameters, items, partners, sweepKind, replicas, points, run, writtenMetrics
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), description: try c.decode(String.self, forKey: .description),
                  parameters: try c.decode([String].self, forKey: .parameters), items: try c.decode([String].self, forKey: .items),
                  partners: try c.decode([String: [String]].self, forKey: .partners),
                  sweepKind: try c.decode(String.self, forKey: .sweepKind), replicas: try c.decode(Int.self, forKey: .replicas),
                  points: [], run: try c.decode(RunInfo.self, forKey: .run))
        writtenMetrics = try c.decodeIfPresent([MetricDeclaration].self, forKey: .writtenMetrics) ?? []
        if let tables = try c.decodeIfPresent(PointTables.self, forKey: .points) {
            points = try tables.points(parameterCount: parameters.count)
        }
    }

    /// `points` as the two tables (null when there are none: a one-replica run keeps them in worlds.csv).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name); try c.encode(description, forKey: .description)
        try c.encode(parameters, forKey: .parameters); try c.encode(items, forKey: .items)
        try c.encode(partners, forKey: .partners); try c.encode(sweepKind, forKey: .sweepKind)
        try c.encode(replicas, forKey: .replicas); try c.encode(run, forKey: .run)
        // Only a file that writes metrics has the key: other runs' summary.json stays as it was.
        if !writtenMetrics.isEmpty { try c.encode(writtenMetrics, forKey: .writtenMetrics) }
        if points.isEmpty { try c.encodeNil(forKey: .points) } else { try c.encode(PointTables(points, parameters: parameters), forKey: .points) }
    }
}

/// One cell of a point table: a number, a name, or null (a statistic no replica had).
enum PointCell: Codable, Equatable {
    case number(Double), text(String), null

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let v = try? c.decode(Double.self) { self = .number(v) } else { self = .text(try c.decode(String.self)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v): try c.encode(v)
        case .text(let s): try c.encode(s)
        case .null: try c.encodeNil()
        }
    }

    var number: Double? { if case .number(let v) = self { return v } else { return nil } }
    var text: String? { if case .text(let s) = self { return s } else { return nil } }
}

/// summary.json's `points`: `{"columns", "data", "partners": {"columns", "data"}}`.
struct PointTables: Codable {
    struct Table: Codable {
        var columns: [String]
        var data: [[PointCell]]
    }
    var columns: [String]
    var data: [[PointCell]]
    var partners: Table

    /// The tables of points in memory (tests, fixtures): metric columns in key order.
    init(_ points: [PointSummary], parameters: [String]) {
        var metricKeys = Set<String>(), partnerKeys = Set<String>()
        for p in points { for key in p.metrics.keys { if key.split(separator: ".").count == 3 { partnerKeys.insert(key) } else { metricKeys.insert(key) } } }
        let metrics = metricKeys.sorted()
        columns = ["point"] + parameters + ["replicas", "failedReplicas"] + metrics.flatMap { m in PointTableColumns.statistics.map { "\(m).\($0)" } }
        func cells(_ s: MetricStats?) -> [PointCell] {
            guard let s else { return [.number(0), .null, .null, .null, .null] }
            return [.number(Double(s.count)), .number(s.mean), .number(s.std), .number(s.min), .number(s.max)]
        }
        data = points.map { p in
            [.number(Double(p.point))] + p.parameters.map { .number($0) } + [.number(Double(p.replicas)), .number(Double(p.failedReplicas))]
                + metrics.flatMap { cells(p.metrics[$0]) }
        }
        var partnerRows: [[PointCell]] = []
        for p in points {
            for key in p.metrics.keys.filter(partnerKeys.contains).sorted() {
                let parts = key.split(separator: ".")
                partnerRows.append([.number(Double(p.point)), .text(String(parts[0])), .text(String(parts[2]))] + cells(p.metrics[key]))
            }
        }
        partners = Table(columns: PointTableColumns.partnerColumns, data: partnerRows)
    }

    /// The points the tables hold, read by column name.
    func points(parameterCount: Int) throws -> [PointSummary] {
        func bad(_ why: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "summary.json points: \(why)"))
        }
        guard columns.count >= 3 + parameterCount, columns[0] == "point",
              columns[1 + parameterCount] == "replicas", columns[2 + parameterCount] == "failedReplicas" else {
            throw bad("the columns are not point, the parameters, replicas, failedReplicas, then the metrics")
        }
        // Metric columns `METRIC.STATISTIC`, grouped by metric.
        var metricColumns: [(key: String, columns: [Int])] = []
        var index: [String: Int] = [:]
        for (k, name) in columns.enumerated().dropFirst(3 + parameterCount) {
            guard let dot = name.lastIndex(of: "."), let s = PointTableColumns.statistics.firstIndex(of: String(name[name.index(after: dot)...])) else {
                throw bad("column \(name) is not METRIC.count, .mean, .std, .min or .max")
            }
            let key = String(name[..<dot])
            if index[key] == nil { index[key] = metricColumns.count; metricColumns.append((key, Array(repeating: -1, count: 5))) }
            metricColumns[index[key]!].columns[s] = k
        }
        func stats(_ row: [PointCell], _ cols: [Int]) -> MetricStats? {
            guard cols.allSatisfy({ $0 >= 0 && $0 < row.count }), let n = row[cols[0]].number, n > 0,
                  let mean = row[cols[1]].number, let std = row[cols[2]].number, let lo = row[cols[3]].number, let hi = row[cols[4]].number else { return nil }
            return MetricStats(count: Int(n), mean: mean, std: std, min: lo, max: hi)
        }
        guard partners.columns == PointTableColumns.partnerColumns else { throw bad("the partner table's columns are not \(PointTableColumns.partnerColumns)") }
        // One table of names for every point: the metric columns, then each partner key seen.
        var partnerKeys: [String] = [], seen = Set<String>()
        for row in partners.data where row.count == partners.columns.count {
            if let item = row[1].text, let partner = row[2].text, seen.insert("\(item).contacts.\(partner)").inserted {
                partnerKeys.append("\(item).contacts.\(partner)")
            }
        }
        let names = MetricNames(metricColumns.map(\.key) + partnerKeys.filter { index[$0] == nil })
        var points: [PointSummary] = []
        var byPoint: [Int: Int] = [:]
        for row in data {
            guard row.count == columns.count, let point = row[0].number, let replicas = row[1 + parameterCount].number,
                  let failed = row[2 + parameterCount].number else { throw bad("a row does not match the columns") }
            var slots = [MetricStats?](repeating: nil, count: names.names.count)
            for (k, m) in metricColumns.enumerated() { slots[k] = stats(row, m.columns) }
            byPoint[Int(point)] = points.count
            points.append(PointSummary(point: Int(point), parameters: row[1..<(1 + parameterCount)].map { $0.number ?? .nan },
                                       replicas: Int(replicas), failedReplicas: Int(failed),
                                       metrics: PointMetrics(names: names, slots: slots)))
        }
        for row in partners.data {
            guard row.count == partners.columns.count, let point = row[0].number, let item = row[1].text, let partner = row[2].text,
                  let at = byPoint[Int(point)], let s = stats(row, Array(3..<8)) else { throw bad("a partner row does not match the columns") }
            points[at].metrics["\(item).contacts.\(partner)"] = s
        }
        return points
    }
}
