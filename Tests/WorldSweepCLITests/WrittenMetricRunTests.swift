import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

/// A sweep with written metrics, run and reported as any other: their columns, statistics,
/// importance rows and report views; the same bytes at any thread count and after a resume;
/// `--set` on their numbers; `tune` reaching a target on one.
@Suite struct WrittenMetricRunTests {
    static let example = Repository.path("Sweeps/snap-arrival.yaml")

    static func lines(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func theirColumnsStatisticsImportanceAndViews() throws {
        let out = Scratch.directory("written-run", create: false)
        let (code, message) = WorldSweepCommand.outcome(["run", Self.example, "--out", out, "--quiet", "--threads", "2",
                                                         "--set", "sweep.replicas=2", "--set", "world.duration=0.5"])
        #expect(code == 0, "\(message ?? "")")
        let worlds = try Self.lines("\(out)/worlds.csv")
        #expect(Array(worlds[0].suffix(4)) == ["view.arrival", "view.within", "view.passes", "view.fastest"])
        // A first time: a time of a tick's end, or empty where the view never got within 1 pt.
        let arrival = worlds[0].firstIndex(of: "view.arrival")!, passes = worlds[0].firstIndex(of: "view.passes")!
        let times = worlds.dropFirst().map { $0[arrival] }
        #expect(times.contains("") && times.contains { !$0.isEmpty })
        for t in times where !t.isEmpty { #expect(abs(Double(t)! * 60 - (Double(t)! * 60).rounded()) < 1e-3, "\(t)") }
        #expect(worlds.dropFirst().allSatisfy { Int($0[passes]) != nil })
        // points.csv counts the worlds that got there and the share that never did.
        let points = try Self.lines("\(out)/points.csv")[0]
        #expect(points.contains("view.arrival.never") && points.contains("view.arrival.count") && !points.contains("view.passes.never"))
        // summary.json declares them; importance.csv and the report treat them as metrics.
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/summary.json"))) as! [String: Any]
        #expect((summary["writtenMetrics"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["arrival", "within", "passes", "fastest"])
        let importance = try Self.lines("\(out)/importance.csv").map { $0[0] }
        for metric in ["view.arrival", "view.never_arrival", "view.within", "view.passes", "view.fastest"] {
            #expect(importance.contains(metric), "\(metric) in importance.csv")
        }
        let html = try String(contentsOfFile: "\(out)/report.html", encoding: .utf8)
        #expect(html.contains("id=\"v-view.arrival\"") && html.contains("never crossed in the run"))
        #expect(html.contains("view.fastest (pt/s)"))
    }

    @Test func sameBytesAtAnyThreadCountAndAfterAResume() throws {
        let one = Scratch.directory("written-1", create: false), three = Scratch.directory("written-3", create: false)
        #expect(WorldSweepCommand.execute(["run", Self.example, "--out", one, "--quiet", "--threads", "1"]) == 0)
        #expect(WorldSweepCommand.execute(["run", Self.example, "--out", three, "--quiet", "--threads", "3", "--chunk-size", "2"]) == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: "\(one)/worlds.csv"))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: "\(three)/worlds.csv"))))
        // Rows read back exactly (what --resume and merge do): each parsed row writes the same bytes.
        let layout = CSVLayout(scene: try SceneFile.load(path: Self.example))
        for line in String(decoding: a, as: UTF8.self).split(separator: "\n").dropFirst() {
            let row = try #require(layout.parseRow(line))
            #expect(layout.row(row).dropLast() == line)
        }
    }

    @Test func setGivesTheirNumbers() throws {
        let loose = try SceneFile.load(path: Self.example, overrides: SceneOverrides(sets: ["arrival.below=5"]))
        #expect(loose.measures[0].measure == .first(value: 5, direction: .down))
        #expect(throws: OverrideError.self) { try SceneFile.load(path: Self.example, overrides: SceneOverrides(sets: ["arrival.value=5"])) }
        // A written metric's number can be a sweep axis too.
        let swept = try SceneFile.load(path: Self.example, overrides: SceneOverrides(sweeps: ["arrival.below=1,5"]))
        #expect(swept.worldCount == 30)
    }

    @Test func tuneReachesATargetOnAWrittenMetric() throws {
        let out = Scratch.directory("written-tune", create: false)
        let file = Repository.path("Sweeps/tune-snap-arrival.yaml")
        let (code, message) = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        #expect(code == 0, "\(message ?? "")")
        let tune = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/tune.json"))) as! [String: Any]
        #expect(tune["met"] as? Bool == true)
        // The best world, run again on its own, arrives within the tolerance of 0.74 s.
        let best = try SceneFile.load(path: "\(out)/best.yaml")
        let world = WorldRunner(scene: best).run(world: 0)
        let arrival = try #require(world.items[0].written[0])
        #expect(abs(arrival - 0.74) <= 0.02)
    }
}
