import Foundation
import WorldSweepRun
import WorldSweepScene

/// The sweep a run folder ran, as `trace` reads it back: the folder's copy of its sweep file
/// (sweep.yaml; a set of shards: the first shard's) with the run's `--set` / `--sweep` (run.json,
/// or for a tune the copy's own record of them).
enum ReplaySource {
    /// The sweep.yaml to load and the overrides it ran with.
    static func file(_ dir: String) throws(ServeError) -> (path: String, overrides: SceneOverrides) {
        var candidates = [dir]
        if let shards = try? FileManager.default.contentsOfDirectory(atPath: dir + "/shards") {
            candidates += shards.sorted().map { dir + "/shards/" + $0 }
        }
        for folder in candidates where RunsFolder.kind(folder + "/" + SweepRun.sweepCopyName) == .file {
            let path = folder + "/" + SweepRun.sweepCopyName
            // A tune folder has no run.json: its copy's closing comments say what it ran with.
            let overrides = RunText.settings(folder)?.overrides
                ?? RunsFolder.text(path, limit: 16 << 20).map(SweepRun.sweepCopyOverrides) ?? SceneOverrides()
            return (path, overrides)
        }
        throw ServeError(.notFound, "no sweep.yaml in this run: it cannot be replayed")
    }

    /// The run's overrides with `sets` added: a `--sweep` of a path that a set fixes is left out.
    static func overrides(_ run: SceneOverrides, setting sets: [String]) -> SceneOverrides {
        let fixed = Set(sets.map { String($0.prefix { $0 != "=" }) })
        return SceneOverrides(sets: run.sets + sets, sweeps: run.sweeps.filter { !fixed.contains(String($0.prefix { $0 != "=" })) })
    }

    static func scene(_ dir: String, extraSets: [String] = []) throws(ServeError) -> SceneFile {
        let (path, runOverrides) = try file(dir)
        do {
            return try SceneFile.load(path: path, overrides: overrides(runOverrides, setting: extraSets))
        } catch {
            throw ServeError(.unprocessableContent, "\(path) does not load: \(String(describing: error).prefix(300))")
        }
    }

    /// World `n` of a search (its tune folder's worlds.csv numbers), as `trace --world N` of the
    /// folder's sweep.yaml makes it from the checkpoint: that point's values, that replica's jitter.
    static func tuneWorld(_ base: SceneFile, dir: String, world n: Int) throws(ServeError) -> SceneFile {
        let checkpoint = dir + "/" + TuneSearch.checkpointName
        guard let generations = TuneSearch.recordedGenerations(at: checkpoint) else {
            throw ServeError(.notFound, "this search has no readable \(TuneSearch.checkpointName) yet")
        }
        let replicas = base.sweep?.replicas ?? 1
        let worlds = generations.reduce(0) { $0 + $1.count } * replicas
        guard (0..<worlds).contains(n) else {
            throw ServeError(.badRequest, "world \(n) is outside 0..<\(worlds): the search has recorded \(worlds) worlds")
        }
        do {
            var scene = try TuneWorlds.scene(base, checkpoint: checkpoint, point: n / replicas, replica: n % replicas)
            scene.sweep = nil   // world 0 is then that world itself
            return scene
        } catch {
            throw ServeError(.unprocessableContent, "world \(n) of the search cannot be made: \(String(describing: error).prefix(300))")
        }
    }

    /// A swept parameter as the replay's slider shows it: its range and, for a grid axis, its values.
    struct Axis: Encodable {
        var path: String
        var min: Double
        var max: Double
        var values: [Double]?
        var log: Bool
    }

    static func axes(_ scene: SceneFile) -> [Axis] {
        (scene.sweep?.parameters ?? []).map { p in
            let count = p.range.count
            let values = count.map { n in (0..<min(n, 400)).map { p.range.value(at: $0) } }
            var lo = values?.min() ?? 0, hi = values?.max() ?? 0, log = false
            switch p.range {
            case let .uniform(a, b): lo = Swift.min(a, b); hi = Swift.max(a, b)
            case let .loguniform(a, b): lo = Swift.min(a, b); hi = Swift.max(a, b); log = true
            case .logspace: log = true
            default: break
            }
            return Axis(path: p.path, min: lo, max: hi, values: (count ?? 0) <= 400 ? values : nil, log: log)
        }
    }
}
