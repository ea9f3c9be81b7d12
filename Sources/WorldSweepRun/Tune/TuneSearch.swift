import Foundation
import WorldSweepScene

/// `worldsweep tune`: generations of candidates, each run as one batch of worlds, into a folder:
/// worlds.csv (every evaluated world, plus its generation) and search.json (every generation's
/// evaluations, the checkpoint), rewritten after each generation. The search is a pure function
/// of the file and its seeds, so `--resume` replays the recorded generations instead of running
/// them and goes on from there: the same bytes as a search never stopped.
public struct TuneSearch {
    public struct Options {
        public var threads: Int
        public var resume: Bool
        public var force: Bool
        public var cancel: CancellationFlag
        /// Called after each generation with a one-line summary (the best so far).
        public var progress: ((String) -> Void)?
        public init(threads: Int = Scheduler.defaultThreads(), resume: Bool = false, force: Bool = false,
                    cancel: CancellationFlag = CancellationFlag(), progress: ((String) -> Void)? = nil) {
            self.threads = threads; self.resume = resume; self.force = force; self.cancel = cancel; self.progress = progress
        }
    }

    public struct Outcome {
        public var completed: Bool
        public var evaluations: [TuneEvaluation]
        public var worlds: Int
        public var generations: Int
        /// Why the search stopped: "met", "budget", "converged".
        public var stop: String
    }

    struct Checkpoint: Codable {
        var fingerprint: String
        var worldsBytes: Int
        var generations: [[TuneEvaluation]]
    }

    public static let checkpointName = "search.json"
    public static let fileNames = ["worlds.csv", checkpointName, "best.yaml", "pareto.csv", "tune.json", "report.md",
                                   "report.html", "sweep.yaml"]

    public let evaluator: TuneEvaluator
    public let fileData: Data
    public let directory: String

    public init(scene: SceneFile, fileData: Data, directory: String) {
        evaluator = TuneEvaluator(scene: scene)
        self.fileData = fileData
        self.directory = directory
    }

    public var tune: TuneSpec { evaluator.tune }
    public var jitterSeed: UInt64 { evaluator.scene.sweep?.seed ?? 0 }
    public var population: Int {
        tune.population ?? (useBracket ? 8 : CMAES.defaultPopulation(dimension: tune.parameters.count))
    }
    var useBracket: Bool {
        tune.method == .bracket || (tune.method == .auto && tune.parameters.count == 1 && tune.parameters[0].isContinuous)
    }

