import Foundation
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

/// Splits a CSV file (no quoting: worldsweep never writes commas inside a cell) into a header and rows.
private func table(_ path: String) -> (header: [String], rows: [[String]]) {
    let lines = String(decoding: bytes(path), as: UTF8.self).split(separator: "\n")
    let split = { (l: Substring) in l.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    return (split(lines[0]), lines.dropFirst().map(split))
}

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
        // boundaries; c meets only those (mode boundaries: not b).
        #expect(CSVLayout.contactPartners(of: scene) == [["b"], ["a", "bounds", "floor"], ["bounds", "floor"]])
        #expect(CSVLayout(scene: scene).partnersHeader
                == "world,a.contacts.b,b.contacts.a,b.contacts.bounds,b.contacts.floor,c.contacts.bounds,c.contacts.floor")
    }

    @Test func partnerColumnsAddUpToEachItemsContacts() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let worlds = table("\(dir)/out/worlds.csv"), partners = table("\(dir)/out/partners.csv")
        // Both boxes share `walls` (mode everything, the bounds and the ledge); partners sorted.
        let expected: [String] = ["world", "top.contacts.bottom", "top.contacts.bounds", "top.contacts.ledge",
                                  "bottom.contacts.bounds", "bottom.contacts.ledge", "bottom.contacts.top"]
        #expect(partners.header == expected)
        #expect(partners.rows.count == 12)
        var ledge = 0
        for (w, p) in zip(worlds.rows, partners.rows) {
            #expect(p[0] == w[0])
            for item in ["top", "bottom"] {
                let total = partners.header.indices.filter { partners.header[$0].hasPrefix("\(item).contacts.") }
                    .reduce(0) { $0 + Int(p[$1])! }
                #expect(total == Int(w[worlds.header.firstIndex(of: "\(item).contacts")!])!, "world \(w[0]), \(item)")
            }
            ledge += Int(p[partners.header.firstIndex(of: "top.contacts.ledge")!])!
        }
        // The top box lands on the ledge in every world: the columns carry real counts.
        #expect(ledge >= 12)
    }

    @Test func pointsCSVIsSummaryJSONFlat() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let summary = try JSONDecoder().decode(SweepSummary.self, from: bytes("\(dir)/out/summary.json"))
        let points = table("\(dir)/out/points.csv")
        #expect(Array(points.header.prefix(6))
                == ["point", "bouncy.elasticity", "fall.magnitude", "replicas", "failed_replicas", "top.contacts.mean"])
        #expect(points.rows.count == summary.points.count && points.rows.count == 6)
        let metrics = PointsCSV(layout: CSVLayout(scene: try SceneFile.load(path: path))).metrics
        #expect(points.header.count == 5 + 4 * metrics.count)
        for (row, point) in zip(points.rows, summary.points) {
            #expect(Int(row[0]) == point.point && row.count == points.header.count)
            #expect([Double(row[1])!, Double(row[2])!] == point.parameters)
            #expect(Int(row[3]) == point.replicas && Int(row[4]) == point.failedReplicas)
            for metric in metrics {
                let cells = ["mean", "std", "min", "max"].map { row[points.header.firstIndex(of: "\(metric).\($0)")!] }
                if let stats = point.metrics[metric] {
                    #expect(cells.map { Double($0)! } == [stats.mean, stats.std, stats.min, stats.max], "\(metric)")
                } else if metric.contains(".contacts.") {
                    // Not touched at this point by any replica: 0 contacts, as partners.csv counts it.
                    #expect(cells == ["0", "0", "0", "0"], "\(metric)")
                } else {
                    #expect(cells == ["", "", "", ""], "\(metric)")
                }
            }
        }
    }

    @Test func aGridValueAsWrittenFindsItsRows() throws {
        let dir = tempDir()
        let path = writeScene(decimalSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        let worlds = table("\(dir)/out/worlds.csv"), points = table("\(dir)/out/points.csv")
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
    }
}
