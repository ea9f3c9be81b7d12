import Foundation

// A search's convergence, generation by generation: tune.json's rows when it ends, and what
// `worldsweep serve` shows of a search while it runs, read from its checkpoint.

extension TuneReport {
    /// After each generation, the best point among every evaluation up to there (as
    /// `TuneResult.best` picks it) and the worlds run so far.
    public var bestSoFar: [(generation: Int, worlds: Int, best: TuneEvaluation)] {
        var rows: [(generation: Int, worlds: Int, best: TuneEvaluation)] = []
        var seen: [TuneEvaluation] = []
        for g in 0..<outcome.generations {
            seen += outcome.evaluations.filter { $0.generation == g }
            guard let b = TuneResult.best(seen, scoring: scoring) else { continue }
            rows.append((g, seen.reduce(0) { $0 + $1.replicas }, b))
        }
        return rows
    }

    /// A point in words as the convergence rows write it: its values, then its metrics.
    public func inWords(_ e: TuneEvaluation) -> String { numbers.values(e.values) + " → " + numbers.metrics(e) }
}

extension TuneSearch {
    /// The generations a search's checkpoint (search.json) records; nil when it cannot be read.
    public static func recordedGenerations(at checkpoint: String) -> [[TuneEvaluation]]? {
        guard let data = FileManager.default.contents(atPath: checkpoint) else { return nil }
        return try? JSONDecoder().decode(Checkpoint.self, from: data).generations
    }
}

extension TuneSearch.Outcome {
    /// A search read back from its checkpoint: `generations` as recorded, not yet finished.
    public init(recorded generations: [[TuneEvaluation]]) {
        let all = generations.flatMap { $0 }
        self.init(completed: false, evaluations: all, worlds: all.reduce(0) { $0 + $1.replicas }, generations: generations.count,
                  stop: "running")
    }
}
