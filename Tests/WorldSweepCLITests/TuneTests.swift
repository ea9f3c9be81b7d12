import Foundation
import TestScratch
import Testing
import WorldSweepResults
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

private let repository = Repository.root.path

/// A seed problem's text with some lines replaced (smaller budgets and replicas keep tests short).
func seedFile(_ name: String, _ replacements: [(String, String)] = []) throws -> String {
    var text = try String(contentsOfFile: "\(repository)/Sweeps/\(name)", encoding: .utf8)
    for (old, new) in replacements {
        #expect(text.contains(old), "\(name) has no '\(old)'")
        text = text.replacingOccurrences(of: old, with: new)
    }
    let dir = Scratch.directory("tune-file")
    let path = "\(dir)/\(name)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    if FileManager.default.fileExists(atPath: "\(repository)/Sweeps/curves") {
        try FileManager.default.copyItem(atPath: "\(repository)/Sweeps/curves", toPath: "\(dir)/curves")
    }
    return path
}

func tuneJSON(_ dir: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/tune.json"))) as! [String: Any]
}

private func bestValues(_ dir: String) throws -> [Double] {
    ((try tuneJSON(dir)["best"] as! [String: Any])["values"] as! [NSNumber]).map(\.doubleValue)
}


@Suite struct TuneParseTests {
    private let head = """
        name: t
        world: {bounds: [320, 568], ticks: 60}
        items:
          card: {center: [160, 100], size: [60, 40]}
        behaviors:
          fall: {type: gravity, items: [card], magnitude: 1}
          bouncy: {type: item, items: [card], elasticity: 0.5, density: 1}

        """

    private func refusal(_ tune: String) -> String {
        do { _ = try SceneFile.parse(yaml: head + tune, path: "t.yaml"); return "parsed" } catch { return "\(error)" }
    }

    @Test func refusalsPointAtTheirLineAndColumn() {
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: {min: 0.9, max: 0.1}\n  want: {card.bounce1: minimize}\n")
                == "t.yaml:10:24: error: expected min < max for 'bouncy.elasticity', got 0.9 and 0.1")
        #expect(refusal("tune:\n  parameters:\n    bouncy.friction: [0, 1]\n  want: {card.bounce1: minimize}\n")
                .hasPrefix("t.yaml:10:5: error: give 'bouncy.friction' a value in the file"))
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: [0, 1]\n  want: {card.bounce9: minimize}\n")
                .hasPrefix("t.yaml:11:10: error: unknown metric 'bounce9'"))
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: [0, 1]\n  want: {card.bounce1: {target: 100}}\n")
                .hasPrefix("t.yaml:11:24: error: missing required key 'within'"))
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: [0, 1]\n  want: {card.y: {min: 5, max: 1}}\n")
                == "t.yaml:11:18: error: 'min' 5 and 'max' 1 of 'card.y' conflict: no value can meet both")
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: {min: 0, max: 1, log: true}\n  want: {card.y: minimize}\n")
                .hasPrefix("t.yaml:10:30: error: expected a positive 'min'"))
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: [0, 1]\n  want: {card.y: {max: 1}}\n")
                .hasPrefix("t.yaml:11:9: error: expected a target, minimize or maximize"))
        #expect(refusal("tune:\n  parameters:\n    bouncy.elasticity: [0, 1]\n  want: {card.y: minimize}\n  method: bisect\n")
                .hasPrefix("t.yaml:12:11: error: expected one of auto, cmaes, bracket"))
    }

    @Test func parametersMapTheUnitIntervalOntoTheirDomains() throws {
        let scene = try SceneFile.parse(yaml: head + """
            tune:
              parameters:
                bouncy.elasticity: {min: 0.01, max: 1, log: true}
                bouncy.density: {choice: [0.5, 1, 2]}
                fall.magnitude: {min: 1, max: 3, integer: true}
              want: {card.bounce1: {target: 10, within: 1}}
            """, path: "t.yaml")
        let p = try #require(scene.tune).parameters
        #expect(abs(p[0].value(atUnit: 0.5) - 0.1) < 1e-12)        // the geometric middle of 0.01 and 1
        #expect(p[1].value(atUnit: 0.34) == 1)                        // the middle third is the second choice
        #expect(p[2].value(atUnit: 0.74) == 2.0 && p[2].value(atUnit: 0.76) == 3.0)
    }
}

