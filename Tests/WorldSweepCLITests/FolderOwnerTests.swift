import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun

private func data(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

/// One process at a time in an output folder; the multi-run commands read a run as it was made.
@Suite(.serialized) struct FolderOwnerTests {
    /// A sweep long enough in a debug build to be caught mid-run: 400 worlds of 4 s.
    private let slowSweep = tinySweep(name: "slow", ticks: 240, boxY: 100, elasticity: "{linspace: [0, 0.9, 400]}")

    /// A second process on the folder is refused while the first runs; kill -9 of the first leaves a
    /// lock that the next process takes, and `--resume` finishes the same bytes as a run never stopped.
    @Test func aSecondProcessIsRefusedAndAKilledRunStillResumes() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("worldsweep").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no worldsweep at \(binary)")
        let file = try temporaryFile(slowSweep)
        let whole = Scratch.directory("owner-whole", create: false), shared = Scratch.directory("owner-shared", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet"]) == 0)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: binary)
        first.arguments = ["run", file, "--out", shared, "--quiet", "--threads", "1", "--chunk-size", "8"]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        func rows() -> Int { data("\(shared)/worlds.csv").filter { $0 == 10 }.count }
        while rows() < 20 && first.isRunning { usleep(2000) }
        let before = (worlds: data("\(shared)/worlds.csv"), run: data("\(shared)/run.json"))
        for arguments in [["--resume"], ["--force"], []] {
            let (code, message) = WorldSweepCommand.outcome(["run", file, "--out", shared, "--quiet"] + arguments)
            #expect(code == 2, "\(arguments): \(message ?? "")")
            #expect(message?.contains("\(shared) is in use by another worldsweep process") == true, "\(message ?? "")")
        }
        let tune = WorldSweepCommand.outcome(["merge", shared])
        #expect(tune.code == 2 && tune.message?.contains("is in use by another worldsweep process") == true, "\(tune.message ?? "")")
        let stillRunning = first.isRunning
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(stillRunning, "the run ended before it could be refused")
        // Nothing the refused processes did touched the first's files.
        let after = data("\(shared)/worlds.csv")
        #expect(after.prefix(before.worlds.count) == before.worlds)
        #expect(data("\(shared)/run.json") == before.run)
        // The lock of a killed process is no lock: the next process takes it.
        #expect(WorldSweepCommand.execute(["run", file, "--out", shared, "--quiet", "--resume"]) == 0)
        #expect(data("\(whole)/worlds.csv") == data("\(shared)/worlds.csv"))
        #expect(data("\(whole)/points.csv") == data("\(shared)/points.csv"))
        #expect((try? JSONSerialization.jsonObject(with: data("\(shared)/summary.json"))) != nil)
    }

    /// tune and merge take the same lock; a refused command creates no folder.
    @Test func tuneAndMergeTakeTheLockAndARefusalCreatesNothing() throws {
        let held = Scratch.directory("owner-held", create: false)
        let lock = try FolderLock(held)
        let tuneFile = try temporaryFile("""
            name: t
            world: {bounds: [320, 568], ticks: 20}
            items: {card: {center: [160, 100], size: [60, 40]}}
            behaviors:
              fall: {type: gravity, items: [card]}
              bouncy: {type: item, items: [card], elasticity: 0.5}
            tune:
              parameters: {bouncy.elasticity: [0.1, 0.9]}
              want: {card.y: minimize}
              budget: 16

            """)
        let tune = WorldSweepCommand.outcome(["tune", tuneFile, "--out", held, "--quiet"])
        #expect(tune.code == 2 && tune.message?.contains("in use by another worldsweep process") == true, "\(tune.message ?? "")")
        lock.release()
        #expect(WorldSweepCommand.execute(["tune", tuneFile, "--out", held, "--quiet"]) == 0)
        // A lock taken on a folder that did not exist, then given up unused, leaves nothing.
        let fresh = Scratch.directory("owner-fresh", create: false) + "/deeper"
        try FolderLock(fresh).release()
        #expect(!FileManager.default.fileExists(atPath: fresh))
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: fresh).deletingLastPathComponent().path))
    }

    /// compare reads a one-replica run made with --set of a swept key (or --sweep of a new axis)
    /// with those overrides, so a run compares with itself.
    @Test func compareReappliesTheRecordedOverrides() throws {
        let file = try temporaryFile(tinySweep(name: "over"))
        for overrides in [["--set", "stuff.elasticity=0.3"], ["--sweep", "fall.magnitude=0.5,1"]] {
            let out = Scratch.directory("owner-over", create: false)
            #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"] + overrides) == 0)
            let report = Scratch.directory("owner-compare", create: false)
            let (code, message) = WorldSweepCommand.outcome(["compare", out, out, "--out", report])
            #expect(code == 0, "\(overrides): \(message ?? "")")
        }
    }

    /// A shard of another sweep is refused beside a sharded run's shards, and one run there with
    /// --force is named as foreign by missing and merge.
    @Test func aForeignShardIsNamedAsSuch() throws {
        let file = try temporaryFile(tinySweep(name: "sharded"))
        let out = Scratch.directory("owner-shards", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", "0", "--of", "3"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", "2", "--of", "3"]) == 0)
        let other = ["run", file, "--out", out, "--quiet", "--shard", "1", "--of", "3", "--set", "fall.magnitude=2"]
        let refused = WorldSweepCommand.outcome(other)
        #expect(refused.code == 2, "\(refused.message ?? "")")
        #expect(refused.message?.contains("shard 0-of-3 there belongs to another sweep") == true, "\(refused.message ?? "")")
        #expect(WorldSweepCommand.execute(other + ["--force"]) == 0)
        let missing = WorldSweepCommand.outcome(["missing", out])
        #expect(missing.code == 1 && missing.message?.contains("shard 1-of-3 belongs to another sweep: it ran ") == true,
                "\(missing.message ?? "")")
        let merge = WorldSweepCommand.outcome(["merge", out])
        #expect(merge.code == 1 && merge.message?.contains("shard 1-of-3 belongs to another sweep: it ran ") == true,
                "\(merge.message ?? "")")
        #expect(merge.message?.contains("--set fall.magnitude=2") == true, "\(merge.message ?? "")")
    }
}
