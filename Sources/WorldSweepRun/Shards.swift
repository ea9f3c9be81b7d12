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

    /// A run folder that must exist (merge and missing refuse a missing one alike, exit 2).
    public static func requireFolder(_ directory: String) throws {
        guard OutputFolder.kind(of: directory) == .folder else {
            throw RunInputError(directory.isEmpty ? "the run folder name is empty"
                                : "\(directory): no such folder (give the --out folder of the sharded run)")
        }
    }

    /// What merge reads of a sharded run: the sweep file the shards ran, and its layout.
    struct Source {
        var scene: SceneFile
        var runner: WorldRunner
        var layout: CSVLayout
        var fingerprint: String
        /// The sweep file's path as the shards recorded it.
        var file: String
        /// The `--set` / `--sweep` the shards ran with: every shard must have the same.
        var overrides: SceneOverrides?
    }

    /// The sweep file behind DIR's shards, from the first shard folder holding a run.json; it must
    /// still load and be byte for byte what the shards ran. Nil when no shard has started.
    static func source(in directory: String, count: Int) throws -> Source? {
        var found: RunSettings?
        for index in 0..<count {
            let folder = SweepRun.shardFolder(directory, index: index, count: count)
            if let data = FileManager.default.contents(atPath: "\(folder)/run.json"),
               let settings = try? JSONDecoder().decode(RunSettings.self, from: data) {
                found = settings
                break
            }
        }
        guard let settings = found else { return nil }
        let scene: SceneFile
        do { scene = try SceneFile.load(path: settings.file, overrides: settings.overrides ?? SceneOverrides()) } catch {
            throw RunInputError("\(settings.file): cannot load the sweep file the shards ran: \((error as? SceneError)?.message ?? error.localizedDescription)")
        }
        guard let fileData = FileManager.default.contents(atPath: settings.file),
              fingerprint(fileData) == settings.fileFingerprint else {
            throw RunInputError("\(settings.file) changed since the shards ran; run them again with the edited file")
        }
        let runner = WorldRunner(scene: scene)
        return Source(scene: scene, runner: runner, layout: CSVLayout(scene: scene),
                      fingerprint: settings.fileFingerprint, file: settings.file, overrides: settings.overrides)
    }

    /// Why shard `index` cannot be merged (nil: it can): no `done`, a run.json of another run or
    /// range, or rows that do not all read back and match rows.sum. Merge and missing both ask this.
    static func problem(in directory: String, index: Int, count: Int, source: Source?) -> String? {
        let dir = SweepRun.shardFolder(directory, index: index, count: count)
        guard FileManager.default.fileExists(atPath: "\(dir)/done") else { return "\(dir): not done" }
        guard let source else { return "\(dir): no run.json" }
        let range = SweepRun.shardWorlds(index: index, count: count, points: source.runner.pointCount,
                                         replicas: source.runner.replicas)
        guard let d = FileManager.default.contents(atPath: "\(dir)/run.json"),
              let s = try? JSONDecoder().decode(RunSettings.self, from: d) else {
            return "\(dir): no readable run.json"
        }
        guard s.fileFingerprint == source.fingerprint, s.overrides == source.overrides,
              s.lowerWorld == range.lowerBound, s.upperWorld == range.upperBound else {
            return foreign(index: index, count: count, settings: s, source: source)
        }
        do {
            let kept = try RowReader.read(worlds: "\(dir)/worlds.csv", partners: "\(dir)/partners.csv",
                                          sums: "\(dir)/\(RowSums.fileName)", layout: source.layout,
                                          from: range.lowerBound, upTo: range.upperBound) { _ in }
            if let problem = kept.problem, kept.rows < range.count {
                return "\(dir)/worlds.csv:\(problem.line):1: error: \(problem.message)"
            }
        } catch {
            return "\(dir): \(error)"
        }
        return nil
    }

    /// What a shard made from another sweep (another file, an edited one, other overrides or
    /// another shard count) is called: it can never be merged with the rest, only run again.
    static func foreign(index: Int, count: Int, settings s: RunSettings, source: Source) -> String {
        func overrides(_ o: SceneOverrides?) -> String {
            o.map { $0.isEmpty ? "" : " " + $0.arguments.joined(separator: " ") } ?? ""
        }
        let ran = s.file == source.file && s.fileFingerprint != source.fingerprint ? "another version of \(s.file)" : s.file
        return "shard \(index)-of-\(count) belongs to another sweep: it ran \(ran)\(overrides(s.overrides)), the others "
            + "\(source.file)\(overrides(source.overrides)); run it again with --force and the same file and overrides"
    }

    /// A shard joins only shards of its own sweep: one whose siblings ran another file, an edited
    /// one, other overrides or another shard count is refused before it writes anything.
    static func checkSiblings(of shard: (index: Int, count: Int), in directory: String, settings: RunSettings) throws {
        for j in 0..<shard.count where j != shard.index {
            let folder = SweepRun.shardFolder(directory, index: j, count: shard.count)
            guard let d = FileManager.default.contents(atPath: "\(folder)/run.json"),
                  let s = try? JSONDecoder().decode(RunSettings.self, from: d) else { continue }
            guard s.fileFingerprint == settings.fileFingerprint, s.overrides == settings.overrides,
                  s.totalWorlds == settings.totalWorlds else {
                throw RunInputError("\(directory)/shards: shard \(j)-of-\(shard.count) there belongs to another sweep (it ran "
                                    + "\(s.file)\(s.overrides.map { $0.isEmpty ? "" : " " + $0.arguments.joined(separator: " ") } ?? "")); "
                                    + "give another --out, or add --force to run shard \(shard.index) beside it")
            }
        }
    }

    /// Shard indices of `count` that merge would refuse: not done, or done with rows that do not
    /// check out (short, edited, foreign). Throws what merge would throw for the whole run.
    public static func missing(in directory: String, count: Int) throws -> [Int] {
        try problems(in: directory, count: count).map(\.index)
    }

    /// The shards merge would refuse, each with why.
    public static func problems(in directory: String, count: Int) throws -> [(index: Int, problem: String)] {
        try requireFolder(directory)
        let source = try self.source(in: directory, count: count)
        return (0..<count).compactMap { i in problem(in: directory, index: i, count: count, source: source).map { (i, $0) } }
    }

    public struct Merged {
        public var summary: SweepSummary
        public var sample: WorldSample
        /// How many shards were joined.
        public var shards: Int
    }

    /// Joins the shards of DIR into DIR/worlds.csv, partners.csv and summary.json (each written
    /// whole, so re-running is safe). Throws naming the missing shards, if any.
    public static func merge(directory: String) throws -> Merged {
        try requireFolder(directory)
        guard let count = try shardCount(in: directory) else {
            throw RunInputError("\(directory): no shards to merge (give the --out folder of a sharded run)")
        }
        try OutputFolder.check(directory, ownMarker: "shards")
        let found = try source(in: directory, count: count)
        let problems = (0..<count).compactMap { i in problem(in: directory, index: i, count: count, source: found).map { (i, $0) } }
        if !problems.isEmpty {
            let list = problems.map { "\($0.0)-of-\(count)" }.joined(separator: ", ")
            let plural = problems.count == 1 ? "" : "s"
            // A foreign shard is named as such, one with bad rows by its file and line; merely
            // unfinished ones by number.
            if let foreign = problems.first(where: { $0.1.contains(" belongs to another sweep: ") }) {
                throw RunFileError("\(directory): \(foreign.1)")
            }
            if let located = problems.first(where: { $0.1.contains(": error: ") }) {
                throw RunFileError("\(located.1) (shard\(plural) to run again: \(list))")
            }
            throw RunFileError("\(directory): missing shard\(plural) \(list)")
        }
        guard let source = found else { throw RunFileError("\(directory)/shards: no run.json in any shard") }
        let (scene, runner, layout) = (source.scene, source.runner, source.layout)
        var builder = SummaryBuilder(layout: layout, replicas: runner.replicas, totalWorlds: runner.worldCount,
                                     totalPoints: runner.pointCount, writesTables: true)
        let pointFiles = builder.writesTables ? try PointFiles(directory: directory, layout: layout) : nil
        // A one-replica merge over an older run's folder: its per-point files would be stale.
        if pointFiles == nil {
            for name in [SweepRun.pointsTableName, SweepRun.partnerPointsTableName] { unlink("\(directory)/\(name)") }
        }
        let worlds = try AppendFile(path: "\(directory)/worlds.csv.tmp", truncate: true)
        let partners = try AppendFile(path: "\(directory)/partners.csv.tmp", truncate: true)
        try worlds.append(layout.header + "\n")
        try partners.append(layout.partnersHeader + "\n")
        var wall = 0.0, threads = 0
        var codePaths: Set<String> = []
        for index in 0..<count {
            let dir = SweepRun.shardFolder(directory, index: index, count: count)
            let range = SweepRun.shardWorlds(index: index, count: count, points: runner.pointCount, replicas: runner.replicas)
            let kept = try RowReader.read(worlds: "\(dir)/worlds.csv", partners: "\(dir)/partners.csv",
                                          sums: "\(dir)/\(RowSums.fileName)", layout: layout,
                                          from: range.lowerBound, upTo: range.upperBound) { r in
                try worlds.append(layout.row(r))
                try partners.append(layout.partnersRows(r))
                try builder.add(r)
                try pointFiles?.append(builder.takeRecords())
            }
            guard kept.rows == range.count else {
                throw RunFileError("\(dir): \(kept.rows) of its \(range.count) worlds read back; run that shard again")
            }
            if let d = FileManager.default.contents(atPath: "\(dir)/done"), let info = try? JSONDecoder().decode(RunInfo.self, from: d) {
                wall += info.wallSeconds
                threads = max(threads, info.threads)
                if let path = info.codePath { codePaths.insert(path) }
            }
        }
        try builder.finish()
        try pointFiles?.append(builder.takeRecords())
        try worlds.sync(); try partners.sync()
        worlds.close(); partners.close()
        for name in ["worlds.csv", "partners.csv"] {
            guard rename("\(directory)/\(name).tmp", "\(directory)/\(name)") == 0 else {
                throw RunFileError("cannot rename \(directory)/\(name).tmp")
            }
        }
        try pointFiles?.finish()
        if let copy = FileManager.default.contents(atPath: "\(SweepRun.shardFolder(directory, index: 0, count: count))/\(SweepRun.sweepCopyName)") {
            try AtomicFile.write(copy, to: "\(directory)/\(SweepRun.sweepCopyName)")
        }
        let info = RunInfo(engine: runner.engine.name, threads: threads, worlds: runner.worldCount,
                           ticksPerWorld: runner.ticksPerWorld, wallSeconds: wall,
                           // Merge simulates nothing: no rate of its own (each shard's done file has one).
                           worldTicksPerSecond: 0,
                           version: WorldSweepVersion.current,
                           codePath: codePaths.count > 1 ? "mixed" : codePaths.first, seconds: scene.world.duration)
        var summary = SweepRun.summary(scene: scene, builder: builder, run: info)
        try SweepRun.writeSummary(summary, tables: builder.writesTables ? SweepRun.PointTables(layout: builder.layout) : nil,
                                  directory: directory, to: "\(directory)/summary.json")
        summary.points = builder.keptPoints
        return Merged(summary: summary, sample: builder.sample, shards: count)
    }
}
