import Foundation
import WorldSweepRun
import WorldSweepScene

/// A tune's search as it goes, from its checkpoint (search.json, rewritten after its generations):
/// per generation the best point so far and the number the tune page judges points by, the
/// current best point's values and world, and once the search ends its answer and files. The
/// convergence is tune.json's (`TuneReport.bestSoFar`), computed for the generations recorded.
enum TuneLive {
    struct Reply: Encodable, Equatable, Sendable {
        var run: String
        var name: String
        /// The catalog's words for the run: `state` (done, running, interrupted) and `status`.
        var state: String
        var status: String
        var budget: Int
        var worlds: Int
        var replicas: Int
        var parameters: [String]
        /// What `objective` measures: one objective's metric, the largest target error, the curve's distance.
        var objectiveLabel: String
        var generations: [Generation]
        var best: Best?
        /// tune.json's answer, once the search has ended.
        var answer: String?
        /// The run's reports (report.html, best.yaml, tune.json …), relative to the served folder.
        var reports: [String]
        var resume: String?
    }

    struct Generation: Encodable, Equatable, Sendable {
        var generation: Int
        /// Worlds run up to and including this generation.
        var worlds: Int
        /// The best point so far: its objective (nil when some replica lacks the metric), its
        /// values and metrics in words, whether it meets every want.
        var objective: Double?
        var best: String
        var met: Bool
    }

    struct Best: Encodable, Equatable, Sendable {
        var point: Int
        /// Its first world (worlds.csv's `world`: point × replicas), what a replay starts from.
        var world: Int
        var values: [Double]
        var metrics: String
        var objective: Double?
        var met: Bool
    }

    /// At most this many evaluations are read back (a larger search is refused, 413).
    static let maxEvaluations = 50_000

    static func reply(run: String, folder: RunsFolder, catalog: RunCatalog) throws(ServeError) -> Reply {
        let dir = try folder.folder(run)
        guard let entry = catalog.entry(of: dir), entry.kind == .tune else {
            throw ServeError(.notFound, "\(run) is not a tune's folder (no \(TuneSearch.checkpointName))")
        }
        let search = try searched(dir, run: run)
        return Reply(run: run, name: search.name, state: entry.state.rawValue, status: entry.status, budget: search.budget,
                     worlds: search.worlds, replicas: search.replicas, parameters: search.parameters,
                     objectiveLabel: search.objectiveLabel, generations: search.generations, best: search.best,
                     answer: entry.state == .done ? RunText.tuneAnswer(dir) : nil, reports: entry.reports, resume: entry.resume)
    }

    /// What the checkpoint says, worked out again only when it (or sweep.yaml) changed: the
    /// convergence of a search with several objectives costs a Pareto front per generation.
    struct Searched: Sendable {
        var name: String
        var budget: Int
        var worlds: Int
        var replicas: Int
        var parameters: [String]
        var objectiveLabel: String
        var generations: [Generation]
        var best: Best?
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var memo: [String: (signature: String, searched: Searched)] = [:]

    static func searched(_ dir: String, run: String) throws(ServeError) -> Searched {
        let signature = [SweepRun.sweepCopyName, TuneSearch.checkpointName]
            .map { RunsFolder.stamp(dir + "/" + $0).map { "\($0.size)@\($0.modified)" } ?? "-" }.joined(separator: " ")
        if let kept = lock.withLock({ memo[dir] }), kept.signature == signature { return kept.searched }
        let scene = try ReplaySource.scene(dir)
        guard let tune = scene.tune else { throw ServeError(.unprocessableContent, "\(run)/sweep.yaml has no tune section") }
        let generations = TuneSearch.recordedGenerations(at: dir + "/" + TuneSearch.checkpointName) ?? []
        guard generations.reduce(0, { $0 + $1.count }) <= maxEvaluations else {
            throw ServeError(.contentTooLarge, "the search holds over \(maxEvaluations) evaluated points; see its report instead")
        }
        var report = TuneReport(tune: tune, outcome: .init(recorded: generations), confirmation: nil, jittered: false)
        // As the search's own report writes its numbers: the file's metrics and tick.
        report.catalog = scene.metricCatalog
        report.tick = scene.world.tick
        let chart = report.chartData
        // chartData's objective per evaluation, in the outcome's order (point numbers).
        var objective: [Int: Double] = [:]
        for (e, shown) in zip(report.outcome.evaluations, chart.evaluated) {
            if let v = shown.objective, v.isFinite { objective[e.point] = v }
        }
        let scoring = report.scoring
        let rows = report.bestSoFar.map { row in
            Generation(generation: row.generation, worlds: row.worlds, objective: objective[row.best.point],
                       best: report.inWords(row.best),
                       met: scoring.score(row.best).met)
        }
        let best = report.best.map { b in
            Best(point: b.point, world: b.point * b.replicas, values: b.values, metrics: report.numbers.metrics(b),
                 objective: objective[b.point], met: scoring.score(b).met)
        }
        let searched = Searched(name: scene.name, budget: tune.budget, worlds: report.outcome.worlds, replicas: scene.sweep?.replicas ?? 1,
                                parameters: tune.parameters.map(\.path), objectiveLabel: chart.objectiveLabel, generations: rows, best: best)
        lock.withLock {
            if memo.count >= 64 { memo.removeAll() }
            memo[dir] = (signature, searched)
        }
        return searched
    }

    static func json(run: String, folder: RunsFolder, catalog: RunCatalog) throws(ServeError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reply = try reply(run: run, folder: folder, catalog: catalog)
        guard let data = try? encoder.encode(reply) else {
            throw ServeError(.unprocessableContent, "the search's numbers are not finite")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
