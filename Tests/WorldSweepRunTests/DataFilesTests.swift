import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// One box pushed sideways at seven magnitudes written as a range: 0, 0.1, … 0.6, where binary
/// arithmetic makes 0.30000000000000004, 0.6000000000000001 and 0.7000000000000001.
private let decimalSweep = """
    name: decimals
    world: {bounds: [320, 568], ticks: 30}
    items:
      box: {center: [160, 500], size: [40, 40]}
    behaviors:
      fall: {type: gravity, items: [box]}
      walls: {type: collision, items: [box], reference_bounds: true}
      shove: {type: push, items: [box], mode: continuous, magnitude: 0, angle: 0}
    sweep:
      parameters:
        shove.magnitude: {range: [0, 0.6, 0.1]}
      replicas: 2
      seed: 1
      jitter: {box.center.x: 1}
    """

@Suite struct DataFilesTests {
    @Test func partnersFollowTheCollisionRule() throws {
        let scene = try SceneFile.parse(yaml: """
            name: partners
            world: {bounds: [320, 568], ticks: 1}
            items:
              a: {center: [50, 50], size: [10, 10]}
              b: {center: [100, 50], size: [10, 10]}
              c: {center: [150, 50], size: [10, 10]}
            behaviors:
              together: {type: collision, items: [a, b], mode: items, reference_bounds: true}
              walls:
                type: collision
                items: [b, c]
                mode: boundaries
                reference_bounds: true
                boundaries: {floor: {from: [0, 500], to: [320, 500]}}
            """, path: "partners.yaml")
        // a meets b (mode items: no boundaries, not even the bounds); b also meets walls'
        // boundaries; c meets only those (mode boundaries: not b). Nobody meets itself.
        let rule = CSVLayout(scene: scene).partners
        let touching: Set<String> = ["a-b", "b-a", "b-bounds", "b-floor", "c-bounds", "c-floor"]
        for item in ["a", "b", "c"] {
            for partner in ["a", "b", "c", "bounds", "floor"] {
                #expect(rule.canTouch(item, partner) == touching.contains("\(item)-\(partner)"), "\(item) with \(partner)")
            }
        }
        #expect(CSVLayout(scene: scene).partnersHeader == "world,item,partner,contacts")
    }

    @Test func partnerRowsAddUpToEachItemsContacts() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let worlds = try CSVTable(path: "\(dir)/out/worlds.csv"), partners = try CSVTable(path: "\(dir)/out/partners.csv")
        #expect(partners.header == ["world", "item", "partner", "contacts"])
        // Sum of each (world, item)'s rows; every row a real contact, in the order the runner writes.
        var total: [String: Int] = [:]
        var ledge = 0
        var previous: (Int, Int, String)?
        for row in partners.rows {
            let world = Int(row[0])!, item = ["top", "bottom"].firstIndex(of: row[1])!, n = Int(row[3])!
            #expect(n > 0 && ["top", "bottom", "bounds", "ledge"].contains(row[2]) && row[1] != row[2], "\(row)")
            if let p = previous { #expect(p < (world, item, row[2]) || (p.0, p.1) < (world, item), "\(row) after \(p)") }
            previous = (world, item, row[2])
            total["\(world) \(row[1])", default: 0] += n
            if row[1] == "top" && row[2] == "ledge" { ledge += n }
        }
        for w in worlds.rows {
            for item in ["top", "bottom"] {
                let contacts = Int(w[worlds.header.firstIndex(of: "\(item).contacts")!])!
                #expect(total["\(w[0]) \(item)", default: 0] == contacts, "world \(w[0]), \(item)")
            }
        }
        // The top box lands on the ledge in every world: the rows carry real counts.
        #expect(ledge >= 12)
    }

