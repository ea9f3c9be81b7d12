import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
@testable import WorldSweepResults

/// summary.json's point tables, written by hand (PointFormatter) on the workers, must read back
/// to exactly the points they were made from, whatever the numbers, and points.csv's cells must
/// be the same numbers.
struct PointTableTests {
    /// Doubles whose text is awkward: integral, −0, exponent forms both ways, the extremes, the
    /// first integer a Double cannot hold.
    static let awkwardNumbers: [Double] = [
        0, -0.0, 1, -1, 1.5, 0.1, 100, -25_000_000_000, 1e15, 1e16, 4e15, 1.2345678901234568e17, 1e21,
        1e-7, 2.5e-5, 3e-4, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.30000000000000004,
        9_007_199_254_740_994,
    ]

    static func value(_ g: inout SeededNumbers) -> Double {
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return awkwardNumbers.randomElement(using: &g)!
        case 1: return Double(Float(Double.random(in: -1000...1000, using: &g)))
        case 2: return Double(Int.random(in: -5...600, using: &g))
        default:
            while true {
                let d = Double(bitPattern: g.next())
                if d.isFinite { return d }
            }
        }
    }

    static let layout = CSVLayout(parameters: ["p.x", "q.y"], items: ["a", "b"])

    /// Random points over the layout's metrics (some absent) and partners, one or one-replica-alike.
    static func points(_ g: inout SeededNumbers, count: Int) -> [PointSummary] {
        (0..<count).map { k in
            var metrics: [String: MetricStats] = [:]
            for key in layout.metricColumns where Int.random(in: 0..<4, using: &g) > 0 {
                let same = Bool.random(using: &g)
                let mean = value(&g)
                metrics[key] = same ? MetricStats(count: 1, mean: mean, std: 0, min: mean, max: mean)
                    : MetricStats(count: Int.random(in: 1...50, using: &g), mean: mean, std: value(&g), min: value(&g), max: value(&g))
            }
            for partner in ["bounds", "b", "wall-2"] where Bool.random(using: &g) {
                metrics["a.contacts.\(partner)"] = MetricStats(count: 3, mean: value(&g), std: value(&g), min: 0, max: value(&g))
            }
            return PointSummary(point: k, parameters: [value(&g), value(&g)], replicas: 7, failedReplicas: Int.random(in: 0...2, using: &g),
                                metrics: metrics)
        }
    }

    static func json(_ r: PointRecords) -> Data {
        func table(_ columns: [String], _ rows: [UInt8]) -> String {
            let body = String(decoding: rows.dropFirst(), as: UTF8.self)   // rows come with a leading comma
            return "{\"columns\":" + String(decoding: try! JSONEncoder().encode(columns), as: UTF8.self) + ",\"data\":[" + body + "]"
        }
        return Data((table(PointTable.columns(layout: layout), r.pointsJSON) + ",\"partners\":"
                     + table(PointTable.partnerColumns, r.partnerPointsJSON) + "}}").utf8)
    }

    @Test func tablesReadBackToThePointsTheyWereMadeFrom() throws {
        var g = SeededNumbers(2029)
        let formatter = PointFormatter(layout: Self.layout, replicas: 7, writesTables: true, keepStride: 1)
        let points = Self.points(&g, count: 300)
        var records = PointRecords()
        for p in points { formatter.add(p, to: &records) }
        let back = try JSONDecoder().decode(PointTables.self, from: Self.json(records)).points(parameterCount: 2)
        #expect(back.count == points.count)
        for (a, b) in zip(points, back) where a != b {
            Issue.record("point \(a.point) reads back as \(b)")
            return
        }
        #expect(records.kept == points)
        // points.csv's rows: the same numbers (mean, std, min, max per metric).
        let rows = String(decoding: records.pointsCSV, as: UTF8.self).split(separator: "\n")
        let header = PointsCSV(layout: Self.layout).header.split(separator: ",").map(String.init)
        #expect(rows.count == points.count)
        for (row, p) in zip(rows, points) {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.count == header.count)
            for metric in Self.layout.metricColumns {
                let texts = ["mean", "std", "min", "max"].map { cells[header.firstIndex(of: "\(metric).\($0)")!] }
                let expected = p.metrics[metric].map { [$0.mean, $0.std, $0.min, $0.max] }
                #expect(expected == (texts.allSatisfy(\.isEmpty) ? nil : texts.map { Double($0)! }), "\(metric)")
            }
        }
    }

    /// With one replica per point, nothing is written (worlds.csv is the per-point table), but
    /// the report's points are still kept.
    @Test func oneReplicaWritesNoRowsButKeepsTheReportsPoints() {
        var g = SeededNumbers(5)
        let formatter = PointFormatter(layout: Self.layout, replicas: 1, writesTables: true, keepStride: 2)
        var records = PointRecords()
        let points = Self.points(&g, count: 10)
        for p in points { formatter.add(p, to: &records) }
        #expect(records.pointsCSV.isEmpty && records.pointsJSON.isEmpty && records.partnerPointsCSV.isEmpty && records.partnerPointsJSON.isEmpty)
        #expect(records.kept.map(\.point) == [0, 2, 4, 6, 8])
    }

    /// The summary's own encoding (fixtures, tests) reads back too, with and without points.
    @Test func aSummaryInMemoryRoundTrips() throws {
        var g = SeededNumbers(11)
        let run = RunInfo(engine: "e", threads: 1, worlds: 40, ticksPerWorld: 3, wallSeconds: 1, worldTicksPerSecond: 120)
        var s = SweepSummary(name: "n", description: "d", parameters: ["p.x", "q.y"], items: ["a", "b"], partners: [:],
                             sweepKind: "grid", replicas: 7, points: Self.points(&g, count: 5), run: run)
        #expect(try JSONDecoder().decode(SweepSummary.self, from: JSONText.encode(s)) == s)
        s.points = []
        let text = String(decoding: try JSONText.encode(s), as: UTF8.self)
        #expect(text.contains("\"points\":null"))
        #expect(try JSONDecoder().decode(SweepSummary.self, from: Data(text.utf8)) == s)
    }
}
