import Foundation
import WorldSweepRun
import WorldSweepScene

/// What a tune file must satisfy beyond its parse, checked alike by `validate` and `tune`: the
/// budget within the world limit and at least one generation, and every want a column of its worlds.
enum TuneChecks {
    static func check(_ scene: SceneFile, file: String, maxWorlds: Int, force: Bool) throws {
        guard let tune = scene.tune else { return }
        if tune.budget > maxWorlds && !force {
            throw SceneError(path: file, at: tune.location, "the search's budget is \(tune.budget) worlds, more than the limit of "
                             + "\(maxWorlds) (--max-worlds); add --force to allow it")
        }
        let search = TuneSearch(scene: scene, fileData: Data(), directory: "")
        // Candidates × replicas, in Double: a generation of 10⁵ candidates over 10⁵ replicas does not fit an Int check.
        let generation = Double(search.population) * Double(search.evaluator.replicas)
        if Double(tune.budget) < generation {
            throw SceneError(path: file, at: tune.location, "the search's budget of \(tune.budget) worlds is less than one "
                             + "generation: \(search.population) candidates × \(search.evaluator.replicas) replicas = "
                             + "\(formatCount(generation)) worlds; raise 'budget', or lower 'population' or the replicas")
        }
        // Spring columns exist only for items with a rest target: a want must name a real column.
        let columns = Set(search.evaluator.layout.metricColumns)
        for want in tune.wants where !columns.contains(want.metric) {
            throw SceneError(path: file, at: want.location, "'\(want.metric)' is not a metric of this file's worlds (spring "
                             + "metrics need an item with a rest target and the metric in 'metrics')")
        }
    }

    private static func formatCount(_ n: Double) -> String { n < 1e15 ? String(Int(n)) : "\(n)" }
}
