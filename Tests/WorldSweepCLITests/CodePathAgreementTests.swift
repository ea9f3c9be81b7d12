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
}
