import ArgumentParser
import Dispatch
import Foundation
import WorldSweep
import WorldSweepReport
import WorldSweepRun
import WorldSweepScene

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `worldsweep bench [FILE]`: world-ticks per second over engines, thread counts and world counts,
/// and the integrator back ends' kernel throughput; a table (or JSON) and a small report.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure world-ticks per second over engines, threads and world counts, and the integrator back ends.",
        usage: "worldsweep bench [<file>] [<options>]",
        discussion: """
            For every world count, thread count and engine, runs that many worlds of FILE (default: \
            the built-in twin-drop sweep, 768 worlds) the way `run` does (the scheduler, chunks of \
            64 worlds) and reports world-ticks per second: the median of 3 runs, or of 1 run when \
            worlds × ticks per world exceeds 30 million. World indices beyond the sweep's world count \
            wrap around: world i runs sweep world i mod COUNT, so --worlds 1000000 runs the sweep's \
            worlds over and over. Engines: single (one world at a time) and batched (many worlds in \
            lockstep; one row per --integrator). Each row also gives the ratio to the same engine's \
            1-thread figure and, for batched rows, to the single-world engine at the same threads \
            and worlds. Then times each integrator back end's kernels over structure-of-arrays lanes \
            (one thread). Writes DIR/bench.md, DIR/bench.html (a chart and the tables; one offline \
            file) and DIR/bench.json unless --no-report. Build in release mode (swift run -c release worldsweep bench) \
            for figures worth quoting.

            Every figure shows the spread of its runs: min … max beside the median (hyperfine's \
            range). --save-baseline NAME keeps this bench's figures as DIR/baselines/NAME.json; \
            --baseline NAME compares each figure with that baseline's (same engine, threads and \
            worlds): the ratio of the medians, and "faster" or "slower" only when the two min … max \
            ranges do not overlap ("within noise" when they do; criterion's baselines are the model).

            Examples:
              worldsweep bench
              worldsweep bench --worlds 768,8192 --threads 1,2 --no-report
              worldsweep bench Sweeps/ledge-squares.yaml --engines batched-simd --json
              worldsweep bench --worlds 768 --save-baseline before
              worldsweep bench --worlds 768 --baseline before
              worldsweep bench Sweeps/twin-drop.yaml --set world.duration=1 \\
                  --worlds 768 --threads 1 --no-report
            """)

    @Argument(help: "A sweep file (default: the built-in twin-drop sweep).")
    var file: String?

    @OptionGroup var overrides: OverrideOptions

    @Option(help: ArgumentHelp("World counts to measure, comma-separated (indices beyond the sweep wrap around).", valueName: "LIST"))
    var worlds: String = "1,64,768,8192"

    @Option(help: ArgumentHelp("Thread counts to measure, comma-separated (default: 1 … cores).", valueName: "LIST"))
    var threads: String?

    @Option(help: ArgumentHelp("Engines to measure, comma-separated: single, batched (batched-simd, batched-blas pick one back end).", valueName: "LIST"))
    var engines: String = "single,batched"

    @Option(help: ArgumentHelp("Integrator back ends for the batched engine and the kernel timings, comma-separated: simd, blas.", valueName: "LIST"))
    var integrator: String = LaneIntegrator.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: ArgumentHelp("Directory for bench.md, bench.html and bench.json.", valueName: "DIR"))
    var out: String = "runs/bench"

    @Flag(name: .customLong("no-report"), help: "Write no bench.md, bench.html or bench.json.")
    var noReport = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(name: .customLong("save-baseline"), help: ArgumentHelp("Save this bench's figures as DIR/baselines/NAME.json.", valueName: "NAME"))
    var saveBaseline: String?

    @Option(help: ArgumentHelp("Compare every figure with DIR/baselines/NAME.json (saved by --save-baseline).", valueName: "NAME"))
    var baseline: String?

    @Flag(name: .customLong("whole-run"), help: "Also time the whole `run` path (files included) over the sweep's own worlds, beside the engine on the same worlds.")
    var wholeRun = false

    @Flag(name: .customLong("whole-run-report"), help: "With --whole-run: time the report too.")
    var wholeRunReport = false

    @Option(parsing: .unconditional, help: "Timed runs per figure (default: 3, or 1 above 30 million world-ticks); rounds interleave the engines and the whole run.")
    var rounds: Int?

    @Flag(help: "Measure more than --max-worlds worlds.")
    var force = false

    @OptionGroup var limit: WorldLimitOptions

    @Option(help: .hidden)   // body-sub-steps per kernel timing (and a cap on its lanes); tests make it small
    var kernelWork: Int = 4_000_000

    /// Worlds per unit of scheduler work: the sweep default, so the figures are what `run` gets.
    static let chunkSize = 64
    /// Above this many world-ticks a measurement is timed once instead of three times.
    static let singleRunAbove = 30_000_000

    func run() throws {
        // Baseline mistakes are found before anything is measured.
        if let saveBaseline { _ = try BenchBaseline.path(name: saveBaseline, in: out) }
        let saved = try baseline.map { try BenchBaseline.load(name: $0, in: out) }
        if !noReport || saveBaseline != nil { try OutputFolder.checkUsable(out) }
        var result = try measure(checkingAgainst: saved)
        if let saved, let baseline { result.compare(with: saved, name: baseline) }
        var written: [String] = []
        if !noReport { written = try BenchReport.write(result, to: out) }
        if let saveBaseline { written.append(try BenchBaseline.save(result, name: saveBaseline, in: out)) }
        print(json ? result.json() : result.table())
        if !written.isEmpty {
            let note = "report: " + written.joined(separator: ", ")
            if json { WorldSweepCommand.writeError(note) } else { print(note) }
        }
    }

    /// Checks the options (and that a baseline measured the same sweep), then takes every measurement.
    func measure(checkingAgainst saved: BenchResult? = nil) throws -> BenchResult {
        let scene = try file.map { try overrides.load($0) } ?? BuiltInSweeps.twinDrop()
        if file == nil && !overrides.overrides.isEmpty { throw BadInput("--set and --sweep need a sweep FILE") }
        if let saved, saved.sweep != scene.name || saved.ticksPerWorld != scene.world.ticks {
            throw BadInput("--baseline \(baseline ?? ""): it measured \(saved.sweep) (\(saved.ticksPerWorld) ticks per world), not \(scene.name) (\(scene.world.ticks))")
        }
        var worldCounts = try Self.counts(worlds, name: "--worlds", limit: CommandLineLimits.benchWorlds)
        if let most = worldCounts.max(), most > limit.maxWorlds, !force {
            throw BadInput("--worlds \(most) is more than the limit of \(limit.maxWorlds) (--max-worlds); add --force to allow it")
        }
        let threadCounts = try threads.map { try Self.counts($0, name: "--threads", limit: CommandLineLimits.threads) }
            ?? Array(1...min(Scheduler.defaultThreads(), CommandLineLimits.threads.upperBound))
        let integrators = try Self.list(integrator, name: "--integrator") { LaneIntegrator(rawValue: $0) }
        let engineList = try Self.engines(engines, integrators: integrators)
        if kernelWork < 1 { throw BadInput("--kernel-work must be 1 or more, got \(kernelWork)") }
        LaneIntegrator.useSingleThreadedBLAS()

        if wholeRunReport && !wholeRun { throw BadInput("--whole-run-report needs --whole-run") }
        if let rounds { try CommandLineLimits.check(rounds, 1...1000, option: "--rounds") }
        let runner = WorldRunner(scene: scene)
        // The whole run covers the sweep's own worlds: the engine is timed on exactly those too.
        if wholeRun && !worldCounts.contains(runner.worldCount) { worldCounts.append(runner.worldCount) }
        let wholeRunEngine = engineList.first { $0 != .single } ?? engineList[0]
        let fileData = try file.map { path -> Data in
            guard let d = FileManager.default.contents(atPath: path) else { throw BadInput("\(path): cannot read the file") }
            return d
        } ?? Data(BuiltInSweeps.twinDropYAML.utf8)
        // The worlds run on the chosen engine code, which reads the sweep again from these bytes.
        let source = SweepSource(path: file, data: fileData, sets: overrides.sets, sweeps: overrides.sweeps)
        let engineCode = WorldSweepCommand.engine.code
        // As `run` draws them: the extreme worlds replayed (a sweep file only; the built-in one has no path to name).
        let replay = file.map { WorldReplay(scene: scene, file: $0, overrides: overrides.overrides.arguments) }
        let progress = isatty(2) != 0
        var rows: [BenchResult.EngineRow] = []
        func row(_ name: String, integrator: String?, threads t: Int, worlds w: Int, _ timings: [Double]) -> BenchResult.EngineRow {
            let seconds = Self.median(timings)
            let work = Double(w * runner.ticksPerWorld)
            var row = BenchResult.EngineRow(engine: name, integrator: integrator, threads: t, worlds: w, runs: timings.count,
                                            seconds: seconds, worldTicksPerSecond: work / seconds)
            // The slowest run gives the lowest rate.
            row.minWorldTicksPerSecond = work / timings.max()!
            row.maxWorldTicksPerSecond = work / timings.min()!
            row.roundSeconds = timings
            if progress {
                WorldSweepCommand.writeError("bench: \(row.engine), \(t) thread(s), \(w) worlds: "
                    + String(format: "%.0f world-ticks/s", row.worldTicksPerSecond))
            }
            return row
        }
        // Rounds interleave the engines (and the whole run) at each (worlds, threads), so a drift in
        // clock speed or a neighbour's load hits them alike.
        for w in worldCounts {
            let runs = rounds ?? (w * runner.ticksPerWorld > Self.singleRunAbove ? 1 : 3)
            for t in threadCounts {
                let whole = wholeRun && w == runner.worldCount
                var timings = [[Double]](repeating: [], count: engineList.count)
                var wholeTimings: [Double] = []
                for _ in 0..<runs {
                    for (k, e) in engineList.enumerated() {
                        timings[k].append(max(try engineCode.timeWorlds(source, engine: e.name, worlds: w, threads: t,
                                                                        chunkSize: Self.chunkSize), 1e-9))
                    }
                    if whole {
                        wholeTimings.append(max(try BenchWholeRun.time(source: source, engine: wholeRunEngine,
                                                                       threads: t, report: wholeRunReport, replay: replay,
                                                                       directory: "\(out)/whole-run"), 1e-9))
                    }
                }
                for (k, e) in engineList.enumerated() {
                    var integrator: String?
                    if case .batched(let i) = e { integrator = i.rawValue }
                    rows.append(row(e.name, integrator: integrator, threads: t, worlds: w, timings[k]))
                }
                if whole { rows.append(row(BenchWholeRun.engineName(report: wholeRunReport), integrator: nil, threads: t, worlds: w, wholeTimings)) }
            }
        }
        var kernels: [BenchResult.KernelRow] = []
        // Lane counts small enough for two sub-steps within --kernel-work (all three by default).
        let laneCounts = [64, 4096, 262_144].filter { $0 == 64 || 2 * $0 <= kernelWork }
        for i in integrators {
            for lanes in laneCounts {
                let steps = max(2, kernelWork / lanes)
                kernels.append(.init(integrator: i.rawValue, lanes: lanes,
                                     bodySubStepsPerSecond: engineCode.integratorThroughput(i.rawValue, bodies: 2, lanes: lanes,
                                                                                            subSteps: steps)))
            }
        }
        let engineOrder = engineList.map(\.name) + [BenchWholeRun.engineName(report: wholeRunReport)]
        rows.sort { a, b in
            let ea = engineOrder.firstIndex(of: a.engine) ?? 0, eb = engineOrder.firstIndex(of: b.engine) ?? 0
            return (ea, a.worlds, a.threads) < (eb, b.worlds, b.threads)
        }
        var result = BenchResult(sweep: scene.name, ticksPerWorld: runner.ticksPerWorld, sweepWorlds: runner.worldCount,
                                 machine: .current(), engines: rows, integrators: kernels)
        result.computeRatios()
        result.computeWholeRunRatios(engine: wholeRunEngine.name)
        return result
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