@Suite(.serialized) struct TuneSearchTests {
    /// The bounce seed problem meets its target, and an ordinary `run` of best.yaml (another code
    /// path: the sweep's own worlds) confirms the mean first bounce within the tolerance.
    @Test func bounceMeetsItsTargetAndBestYamlConfirmsIt() throws {
        let file = try seedFile("tune-bounce.yaml")
        let out = Scratch.directory("tune-bounce", create: false)
        let (code, message) = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        #expect(code == 0, "\(message ?? "")")
        #expect(try tuneJSON(out)["met"] as? Bool == true)
        let elasticity = try bestValues(out)[0]
        #expect(elasticity > 0.05 && elasticity < 0.95)
        let run = Scratch.directory("tune-bounce-run", create: false)
        #expect(WorldSweepCommand.outcome(["run", "\(out)/best.yaml", "--out", run, "--quiet"]).code == 0)
        #expect(abs(try CSVTable(path: "\(run)/worlds.csv").mean("card.bounce1") - 100) <= 0.5)
        // And trace replays the best file with that elasticity in it.
        let text = try String(contentsOfFile: "\(out)/best.yaml", encoding: .utf8)
        #expect(text.contains("elasticity: \(elasticity)") && !text.contains("tune:"))
    }

    @Test func snapOvershootMeetsItsTarget() throws {
        let file = try seedFile("tune-snap.yaml")
        let out = Scratch.directory("tune-snap", create: false)
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"]).code == 0)
        let run = Scratch.directory("tune-snap-run", create: false)
        #expect(WorldSweepCommand.outcome(["run", "\(out)/best.yaml", "--out", run, "--quiet"]).code == 0)
        #expect(abs(try CSVTable(path: "\(run)/worlds.csv").mean("view.overshoot") - 4) <= 0.1)
        // Independently, from trace's states: the view starts left of the point (x 60 → 160),
        // so its overshoot is how far right of x = 160 it gets.
        let best = try SceneFile.load(path: "\(out)/best.yaml")
        var rows = ""
        TraceWorld.trace(best, ticks: best.world.ticks, events: false) { rows += $0 }
        let xs = rows.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[3])! }
        #expect(abs(xs.max()! - 160 - 4) <= 0.1, "trace overshoot \(xs.max()! - 160)")
    }

    /// The curve was traced from frequency 1.5 and damping 0.3; the fit finds both within 2 %.
    @Test func curveFromKnownSpringIsMatchedBack() throws {
        let file = try seedFile("tune-spring-curve.yaml", [("budget: 800", "budget: 300")])
        let out = Scratch.directory("tune-curve", create: false)
        _ = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        let values = try bestValues(out)
        #expect(abs(values[0] - 1.5) / 1.5 < 0.02, "frequency \(values[0])")
        #expect(abs(values[1] - 0.3) / 0.3 < 0.02, "damping \(values[1])")
    }

    @Test func unreachableTargetSaysHowCloseAndWhichWayTheRangeMustGrow() throws {
        let file = try seedFile("tune-bounce.yaml", [("target: 100", "target: 1000"), ("budget: 2000", "budget: 400")])
        let out = Scratch.directory("tune-unreachable", create: false)
        let (code, _) = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        #expect(code == ExitStatus.runFailed)
        let unmet = try tuneJSON(out)["unmetTargets"] as! [String]
        #expect(unmet.count == 1)
        #expect(unmet.first?.contains("card.bounce1 cannot reach 1000 ± 0.5 pt in the given ranges: the closest was") == true)
        #expect(unmet.first?.contains("it would need bouncy.elasticity above 0.95") == true, "\(unmet)")
    }

    @Test func conflictingConstraintsAreNamed() throws {
        let file = try seedFile("tune-spring-settle.yaml", [("card.overshoot: {max: 3}", "card.overshoot: {min: 30}\n    card.oscillations: {max: 0}"),
                                                             ("budget: 600", "budget: 200")])
        let out = Scratch.directory("tune-conflict", create: false)
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"]).code == ExitStatus.runFailed)
        let conflicts = try tuneJSON(out)["conflicts"] as! [String]
        #expect(conflicts.contains { $0.hasPrefix("card.overshoot ≥ 30 pt and card.oscillations ≤ 0 conflict:") }, "\(conflicts)")
    }

    /// One and two threads, and a search stopped after its second generation (its rows for the
    /// third half-written, as a kill -9 leaves them) then resumed: the same bytes.
    @Test func sameBytesAtAnyThreadCountAndAfterResume() throws {
        let file = try seedFile("tune-bounces.yaml", [("budget: 3000", "budget: 64")])
        let scene = try SceneFile.load(path: file)
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        func search(_ dir: String, threads: Int, resume: Bool = false, stopAfter: Int? = nil) throws -> TuneSearch.Outcome {
            let cancel = CancellationFlag()
            var generations = 0
            return try TuneSearch(scene: scene, fileData: data, directory: dir).run(
                .init(threads: threads, resume: resume, cancel: cancel, progress: { _ in
                    generations += 1
                    if generations == stopAfter { cancel.cancel() }
                }))
        }
        let one = Scratch.directory("tune-1", create: false), two = Scratch.directory("tune-2", create: false)
        let full = try search(one, threads: 1)
        #expect(full.completed && full.generations == 8)
        _ = try search(two, threads: 2, stopAfter: 2)
        let partial = try Data(contentsOf: URL(fileURLWithPath: "\(two)/worlds.csv"))
        #expect(partial.count < (try Data(contentsOf: URL(fileURLWithPath: "\(one)/worlds.csv"))).count)
        let handle = try #require(FileHandle(forWritingAtPath: "\(two)/worlds.csv"))
        handle.seekToEndOfFile(); handle.write(Data("99,12,0,0.5,0.7".utf8)); try handle.close()
        let resumed = try search(two, threads: 2, resume: true)
        #expect(resumed.completed && resumed.evaluations == full.evaluations)
        for name in ["worlds.csv", "search.json"] {
            #expect(FileManager.default.contents(atPath: "\(one)/\(name)") == FileManager.default.contents(atPath: "\(two)/\(name)"), "\(name)")
        }
    }
}

