import WorldSweepRun
import WorldSweepScene

extension TraceWorld {
    /// `--world N` or `--point P --replica R` of a file with a `tune:` section: that world of its
    /// search (worlds.csv's numbers in the tune folder), found through the search's checkpoint.
    public static func tuneScene(_ loaded: SceneFile, world selection: WorldSelection) throws -> SceneFile {
        guard let checkpoint = TuneWorlds.checkpointPath(for: loaded) else {
            throw BadInput("\(loaded.sourcePath) has a tune section, so --world names a world of its search, and no "
                           + "\(TuneSearch.checkpointName) is beside it or in runs/\(loaded.name)-tune: trace the tune folder's sweep.yaml")
        }
        let replicas = loaded.sweep?.replicas ?? 1
        let (point, replica): (Int, Int)
        switch selection {
        case .world(let n): (point, replica) = (n / replicas, n % replicas)
        case let .point(p, r): (point, replica) = (p, r)
        }
        return try TuneWorlds.scene(loaded, checkpoint: checkpoint, point: point, replica: replica)
    }
}
