import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun

private let sweep = tinySweep(name: "cli-sweep", ticks: 60, boxY: 400, elasticity: "{linspace: [0, 0.9, 4]}",
                              replicas: 2, jitter: "{box.center.x: 3}")

private func freshDir() -> String {
    Scratch.directory("run", create: false)
}

private func data(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

@Suite struct RunCommandTests {
    @Test func runWritesTheFilesAndTheReport() throws {
        let file = try temporaryFile(sweep)
        let out = freshDir()
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--threads", "2", "--chunk-size", "3"]) == 0)
        for name in ["worlds.csv", "summary.json", "report.md", "report.html", "run.json", "partners.csv"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)"), "\(name)")
        }
        let rows = String(decoding: data("\(out)/worlds.csv"), as: UTF8.self).split(separator: "\n")
        #expect(rows.count == 9)
        #expect(rows[0].hasPrefix("world,point,replica,stuff.elasticity,box.contacts,box.bounces,box.bounce1,"))
        let summary = try JSONDecoder().decode(SweepSummary.self, from: data("\(out)/summary.json"))
        #expect(summary.points.count == 4 && summary.run.threads == 2 && summary.run.worlds == 8)
        // No leftovers of the atomic writes.
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    @Test func badInputExitsTwoAndWritesNothing() throws {
        let bad = try temporaryFile("name: broken\nworld: {bounds: [320, 568]}\n")
        let out = freshDir()
        #expect(WorldSweepCommand.execute(["run", bad, "--out", out]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
        let file = try temporaryFile(sweep)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--max-worlds", "7"]) == 2)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--threads", "0"]) == 2)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--shard", "1"]) == 2)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--shard", "3", "--of", "3"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
        // --resume with nothing to resume starts afresh (a retried array task may always pass it).
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--resume", "--quiet", "--force"]) == 0)
        #expect(FileManager.default.fileExists(atPath: "\(out)/summary.json"))
        try FileManager.default.removeItem(atPath: out)
        // --force lets a sweep past --max-worlds.
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--max-worlds", "7", "--force", "--quiet"]) == 0)
    }

    @Test func shardIndexComesFromTheEnvironment() throws {
        #expect(try RunCommand.shard(index: nil, count: 4, environment: ["SLURM_ARRAY_TASK_ID": "2"])! == (2, 4))
        #expect(try RunCommand.shard(index: nil, count: 4, environment: ["JOB_COMPLETION_INDEX": "3"])! == (3, 4))
        #expect(try RunCommand.shard(index: 1, count: 4, environment: ["JOB_COMPLETION_INDEX": "3"])! == (1, 4))
        #expect(try RunCommand.shard(index: nil, count: nil, environment: ["JOB_COMPLETION_INDEX": "3"]) == nil)
        #expect(throws: BadInput.self) { try RunCommand.shard(index: nil, count: 4, environment: [:]) }
        #expect(Scheduler.defaultThreads(environment: ["SLURM_CPUS_PER_TASK": "5"]) == 5)
    }

    @Test func shardsMissingAndMergeThroughTheCommandLine() throws {
        let file = try temporaryFile(sweep)
        let whole = freshDir(), out = freshDir()
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", "0", "--of", "3"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", "2", "--of", "3"]) == 0)
        #expect(try Shards.missing(in: out, count: 3) == [1])
        // `missing` exits 1 while a shard is missing, so `missing DIR && merge DIR` waits for it.
        #expect(WorldSweepCommand.outcome(["missing", out]) == (1, "worldsweep: error: \(out): 1 of 3 shards not finished"))
        #expect(WorldSweepCommand.execute(["merge", out]) == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/worlds.csv"))
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", "1", "--of", "3"]) == 0)
        #expect(WorldSweepCommand.execute(["missing", out]) == 0)
        #expect(WorldSweepCommand.execute(["merge", out]) == 0)
        #expect(WorldSweepCommand.execute(["merge", out]) == 0)
        #expect(data("\(whole)/worlds.csv") == data("\(out)/worlds.csv"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/report.html"))
    }

    @Test func resumeAfterATornFileMatchesAWholeRun() throws {
        let file = try temporaryFile(sweep)
        let whole = freshDir(), cut = freshDir()
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet"]) == 0)
        let full = data("\(whole)/worlds.csv")
        try full.prefix(full.count * 2 / 3).write(to: URL(fileURLWithPath: "\(cut)/worlds.csv"))
        try FileManager.default.removeItem(atPath: "\(cut)/summary.json")
        // An unfinished run is not overwritten by accident.
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet"]) == 2)
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet", "--resume", "--threads", "2"]) == 0)
        #expect(data("\(cut)/worlds.csv") == full)
    }
}

@Suite struct ProgressBarTests {
    @Test func silentWhenQuietDumbOrNotATerminal() {
        #expect(!ProgressBar(quiet: true, environment: ["TERM": "xterm"]).enabled)
        #expect(!ProgressBar(quiet: false, environment: ["TERM": "dumb"]).enabled)
        #expect(ProgressBar.duration(5) == "5s" && ProgressBar.duration(75) == "1m15s" && ProgressBar.duration(3725) == "1h02m")
    }
}