@Suite struct TuneKillTests {
    /// The real path: the built executable killed with SIGKILL once a few generations are
    /// checkpointed, then `--resume`: the same worlds.csv, search.json and best.yaml as a search
    /// never stopped.
    @Test func killNineThenResumeGivesTheSameBytes() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("worldsweep").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no worldsweep at \(binary)")
        let file = try seedFile("tune-spring-curve.yaml", [("budget: 800", "budget: 240")])
        let whole = Scratch.directory("tune-whole", create: false), killed = Scratch.directory("tune-killed", create: false)
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", whole, "--quiet", "--threads", "2"]).code == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["tune", file, "--out", killed, "--quiet", "--threads", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func generations() -> Int {
            guard let data = FileManager.default.contents(atPath: "\(killed)/search.json"),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
            return (json["generations"] as? [Any])?.count ?? 0
        }
        while generations() < 3 && process.isRunning { usleep(2000) }
        let stoppedEarly = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(stoppedEarly, "the search ended before it could be killed")
        #expect(!FileManager.default.fileExists(atPath: "\(killed)/tune.json"))
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", killed, "--quiet", "--resume"]).code == 0)
        for name in ["worlds.csv", "search.json", "best.yaml"] {
            #expect(FileManager.default.contents(atPath: "\(whole)/\(name)") == FileManager.default.contents(atPath: "\(killed)/\(name)"),
                    "\(name)")
        }
    }
}

extension TuneKillTests {
    /// Ctrl-C mid-search: exit 130 with what finished checkpointed and no tune.json; `--resume`
    /// then gives the same files, byte for byte, as a search never stopped.
    @Test func ctrlCExitsWith130AndResumeGivesTheSameBytes() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("worldsweep").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no worldsweep at \(binary)")
        let file = try seedFile("tune-spring-curve.yaml", [("budget: 800", "budget: 240")])
        let whole = Scratch.directory("tune-whole-int", create: false), stopped = Scratch.directory("tune-int", create: false)
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", whole, "--quiet", "--threads", "2"]).code == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["tune", file, "--out", stopped, "--quiet", "--threads", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func generations() -> Int {
            guard let data = FileManager.default.contents(atPath: "\(stopped)/search.json"),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
            return (json["generations"] as? [Any])?.count ?? 0
        }
        while generations() < 2 && process.isRunning { usleep(2000) }
        let stoppedEarly = process.isRunning
        process.interrupt()
        process.waitUntilExit()
        #expect(stoppedEarly, "the search ended before it could be interrupted")
        #expect(process.terminationReason == .exit && process.terminationStatus == ExitStatus.interrupted)
        #expect(!FileManager.default.fileExists(atPath: "\(stopped)/tune.json"))
        #expect(WorldSweepCommand.outcome(["tune", file, "--out", stopped, "--quiet", "--resume"]).code == 0)
        for name in ["worlds.csv", "search.json", "best.yaml", "tune.json", "report.md"] {
            #expect(FileManager.default.contents(atPath: "\(whole)/\(name)") == FileManager.default.contents(atPath: "\(stopped)/\(name)"),
                    "\(name)")
        }
    }
}