    @Test func pointsCSVIsSummaryJSONFlat() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let summary = try JSONDecoder().decode(SweepSummary.self, from: bytes("\(dir)/out/summary.json"))
        let points = try CSVTable(path: "\(dir)/out/points.csv")
        #expect(Array(points.header.prefix(6))
                == ["point", "bouncy.elasticity", "fall.magnitude", "replicas", "failed_replicas", "top.contacts.mean"])
        #expect(points.rows.count == summary.points.count && points.rows.count == 6)
        let layout = CSVLayout(scene: try SceneFile.load(path: path))
        let metrics = PointsCSV(layout: layout).metrics
        // worlds.csv's metrics only: 17 per item, no column per partner.
        #expect(metrics == layout.metricColumns && metrics.count == 2 * 17)
        // Per item, the 8 bounce heights and the rest time can be missing: a count and a never-share each.
        let counted = metrics.filter(PointsCSV.canBeMissing)
        #expect(counted.count == 2 * 9 && !counted.contains { $0.hasSuffix(".bounces") })
        #expect(points.header.count == 5 + 4 * metrics.count + 2 * counted.count)
        for (row, point) in zip(points.rows, summary.points) {
            #expect(Int(row[0]) == point.point && row.count == points.header.count)
            #expect([Double(row[1])!, Double(row[2])!] == point.parameters)
            #expect(Int(row[3]) == point.replicas && Int(row[4]) == point.failedReplicas)
            for metric in metrics {
                let cells = ["mean", "std", "min", "max"].map { row[points.header.firstIndex(of: "\(metric).\($0)")!] }
                if let stats = point.metrics[metric] {
                    #expect(cells.map { Double($0)! } == [stats.mean, stats.std, stats.min, stats.max], "\(metric)")
                } else {
                    #expect(cells == ["", "", "", ""], "\(metric)")
                }
                guard PointsCSV.canBeMissing(metric) else {
                    #expect(points.header.firstIndex(of: "\(metric).count") == nil)
                    continue
                }
                // Worlds with a value, and the share of the worlds that did not fail without one.
                let n = point.metrics[metric]?.count ?? 0, worlds = point.replicas - point.failedReplicas
                #expect(Int(row[points.header.firstIndex(of: "\(metric).count")!]) == n, "\(metric)")
                #expect(Double(row[points.header.firstIndex(of: "\(metric).never")!]) == Double(worlds - n) / Double(worlds), "\(metric)")
            }
        }
        // partner_points.csv: exactly summary.json's `ITEM.contacts.PARTNER` statistics, a row each.
        let partnerPoints = try CSVTable(path: "\(dir)/out/partner_points.csv")
        #expect(partnerPoints.header == ["point", "item", "partner", "mean", "std", "min", "max"])
        var expected: [String: [Double]] = [:]
        for point in summary.points {
            for (key, stats) in point.metrics where key.split(separator: ".").count == 3 {
                expected["\(point.point).\(key)"] = [stats.mean, stats.std, stats.min, stats.max]
            }
        }
        #expect(!expected.isEmpty && partnerPoints.rows.count == expected.count)
        for row in partnerPoints.rows {
            #expect(expected["\(row[0]).\(row[1]).contacts.\(row[2])"] == row[3...].map { Double($0)! }, "\(row)")
        }
    }

    /// Issue 17 item 7: the files grow with the items and the contacts that happened, not with the
    /// pairs that could touch. A pile of n 10 × 10 pt boxes 9 pt apart (each overlaps its
    /// neighbours from the start), all colliding with each other: n(n − 1) pairs could touch.
    @Test func outputSizesAreLinearInItemsAndContacts() throws {
        for n in [50, 200] {
            let dir = tempDir()
            let columns = Int(Double(n).squareRoot()) + 1
            var lines = ["name: pile", "world: {bounds: [4000, 4000], ticks: 3}", "items:"]
            for k in 0..<n { lines.append("  i\(k): {center: [\(20 + k % columns * 9), \(20 + k / columns * 9)], size: [10, 10]}") }
            let names = (0..<n).map { "i\($0)" }.joined(separator: ", ")
            lines += ["behaviors:", "  walls: {type: collision, items: [\(names)], reference_bounds: true}"]
            let path = writeScene(lines.joined(separator: "\n"), in: dir)
            _ = try runSweep(path, into: "\(dir)/out")
            let worlds = try CSVTable(path: "\(dir)/out/worlds.csv"), partners = try CSVTable(path: "\(dir)/out/partners.csv")
            // One world, one point: 17 metrics per item in worlds.csv.
            #expect(worlds.header.count == 3 + 17 * n)
            let contacts = (0..<n).map { Int(worlds.rows[0][3 + 17 * $0])! }.reduce(0, +)
            // Neighbours overlap: contacts happened, but far fewer rows than pairs that could touch.
            #expect(contacts >= n && partners.rows.count >= n / 2, "\(contacts) contacts, \(partners.rows.count) rows")
            #expect(partners.rows.count <= contacts && partners.rows.count <= 8 * n, "\(partners.rows.count) rows")
            // One replica: the point is the world, so no per-point copies of its rows (issue 29).
            let fm = FileManager.default
            #expect(!fm.fileExists(atPath: "\(dir)/out/points.csv") && !fm.fileExists(atPath: "\(dir)/out/partner_points.csv"))
            #expect(try summaryWithoutRun("\(dir)/out/summary.json").points.isEmpty)
        }
    }

    @Test func aGridValueAsWrittenFindsItsRows() throws {
        let dir = tempDir()
        let path = writeScene(decimalSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let worlds = try CSVTable(path: "\(dir)/out/worlds.csv"), points = try CSVTable(path: "\(dir)/out/points.csv")
        let column = worlds.header.firstIndex(of: "shove.magnitude")!
        // Every cell is a value as a person writes it.
        #expect(Set(worlds.rows.map { $0[column] }) == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"])
        // Filtering on the number typed finds the point's replicas, and its one point.
        for typed in ["0.3", "0.6"] {
            let value = Double(typed)!
            let hits = worlds.rows.filter { Double($0[column]) == value }
            #expect(hits.count == 2 && Set(hits.map { $0[1] }).count == 1, "\(typed)")
            #expect(points.rows.filter { Double($0[points.header.firstIndex(of: "shove.magnitude")!]) == value }.count == 1)
        }
        // And the engine ran exactly that value: the world replays with 0.3 set by hand.
        let scene = try SceneFile.load(path: path)
        let hit = worlds.rows.first { $0[column] == "0.3" }!
        let world = Int(hit[0])!
        #expect(try scene.world(world).value(at: "shove.magnitude") == 0.3)
    }

    @Test func theRunFolderKeepsTheSweepFileTheCommandAndTheVersion() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        let scene = try SceneFile.load(path: path)
        let command = ["run", path, "--threads", "1"]
        _ = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/out")
            .run(.init(threads: 1, commandLine: command))
        #expect(bytes("\(dir)/out/sweep.yaml") == bytes(path))
        let summary = try JSONDecoder().decode(SweepSummary.self, from: bytes("\(dir)/out/summary.json"))
        #expect(summary.run.commandLine == command)
        #expect(summary.run.version == WorldSweepVersion.current)
        // The copy runs as the original: it is the same file.
        #expect(try SceneFile.load(path: "\(dir)/out/sweep.yaml").sweep == scene.sweep)
    }

    @Test func aFinishedRunIsNotReplacedWithoutForce() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let before = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
            .map { ($0, bytes("\(dir)/out/\($0)")) }
        #expect(throws: RunInputError.self) { try runSweep(path, into: "\(dir)/out") }
        // Refused before touching anything.
        let after = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
            .map { ($0, bytes("\(dir)/out/\($0)")) }
        #expect(before.map(\.0) == after.map(\.0) && before.map(\.1) == after.map(\.1))
        let scene = try SceneFile.load(path: path)
        let forced = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/out").run(.init(threads: 1, force: true))
        #expect(forced.completed)
        // Replaced: the same rows again, and nothing of the old run's left under a temporary name
        // (its rows files are moved aside and removed beside the engine).
        let replaced = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
        #expect(replaced == before.map(\.0) && !replaced.contains { $0.hasSuffix(".tmp") })
        #expect(bytes("\(dir)/out/worlds.csv") == before.first { $0.0 == "worlds.csv" }?.1)
        #expect(bytes("\(dir)/out/partners.csv") == before.first { $0.0 == "partners.csv" }?.1)
    }

    /// Closed in the background (as `run` closes while it writes the report), a run leaves the
    /// same files: the outcome names those still coming, and once `closing` returns they are all
    /// in place and nothing half-written is left.
    @Test func closingInTheBackgroundLeavesTheSameFiles() throws {
        let dir = tempDir()
        let path = writeScene(decimalSweep, in: dir)
        let scene = try SceneFile.load(path: path)
        let plain = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/plain").run(.init(threads: 2))
        #expect(plain.closing == nil && plain.closingFiles.isEmpty)
        var options = SweepRun.Options(threads: 2)
        options.closesInBackground = true
        let outcome = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/beside").run(options)
        #expect(outcome.closingFiles == ["summary.json", SweepRun.pointsTableName, SweepRun.partnerPointsTableName])
        let closing = try #require(outcome.closing)
        try closing()
        let names = { (d: String) in try FileManager.default.contentsOfDirectory(atPath: d).sorted() }
        #expect(try names("\(dir)/plain") == names("\(dir)/beside"))
        #expect(try names("\(dir)/beside").allSatisfy { !$0.hasSuffix(".tmp") })
        for file in ["worlds.csv", "partners.csv", RowSums.fileName, SweepRun.pointsTableName, SweepRun.partnerPointsTableName] {
            #expect(bytes("\(dir)/plain/\(file)") == bytes("\(dir)/beside/\(file)"), "\(file)")
        }
        // summary.json: the same but for the run's own times.
        let read = { (d: String) in try JSONDecoder().decode(SweepSummary.self, from: bytes("\(d)/summary.json")) }
        var a = try read("\(dir)/plain"), b = try read("\(dir)/beside")
        #expect(a.points.count == 7 && a.points == b.points)
        a.run = b.run
        #expect(a == b)
        #expect(outcome.summary?.points == plain.summary?.points)
    }
}
