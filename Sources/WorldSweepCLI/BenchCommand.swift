import ArgumentParser
import Dispatch
import Foundation
import WorldSweep
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
        var runner = WorldRunner(scene: scene)
        // The whole run covers the sweep's own worlds: the engine is timed on exactly those too.
        if wholeRun && !worldCounts.contains(runner.worldCount) { worldCounts.append(runner.worldCount) }
        let wholeRunEngine = engineList.first { $0 != .single } ?? engineList[0]
        let fileData = try file.map { path -> Data in
            guard let d = FileManager.default.contents(atPath: path) else { throw BadInput("\(path): cannot read the file") }
            return d
        } ?? Data(BuiltInSweeps.twinDropYAML.utf8)
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
                        runner.engine = e
                        timings[k].append(max(Self.time(runner, worlds: w, threads: t), 1e-9))
                    }
                    if whole {
                        wholeTimings.append(max(try BenchWholeRun.time(scene: scene, fileData: fileData, engine: wholeRunEngine,
                                                                       threads: t, report: wholeRunReport,
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
                                     bodySubStepsPerSecond: i.measureThroughput(bodies: 2, lanes: lanes, subSteps: steps)))
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

    /// Wall time of running `worlds` worlds on `threads` threads, in chunks of `chunkSize` as a
    /// sweep does. World indices wrap around the sweep: each chunk runs as pieces within
    /// 0..<worldCount, so every world index maps to a real world and the world-ticks add up.
    static func time(_ runner: WorldRunner, worlds: Int, threads: Int) -> Double {
        let count = runner.worldCount
        var ran = 0
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try? Scheduler(threads: threads, chunkSize: chunkSize).run(0..<worlds, work: { range in
            wrapped(range, count: count).reduce(0) { $0 + runner.run(worlds: $1).count }
        }, consume: { _, n in ran += n })
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(ran == worlds, "bench ran \(ran) of \(worlds) worlds")
        return seconds
    }

    /// `range` of world indices as ranges within 0..<count (index i is world i mod count), in order.
    static func wrapped(_ range: Range<Int>, count: Int) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var w = range.lowerBound
        while w < range.upperBound {
            let local = w % count
            let n = min(range.upperBound - w, count - local)
            pieces.append(local..<local + n)
            w += n
        }
        return pieces
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// A comma-separated list of positive whole numbers, in order, duplicates dropped.
    static func counts(_ text: String, name: String, limit: ClosedRange<Int> = CommandLineLimits.benchWorlds) throws -> [Int] {
        // A whole number outside the range (however large) is named as such, not as unusable text.
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let digits = part.hasPrefix("-") ? part.dropFirst() : Substring(part)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
            if Int(part).map({ !limit.contains($0) }) ?? true {
                throw BadInput("\(name) must be from \(limit.lowerBound) to \(limit.upperBound), got \(TextPosition.shown(part))")
            }
        }
        return try list(text, name: name) { Int($0).flatMap { limit.contains($0) ? $0 : nil } }
    }

    /// The engines named in `text`: `single`, `batched` (one per integrator), or `batched-simd` /
    /// `batched-blas`; in order, duplicates dropped.
    static func engines(_ text: String, integrators: [LaneIntegrator]) throws -> [SweepEngine] {
        let named = try list(text, name: "--engines") { part -> [SweepEngine]? in
            switch part {
            case "single", "single-world": return [.single]
            case "batched": return integrators.map { .batched($0) }
            default:
                guard part.hasPrefix("batched-"), let i = LaneIntegrator(rawValue: String(part.dropFirst(8))) else { return nil }
                return [.batched(i)]
            }
        }
        var out: [SweepEngine] = []
        for e in named.flatMap({ $0 }) where !out.contains(e) { out.append(e) }
        return out
    }

    /// Parses every comma-separated item of `text`, in order, duplicates dropped; an empty list or
    /// item, or one `parse` rejects, is bad input.
    static func list<T: Equatable>(_ text: String, name: String, _ parse: (String) -> T?) throws -> [T] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.allSatisfy(\.isEmpty) { throw BadInput("\(name): the list is empty") }
        var values: [T] = []
        for part in parts {
            guard !part.isEmpty, let v = parse(part) else { throw BadInput("\(name): cannot use '\(TextPosition.shown(part))' in '\(TextPosition.shown(text))'") }
            if !values.contains(v) { values.append(v) }
        }
        return values
    }
}

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
                           blas: LaneIntegrator.blasDescription, build: build, codePath: CodePath.current,
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

    /// The engine table's header and cells, shared by the text table and the reports; two more
    /// columns with a baseline.
    var engineHeader: [String] {
        ["engine", "threads", "worlds", "world-ticks/s", "min … max", "vs 1 thread", "vs single-world"]
            + (baseline == nil ? [] : ["vs baseline", "verdict"]) + (hasWholeRun ? ["whole run / engine"] : [])
    }
    var hasWholeRun: Bool { engines.contains { $0.vsEngine != nil } }
    func engineCells(_ r: EngineRow) -> [String] {
        var cells = [r.engine, "\(r.threads)", "\(r.worlds)", String(format: "%.0f", r.worldTicksPerSecond), Self.range(r),
                     Self.ratio(r.vsOneThread), Self.ratio(r.vsSingleWorld)]
        if baseline != nil { cells += [Self.ratio(r.baseline?.ratio), r.baseline?.verdict.rawValue ?? "—"] }
        if hasWholeRun { cells.append(r.vsEngine.map { String(format: "%.1f %%", 100 * $0) } ?? "—") }
        return cells
    }

    static func range(_ r: EngineRow) -> String {
        guard let lo = r.minWorldTicksPerSecond, let hi = r.maxWorldTicksPerSecond else { return "—" }
        return String(format: "%.0f … %.0f", lo, hi)
    }

    var heading: String {
        "\(sweep): \(ticksPerWorld) ticks per world, \(sweepWorlds) worlds in the sweep (world i runs sweep world i mod \(sweepWorlds))"
    }

    func table() -> String {
        var s = heading + "\n"
        if machine.build == "debug" { s += "debug build: build with -c release for figures worth quoting\n" }
        if let path = machine.codePath { s += "engine code: \(path) (WORLDSWEEP_CPU=portable or avx2 picks one)\n" }
        s += "\n"
        if let b = baseline { s += "baseline \(b.name): \(b.date), \(b.build) build\(b.cpu.map { ", \($0)" } ?? "")\n\n" }
        let widths = [17, 9, 10, 16, 24, 13, 17, 13, 13, 0].prefix(engineHeader.count - 1) + [0]
        s += zip(engineHeader, widths).map { pad($0, $1) }.joined() + "\n"
        for r in engines { s += zip(engineCells(r), widths).map { pad($0, $1) }.joined() + "\n" }
        if !integrators.isEmpty {
            s += "\nintegrator kernels (one thread; \(machine.blas))\n"
            s += "back end   lanes     body-sub-steps/s\n"
            for k in integrators {
                s += pad(k.integrator, 11) + pad("\(k.lanes)", 10) + String(format: "%.3g", k.bodySubStepsPerSecond) + "\n"
            }
        }
        return s
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + (width == 0 ? "" : " ") : text + String(repeating: " ", count: width - text.count)
    }
}