@Suite struct TuneTraceTests {
    /// `trace --world N` of a tune folder's sweep.yaml replays world N of worlds.csv (the second
    /// generation's, jitter included): its last tick is that row's final state, and two replicas
    /// of one point start apart (the replay does not ignore the jitter).
    @Test func traceOfASearchedWorldEndsInItsRowOfWorldsCSV() throws {
        let file = try seedFile("tune-bounce.yaml", [("replicas: 16", "replicas: 4"), ("budget: 2000", "budget: 64")])
        let out = Scratch.directory("tune-trace", create: false)
        _ = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        let lines = try String(contentsOfFile: "\(out)/worlds.csv", encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 64 && header.last == "generation")
        let loaded = try SceneFile.load(path: "\(out)/sweep.yaml")
        var startY: [String] = []
        for world in [37, 38, 61] {
            let row = rows[world]
            #expect(row[0] == "\(world)" && row.last == "1")
            let scene = try TraceWorld.tuneScene(loaded, world: .world(world))
            var text = ""
            TraceWorld.trace(scene, ticks: scene.world.ticks, events: false) { text += $0 }
            let table = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let last = table.last!
            let expected = ["x", "y", "angle", "vx", "vy", "angular_velocity"].map { row[header.firstIndex(of: "card.\($0)")!] }
            #expect(Array(last[3...8]) == expected, "world \(world)")
            startY.append(table[1][4])
        }
        #expect(startY[0] != startY[1], "replicas 1 and 2 of point 9 start at the same height")
        let beyond = WorldSweepCommand.outcome(["trace", "\(out)/sweep.yaml", "--world", "64"])
        #expect(beyond.code == 2 && beyond.message?.contains("not in the search") == true, "\(beyond.message ?? "")")
    }
}

@Suite struct TuneParetoTests {
    /// Two objectives: pareto.csv holds exactly the evaluated points no other evaluated point
    /// dominates (checked against every evaluation in search.json).
    @Test func paretoFrontIsTheNonDominatedSetOfEverythingEvaluated() throws {
        let file = try seedFile("tune-spring-settle.yaml", [("card.overshoot: {max: 3}", "card.overshoot: minimize"),
                                                             ("budget: 600", "budget: 120")])
        let out = Scratch.directory("tune-pareto", create: false)
        _ = WorldSweepCommand.outcome(["tune", file, "--out", out, "--quiet"])
        let search = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/search.json"))) as! [String: Any]
        let all = (search["generations"] as! [[[String: Any]]]).flatMap { $0 }
        // (settle_time, overshoot) per point; a spring that never settles has no settle time and
        // is no answer (never on the front).
        let points = all.compactMap { e -> (Int, Double, Double)? in
            let means = (e["means"] as! [Any]).compactMap { ($0 as? NSNumber)?.doubleValue }
            guard means.count == 2 else { return nil }
            return ((e["point"] as! NSNumber).intValue, means[0], means[1])
        }
        func dominated(_ p: (Int, Double, Double)) -> Bool {
            points.contains { q in q.1 <= p.1 && q.2 <= p.2 && (q.1 < p.1 || q.2 < p.2) }
        }
        let expected = Set(points.filter { !dominated($0) }.map(\.0))
        let rows = try String(contentsOfFile: "\(out)/pareto.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows[0] == "point,generation,spring.frequency,spring.damping,card.settle_time,card.overshoot")
        #expect(Set(rows.dropFirst().map { Int($0.split(separator: ",")[0])! }) == expected)
        #expect(!expected.isEmpty)
        // The page's chart marks exactly those points, each titled with its two objectives.
        let html = try String(contentsOfFile: "\(out)/report.html", encoding: .utf8)
        let marked = html.components(separatedBy: "class=\"front-point\"").dropFirst().map { piece in
            String(piece[piece.range(of: "<title>")!.upperBound..<piece.range(of: "</title>")!.lowerBound])
        }
        let fromCSV = rows.dropFirst().map { row -> String in
            let cells = row.split(separator: ",").map { Double($0)! }
            return "card.settle_time \(TuneResult.number(cells[4])), card.overshoot \(TuneResult.number(cells[5]))"
        }
        #expect(marked.sorted() == fromCSV.sorted())
        // And the best world is replayed: a still and an animated picture of it.
        #expect(html.contains("<h2 id=\"best-world\">The best world</h2>") && html.contains("<animateMotion"))
        // On the page shell: the stylesheet in the head, once, the pictures after it.
        let shell = try PageShell(html)
        // Titled by the problem and its question; the search's own charts (the evaluated points
        // over the parameters, the objective per generation) before the Pareto front.
        #expect(shell.title == "tune-spring-settle: tune — which frequency and damping settle a spring-hung card soonest, overshooting by at most 3 pt?")
        #expect(shell.styles == [HTML.style] && shell.stylesInPage == 1 && html.hasSuffix(HTML.tail))
        #expect(html.contains("<h2 id=\"search\">The search</h2>") && html.contains("class=\"answer\""))
        #expect(html.contains("card.settle_time (s) per generation"))
    }
}

/// `tune` takes the shared `--set` / `--sweep` options as `run` does: the search runs the file as
/// changed, says so in sweep.yaml and best.yaml, and a bad override is bad input naming its flag.
@Suite struct TuneOverrideTests {
    private let file = """
        name: t
        world: {bounds: [320, 568], ticks: 30}
        items:
          card: {center: [160, 100], size: [60, 40]}
        behaviors:
          fall: {type: gravity, items: [card]}
          bouncy: {type: item, items: [card], elasticity: 0.5}
        tune:
          parameters:
            bouncy.elasticity: {min: 0.1, max: 0.9}
          want: {card.y: minimize}
          budget: 16
        """

