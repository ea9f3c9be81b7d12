import Foundation
import TestScratch
import Testing
import WorldSweepResults
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweep
import WorldSweepScene

/// Writes `text` to a fresh temporary file and returns its path.
func temporaryFile(_ text: String, name: String = "scene.yaml") throws -> String {
    let url = URL(fileURLWithPath: Scratch.directory("cli")).appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

func traceLines(_ path: String, overrides: [String] = [], ticks: Int, events: Bool = false) throws -> [[String]] {
    let scene = try TraceWorld.scene(file: path, overrides: overrides)
    var out = ""
    TraceWorld.trace(scene, ticks: ticks, events: events) { out += $0 }
    return out.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
}

let freeFallScene = """
    name: free-fall
    world: {bounds: [320, 568], ticks: 5}
    items:
      box: {center: [160, 50], size: [100, 100]}
    behaviors:
      fall: {type: gravity, items: [box]}
      still: {type: item, items: [box], resistance: 0}
    """

@Suite struct TraceTests {
    @Test func traceShowsTheDeviceFreeFall() throws {
        let rows = try traceLines(try temporaryFile(freeFallScene), ticks: 5)
        #expect(rows[0] == TraceWorld.stateHeader.split(separator: ",").map(String.init))
        let device = [50.0694466, 50.4166718, 51.0416679, 51.9444466, 53.1250076]
        #expect(rows.count == 6)
        for (k, expected) in device.enumerated() {
            let row = rows[k + 1]
            #expect(row[0] == "\(k + 1)" && row[2] == "box")
            #expect(abs(Double(row[1])! - Double(k + 1) / 60) < 1e-6)
            #expect(abs(Double(row[4])! - expected) < 1e-5, "tick \(k + 1): \(row[4])")
            // vy = 1000 h (2n − 1)
            #expect(abs(Double(row[7])! - 1000 * Double(Float(1.0 / 120.0)) * Double(2 * k + 1)) < 1e-3)
        }
    }

    @Test func setOverridesAValue() throws {
        // Resistance back to 0.1 through --set: slower than the undamped device figure.
        let rows = try traceLines(try temporaryFile(freeFallScene), overrides: ["still.resistance=0.1"], ticks: 5)
        #expect(Double(rows[5][4])! < 53.1250076 - 1e-4)
    }

    @Test func badOverridesAreBadInput() throws {
        let path = try temporaryFile(freeFallScene)
        #expect(throws: BadInput.self) { try TraceWorld.scene(file: path, overrides: ["still.resistance"]) }
        // Blamed on the argument, not on a line of the file (issue 17).
        #expect(throws: BadInput.self) { try TraceWorld.scene(file: path, overrides: ["still.bogus=1"]) }
        #expect(throws: BadInput.self) { try TraceWorld.scene(file: path, overrides: ["nope.elasticity=1"]) }
        #expect(WorldSweepCommand.execute(["trace", path, "--set", "nope.elasticity=2"]) == 2)
        #expect(WorldSweepCommand.execute(["trace", path, "--ticks", "-3"]) == 2)
        #expect(WorldSweepCommand.execute(["trace", path, "--no-such-flag"]) == 2)
    }

    @Test func eventsShowABounceAsBeganThenEnded() throws {
        let scene = """
            name: bounce
            world: {bounds: [320, 568], duration: 1}
            items:
              box: {center: [160, 100], size: [50, 50]}
            behaviors:
              fall: {type: gravity, items: [box]}
              walls: {type: collision, items: [box], reference_bounds: true}
              springy: {type: item, items: [box], elasticity: 0.8, allows_rotation: false}
            """
        let rows = try traceLines(try temporaryFile(scene), ticks: 60, events: true)
        #expect(rows[0] == TraceWorld.eventHeader.split(separator: ",").map(String.init))
        let contacts = rows.dropFirst().filter { $0[2] == "began" || $0[2] == "ended" }
        #expect(contacts.count >= 2)
        #expect(contacts.first?[2] == "began" && contacts.first?[3] == "box" && contacts.first?[4] == "bounds")
        #expect(contacts.dropFirst().first?[2] == "ended")
        // A began row carries the contact point, on the bottom edge (y = 569, skins ±1 pt).
        if let y = contacts.first.flatMap({ Double($0[6]) }) { #expect(abs(y - 568.5) < 1.5) }
        #expect(contacts.dropFirst().first?[5] == "")
    }

    @Test func validateCountsWorlds() throws {
        let scene = try SceneFile.load(path: try temporaryFile(freeFallScene + """

            sweep:
              parameters:
                still.resistance: {values: [0, 0.1, 0.2]}
                fall.magnitude: {linspace: [0.5, 1.5, 5]}
              replicas: 2
            """))
        #expect(scene.worldCount == 30)
        #expect(ValidateCommand.summary(scene).contains("30 worlds"))
        #expect(WorldSweepCommand.execute(["validate", scene.sourcePath]) == 0)
    }

    @Test func malformedFilesExitWithTwo() throws {
        for text in ["name: x\nworld: {bounds: [320, 568]\n", "name: x\nworld: {bounds: [320, 568], ticks: 5}\nitems:\n  a: {center: [0, 0], size: [0, 10]}\n"] {
            #expect(WorldSweepCommand.execute(["validate", try temporaryFile(text)]) == 2)
            #expect(WorldSweepCommand.execute(["trace", try temporaryFile(text)]) == 2)
        }
        #expect(WorldSweepCommand.execute(["validate", "/no/such/file.yaml"]) == 2)
    }

    @Test func timeIsTheAnimatorsElapsedTimeAsADouble() throws {
        // elapsedTime is the Double sum of the tick lengths: 1/60, then 1/60 + 1/60, …, printed
        // as the shortest text that reads back as that Double (not rounded through a Float).
        let rows = try traceLines(try temporaryFile(freeFallScene), ticks: 5)
        var elapsed = 0.0
        for k in 1...5 {
            elapsed += 1.0 / 60.0
            #expect(Double(rows[k][1])! == elapsed, "tick \(k): \(rows[k][1])")
        }
        #expect(rows[1][1] == "0.016666666666666666")   // Double(1/60); Float's text was 0.016666668
        #expect(rows[2][1] == "0.03333333333333333")
    }

    @Test func floatsPrintShortestRoundTrip() {
        #expect(TraceWorld.format(Float(50.0694466)) == "50.069447")
        #expect(TraceWorld.format(Float(0)) == "0")
        #expect(TraceWorld.format(Float(-0.0)) == "0")
        #expect(TraceWorld.format(Float(2)) == "2")
    }
}

@Suite struct WorldLimitTests {
    @Test func tooManyWorldsNeedForceAndNamesTheSweep() throws {
        let path = try temporaryFile(freeFallScene + """

            sweep:
              parameters:
                still.resistance: {linspace: [0, 1, 50]}
            """)
        let scene = try SceneFile.load(path: path)
        #expect(throws: SceneError.self) { try WorldLimit.check(scene, maximum: 49, force: false) }
        do {
            try WorldLimit.check(scene, maximum: 49, force: false)
        } catch let error as SceneError {
            // Points at the sweep's first parameter: line 10, column 5 of the file above.
            #expect(error.line == 10 && error.column == 5, "\(error)")
            #expect(error.message.contains("50 worlds"))
        }
        try WorldLimit.check(scene, maximum: 49, force: true)
        try WorldLimit.check(scene, maximum: 50, force: false)
        #expect(WorldSweepCommand.execute(["validate", path, "--max-worlds", "10"]) == 2)
        #expect(WorldSweepCommand.execute(["validate", path, "--max-worlds", "10", "--force"]) == 0)
        let out = Scratch.directory("limit", create: false)
        #expect(WorldSweepCommand.execute(["run", path, "--max-worlds", "10", "--out", out, "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out))   // nothing written
    }
}

@Suite struct BenchTests {
    /// A fresh, not yet existing directory under the temporary directory.
    func temporaryDirectory() -> String {
        Scratch.directory("bench", create: false)
    }

    @Test func listsParse() throws {
        #expect(try BenchCommand.counts("768", name: "--worlds") == [768])
        #expect(try BenchCommand.counts("1, 64,768,64", name: "--worlds") == [1, 64, 768])   // duplicates dropped
        for bad in ["", " ", "0", "1,0", "-3", "1,,2", "2,", "x", "1.5"] {
            #expect(throws: BadInput.self, "\(bad)") { try BenchCommand.counts(bad, name: "--worlds") }
        }
        #expect(try BenchCommand.list("simd,blas", name: "--integrator") { LaneIntegrator(rawValue: $0) } == [.simd, .blas])
        #expect(throws: BadInput.self) { try BenchCommand.list("simd,gpu", name: "--integrator") { LaneIntegrator(rawValue: $0) } }
        #expect(try BenchCommand.engines("single,batched", integrators: [.simd, .blas]) == [.single, .batched(.simd), .batched(.blas)])
        #expect(try BenchCommand.engines("batched-blas,single-world,single", integrators: [.simd]) == [.batched(.blas), .single])
        for bad in ["", "gpu", "batched-gpu", "single,"] {
            #expect(throws: BadInput.self, "\(bad)") { try BenchCommand.engines(bad, integrators: [.simd]) }
        }
        let command = try BenchCommand.parse(["--worlds", "4", "--threads", "1,2", "--engines", "single", "--no-report", "--json"])
        #expect(command.worlds == "4" && command.threads == "1,2" && command.engines == "single" && command.noReport && command.json)
        let defaults = try BenchCommand.parse([])
        #expect(try BenchCommand.counts(defaults.worlds, name: "--worlds") == [1, 64, 768, 8192])
        #expect(defaults.out == "runs/bench" && !defaults.noReport)
    }

    @Test func worldIndicesWrapAroundTheSweep() {
        #expect(RunEngineCode.wrapped(0..<64, count: 768) == [0..<64])
        #expect(RunEngineCode.wrapped(760..<830, count: 768) == [760..<768, 0..<62])
        #expect(RunEngineCode.wrapped(1536..<1600, count: 768) == [0..<64])
        let pieces = RunEngineCode.wrapped(5..<2000, count: 768)
        #expect(pieces.reduce(0) { $0 + $1.count } == 1995 && pieces.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= 768 })
        #expect(RunEngineCode.wrapped(0..<5, count: 1) == Array(repeating: 0..<1, count: 5))
    }

    @Test func tinyBenchWritesJSONAndAReport() throws {
        let dir = temporaryDirectory()
        #expect(WorldSweepCommand.execute(["bench", "--worlds", "2,9", "--threads", "1,2", "--engines", "single,batched",
                                           "--integrator", "simd", "--kernel-work", "1000", "--json", "--out", dir]) == 0)
        for name in ["bench.md", "bench.html", "bench.json"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + name), "\(name)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + name + ".tmp"))
        }

        // bench.json is what --json prints.
        let result = try JSONDecoder().decode(BenchResult.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/bench.json")))
        #expect(result.engines.count == 2 * 2 * 2)   // (single-world, batched-simd) × threads × worlds
        var combinations: Set<String> = []
        for r in result.engines {
            combinations.insert("\(r.engine) \(r.integrator ?? "-") \(r.threads) \(r.worlds)")
            #expect(r.worldTicksPerSecond > 0 && r.worldTicksPerSecond.isFinite)
            #expect(r.runs == 3 && r.seconds > 0)
            // Every round kept, the median the row's figure.
            let rounds = try #require(r.roundSeconds)
            #expect(rounds.count == 3 && rounds.sorted()[1] == r.seconds)
            #expect((r.engine == "single-world") == (r.integrator == nil))
            #expect(r.vsOneThread != nil)
            #expect((r.vsSingleWorld != nil) == (r.engine == "batched-simd"))
            if r.threads == 1 { #expect(r.vsOneThread == 1) }
        }
        #expect(combinations.count == 8)
        #expect(Set(result.engines.map(\.engine)) == ["single-world", "batched-simd"])
        // --kernel-work 1000 leaves room for the smallest lane count only.
        #expect(result.integrators.map(\.integrator) == ["simd"] && result.integrators.map(\.lanes) == [64])
        #expect(result.integrators.allSatisfy { $0.bodySubStepsPerSecond > 0 })
        #expect(result.ticksPerWorld == 300 && result.sweepWorlds == 768 && result.machine.cores >= 1)

        let html = try String(contentsOfFile: dir + "/bench.html", encoding: .utf8)
        #expect(html.hasSuffix(HTML.tail))
        let shell = try PageShell(html)
        #expect(shell.lang == "en" && shell.styles == [HTML.style] && shell.stylesInPage == 1 && shell.doctypes == 1)
        #expect(html.contains("<svg") && html.contains("</svg>"))
        #expect(!html.lowercased().contains("<script"))
        let urls = html.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
        #expect(urls.isEmpty, "external URLs in bench.html")
        // One line per (engine, threads), each in the legend.
        #expect(html.contains("single-world ×1") && html.contains("batched-simd ×2"))
        #expect(html.components(separatedBy: "<polyline").count - 1 == 4)
        #expect(html.contains("worlds (log scale)") && html.contains("world-ticks per second (log scale)"))
        let md = try String(contentsOfFile: dir + "/bench.md", encoding: .utf8)
        #expect(md.contains("| batched-simd | 2 | 9 |") && md.contains("BLAS"))
    }

    @Test func noReportWritesNothing() throws {
        let dir = temporaryDirectory()
        #expect(WorldSweepCommand.execute(["bench", "--worlds", "1", "--threads", "1", "--engines", "single", "--integrator", "simd",
                                           "--kernel-work", "100", "--no-report", "--out", dir]) == 0)
        #expect(!FileManager.default.fileExists(atPath: dir))
    }

    @Test func badInputExitsWithTwo() {
        let dir = temporaryDirectory()
        for bad in [["--threads", "0"], ["--threads", ""], ["--worlds", "0"], ["--worlds", ""], ["--worlds", "3,,4"],
                    ["--integrator", "gpu"], ["--integrator", ""], ["--engines", "gpu"], ["--engines", ""],
                    ["--engines", "batched-gpu"], ["--kernel-work", "0"]] {
            #expect(WorldSweepCommand.execute(["bench"] + bad + ["--out", dir]) == 2, "\(bad)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir))   // nothing measured, nothing written
    }

    @Test func tableShowsRatiosFromTheSameRun() {
        var result = BenchResult(sweep: "s", ticksPerWorld: 10, sweepWorlds: 768,
                                 machine: .init(cores: 2, defaultThreads: 2, cpu: nil, os: "os", blas: "x", build: "release", date: "d"),
                                 engines: [.init(engine: "single-world", threads: 1, worlds: 4, worldTicksPerSecond: 100),
                                           .init(engine: "single-world", threads: 2, worlds: 4, worldTicksPerSecond: 190),
                                           .init(engine: "batched-simd", integrator: "simd", threads: 1, worlds: 4, worldTicksPerSecond: 300),
                                           .init(engine: "batched-simd", integrator: "simd", threads: 2, worlds: 4, worldTicksPerSecond: 570)],
                                 integrators: [])
        result.computeRatios()
        let table = result.table()
        #expect(table.contains("1.90×"))   // the ratio to one thread, taken in the same run
        #expect(table.contains("3.00×"))   // batched-simd over single-world at the same threads and worlds
        #expect(result.engines.map(\.vsSingleWorld) == [nil, nil, 3, 3])
        #expect(table.contains("world i runs sweep world i mod 768"))
    }

    @Test func builtInSweepIsTheSeedFile() throws {
        // The binary carries a copy of Sweeps/twin-drop.yaml so bench runs anywhere; it must not drift.
        let builtIn = try BuiltInSweeps.twinDrop()
        let root = Repository.root
        let file = try SceneFile.load(path: root.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        #expect(builtIn.worldCount == 768 && builtIn.worldCount == file.worldCount)
        #expect(builtIn.world == file.world)
        #expect(builtIn.items.map { [$0.name, "\($0.center)", "\($0.size)", "\($0.shape)"] }
                == file.items.map { [$0.name, "\($0.center)", "\($0.size)", "\($0.shape)"] })
        #expect(builtIn.behaviors.map { "\($0.name) \($0.items) \($0.kind)" } == file.behaviors.map { "\($0.name) \($0.items) \($0.kind)" })
        #expect(builtIn.sweep?.parameters.map { "\($0.path) \($0.range)" } == file.sweep?.parameters.map { "\($0.path) \($0.range)" })
        #expect(builtIn.sweep?.seed == file.sweep?.seed && builtIn.sweep?.replicas == file.sweep?.replicas)
        #expect(builtIn.sweep?.jitter.map { "\($0.path) \($0.amplitude)" } == file.sweep?.jitter.map { "\($0.path) \($0.amplitude)" })
    }
}
