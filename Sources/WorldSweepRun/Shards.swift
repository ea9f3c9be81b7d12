import Foundation
import WorldSweepScene

/// `DIR/shards/I-of-N/`: finding them, telling which are missing, and merging them into DIR.
public enum Shards {
    /// The shard count of DIR's shard folders; nil if there are none. Throws if counts disagree.
    public static func shardCount(in directory: String) throws -> Int? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/shards")) ?? []
        var counts = Set<Int>()
        for name in names {
            let parts = name.split(separator: "-")
            if parts.count == 3, parts[1] == "of", Int(parts[0]) != nil, let n = Int(parts[2]) { counts.insert(n) }
        }
        guard counts.count <= 1 else {
            throw RunInputError("\(directory)/shards: shards of different counts (\(counts.sorted().map(String.init).joined(separator: ", ")))")
        }
        return counts.first
    }

    /// Shard indices of `count` whose folder has no `done` marker.
    public static func missing(in directory: String, count: Int) -> [Int] {
        (0..<count).filter { !FileManager.default.fileExists(atPath: SweepRun.shardFolder(directory, index: $0, count: count) + "/done") }
    }

    public struct Merged {
        public var summary: SweepSummary
        public var sample: [WorldResult]
    }

    /// Joins the shards of DIR into DIR/worlds.csv, partners.csv and summary.json (each written
    /// whole, so re-running is safe). Throws naming the missing shards, if any.
    public static func merge(directory: String) throws -> Merged {
        guard let count = try shardCount(in: directory) else {
            throw RunFileError("\(directory)/shards: no shards to merge")
        }
        let missing = self.missing(in: directory, count: count)
        guard missing.isEmpty else {
            throw RunFileError("\(directory): missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)-of-\(count)" }.joined(separator: ", "))")
        }
        let first = SweepRun.shardFolder(directory, index: 0, count: count)
        guard let data = FileManager.default.contents(atPath: "\(first)/run.json"),
              let settings = try? JSONDecoder().decode(RunSettings.self, from: data) else {
            throw RunFileError("\(first)/run.json: cannot read the run settings")
        }
        let scene: SceneFile
        do { scene = try SceneFile.load(path: settings.file) } catch {
            throw RunFileError("\(settings.file): cannot load the sweep file the shards ran: \(error)")
        }
        guard let fileData = FileManager.default.contents(atPath: settings.file),
              fingerprint(fileData) == settings.fileFingerprint else {
            throw RunFileError("\(settings.file) changed since the shards ran")
        }
        let runner = WorldRunner(scene: scene)
        let layout = CSVLayout(scene: scene)
        let pointsPath = "\(directory)/summary.points.tmp"
        let points = try PointListFile(path: pointsPath)
        let table = try PointsCSVFile(layout: layout, path: "\(directory)/\(SweepRun.pointsTableName)")
        var builder = SummaryBuilder(layout: layout, replicas: runner.replicas, totalWorlds: runner.worldCount,
                                     totalPoints: runner.pointCount) { try points.append($0); try table.append($0) }
        let worlds = try AppendFile(path: "\(directory)/worlds.csv.tmp", truncate: true)
        let partners = try AppendFile(path: "\(directory)/partners.csv.tmp", truncate: true)
        try worlds.append(layout.header + "\n")
        try partners.append(layout.partnersHeader + "\n")
        var wall = 0.0, threads = 0
        for index in 0..<count {
            let dir = SweepRun.shardFolder(directory, index: index, count: count)
            let range = SweepRun.shardWorlds(index: index, count: count, points: runner.pointCount, replicas: runner.replicas)
            guard let d = FileManager.default.contents(atPath: "\(dir)/run.json"),
                  let s = try? JSONDecoder().decode(RunSettings.self, from: d),
                  s.fileFingerprint == settings.fileFingerprint, s.lowerWorld == range.lowerBound, s.upperWorld == range.upperBound else {
                throw RunFileError("\(dir): not a shard of the same run")
            }
            let kept = try RowReader.read(worlds: "\(dir)/worlds.csv", partners: "\(dir)/partners.csv", layout: layout,
                                          from: range.lowerBound, upTo: range.upperBound) { r in
                try worlds.append(layout.row(r))
                try partners.append(layout.partnersRow(r))
                try builder.add(r)
            }
            guard kept.rows == range.count else {
                throw RunFileError("\(dir): \(kept.rows) of its \(range.count) worlds read back; run that shard again")
            }
            if let d = FileManager.default.contents(atPath: "\(dir)/done"), let info = try? JSONDecoder().decode(RunInfo.self, from: d) {
                wall += info.wallSeconds
                threads = max(threads, info.threads)
            }
        }
        try builder.finish()
        try worlds.sync(); try partners.sync(); try points.file.sync()
        worlds.close(); partners.close(); points.file.close()
        for name in ["worlds.csv", "partners.csv"] {
            guard rename("\(directory)/\(name).tmp", "\(directory)/\(name)") == 0 else {
                throw RunFileError("cannot rename \(directory)/\(name).tmp")
            }
        }
        try table.finish()
        if let copy = FileManager.default.contents(atPath: "\(first)/\(SweepRun.sweepCopyName)") {
            try AtomicFile.write(copy, to: "\(directory)/\(SweepRun.sweepCopyName)")
        }
        let info = RunInfo(engine: runner.engine.name, threads: threads, worlds: runner.worldCount,
                           ticksPerWorld: runner.ticksPerWorld, wallSeconds: wall,
                           worldTicksPerSecond: wall > 0 ? Double(runner.worldCount) * Double(runner.ticksPerWorld) / wall : 0,
                           version: WorldSweepVersion.current)
        let summary = try SweepRun.writeSummary(scene: scene, builder: builder, run: info, pointsPath: pointsPath,
                                                to: "\(directory)/summary.json")
        return Merged(summary: summary, sample: builder.sample)
    }
}
