import ArgumentParser
import Foundation
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// What `bench` measured, and on what.
struct BenchResult: Codable {
    struct EngineRow: Codable, Equatable {
        /// single-world, batched-simd or batched-blas.
        var engine: String
        /// The batched engine's back end; nil for the single-world engine.
        var integrator: String?
        var threads: Int
        var worlds: Int
        /// Timings taken; `seconds` is their median.
        var runs: Int
        var seconds: Double
        var worldTicksPerSecond: Double
        /// Over the same engine's figure on 1 thread at the same worlds (nil without a 1-thread row).
        var vsOneThread: Double?
        /// Over the single-world engine's figure at the same threads and worlds (batched rows only).
        var vsSingleWorld: Double?
        /// The lowest and highest rate of the runs (the median is `worldTicksPerSecond`); nil in
        /// bench.json files from before they were kept.
        var minWorldTicksPerSecond: Double?
        var maxWorldTicksPerSecond: Double?
        /// Every round's seconds, in the order taken: rounds interleave the engines and the whole
        /// run, so the k-th of every row at the same threads and worlds ran side by side (nil in
        /// bench.json files from before they were kept).
        var roundSeconds: [Double]?
        /// With --baseline: the baseline's row for the same engine, threads and worlds.
        var baseline: BaselineFigure?
        /// Whole-run rows (`bench --whole-run`): over the engine's rate at the same threads and worlds.
        var vsEngine: Double?

        init(engine: String, integrator: String? = nil, threads: Int, worlds: Int, runs: Int = 1, seconds: Double = 0,
             worldTicksPerSecond: Double) {
            self.engine = engine; self.integrator = integrator; self.threads = threads; self.worlds = worlds
            self.runs = runs; self.seconds = seconds; self.worldTicksPerSecond = worldTicksPerSecond
        }

        init(engine: SweepEngine, threads: Int, worlds: Int, runs: Int, seconds: Double, worldTicksPerSecond: Double) {
            var integrator: String?
            if case .batched(let i) = engine { integrator = i.rawValue }
            self.init(engine: engine.name, integrator: integrator, threads: threads, worlds: worlds, runs: runs,
                      seconds: seconds, worldTicksPerSecond: worldTicksPerSecond)
        }
    }
    struct KernelRow: Codable, Equatable { var integrator: String; var lanes: Int; var bodySubStepsPerSecond: Double }

    /// Where the figures were taken.
    struct Machine: Codable, Equatable {
        /// Active processors, and the default thread count (SLURM_CPUS_PER_TASK when set).
        var cores: Int
        var defaultThreads: Int
        var cpu: String?
        var os: String
        var blas: String
        /// debug or release.
        var build: String
        /// Which compilation of the engine ran (`portable` or `avx2`; `CodePath`); nil in older files.
        var codePath: String?
        /// ISO 8601, UTC.
        var date: String

        static func current() -> Machine {
            #if DEBUG
            let build = "debug"
            #else
            let build = "release"
            #endif
            let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("model name") }?
                .split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
            return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, defaultThreads: Scheduler.defaultThreads(),
                           cpu: cpu, os: ProcessInfo.processInfo.operatingSystemVersionString,
                           blas: LaneIntegrator.blasDescription, build: build, codePath: WorldSweepCommand.engine.code.name,
                           date: ISO8601DateFormatter().string(from: Date()))
        }
    }

    var sweep: String
    var ticksPerWorld: Int
    /// Worlds the sweep makes; world indices beyond it wrap around.
    var sweepWorlds: Int
    var machine: Machine
    var engines: [EngineRow]
    var integrators: [KernelRow]
    /// With --baseline: its name and when and where it was taken.
    var baseline: BaselineSource?

    /// Fills in each row's ratios from the other rows of the same run.
    mutating func computeRatios() {
        let rows = engines
        for k in engines.indices {
            let r = rows[k]
            if let base = rows.first(where: { $0.engine == r.engine && $0.worlds == r.worlds && $0.threads == 1 }) {
                engines[k].vsOneThread = r.worldTicksPerSecond / base.worldTicksPerSecond
            }
            if r.engine != SweepEngine.single.name,
               let single = rows.first(where: { $0.engine == SweepEngine.single.name && $0.worlds == r.worlds && $0.threads == r.threads }) {
                engines[k].vsSingleWorld = r.worldTicksPerSecond / single.worldTicksPerSecond
            }
        }
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func ratio(_ r: Double?) -> String { r.map { String(format: "%.2f×", $0) } ?? "—" }
}
