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

/// `worldsweep run FILE`: every world of the sweep (or one shard), into DIR.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every world of a sweep file into worlds.csv, summary.json and a report.",
        usage: "worldsweep run <file> [<options>]",
        discussion: """
            Writes into DIR (default runs/<name>): worlds.csv (one row per world), partners.csv \
            (contacts per world, item and partner touched), summary.json (per point mean, std, min, max over the \
            replicas), report.md and report.html, and run.json (what --resume needs). Ctrl-C stops \
            after the worlds in flight and leaves a run that --resume continues. With --shard I --of N \
            only shard I's points run, into DIR/shards/I-of-N/ (I from 0; it may also come from \
            SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX); join them with `worldsweep merge DIR`. \
            Also written: points.csv and partner_points.csv (summary.json's points as flat tables; only with more than one \
            replica per point, as with one worlds.csv is the per-point table) and sweep.yaml (a copy \
            of FILE); summary.json records the command line and the version. A finished run in DIR \
            is kept unless --force replaces it.

            --set and --sweep change the file's values for this run (checked like the file's \
            own); sweep.yaml in DIR lists them after the file's text, and --resume and merge \
            need the same ones.

            Examples:
              worldsweep run Sweeps/twin-drop.yaml
              worldsweep run Sweeps/twin-drop.yaml --out runs/try-2 --threads 2
              worldsweep run Sweeps/twin-drop.yaml --resume     # after Ctrl-C
              worldsweep run Sweeps/twin-drop.yaml --force      # replace the run
              worldsweep run Sweeps/twin-drop.yaml --shard 3 --of 8 --out runs/big
              worldsweep run Sweeps/twin-drop.yaml --set bouncy.elasticity=0.5 \\
                  --sweep fall.magnitude=linspace:0.5,2,4 --out runs/gravity
              worldsweep run Sweeps/twin-drop.yaml --set sweep.replicas=4 \\
                  --set world.duration=2 --engine single --out runs/short
            """)

    @Argument(help: "A sweep file (YAML or JSON).")
    var file: String

    @Option(help: ArgumentHelp("Output folder (default: runs/<name>).", valueName: "DIR"))
    var out: String?

    // Counts parse unconditionally, so `--threads -1` is refused as a negative count, not read as
    // a missing value followed by an option.
    @Option(parsing: .unconditional, help: "Worker threads (default: SLURM_CPUS_PER_TASK, else the active processors).")
    var threads: Int?

    @Option(name: .customLong("chunk-size"), parsing: .unconditional, help: "Worlds per unit of work (one batch of the batched engine); with several threads the last chunks are smaller.")
    var chunkSize: Int = 64

    @Option(help: "The batched engine's integrator back end (simd: faster on every machine measured).")
    var integrator: IntegratorChoice = .simd

    @Option(help: "batched: many worlds per instruction; single: one world at a time (same results with simd).")
    var engine: EngineChoice = .batched

    @OptionGroup var overrides: OverrideOptions

    @Option(parsing: .unconditional, help: "Run only this shard (0-based; needs --of).")
    var shard: Int?

    @Option(parsing: .unconditional, help: "How many shards the sweep is cut into.")
    var of: Int?

    @Flag(help: "Continue an interrupted run in DIR (start afresh if there is none).")
    var resume = false

    @Flag(help: "No progress bar.")
    var quiet = false

    @Flag(help: "Run more than --max-worlds worlds, or start again over an unfinished or finished run in DIR.")
    var force = false

    @OptionGroup var limit: WorldLimitOptions

    func run() throws {
        let began = DispatchTime.now().uptimeNanoseconds
        let environment = ProcessInfo.processInfo.environment
        let (scene, composed) = try overrides.loadComposed(file)
        guard let data = FileManager.default.contents(atPath: file) else { throw BadInput("\(file): cannot read the file") }
        if let threads { try CommandLineLimits.check(threads, CommandLineLimits.threads, option: "--threads") }
        try CommandLineLimits.check(chunkSize, CommandLineLimits.chunkSize, option: "--chunk-size")
        try WorldLimit.check(scene, maximum: limit.maxWorlds, force: force)
        let shardSpec = try Self.shard(index: shard, count: of, environment: environment)
        let directory = out ?? "runs/\(scene.name)"
        var threadCount = min(threads ?? Scheduler.defaultThreads(environment: environment), CommandLineLimits.threads.upperBound)

        let cancel = CancellationFlag(also: { interruptRequested != 0 })
        Self.catchInterrupts()
        defer { Self.releaseInterrupts() }

        let bar = ProgressBar(quiet: quiet)
        var runner = WorldRunner(scene: scene)
        switch engine {
        case .batched: runner.engine = .batched(integrator.backEnd)
        case .single: runner.engine = .single
        }
        // Memory before anything is allocated: fewer threads when worlds do not fit side by side.
        threadCount = min(threadCount, try MemoryCheck.worldsThatFit(scene, runner: runner))
        LaneIntegrator.useSingleThreadedBLAS()
        var source = SweepSource(path: file, data: data, sets: overrides.sets, sweeps: overrides.sweeps)
        source.composed = composed
        var request = SweepRequest(source: source, directory: directory, engine: runner.engine.name, threads: threadCount,
                                   chunkSize: chunkSize)
        request.resume = resume; request.force = force; request.shard = shardSpec
        request.cancelled = { cancel.isCancelled }
        request.progress = { bar.update(done: $0, total: $1) }
        request.commandLine = WorldSweepCommand.arguments
        request.closesInBackground = true
        // What the report reads of the points' parameters alone, made while the workers simulate.
        let groundwork = shardSpec == nil ? ReportGroundwork(scene: scene) : nil
        request.whileWorkersRun = groundwork.map { g in { g.make() } }
        // One process at a time in the folder the rows go to, until the last file is in place.
        let lock: FolderLock
        do {
            lock = try FolderLock(shardSpec.map { SweepRun.shardFolder(directory, index: $0.index, count: $0.count) } ?? directory)
        } catch let error as RunInputError {
            throw BadInput(error.description)
        }
        defer { lock.release() }
        let outcome: SweepReply
        do {
            outcome = try WorldSweepCommand.engine.code.runSweep(request)
        } catch let error as RunInputError {
            bar.finish()
            throw BadInput(error.description)
        } catch {
            bar.finish()
            throw RunFailure("\(directory): \(plainText(error))")
        }
        bar.finish()
        // However this ends, the run's last files are in place (or their error said) before it does.
        var closed = false
        func close() throws {
            guard !closed else { return }
            closed = true
            do { try outcome.closing?() } catch { throw RunFailure("\(directory): \(plainText(error))") }
        }
        defer { try? close() }
        var resumeLine = (["worldsweep", "run", file] + overrides.overrides.arguments.map(Self.quoted)).joined(separator: " ") + " --resume"
        if out != nil { resumeLine += " --out \(directory)" }
        if let shardSpec { resumeLine += " --shard \(shardSpec.index) --of \(shardSpec.count)" }
        guard outcome.completed else {
            throw Interrupted("interrupted: \(outcome.worldsDone) of \(outcome.worldsInRange) worlds written to \(outcome.directory)/worlds.csv; continue with: \(resumeLine)")
        }
        if let shardSpec {
            print("shard \(shardSpec.index) of \(shardSpec.count): \(outcome.worldsInRange) world\(outcome.worldsInRange == 1 ? "" : "s") in \(outcome.directory); when every shard is done: worldsweep merge \(directory)")
            return
        }
        guard let summary = outcome.summary else { return try close() }
        // The report is made while the run's last files are synced and written.
        do {
            try ReportWriter.write(summary: summary, sample: outcome.sample, to: directory, replay: WorldReplay(scene: scene, file: file, overrides: overrides.overrides.arguments),
                                   threads: threadCount, comingFiles: outcome.closingFiles, groundwork: groundwork)
        } catch {
            try close()
            throw RunFailure("\(directory): the report could not be written: \(plainText(error))")
        }
        try close()
        let wholeRun = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        print(Self.figures(summary.run, wholeRunSeconds: wholeRun))
        Self.printFiles(summary: summary, directory: directory)
        // Left for the process's exit to free: freeing a big sweep's points and sample object by
        // object would delay the exit after the last file is written.
        Self.heldUntilExit = outcome
    }

    /// The last run's results, not freed before the process ends (see `run`).
    nonisolated(unsafe) static var heldUntilExit: SweepReply?

    /// An argument as a shell reads it back: single-quoted when it holds anything but plain characters.
    static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_.,:=/+@%".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Ctrl-C sets a flag (async-signal-safe) instead of killing the process; the scheduler polls it
    /// through the cancellation flag and starts no new chunk once it is set.
    static func catchInterrupts() {
        interruptRequested = 0
        signal(SIGINT) { _ in interruptRequested = 1 }
        signal(SIGTERM) { _ in interruptRequested = 1 }
        // A parent may hand the signals down blocked (some launchers do): Ctrl-C must still reach us.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func releaseInterrupts() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// The closing figures, labelled: what ran (only the worlds this process simulated: a resumed
    /// run's kept worlds are read back, not run), the simulation's own rate (the engine's time per
    /// thread, what `bench` measures) and the whole run's time (files and report included).
    static func figures(_ run: RunInfo, wholeRunSeconds: Double) -> String {
        let ran = run.worldsRun ?? run.worlds
        let threads = "\(run.threads) thread\(run.threads == 1 ? "" : "s")"
        var lines = ["ran \(ran) world\(ran == 1 ? "" : "s") × \(run.ticksPerWorld) ticks on \(threads)"
                     + (ran < run.worlds ? " (\(run.worlds - ran) more kept from before --resume)" : "")]
        let work = Double(ran) * Double(run.ticksPerWorld)
        if let rate = run.simulationWorldTicksPerSecond, let engine = run.engineThreadSeconds {
            lines.append("simulation: " + Self.rate(rate) + " (\(RunInfo.secondsText(engine / Double(max(1, run.threads)))) in the engine per thread)")
        }
        // The run's own figures are summary.json's (and the report's): one source for all three.
        if run.wallSeconds > 0 {
            lines.append("run:        " + Self.rate(run.worldTicksPerSecond) + " (\(run.wallText) wall: the worlds and their data files, as in summary.json and the report)")
        }
        if wholeRunSeconds > run.wallSeconds, run.wallSeconds > 0 {
            lines.append("report:     \(RunInfo.secondsText(wholeRunSeconds - run.wallSeconds)) more (\(RunInfo.secondsText(wholeRunSeconds)) in all)")
        } else if wholeRunSeconds > 0, run.wallSeconds <= 0 {
            lines.append("whole run:  " + Self.rate(work / wholeRunSeconds) + " (\(RunInfo.secondsText(wholeRunSeconds)) wall, files and report included)")
        }
        return lines.joined(separator: "\n")
    }

    /// World-ticks per second, with worlds per second beside.
    static func rate(_ worldTicksPerSecond: Double) -> String {
        String(format: "%.0f world-ticks/s", worldTicksPerSecond)
    }

    static func printFiles(summary: SweepSummary, directory: String) {
        // Every world's failure counts (the summary's points may be every k-th of a big sweep's).
        let failed = summary.failedWorlds
        if failed > 0 { print("\(failed) world\(failed == 1 ? "" : "s") blew up (marked failed; their metrics are left out)") }
        // points.csv only with more than one replica per point (with one, worlds.csv is the per-point table).
        let tables = summary.replicas > 1 ? ["worlds.csv", "points.csv", "summary.json"] : ["worlds.csv", "summary.json"]
        print("results: " + tables.map { "\(directory)/\($0)" }.joined(separator: ", "))
        print("report: \(directory)/report.html (and \(directory)/report.md)")
    }

    /// The shard to run: `--shard` or the array index from the environment, with `--of`.
    static func shard(index: Int?, count: Int?, environment: [String: String]) throws -> (index: Int, count: Int)? {
        guard let count else {
            if index != nil { throw BadInput("--shard needs --of N (how many shards)") }
            return nil
        }
        try CommandLineLimits.check(count, CommandLineLimits.shards, option: "--of")
        let i: Int
        if let index {
            i = index
        } else if let text = environment["SLURM_ARRAY_TASK_ID"] ?? environment["JOB_COMPLETION_INDEX"] {
            guard let v = Int(text) else {
                throw BadInput("the shard index from the environment is not a number: '\(TextPosition.shown(text))'")
            }
            i = v
        } else {
            throw BadInput("--of needs a shard index: --shard I, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
        }
        guard (0..<count).contains(i) else { throw BadInput("shard \(i) is outside 0..<\(count) (shards count from 0)") }
        return (i, count)
    }
}

/// Set by the SIGINT handler (a plain word: nothing else is safe in a signal handler).
nonisolated(unsafe) var interruptRequested: Int32 = 0

/// A run that stopped or could not write its files (exit 1).
public struct RunFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