/// Sweeps built into the binary, so `bench` runs anywhere without a checkout.
enum BuiltInSweeps {
    static let twinDropYAML = """
        name: twin-drop
        description: two views fall; the bottom one is far more elastic
        world: {bounds: [320, 568], tick: 1/60, duration: 5}
        items:
          top:    {center: [60, 30],  size: [50, 50]}
          bottom: {center: [220, 50], size: [50, 50]}
        behaviors:
          fall: {type: gravity, items: [top, bottom]}
          walls:
            type: collision
            items: [top, bottom]
            mode: everything
            reference_bounds: true
            boundaries:
              ledge: {from: [0, 468], to: [320, 468]}
          bouncy: {type: item, items: [bottom], elasticity: 0.9}
          stiff:  {type: item, items: [top], elasticity: 0.1}
          shove:  {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}
        sweep:
          parameters:
            bouncy.elasticity: {linspace: [0, 1, 16]}
            bouncy.density:    {values: [0.5, 1, 2]}
            shove.magnitude:   {range: [0, 1.5, 0.1]}
          seed: 42
          replicas: 1
          jitter: {top.center: [2, 2]}
        """

    static func twinDrop() throws -> SceneFile {
        try SceneFile.parse(yaml: twinDropYAML, path: "<built-in twin-drop>")
    }
}
