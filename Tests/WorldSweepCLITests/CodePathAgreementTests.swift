import CPUFeatures
import Foundation
import TestScratch
import Testing
import WorldSweepCLI
import WorldSweepRun
#if canImport(WorldSweepRunAVX2)
import WorldSweepRunAVX2
#endif

/// The AVX2 compilation of the engine (Package.swift) must give the portable one's results bit for
/// bit: `worldsweep` picks it by the CPU, and a sweep's files must not depend on the machine.
@Suite struct CodePathAgreementTests {
    #if canImport(WorldSweepRunAVX2)
    static let avx2Runs = worldsweep_cpu_runs_haswell_code() != 0
    #else
    static let avx2Runs = false
    #endif

    static let root = Repository.root

    /// A shard of each example sweep that has contacts between moving bodies, spins and pushes
    /// (twin-drop's last shard holds its bounciest worlds), so every kernel and pass runs.
    @Test(.enabled(if: avx2Runs, "needs an x86_64 build and a CPU with AVX2"),
          arguments: [("twin-drop", 11, 12), ("ledge-squares", 0, 4), ("spinner", 0, 4), ("push-offset", 0, 2)])
    func bothCompilationsWriteTheSameWorlds(sweep: String, shard: Int, of count: Int) throws {
        #if canImport(WorldSweepRunAVX2)
        let file = Self.root.appendingPathComponent("Sweeps/\(sweep).yaml").path
        let portable = Scratch.directory("portable", create: false)
        let avx2 = Scratch.directory("avx2", create: false)
        let options = ["--quiet", "--shard", "\(shard)", "--of", "\(count)", "--threads", "1"]
        #expect(WorldSweepCommand.execute(["run", file, "--out", portable] + options,
                                          engineCode: WorldSweepRun.RunEngineCode.self) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", avx2] + options,
                                          engineCode: WorldSweepRunAVX2.RunEngineCode.self) == 0)
        let folder = "shards/\(shard)-of-\(count)"
        // worlds.csv holds every metric of every world (a header and at least one row); partners.csv
        // at least its header.
        for (name, atLeast) in [("worlds.csv", 200), ("partners.csv", 10)] {
            let a = FileManager.default.contents(atPath: "\(portable)/\(folder)/\(name)")
            let b = FileManager.default.contents(atPath: "\(avx2)/\(folder)/\(name)")
            #expect((a?.count ?? 0) >= atLeast && a == b, "\(sweep) \(name)")
        }
        // Each says which code ran it.
        for (dir, path) in [(portable, "portable"), (avx2, "avx2")] {
            let done = try #require(FileManager.default.contents(atPath: "\(dir)/\(folder)/done"))
            #expect(try JSONDecoder().decode(RunInfo.self, from: done).codePath == path)
        }
        #endif
    }

    /// `tune` runs its search in the chosen compilation and draws the report's pictures (the Pareto
    /// front, the best world) in the once-built report module from the numbers that search hands
    /// back: both compilations leave the same files, pictures included.
    @Test(.enabled(if: avx2Runs, "needs an x86_64 build and a CPU with AVX2"))
    func bothCompilationsTuneToTheSameFiles() throws {
        #if canImport(WorldSweepRunAVX2)
        // Two objectives, so the page has a Pareto front; a small budget.
        var text = try String(contentsOfFile: Self.root.appendingPathComponent("Sweeps/tune-spring-settle.yaml").path,
                              encoding: .utf8)
        for (old, new) in [("card.overshoot: {max: 3}", "card.overshoot: minimize"), ("budget: 600", "budget: 120")] {
            #expect(text.contains(old))
            text = text.replacingOccurrences(of: old, with: new)
        }
        let file = Scratch.directory("tune-file") + "/tune-two-objectives.yaml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let portable = Scratch.directory("tune-portable", create: false)
        let avx2 = Scratch.directory("tune-avx2", create: false)
        for (out, code) in [(portable, WorldSweepRun.RunEngineCode.self as any EngineCode.Type),
                            (avx2, WorldSweepRunAVX2.RunEngineCode.self)] {
            #expect(WorldSweepCommand.execute(["tune", file, "--out", out, "--threads", "1", "--quiet"], engineCode: code) == 0)
        }
        for name in ["worlds.csv", "pareto.csv", "best.yaml", "tune.json", "report.md", "report.html"] {
            let a = FileManager.default.contents(atPath: "\(portable)/\(name)")
            let b = FileManager.default.contents(atPath: "\(avx2)/\(name)")
            #expect(a != nil && a == b, "\(name)")
        }
        let page = try String(contentsOfFile: "\(avx2)/report.html", encoding: .utf8)
        #expect(page.contains("<h2 id=\"pareto\">Pareto front</h2>") && page.contains("class=\"front-point\""))
        #expect(page.contains("<h2 id=\"best-world\">The best world</h2>") && page.contains("<animateMotion"))
        #endif
    }
}
