import ArgumentParser
import Foundation
import TestScratch
import Testing
import WorldSweepResults
@testable import WorldSweepCLI
import WorldSweepRun

/// Runs people can find again: what the run folder records, and what the command line says.
@Suite struct RunRecordTests {
    @Test func summaryRecordsTheCommandLineAndVersionAndTheFolderTheSweepFile() throws {
        let file = try temporaryFile(tinySweep(), name: "tiny.yaml")
        let out = Scratch.directory("record", create: false)
        let arguments = ["run", file, "--out", out, "--quiet", "--threads", "1"]
        #expect(WorldSweepCommand.execute(arguments) == 0)
        let summary = try JSONDecoder().decode(SweepSummary.self, from: FileManager.default.contents(atPath: "\(out)/summary.json")!)
        #expect(summary.run.commandLine == arguments)
        #expect(summary.run.version == WorldSweepVersion.current)
        #expect(FileManager.default.contents(atPath: "\(out)/sweep.yaml") == FileManager.default.contents(atPath: file))
        // One replica per point: worlds.csv is the per-point table; no points.csv, no point table.
        #expect(summary.replicas == 1 && summary.points.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/points.csv"))
    }

    @Test func aFinishedRunNeedsForceToBeReplaced() throws {
        let file = try temporaryFile(tinySweep(), name: "tiny.yaml")
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
            ("bench", BenchCommand.self), ("compare", CompareCommand.self), ("completion", CompletionCommand.self),
            ("tune", TuneCommand.self)]
        for (name, command) in commands {
            let help = WorldSweepCommand.helpMessage(for: command)
            #expect(help.contains("Examples:"), "\(name)")
            #expect(help.contains("worldsweep \(name)"), "\(name)")
        }
        // Completion is documented where a user looks: the top-level help.
        #expect(WorldSweepCommand.helpMessage().contains("--generate-completion-script"))
        #expect(WorldSweepCommand.execute(["--generate-completion-script", "bash"]) == 0)
        // … and a visible command prints it, knowing every subcommand and option.
        #expect(WorldSweepCommand.helpMessage().contains("completion"))
        let bash = WorldSweepCommand.completionScript(for: .bash)
        #expect(bash.contains("compare") && bash.contains("--world") && bash.contains("--save-baseline"))
        #expect(WorldSweepCommand.execute(["completion", "fish"]) == 0)
        #expect(WorldSweepCommand.execute(["completion", "powershell"]) == 2)
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

/// `worldsweep compare` on real runs.
@Suite struct CompareCommandTests {
    @Test func aRunComparedWithItselfReportsNoDifference() throws {
        let file = try temporaryFile(tinySweep(), name: "tiny.yaml")
        let run = Scratch.directory("cmp-run", create: false), out = Scratch.directory("cmp-out", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", run, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["compare", run, run, "--out", out]) == 0)
        let md = try String(contentsOfFile: "\(out)/compare.md", encoding: .utf8)
        #expect(md.contains("no difference"))
        // Every point matched with itself, none left over.
        let matched = Set(try CSVTable(path: "\(out)/compare.csv").rows.map { "\($0[0]),\($0[1])" })
        #expect(matched == ["0,0", "1,1", "2,2", "3,3"])
        let html = try String(contentsOfFile: "\(out)/compare.html", encoding: .utf8)
        #expect(html.contains("no difference") && !html.contains("<script") && !html.contains("http"))
        let shell = try PageShell(html)
        #expect(shell.title == "tiny vs tiny — comparison" && shell.styles == [HTML.style] && shell.stylesInPage == 1)
        // compare.csv: a row per point and metric, every delta 0.
        let rows = try String(contentsOfFile: "\(out)/compare.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).suffix(2).first.map { $0 == "0" || $0 == "" } ?? false })
    }

    @Test func runsOfTwoSweepFilesMatchOnTheirValues() throws {
        // A sweeps elasticity 0.1 … 0.4 (a range); B lists 0.2, 0.3, 0.5 and drops the box 100 pt
        // higher. 0.2 and 0.3 match (0.3 from the range is the 0.3 typed in the list); every
        // matched point differs in where and how the box landed; 0.1, 0.4 and 0.5 are unmatched.
        let fileA = try temporaryFile(tinySweep(), name: "a.yaml")
        let fileB = try temporaryFile(tinySweep().replacingOccurrences(of: "center: [160, 500]", with: "center: [160, 400]")
            .replacingOccurrences(of: "{range: [0.1, 0.4, 0.1]}", with: "[0.2, 0.3, 0.5]"), name: "b.yaml")
        let runA = Scratch.directory("cmp-a", create: false), runB = Scratch.directory("cmp-b", create: false)
        let out = Scratch.directory("cmp-ab", create: false)
        #expect(WorldSweepCommand.execute(["run", fileA, "--out", runA, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", fileB, "--out", runB, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["compare", runA, runB, "--out", out]) == 0)
        let md = try String(contentsOfFile: "\(out)/compare.md", encoding: .utf8)
        // 0.2 and 0.3 matched (A's points 1 and 2, B's 0 and 1); A's 0.1 and 0.4 and B's 0.5 not.
        #expect(Set(try CSVTable(path: "\(out)/compare.csv").rows.map { "\($0[0]),\($0[1])" }) == ["1,0", "2,1"])
        #expect(md.contains("- point 0: stuff.elasticity=0.1") && md.contains("- point 3: stuff.elasticity=0.4"))
        #expect(md.contains("- point 2: stuff.elasticity=0.5"))
        // The box's final y differs at both matched points, by B's mean minus A's.
        // One replica per point: the points come from worlds.csv, as compare reads them.
        let a = try RunFolderSummary.load(runA), b = try RunFolderSummary.load(runB)
        #expect(a.points.count == 4 && b.points.count == 3)
        let csv = try String(contentsOfFile: "\(out)/compare.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv[0] == "point_a,point_b,stuff.elasticity,metric,a,b,delta,relative")
        for (pa, pb) in [(1, 0), (2, 1)] {
            let ya = a.points[pa].metrics["box.y"]!.mean, yb = b.points[pb].metrics["box.y"]!.mean
            #expect(ya != yb)
            let row = csv.first { $0.hasPrefix("\(pa),\(pb),") && $0.contains(",box.y,") }
            #expect(row.map { Double($0.split(separator: ",")[6]) } == yb - ya)
        }
        // Not a run folder: bad input.
        #expect(WorldSweepCommand.execute(["compare", runA, Scratch.directory("empty"), "--out", out]) == 2)
    }
}
