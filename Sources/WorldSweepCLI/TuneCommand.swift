import ArgumentParser
import Foundation
import WorldSweepReport
import WorldSweepRun
import WorldSweepScene

/// `worldsweep tune FILE`: searches the file's `tune:` parameters for what its wants ask.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Search the file's 'tune' parameters for a target, bounds, objectives or a curve (docs/tune.md).",
        usage: "worldsweep tune <file> [<options>]",
        discussion: """
            Each generation of candidates runs as one batch of worlds (every point over the sweep's \
            replicas and jitter, common to all candidates). Writes into DIR (default runs/<name>-tune): \
            worlds.csv (every evaluated world plus its generation), best.yaml (the file with the found \
            values), tune.json, report.md and report.html, pareto.csv for several objectives, and \
            search.json (the checkpoint --resume continues from). The best point is confirmed over \
            fresh replicas. The answer prints as one sentence; exit 1 when no point meets every want.

            Examples:
              worldsweep tune Sweeps/tune-bounce.yaml
              worldsweep tune Sweeps/tune-spring-curve.yaml --threads 2 --out runs/fit
              worldsweep tune Sweeps/tune-bounce.yaml --resume        # after Ctrl-C
              worldsweep tune Sweeps/tune-bounce.yaml --set sweep.replicas=4 \\
                  --out runs/tune-quick
            """)

    @Argument(help: "A sweep file with a 'tune' section.")
    var file: String

    @OptionGroup var overrides: OverrideOptions

    @Option(help: ArgumentHelp("Output folder (default: runs/<name>-tune).", valueName: "DIR"))
    var out: String?

    @Option(parsing: .unconditional, help: "Worker threads (default: SLURM_CPUS_PER_TASK, else the active processors).")
    var threads: Int?

    @Flag(help: "Continue an interrupted search in DIR (start afresh if there is none).")
    var resume = false

    @Flag(help: "Start again over a search in DIR; allow a budget above --max-worlds.")
    var force = false

    @OptionGroup var limit: WorldLimitOptions

    @Flag(help: "No progress line.")
    var quiet = false

    func run() throws {
        let scene = try overrides.load(file)
        guard scene.tune != nil else { throw BadInput("\(file): no 'tune' section to search (see docs/tune.md)") }
        // The world limit `run` and `bench` follow (a search may run its whole budget), and what validate checks.
        try TuneChecks.check(scene, file: file, maxWorlds: limit.maxWorlds, force: force)
        guard let fileData = FileManager.default.contents(atPath: file) else { throw BadInput("\(file): cannot read the file") }
        if let threads { try CommandLineLimits.check(threads, CommandLineLimits.threads, option: "--threads") }
        let threadCount = min(threads ?? Scheduler.defaultThreads(), CommandLineLimits.threads.upperBound)
        let directory = out ?? "runs/\(scene.name)-tune"
        let cancel = CancellationFlag(also: { interruptRequested != 0 })
        RunCommand.catchInterrupts()
        defer { RunCommand.releaseInterrupts() }
        let showProgress = !quiet
        // The search, its confirmation and its report run on the chosen engine code.
        var request = TuneRequest(source: SweepSource(path: file, data: fileData, sets: overrides.sets, sweeps: overrides.sweeps),
                                  directory: directory, threads: threadCount)
        request.resume = resume; request.force = force
        request.cancelled = { cancel.isCancelled }
        request.progress = { line in if showProgress { FileHandle.standardError.write(Data((line + "\n").utf8)) } }
        // The page's pictures are drawn here, from plain numbers, whichever engine code searched.
        request.figures = { data in TuneCharts.html(data, scene: scene, file: file) }
        // One process at a time in the search's folder, until its report is written.
        let lock: FolderLock
        do { lock = try FolderLock(directory) } catch let error as RunInputError { throw BadInput(error.description) }
        defer { lock.release() }
        let reply: TuneReply
        do {
            reply = try WorldSweepCommand.engine.code.tune(request)
        } catch let error as RunInputError {
            throw BadInput(error.description)
        }
        guard reply.completed else {
            throw Interrupted("interrupted after \(reply.generations) generation\(reply.generations == 1 ? "" : "s"); "
                              + "continue with: worldsweep tune \(file) --resume" + (out.map { " --out \($0)" } ?? ""))
        }
        print(reply.sentence)
        for line in reply.unmet + reply.conflicts { print(line) }
        print("\(reply.worlds) worlds in \(reply.generations) generation\(reply.generations == 1 ? "" : "s"); results: \(directory)/best.yaml, "
              + "\(directory)/report.html")
        if !reply.met { throw RunFailure("\(file): no evaluated point meets every want (see \(directory)/report.md)") }
    }
}