    public func run(_ options: Options) throws -> Outcome {
        let fm = FileManager.default
        let worldsPath = "\(directory)/worlds.csv", checkpointPath = "\(directory)/\(Self.checkpointName)"
        try OutputFolder.check(directory, ownMarker: Self.checkpointName)
        for name in Self.fileNames where OutputFolder.kind(of: "\(directory)/\(name)") ?? .file != .file {
            throw RunInputError("\(directory)/\(name) is not a file worldsweep wrote; move it away or choose another --out")
        }
        // The curve a search follows is part of its input, as the file is.
        let print = fingerprint(fileData + (tune.curve?.bytes ?? Data()))
        var cached: [[TuneEvaluation]] = []
        let worlds: AppendFile
        var worldsBytes: Int
        let header = evaluator.layout.header + ",generation\n"
        let finished = fm.fileExists(atPath: "\(directory)/tune.json")
        var setupStart: UInt64?
        if options.resume, fm.fileExists(atPath: checkpointPath), fm.fileExists(atPath: worldsPath) {
            guard let data = fm.contents(atPath: checkpointPath), let old = try? JSONDecoder().decode(Checkpoint.self, from: data) else {
                throw RunInputError("\(checkpointPath): cannot read the search's checkpoint; run without --resume (or with --force)")
            }
            guard old.fingerprint == print else {
                throw RunInputError("\(evaluator.scene.sourcePath): the file" + (tune.curve.map { " or its curve \($0.file)" } ?? "")
                                    + " changed since the search in \(directory) started; run without --resume")
            }
            cached = old.generations
            worldsBytes = old.worldsBytes
            // Rows written after the last checkpoint belong to a generation that will run again.
            try truncateFile(worldsPath, to: worldsBytes)
            unlink("\(directory)/tune.json")
            worlds = try AppendFile(path: worldsPath, truncate: false)
        } else {
            if fm.fileExists(atPath: checkpointPath) && !options.force && !options.resume {
                throw RunInputError(finished ? "\(directory) holds a finished search: give another --out, or add --force to replace it"
                                    : "\(directory) holds an unfinished search: add --resume to continue it or --force to start again")
            }
            setupStart = DispatchTime.now().uptimeNanoseconds
            try OutputFolder.create(directory)
            for name in Self.fileNames { unlink("\(directory)/\(name)") }
            try AtomicFile.write(try JSONText.encode(Checkpoint(fingerprint: print, worldsBytes: header.utf8.count, generations: [])),
                                 to: checkpointPath)
            try AtomicFile.write(fileData, to: "\(directory)/sweep.yaml")
            worlds = try AppendFile(path: worldsPath, truncate: true)
            // No sync: the first checkpoint syncs the file before it records any byte of it.
            try worlds.append(header)
            worldsBytes = header.utf8.count
        }
        defer { worlds.close() }
        // A new folder's first files (the empty checkpoint among them) count as the last checkpoint.
        var checkpoint = CheckpointWriter(path: checkpointPath, fingerprint: print, worlds: worlds, recorded: cached.count,
                                          lastCost: setupStart.map { DispatchTime.now().uptimeNanoseconds - $0 } ?? 0)

        let scoring = TuneScoring(tune: tune)
        var random = SearchRandom(seed: tune.seed)
        let replicas = evaluator.replicas
        var bracket = useBracket ? Bracket(count: population, target: loneTarget) : nil
        // Targets and bounds only: their answers may lie anywhere in the box, so the first look is
        // wider (σ 0.5: 64 worlds median on tune-bounces.yaml over 15 seeds, against 80 at 0.3);
        // an objective or a curve has one answer, where 0.3 converges sooner (88 against 104).
        var cma = useBracket ? nil : RestartingCMA(dimension: tune.parameters.count, population: population,
                                                   sigma: targetsOnly ? 0.5 : 0.3)
        var all: [TuneEvaluation] = []
        var generations: [[TuneEvaluation]] = []
        var used = 0
        var stop = "budget"
        var generation = 0
        while true {
            let units = bracket != nil ? bracket!.ask(&random) : cma!.ask(&random)
            guard !units.isEmpty, used + units.count * replicas <= tune.budget else { break }
            let candidates = units.map { u in zip(tune.parameters, u).map { $0.value(atUnit: $1) } }
            let evaluations: [TuneEvaluation]
            if generation < cached.count {
                evaluations = cached[generation]
                guard evaluations.map(\.values) == candidates else {
                    throw RunInputError("\(checkpointPath): the recorded search does not replay (another version?); run with --force")
                }
            } else {
                guard let batch = try evaluator.evaluate(candidates, generation: generation, firstPoint: all.count,
                                                         jitterSeed: jitterSeed, threads: options.threads, cancel: options.cancel)
                else {
                    // Ctrl-C: what finished is recorded, so --resume starts from here.
                    try checkpoint.write(generations: cached, worldsBytes: worldsBytes)
                    return Outcome(completed: false, evaluations: all, worlds: used, generations: generation, stop: "interrupted")
                }
                evaluations = batch.evaluations
                try worlds.append(batch.rows)
                worldsBytes += batch.rows.utf8.count
                generations = Array(cached.prefix(generation)) + [evaluations]
                cached = generations
            }
            used += units.count * replicas
            all += evaluations
            let scores = evaluations.map(scoring.score)
            let order = scoring.order(scores)
            if bracket != nil {
                bracket!.note(signed: evaluations.map { e in loneTarget.flatMap { t in e.means[0].map { $0 - t } } })
                bracket!.tell(order: order, scores: scores, units: units, random: &random)
            } else {
                cma!.tell(order: order, scores: scores, units: units, random: &random)
            }
            let best = TuneResult.best(all, scoring: scoring)
            // Targets only: the next generation also tries where the metrics' slopes point.
            if cma != nil, let best, let step = TargetStep.propose(recent: Array(all.suffix(3 * units.count)), best: best, tune: tune) {
                cma!.inject(step)
            }
            options.progress?(TuneResult.progressLine(generation: generation, worlds: used, budget: tune.budget, best: best,
                                                      tune: tune, scoring: scoring))
            generation += 1
            // After the progress line: the line is what the user waits for, the checkpoint is not.
            try checkpoint.due(generations: cached, worldsBytes: worldsBytes)
            // Targets alone: stop once met, with half the tolerance to spare when replicas are
            // jittered, so fresh replicas still meet them (without jitter they repeat exactly).
            if tune.objectiveCount == 0, let best, let s = Optional(scoring.score(best)), s.violation == 0, s.worstTarget <= spare {
                stop = "met"; break
            }
            if bracket?.finished == true || cma?.finished == true { stop = "converged"; break }
        }
        try checkpoint.write(generations: cached, worldsBytes: worldsBytes)
        return Outcome(completed: true, evaluations: all, worlds: used, generations: generation, stop: stop)
    }

    /// Targets and bounds only: the search stops once they are met (see `spare`).
    var targetsOnly: Bool { tune.objectiveCount == 0 }

    /// The share of each target's tolerance the best point must meet to stop the search: half with
    /// jittered replicas (the confirmation draws fresh jitter), all of it without (it repeats exactly).
    var spare: Double { (evaluator.scene.sweep?.jitter.isEmpty ?? true) ? 1 : 0.5 }

    /// The lone target's value when the tune has exactly one want, a target (bracketing can then
    /// interpolate the crossing).
    var loneTarget: Double? {
        guard tune.wants.count == 1, tune.curve == nil, case let .target(t, _) = tune.wants[0].kind else { return nil }
        return t
    }
}
