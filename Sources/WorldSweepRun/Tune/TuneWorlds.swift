import Foundation
import WorldSweepScene

/// A world of a finished or interrupted search, by its worlds.csv numbers: `trace --world N` of a
/// file with a `tune:` section replays it. The values come from the search's checkpoint, the
/// jitter from replica N mod replicas (every candidate shares its replicas' draws), so the replay
/// is the world the search ran.
public enum TuneWorlds {
    /// The checkpoint of `scene`'s search: beside the file (a tune folder's sweep.yaml), else in
    /// the default output folder runs/<name>-tune.
    public static func checkpointPath(for scene: SceneFile) -> String? {
        let beside = URL(fileURLWithPath: scene.sourcePath).deletingLastPathComponent().appendingPathComponent(TuneSearch.checkpointName).path
        let standard = "runs/\(scene.name)-tune/\(TuneSearch.checkpointName)"
        return [beside, standard].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// World `point` × replicas + `replica` of the search recorded at `checkpoint`, as a one-world scene.
    public static func scene(_ scene: SceneFile, checkpoint: String, point: Int, replica: Int) throws -> SceneFile {
        guard let recorded = TuneSearch.recordedGenerations(at: checkpoint) else {
            throw RunInputError("\(checkpoint): cannot read the search's checkpoint")
        }
        let evaluations = recorded.flatMap { $0 }
        let replicas = scene.sweep?.replicas ?? 1
        guard let found = evaluations.first(where: { $0.point == point }), (0..<replicas).contains(replica) else {
            let worlds = evaluations.count * replicas
            throw RunInputError("world \(point * replicas + replica) is not in the search at \(checkpoint): it recorded "
                                + "\(worlds) world\(worlds == 1 ? "" : "s") (\(replicas) a point)")
        }
        let one = TuneEvaluator.scene(scene, candidates: [found.values], jitterSeed: scene.sweep?.seed ?? 0)
        return try one.world(replica)
    }
}
