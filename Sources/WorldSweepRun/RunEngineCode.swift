// This compilation's entry points for the commands (WorldSweepResults' `EngineCode`): the module is
// compiled twice (Package.swift), so `WorldSweepRun.RunEngineCode` runs the portable engine and
// `WorldSweepRunAVX2.RunEngineCode` the AVX2 one. Each parses the sweep the command read (the
// document it composed, or the file again with the same overrides) and runs it here.

@_exported import WorldSweepResults
import Dispatch
import Foundation
import WorldSweep
import WorldSweepScene

public enum RunEngineCode: EngineCode {
    public static var name: String { CodePath.current }

    /// The scene a command loaded, loaded the same way here: from the document it composed, else
    /// a file again from its path (as `SceneFile.load(path:overrides:)` read it there), a
    /// built-in sweep from its text.
    static func scene(_ source: SweepSource) throws -> SceneFile {
        if let composed = source.composed, let path = source.path, source.sets.isEmpty, source.sweeps.isEmpty {
            return try SceneFile.parse(composed, path: path)
        }
        guard let path = source.path else {
            return try SceneFile.parse(yaml: String(decoding: source.data, as: UTF8.self), path: builtInLabel, overrides: source.overrides)
        }
        return try SceneFile.load(path: path, overrides: source.overrides)
    }

    /// What a built-in sweep's errors and `sourcePath` name.
    public static let builtInLabel = "<built-in twin-drop>"

    /// The engine an `EngineCode` caller names (`SweepEngine.name`).
    public static func engine(named name: String) -> SweepEngine? {
        if name == SweepEngine.single.name { return .single }
        return LaneIntegrator.allCases.map { SweepEngine.batched($0) }.first { $0.name == name }
    }

    public static func runSweep(_ request: SweepRequest) throws -> SweepReply {
        var sweep = SweepRun(scene: try scene(request.source), fileData: request.source.data, directory: request.directory,
                             overrides: request.source.overrides)
        guard let engine = engine(named: request.engine) else { throw RunInputError("no engine named '\(request.engine)'") }
        sweep.runner.engine = engine
        let progress = request.progress
        var options = SweepRun.Options(threads: request.threads, chunkSize: request.chunkSize, resume: request.resume,
                                       force: request.force, shard: request.shard,
                                       cancel: CancellationFlag(also: request.cancelled),
                                       progress: progress.map { p in { p($0, $1) } }, commandLine: request.commandLine)
        options.closesInBackground = request.closesInBackground
        options.whileWorkersRun = request.whileWorkersRun
        return try sweep.run(options)
    }

    public static func timeWorlds(_ source: SweepSource, engine name: String, worlds: Int, threads: Int,
                                  chunkSize: Int) throws -> Double {
        var runner = WorldRunner(scene: try scene(source))
        guard let engine = engine(named: name) else { throw RunInputError("no engine named '\(name)'") }
        runner.engine = engine
        let count = runner.worldCount
        let start = DispatchTime.now().uptimeNanoseconds
        var ran = 0
        _ = try Scheduler(threads: threads, chunkSize: chunkSize).run(0..<worlds, work: { [runner] range in
            wrapped(range, count: count).reduce(0) { $0 + runner.run(worlds: $1).count }
        }, consume: { _, n in ran += n })
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(ran == worlds, "bench ran \(ran) of \(worlds) worlds")
        return seconds
    }

    /// `range` of world indices as ranges within 0..<count (index i is world i mod count), in order.
    public static func wrapped(_ range: Range<Int>, count: Int) -> [Range<Int>] {
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

    public static func integratorThroughput(_ integrator: String, bodies: Int, lanes: Int, subSteps: Int) -> Double {
        guard let backEnd = LaneIntegrator(rawValue: integrator) else { return .nan }
        return backEnd.measureThroughput(bodies: bodies, lanes: lanes, subSteps: subSteps)
    }

    public static func tune(_ request: TuneRequest) throws -> TuneReply {
        let scene = try scene(request.source)
        guard let tune = scene.tune else { throw RunInputError("\(request.source.path ?? builtInLabel): no 'tune' section") }
        let overrides = request.source.overrides
        // As `run` keeps it: the file, then the overrides as comments, so sweep.yaml says what was
        // searched, and --resume with other overrides is refused as a changed file.
        let data = SweepRun.sweepCopy(request.source.data, overrides: overrides)
        let search = TuneSearch(scene: scene, fileData: data, directory: request.directory)
        let progress = request.progress
        let outcome = try search.run(.init(threads: request.threads, resume: request.resume, force: request.force,
                                           cancel: CancellationFlag(also: request.cancelled),
                                           progress: progress.map { p in { p($0) } }))
        guard outcome.completed else {
            return TuneReply(completed: false, generations: outcome.generations, worlds: outcome.worlds)
        }
        let scoring = TuneScoring(tune: tune)
        var confirmation: TuneEvaluation?
        var sensitivity: [TuneEvaluation] = []
        if let best = TuneResult.best(outcome.evaluations, scoring: scoring) {
            // Fresh jitter draws: another seed for the same replicas.
            confirmation = try search.evaluator.evaluate([best.values], generation: outcome.generations, firstPoint: 0,
                                                         jitterSeed: search.jitterSeed &+ 1, threads: request.threads,
                                                         cancel: CancellationFlag())?.evaluations.first
            // The same replicas as the search, so the steps differ from the answer by the parameter alone.
            sensitivity = try search.evaluator.evaluate(TuneReport.probes(around: best.values, tune: tune),
                                                        generation: outcome.generations, firstPoint: 0, jitterSeed: search.jitterSeed,
                                                        threads: request.threads, cancel: CancellationFlag())?.evaluations ?? []
        }
        let jittered = !(scene.sweep?.jitter.isEmpty ?? true)
        var report = TuneReport(tune: tune, outcome: outcome, confirmation: confirmation, jittered: jittered,
                                sensitivity: sensitivity)
        report.name = scene.name; report.description = scene.description; report.tick = scene.world.tick
        report.catalog = scene.metricCatalog
        try report.write(to: search.directory, fileText: String(decoding: request.source.data, as: UTF8.self), overrides: overrides,
                         figures: request.figures?(report.chartData) ?? "")
        return TuneReply(completed: true, generations: outcome.generations, worlds: outcome.worlds, sentence: report.sentence,
                         unmet: report.unmet, conflicts: report.conflicts, met: report.met)
    }
}

extension SweepSource {
    /// The command line's `--set` / `--sweep` as the scene reads them.
    var overrides: SceneOverrides { SceneOverrides(sets: sets, sweeps: sweeps) }
}
