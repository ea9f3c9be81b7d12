import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun

/// Issue 29 item 6: the figures say what they measure. `run` gives the simulation's rate and the
/// whole run's apart, counting only the worlds it ran; `bench --whole-run` times the run path
/// beside the engine on the same worlds.
@Suite struct WholeRunFiguresTests {
    static let sweep = """
        name: tiny-figures
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

    @Test func runFiguresCountOnlyTheWorldsRunAndLabelBothRates() {
        var info = RunInfo(engine: "batched-simd", threads: 2, worlds: 10, ticksPerWorld: 100, wallSeconds: 1, worldTicksPerSecond: 300)
        // 3 worlds (7 kept before --resume) took 0.5 s in the engine over 2 threads: 0.25 s each,
        // so 3 × 100 world-ticks / 0.25 s = 1200 world-ticks/s.
        info.recordEngineTime(worldsRun: 3, engineThreadSeconds: 0.5, threadsUsed: 2)
        #expect(info.worldsRun == 3 && info.simulationWorldTicksPerSecond == 1200)
        let text = RunCommand.figures(info, wholeRunSeconds: 2)
        #expect(text.contains("ran 3 worlds × 100 ticks on 2 threads (7 more kept from before --resume)"))
        #expect(text.contains("simulation: 1200 world-ticks/s (0.25 s in the engine per thread)"))
        // The run's figures are summary.json's (300 world-ticks/s over its 1 s), and the report's
        // time is said apart: the terminal, summary.json and the report agree.
        #expect(text.contains("run:        300 world-ticks/s (1.00 s wall: the worlds and their data files, as in summary.json and the report)"))
        #expect(text.contains("report:     1.00 s more (2.00 s in all)"))
        #expect(!text.contains("150 world-ticks/s"))
        // A run of a few milliseconds says so, not "0.00 s", on every line.
        #expect(RunInfo.secondsText(0.0041) == "0.0041 s" && RunInfo.secondsText(0.24) == "0.24 s")
        var quick = RunInfo(engine: "batched-simd", threads: 2, worlds: 15, ticksPerWorld: 180, wallSeconds: 0.0069, worldTicksPerSecond: 391_304)
        quick.recordEngineTime(worldsRun: 15, engineThreadSeconds: 0.0066, threadsUsed: 2)
        let quickText = RunCommand.figures(quick, wholeRunSeconds: 0.031)
        #expect(quickText.contains("(0.0033 s in the engine per thread)") && !quickText.contains("0.00 s"), "\(quickText)")
    }

    @Test func benchWholeRunTimesTheRunBesideTheEngineOnTheSweepsWorlds() throws {
        let dir = Scratch.directory("bench-whole", create: false)
        let file = try temporaryFile(Self.sweep, name: "tiny.yaml")
        #expect(WorldSweepCommand.execute(["bench", file, "--worlds", "2", "--threads", "1", "--engines", "batched-simd",
                                           "--integrator", "simd", "--kernel-work", "1000", "--whole-run", "--rounds", "2",
                                           "--json", "--out", dir]) == 0)
        let result = try JSONDecoder().decode(BenchResult.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/bench.json")))
        // The sweep's own 4 worlds join --worlds, so the engine is timed on exactly the whole run's worlds.
        #expect(result.engines.map { "\($0.engine) \($0.worlds)" } == ["batched-simd 2", "batched-simd 4", "whole-run 4"])
        let engine = try #require(result.engines.first { $0.engine == "batched-simd" && $0.worlds == 4 })
        let whole = try #require(result.engines.first { $0.engine == "whole-run" })
        #expect(whole.runs == 2 && engine.runs == 2 && whole.seconds > 0)
        #expect(whole.vsEngine == whole.worldTicksPerSecond / engine.worldTicksPerSecond)
        #expect(engine.vsEngine == nil)
        #expect(FileManager.default.fileExists(atPath: dir + "/whole-run/summary.json"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/whole-run/report.html"))
        #expect(result.table().contains("whole run / engine"))
        // The report is timed only when asked, and only with --whole-run.
        #expect(WorldSweepCommand.execute(["bench", file, "--worlds", "2", "--whole-run-report", "--out", dir]) == 2)
    }
}
