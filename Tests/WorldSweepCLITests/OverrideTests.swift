import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepReport
import WorldSweepRun
import WorldSweepScene

// `--set` and `--sweep` (issue 31): the worlds they make are the worlds of the file written with
// those values, the run folder records them, and a bad one is refused in one line naming its flag.

private func sweepFile(elasticity: String = "0.5", sweep: String = "stuff.elasticity: {linspace: [0, 0.9, 4]}") -> String {
    """
    name: override-sweep
    world: {bounds: [320, 568], ticks: 40}
    items:
      box: {center: [160, 400], size: [40, 40]}
    behaviors:
      fall: {type: gravity, items: [box]}
      walls: {type: collision, items: [box], reference_bounds: true}
      stuff: {type: item, items: [box], elasticity: \(elasticity)}
    sweep:
      parameters:
        \(sweep)
      replicas: 1
    """
}

private func text(_ path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
}

private func rows(_ path: String) -> [[String]] {
    text(path).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
}

@Suite struct OverrideTests {
    @Test func setAndSweepMakeTheWorldsOfTheEditedFile() throws {
        let file = try temporaryFile(sweepFile(), name: "override.yaml")
        let out = Scratch.directory("override-run", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet",
                                           "--set", "stuff.elasticity=0.7", "--sweep", "fall.magnitude=0,0.5,1"]) == 0)
        // The same sweep written into a file: elasticity fixed at 0.7, gravity swept.
        let written = try temporaryFile(sweepFile(elasticity: "0.7", sweep: "fall.magnitude: {values: [0, 0.5, 1]}"),
                                        name: "written.yaml")
        let reference = Scratch.directory("override-reference", create: false)
        #expect(WorldSweepCommand.execute(["run", written, "--out", reference, "--quiet"]) == 0)
        #expect(text("\(out)/worlds.csv") == text("\(reference)/worlds.csv"))

        let table = rows("\(out)/worlds.csv")
        let header = table[0]
        // The fixed key is no longer a column; the new axis is, with its three values.
        #expect(!header.contains("stuff.elasticity"))
        let magnitude = try #require(header.firstIndex(of: "fall.magnitude"))
        #expect(table.dropFirst().map { $0[magnitude] } == ["0", "0.5", "1"])
        // Without gravity nothing moves: the box ends where the file put it (by hand: no force, no velocity).
        let y = try #require(header.firstIndex(of: "box.y")), vy = try #require(header.firstIndex(of: "box.vy"))
        #expect(table[1][y] == "400" && table[1][vy] == "0")
        #expect(Double(table[3][y])! > 400)

        // Provenance: sweep.yaml is the file, then the overrides; run.json and summary.json keep them.
        #expect(text("\(out)/sweep.yaml") == text(file) + "\n"
                + "# worldsweep: this run applied these overrides from its command line:\n"
                + "#   --set stuff.elasticity=0.7\n#   --sweep fall.magnitude=0,0.5,1\n")
        let settings = try JSONDecoder().decode(RunSettings.self, from: Data(text("\(out)/run.json").utf8))
        #expect(settings.overrides == SceneOverrides(sets: ["stuff.elasticity=0.7"], sweeps: ["fall.magnitude=0,0.5,1"]))
        // Read back from the copy alone (a tune folder has no run.json).
        #expect(SweepRun.sweepCopyOverrides(text("\(out)/sweep.yaml")) == settings.overrides)
        #expect(SweepRun.sweepCopyOverrides(text(file)).isEmpty)
        let summary = try JSONDecoder().decode(SweepSummary.self, from: Data(text("\(out)/summary.json").utf8))
        #expect(summary.run.commandLine?.contains("fall.magnitude=0,0.5,1") == true)
        #expect(summary.parameters == ["fall.magnitude"])
        // A run without overrides keeps the file byte for byte and records none.
        #expect(text("\(reference)/sweep.yaml") == text(written))
        #expect(!text("\(reference)/run.json").contains("overrides"))
    }

    @Test func rangesAsInTheFileAndSectionKeys() throws {
        let file = try temporaryFile(sweepFile(), name: "ranges.yaml")
        func load(_ sets: [String] = [], _ sweeps: [String] = []) throws -> SceneFile {
            try SceneFile.load(path: file, overrides: SceneOverrides(sets: sets, sweeps: sweeps))
        }
        // Replacing the file's axis in place, in each written form.
        for form in ["stuff.elasticity=linspace:0,1,3", "stuff.elasticity={linspace: [0, 1, 3]}", "stuff.elasticity=0,0.5,1"] {
            let sweep = try #require(try load([], [form]).sweep)
            #expect(sweep.parameters.map(\.path) == ["stuff.elasticity"], "\(form)")
            #expect((0..<3).map { sweep.parameters[0].range.value(at: $0) } == [0, 0.5, 1], "\(form)")
        }
        let stepped = try #require(try load([], ["fall.magnitude=range:0,1,0.25"]).sweep)
        #expect(stepped.parameters.map(\.path) == ["stuff.elasticity", "fall.magnitude"] && stepped.pointCount == 4 * 5)
        // Settings of the world and the sweep; duration replaces the file's ticks.
        let scene = try load(["sweep.replicas=3", "sweep.seed=9", "world.duration=1", "world.tick=1/120"])
        #expect(scene.sweep?.replicas == 3 && scene.sweep?.seed == 9 && scene.worldCount == 12)
        #expect(scene.world.ticks == 120 && scene.world.tick == 1.0 / 120)
        let zip = try load(["sweep.kind=zip"], ["fall.magnitude=1,2,3,4"])
        #expect(zip.sweep?.kind == .zip && zip.worldCount == 4)
    }

    @Test func badOverridesAreOneLineNamingTheFlag() throws {
        let file = try temporaryFile(sweepFile(), name: "refused.yaml")
        let out = Scratch.directory("override-refused", create: false)
        let cases: [([String], String)] = [
            (["--set", "stuff.elastcity=0.5"], "worldsweep: error: --set stuff.elastcity=0.5: unknown parameter"),
            (["--set", "stuff.elasticity=-1"], "worldsweep: error: --set stuff.elasticity=-1: expected"),
            (["--set", "stuff.elasticity=soft"], "worldsweep: error: --set stuff.elasticity=soft: expected a finite number"),
            (["--set", "stuff.elasticity"], "worldsweep: error: --set stuff.elasticity: expected KEY=VALUE"),
            (["--set", "sweep.replicas=0"], "worldsweep: error: --set sweep.replicas=0: expected"),
            (["--set", "world.ticks=many"], "worldsweep: error: --set world.ticks=many: expected"),
            (["--sweep", "stuff.elasticity=0,-1"], "worldsweep: error: --sweep stuff.elasticity=0,-1: expected"),
            (["--sweep", "stuff.elasticity=linspace:0,1"], "worldsweep: error: --sweep stuff.elasticity=linspace:0,1: expected"),
            (["--sweep", "nobody.elasticity=0,1"], "worldsweep: error: --sweep nobody.elasticity=0,1: unknown parameter"),
            (["--sweep", "sweep.replicas=1,2"], "worldsweep: error: --sweep sweep.replicas=1,2: 'sweep.replicas' is a setting"),
            (["--set", "sweep.kind=zip", "--sweep", "fall.magnitude=1,2"], "worldsweep: error: --sweep fall.magnitude=1,2: "),
            (["--set", "stuff.elasticity=0.5", "--sweep", "stuff.elasticity=0,1"],
             "worldsweep: error: --sweep stuff.elasticity=0,1: 'stuff.elasticity' is fixed by --set stuff.elasticity=0.5"),
        ]
        for (arguments, start) in cases {
            for command in ["run", "validate", "trace"] {
                var line = [command, file] + arguments
                if command == "run" { line += ["--out", out, "--quiet"] }
                let (code, message) = WorldSweepCommand.outcome(line)
                #expect(code == 2, "\(line)")
                #expect(message?.hasPrefix(start) == true, "\(line): \(message ?? "nil")")
                #expect(message?.contains("\n") == false)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // bench takes them with a FILE (its built-in sweep has no file to override).
        #expect(WorldSweepCommand.outcome(["bench", "--set", "fall.magnitude=2", "--no-report"])
                == (2, "worldsweep: error: --set and --sweep need a sweep FILE"))
        let (benchCode, benchMessage) = WorldSweepCommand.outcome(["bench", file, "--sweep", "nobody.x=1", "--no-report"])
        #expect(benchCode == 2 && benchMessage?.hasPrefix("worldsweep: error: --sweep nobody.x=1: ") == true)
        // The file's own mistakes are still the file's.
        let broken = try temporaryFile("name: broken\nworld: {bounds: [320, 568]}\n", name: "broken.yaml")
        let (_, message) = WorldSweepCommand.outcome(["validate", broken, "--set", "sweep.replicas=2"])
        #expect(message?.hasPrefix("\(broken):") == true)
    }

    @Test func aFileWithoutASweepGetsOne() throws {
        let file = try temporaryFile("""
            name: still
            world: {bounds: [320, 568], ticks: 10}
            items:
              box: {center: [160, 100], size: [40, 40]}
            behaviors:
              fall: {type: gravity, items: [box]}
            """, name: "still.yaml")
        let scene = try SceneFile.load(path: file, overrides: SceneOverrides(sets: ["sweep.replicas=3"], sweeps: ["fall.magnitude=1,2"]))
        #expect(scene.sweep?.parameters.map(\.path) == ["fall.magnitude"] && scene.worldCount == 6)
        // The section the override made is the override's: so is what it lacks.
        #expect(WorldSweepCommand.outcome(["validate", file, "--set", "sweep.kind=random", "--sweep", "fall.magnitude=uniform:0,1"])
                == (2, "worldsweep: error: --set sweep.kind=random: missing required key 'samples' in 'sweep' (a random sweep needs the number of draws)"))
        let (_, message) = WorldSweepCommand.outcome(["validate", file, "--set", "world.bounds=3"])
        #expect(message?.hasSuffix("(the world settings --set takes: world.tick, world.duration, world.ticks)") == true)
    }

    @Test func shardsMergeAndResumeWithTheOverrides() throws {
        let file = try temporaryFile(sweepFile(), name: "sharded.yaml")
        let overrides = ["--sweep", "fall.magnitude=0.5,1", "--set", "sweep.replicas=2"]
        let whole = Scratch.directory("override-whole", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet"] + overrides) == 0)
        let big = Scratch.directory("override-shards", create: false)
        for shard in ["0", "1"] {
            #expect(WorldSweepCommand.execute(["run", file, "--out", big, "--quiet", "--shard", shard, "--of", "2"] + overrides) == 0)
        }
        #expect(WorldSweepCommand.execute(["merge", big]) == 0)
        #expect(text("\(big)/worlds.csv") == text("\(whole)/worlds.csv"))
        // A shard run with other overrides is not a shard of the same run: refused beside the
        // others, and with --force run there, merge refuses it.
        let mixed = Scratch.directory("override-mixed", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", mixed, "--quiet", "--shard", "0", "--of", "2"] + overrides) == 0)
        let other = ["run", file, "--out", mixed, "--quiet", "--shard", "1", "--of", "2", "--sweep", "fall.magnitude=0.7,1",
                     "--set", "sweep.replicas=2"]
        #expect(WorldSweepCommand.execute(other) == 2)
        #expect(WorldSweepCommand.execute(other + ["--force"]) == 0)
        #expect(WorldSweepCommand.execute(["missing", mixed]) == 1)
        #expect(WorldSweepCommand.execute(["merge", mixed]) != 0)
        #expect(rows("\(whole)/worlds.csv").count == 1 + 4 * 2 * 2)
        // Resuming with other overrides would mix two sweeps' rows: refused.
        let (code, message) = WorldSweepCommand.outcome(["run", file, "--out", whole, "--quiet", "--resume", "--set", "sweep.replicas=2"])
        #expect(code == 2 && message?.contains("other overrides") == true)
    }

    @Test func compareSaysWhatItCompared() throws {
        // Two runs whose files differ only in an unswept value (friction 0.9) are not "identical":
        // the lines their sweep.yaml files differ in are shown.
        let plain = try temporaryFile(sweepFile(), name: "plain.yaml")
        let rough = try temporaryFile(sweepFile(elasticity: "0.5, friction: 0.9"), name: "rough.yaml")
        let runA = Scratch.directory("compare-plain", create: false), runB = Scratch.directory("compare-rough", create: false)
        #expect(WorldSweepCommand.execute(["run", plain, "--out", runA, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", rough, "--out", runB, "--quiet"]) == 0)
        let text = ComparisonReport.text(try CompareCommand.comparison(runA, runB))
        #expect(text.contains("""
              the sweep files differ (sweep.yaml; - A, + B):
                @@ A line 8, B line 8
                -  stuff: {type: item, items: [box], elasticity: 0.5}
                +  stuff: {type: item, items: [box], elasticity: 0.5, friction: 0.9}

              """), "\(text)")
        #expect(!ComparisonReport.text(try CompareCommand.comparison(runA, runA)).contains("sweep files differ"))

        // Runs of sweeps with no point in common: exit 2, one line, nothing written.
        let other = Scratch.directory("compare-other", create: false), out = Scratch.directory("compare-none", create: false)
        #expect(WorldSweepCommand.execute(["run", plain, "--out", other, "--quiet", "--sweep", "stuff.elasticity=0.25,0.75"]) == 0)
        let (code, message) = WorldSweepCommand.outcome(["compare", runA, other, "--out", out])
        #expect(code == 2)
        #expect(message == "worldsweep: error: \(runA) and \(other) have no point in common (no parameter values that match): "
                + "nothing to compare, nothing written")
        #expect(!FileManager.default.fileExists(atPath: out))
        let none = ComparisonReport.text(try CompareCommand.comparison(runA, other))
        #expect(none.contains("+#   --sweep stuff.elasticity=0.25,0.75"))
    }

    @Test func traceReplaysAWorldOfTheOverriddenSweep() throws {
        let file = try temporaryFile(sweepFile(), name: "trace.yaml")
        let scene = try SceneFile.load(path: file, overrides: SceneOverrides(sweeps: ["fall.magnitude=0,2"]))
        // World 1 of elasticity (4) × magnitude (2): elasticity 0, magnitude 2 (the last axis varies fastest).
        let world = try TraceWorld.scene(scene, world: .world(1))
        #expect(try world.value(at: "fall.magnitude") == 2 && world.value(at: "stuff.elasticity") == 0)
    }
}