    @Test func setChangesWhatIsSearchedAndABadOneIsRefused() throws {
        let path = Scratch.directory("tune-set") + "/t.yaml"
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        // Half a second of gravity 1 (1000 pt/s²) moves the card about 125 pt down.
        let plain = Scratch.directory("tune-set-plain", create: false)
        let first = WorldSweepCommand.outcome(["tune", path, "--out", plain, "--quiet"])
        #expect(first.code == 0, "\(first.message ?? "")")
        #expect(try CSVTable(path: "\(plain)/worlds.csv").mean("card.y") > 150)
        // No gravity: no world of the search moves the card from y = 100.
        let still = Scratch.directory("tune-set-still", create: false)
        let second = WorldSweepCommand.outcome(["tune", path, "--set", "fall.magnitude=0", "--out", still, "--quiet"])
        #expect(second.code == 0, "\(second.message ?? "")")
        #expect(try CSVTable(path: "\(still)/worlds.csv").mean("card.y") == 100)
        for name in ["sweep.yaml", "best.yaml"] {
            let text = try String(contentsOfFile: "\(still)/\(name)", encoding: .utf8)
            #expect(text.hasSuffix("#   --set fall.magnitude=0\n"), "\(name)")
        }
        #expect(try !String(contentsOfFile: "\(plain)/sweep.yaml", encoding: .utf8).contains("--set"))

        let bad = WorldSweepCommand.outcome(["tune", path, "--set", "fall.strength=0",
                                             "--out", Scratch.directory("tune-set-bad", create: false), "--quiet"])
        #expect(bad.code == 2)
        #expect(bad.message?.contains("--set fall.strength=0") == true, "\(bad.message ?? "")")
    }

    // Issue 30: a search follows the world limit `run` and `bench` follow (its budget is what it may run).
    @Test func aBudgetAboveMaxWorldsNeedsForce() throws {
        let path = Scratch.directory("tune-limit") + "/t.yaml"
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        let out = Scratch.directory("tune-limit-out", create: false)
        let refused = WorldSweepCommand.outcome(["tune", path, "--max-worlds", "15", "--out", out, "--quiet"])
        #expect(refused.code == 2)
        #expect(refused.message?.contains("the search's budget is 16 worlds, more than the limit of 15 (--max-worlds); add --force") == true,
                "\(refused.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: out))
        let allowed = WorldSweepCommand.outcome(["tune", path, "--max-worlds", "15", "--force", "--out", out, "--quiet"])
        #expect(allowed.code == 0, "\(allowed.message ?? "")")
        let atLimit = WorldSweepCommand.outcome(["tune", path, "--max-worlds", "16", "--out", Scratch.directory("tune-limit-16", create: false), "--quiet"])
        #expect(atLimit.code == 0, "\(atLimit.message ?? "")")
    }
}
