import ArgumentParser
import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun

private let tinySweep = """
    name: tiny
    world: {bounds: [320, 568], ticks: 20}
    items:
      box: {center: [160, 500], size: [40, 40]}
    behaviors:
      fall: {type: gravity, items: [box]}
      walls: {type: collision, items: [box], reference_bounds: true}
      stuff: {type: item, items: [box], elasticity: 0.5}
    sweep:
      parameters:
        stuff.elasticity: {range: [0.1, 0.4, 0.1]}
    """

/// Runs people can find again: what the run folder records, and what the command line says.
@Suite struct RunRecordTests {
    @Test func summaryRecordsTheCommandLineAndVersionAndTheFolderTheSweepFile() throws {
        let file = try temporaryFile(tinySweep, name: "tiny.yaml")
        let out = Scratch.directory("record", create: false)
        let arguments = ["run", file, "--out", out, "--quiet", "--threads", "1"]
        #expect(WorldSweepCommand.execute(arguments) == 0)
        let summary = try JSONDecoder().decode(SweepSummary.self, from: FileManager.default.contents(atPath: "\(out)/summary.json")!)
        #expect(summary.run.commandLine == arguments)
        #expect(summary.run.version == WorldSweepVersion.current)
        #expect(FileManager.default.contents(atPath: "\(out)/sweep.yaml") == FileManager.default.contents(atPath: file))
        #expect(FileManager.default.fileExists(atPath: "\(out)/points.csv"))
    }

    @Test func aFinishedRunNeedsForceToBeReplaced() throws {
        let file = try temporaryFile(tinySweep, name: "tiny.yaml")
        let out = Scratch.directory("finished", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"]) == 0)
        let worlds = FileManager.default.contents(atPath: "\(out)/worlds.csv")
        let summary = FileManager.default.contents(atPath: "\(out)/summary.json")
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"]) == 2)
        #expect(FileManager.default.contents(atPath: "\(out)/worlds.csv") == worlds)
        #expect(FileManager.default.contents(atPath: "\(out)/summary.json") == summary)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--force"]) == 0)
    }

    @Test func versionIsTheBuildsVersion() throws {
        #expect(WorldSweepCommand.configuration.version == WorldSweepVersion.current)
        #expect(WorldSweepCommand.execute(["--version"]) == 0)
        // The version reads as one: digits and dots.
        #expect(WorldSweepVersion.current.split(separator: ".").allSatisfy { Int($0) != nil })
    }

    @Test func everyCommandsHelpHasExamplesThatNameIt() {
        let commands: [(String, ParsableCommand.Type)] = [
            ("", WorldSweepCommand.self), ("trace", TraceCommand.self), ("validate", ValidateCommand.self),
            ("run", RunCommand.self), ("merge", MergeCommand.self), ("missing", MissingCommand.self),
            ("bench", BenchCommand.self), ("compare", CompareCommand.self)]
        for (name, command) in commands {
            let help = WorldSweepCommand.helpMessage(for: command)
            #expect(help.contains("Examples:"), "\(name)")
            #expect(help.contains("worldsweep \(name)"), "\(name)")
        }
        // Completion is documented where a user looks: the top-level help.
        #expect(WorldSweepCommand.helpMessage().contains("--generate-completion-script"))
        #expect(WorldSweepCommand.execute(["--generate-completion-script", "bash"]) == 0)
    }

    @Test func etaCountsOnlyWhatThisInvocationRan() {
        // Resumed at 900 of 1000 worlds, after reading the kept rows back for a long time: the
        // rate starts at the first report, so 50 worlds in 5 s give 10 worlds/s and 5 s left.
        var rate = ProgressRate()
        let second: UInt64 = 1_000_000_000
        #expect(rate.observe(done: 900, total: 1000, at: 600 * second) == nil)
        let estimate = rate.observe(done: 950, total: 1000, at: 605 * second)
        #expect(estimate?.worldsPerSecond == 10 && estimate?.secondsLeft == 5)
        // No worlds yet since the start: no estimate rather than an infinite one.
        var fresh = ProgressRate()
        _ = fresh.observe(done: 0, total: 10, at: 0)
        #expect(fresh.observe(done: 0, total: 10, at: second) == nil)
    }
}
