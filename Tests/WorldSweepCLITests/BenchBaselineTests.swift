import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI

private let machine = BenchResult.Machine(cores: 2, defaultThreads: 2, cpu: "cpu", os: "os", blas: "x", build: "release", date: "d")

private func row(_ median: Double, _ lo: Double?, _ hi: Double?, runs: Int = 3) -> BenchResult.EngineRow {
    var r = BenchResult.EngineRow(engine: "batched-simd", integrator: "simd", threads: 1, worlds: 8, runs: runs, seconds: 1,
                                  worldTicksPerSecond: median)
    r.minWorldTicksPerSecond = lo
    r.maxWorldTicksPerSecond = hi
    return r
}

/// A tiny bench's arguments: 9 worlds of the built-in sweep, one engine, one thread.
private func tinyBench(_ dir: String, _ more: [String] = []) -> [String] {
    ["bench", "--worlds", "9", "--threads", "1", "--engines", "batched-simd", "--integrator", "simd", "--kernel-work", "100",
     "--out", dir] + more
}

private func result(_ path: String) throws -> BenchResult {
    try JSONDecoder().decode(BenchResult.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
}

@Suite struct BenchBaselineTests {
    @Test func everyFigureHasItsRange() throws {
        let dir = Scratch.directory("bench-range", create: false)
        #expect(WorldSweepCommand.execute(tinyBench(dir)) == 0)
        let r = try result("\(dir)/bench.json")
        for e in r.engines {
            let lo = try #require(e.minWorldTicksPerSecond), hi = try #require(e.maxWorldTicksPerSecond)
            #expect(lo <= e.worldTicksPerSecond && e.worldTicksPerSecond <= hi)
        }
        #expect(r.table().contains("min … max"))
        #expect(try String(contentsOfFile: "\(dir)/bench.md", encoding: .utf8).contains("| min … max |"))
    }

    @Test func verdictsNeedRangesThatDoNotOverlap() {
        // Baseline 90 … 100 (median 95).
        let base = row(95, 90, 100)
        #expect(BaselineFigure(current: row(120, 110, 130), baseline: base).verdict == .faster)
        #expect(BaselineFigure(current: row(80, 70, 85), baseline: base).verdict == .slower)
        // A higher median whose range reaches into the baseline's is noise.
        let overlap = BaselineFigure(current: row(110, 99, 115), baseline: base)
        #expect(overlap.verdict == .withinNoise && overlap.ratio == 110.0 / 95)
        // One run has no spread to judge by.
        #expect(BaselineFigure(current: row(200, 200, 200, runs: 1), baseline: base).verdict == .noSpread)
        #expect(BaselineFigure(current: row(200, nil, nil), baseline: base).verdict == .noSpread)
    }

    @Test func aSavedBaselineIsComparedFigureByFigure() throws {
        let dir = Scratch.directory("bench-baseline", create: false)
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--save-baseline", "before", "--no-report"])) == 0)
        let saved = try result("\(dir)/baselines/before.json")
        #expect(saved.baseline == nil && saved.engines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/bench.json"))   // --no-report: only the baseline
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--baseline", "before"])) == 0)
        let now = try result("\(dir)/bench.json")
        #expect(now.baseline?.name == "before" && now.baseline?.date == saved.machine.date)
        let figure = try #require(now.engines.first?.baseline)
        #expect(figure.ratio == now.engines[0].worldTicksPerSecond / saved.engines[0].worldTicksPerSecond)
        #expect(figure.worldTicksPerSecond == saved.engines[0].worldTicksPerSecond)
        #expect(now.table().contains("vs baseline") && now.table().contains("baseline before:"))
        // A row the baseline does not have gets no figure.
        var other = now
        other.engines[0].worlds = 64
        other.compare(with: saved, name: "before")
        #expect(other.engines[0].baseline == nil)
    }

    @Test func baselineMistakesAreBadInputBeforeMeasuring() throws {
        let dir = Scratch.directory("bench-bad", create: false)
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--baseline", "never-saved"])) == 2)
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--save-baseline", "../escape"])) == 2)
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--save-baseline", ""])) == 2)
        #expect(!FileManager.default.fileExists(atPath: dir))   // nothing measured, nothing written
        // A baseline of another sweep compares nothing.
        var foreign = BenchResult(sweep: "other", ticksPerWorld: 300, sweepWorlds: 1, machine: machine, engines: [], integrators: [])
        foreign.engines = [row(1, 1, 1)]
        _ = try BenchBaseline.save(foreign, name: "foreign", in: dir)
        #expect(WorldSweepCommand.execute(tinyBench(dir, ["--baseline", "foreign", "--no-report"])) == 2)
    }
}
