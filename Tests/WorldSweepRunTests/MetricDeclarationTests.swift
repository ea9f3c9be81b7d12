import Foundation
import Testing
import TestScratch
@testable import WorldSweepRun
@testable import WorldSweepScene

/// Every output and the tune parser take their metric list from the declarations
/// (`MetricDeclaration.builtIn`), and docs/data.md's metric table is the declarations' table.
@Suite struct MetricDeclarationTests {
    /// A sweep with a snapped item (a rest target: the spring metrics) beside a plain one, two
    /// replicas a point so points.csv and summary.json's point table are written.
    static let sweep = """
        name: declared
        world: {bounds: [320, 568], ticks: 30}
        items:
          box: {center: [160, 500], size: [40, 40]}
          card: {center: [60, 100], size: [40, 40]}
        behaviors:
          fall: {type: gravity, items: [box]}
          walls: {type: collision, items: [box], reference_bounds: true}
          stuff: {type: item, items: [box], elasticity: 0.5}
          snap: {type: snap, items: [card], point: [100, 100]}
        sweep:
          parameters:
            stuff.elasticity: {values: [0.2, 0.6]}
          replicas: 2
          jitter: {box.center.x: 1}
        """

    static let names = MetricDeclaration.builtIn.map(\.name)

    @Test func declarationsAreUniqueAndComplete() {
        #expect(Set(Self.names).count == Self.names.count)
        // Every `metrics:` entry records some metric, and every metric belongs to one.
        let groups = MetricGroup.all.map(\.name)
        #expect(Set(MetricDeclaration.builtIn.map(\.group)) == Set(groups))
        #expect(SceneFile.allMetrics == groups)
        // A censored time has a never-share; a metric a world cannot lack has no lacking words.
        for d in MetricDeclaration.builtIn {
            #expect((d.kind == .time) == (d.censoring.neverKey != nil), "\(d.name)")
            #expect((d.censoring == .none) == (d.censoring.lacking == nil), "\(d.name)")
            #expect(!d.meaning.isEmpty && !d.accumulation.isEmpty && !d.unit.isEmpty, "\(d.name)")
            if let never = d.censoring.neverKey { #expect(MetricDeclaration.counted(byNever: never) == d) }
        }
    }

    @Test func worldsCSVAndPointsCSVAndSummaryJSONListTheDeclaredMetrics() throws {
        let dir = tempDir()
        let path = writeScene(Self.sweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let contract = MetricDeclaration.builtIn.filter { !$0.needsRestTarget }.map(\.name)
        let expected = contract.map { "box.\($0)" } + Self.names.map { "card.\($0)" }
        // worlds.csv: the box has the contract's columns, the snapped card every declared metric.
        let header = String(decoding: bytes("\(dir)/out/worlds.csv"), as: UTF8.self).split(separator: "\n")[0]
            .split(separator: ",").map(String.init)
        #expect(Array(header.dropFirst(4)) == expected)
        // points.csv: four statistics per metric, and a count and never-share for each censored one.
        let points = String(decoding: bytes("\(dir)/out/points.csv"), as: UTF8.self).split(separator: "\n")[0]
            .split(separator: ",").map(String.init)
        let counted = Dictionary(uniqueKeysWithValues: MetricDeclaration.builtIn.map { ($0.name, $0.isCounted) })
        let statistics = expected.flatMap { column in
            (["mean", "std", "min", "max"] + (counted[String(column.split(separator: ".")[1])]! ? ["count", "never"] : []))
                .map { "\(column).\($0)" }
        }
        #expect(Array(points.dropFirst(4)) == statistics)
        // summary.json's point table: a count and the four statistics per metric, then nothing else.
        let json = try JSONSerialization.jsonObject(with: Data(bytes("\(dir)/out/summary.json"))) as! [String: Any]
        let columns = ((json["points"] as! [String: Any])["columns"] as! [String]).dropFirst(4)
        #expect(Array(columns) == expected.flatMap { c in ["count", "mean", "std", "min", "max"].map { "\(c).\($0)" } })
    }

    @Test func theTuneParserNamesTheTunableDeclarations() {
        #expect(TuneParser.metricColumns == MetricDeclaration.builtIn.filter(\.isTunable).map(\.name))
    }

    @Test func aWorldsValuesFoldInColumnOrder() {
        // PointAccumulator reads each value through its declaration: the k-th value is column k's.
        let layout = CSVLayout(parameters: [], items: ["a"], springItems: [true])
        let item = ItemResult(contacts: 3, bounceHeights: [5, 2], restTime: 1.5, x: 1, y: 2, angle: 3, vx: 4, vy: 5,
                              angularVelocity: 6, spring: SpringResult(overshoot: 7, settleTime: 0.25, oscillations: 2))
        var seen: [String: Double] = [:]
        PointAccumulator.forEachValue(of: item, item: 0, layout: layout) { c, v in seen[layout.columns(ofItem: 0)[c]] = v }
        #expect(seen == ["contacts": 3, "bounces": 2, "bounce1": 5, "bounce2": 2, "rest_time": 1.5, "x": 1, "y": 2, "angle": 3,
                         "vx": 4, "vy": 5, "angular_velocity": 6, "overshoot": 7, "settle_time": 0.25, "oscillations": 2])
        // worlds.csv writes the same values in the same columns and reads them back.
        let row = WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: [item])
        #expect(layout.row(row) == "0,0,0,3,2,5,2,,,,,,,1.5,1,2,3,4,5,6,7,0.25,2\n")
        #expect(layout.parseRow(layout.row(row).dropLast()) == row)
    }

    /// docs/data.md's metric table, as the declarations make it.
    static var documentedTable: String {
        var lines = ["| column | unit | kind | a world without it | points fold | `tune` | report | accumulated | what it is |",
                     "|---|---|---|---|---|---|---|---|---|"]
        for d in MetricDeclaration.builtIn {
            let without: String
            switch d.censoring {
            case .none: without = "—"
            case .zero(let lacking): without = "empty (\(lacking)); the report counts 0"
            case .empty(let lacking): without = "empty (\(lacking)); left out of the point's statistics"
            case .runLength(let never, let lacking):
                without = "empty (\(lacking)); the report counts the run's length, `ITEM.\(never)` the share"
            }
            let report = d.view.map { v in "key view \"\(v.title)\"" + (v.headline != nil ? ", may lead the page" : "") } ?? "tables, importance"
            let item = d.needsRestTarget ? " (items with a rest target)" : ""
            lines.append("| `ITEM.\(d.name)`\(item) | \(d.unit) | \(d.kind.rawValue) | \(without) | "
                         + (d.isCounted ? "over the worlds with a value" : "over every world") + " | "
                         + (d.isTunable ? "yes" : "no") + " | \(report) | \(d.accumulation) | \(d.meaning) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Checks the table; with `WORLDSWEEP_UPDATE_DOCS=1` in the environment it writes it instead.
    @Test func docsDataTableIsTheDeclarations() throws {
        let path = Repository.path("docs/data.md")
        let doc = String(decoding: bytes(path), as: UTF8.self)
        let start = "<!-- metrics: MetricDeclaration.builtIn -->\n", end = "<!-- end metrics -->"
        let from = try #require(doc.range(of: start), "docs/data.md has no metric table marker")
        let to = try #require(doc.range(of: end, range: from.upperBound..<doc.endIndex))
        let documented = String(doc[from.upperBound..<to.lowerBound])
        let expected = Self.documentedTable + "\n"
        if ProcessInfo.processInfo.environment["WORLDSWEEP_UPDATE_DOCS"] == "1" {
            try (doc[..<from.upperBound] + expected + doc[to.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(documented == expected, "docs/data.md's metric table differs (WORLDSWEEP_UPDATE_DOCS=1 swift test rewrites it)")
    }
}
