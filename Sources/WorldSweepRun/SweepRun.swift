import Dispatch
import Foundation
import WorldSweep
import WorldSweepScene

/// Runs a sweep file (or one shard of it) into a directory: worlds.csv and partners.csv streamed
/// in world order, run.json first (for `--resume`), then summary.json (whole runs) or a `done`
/// marker (shards) last.
public struct SweepRun {
    public struct Options {
        public var threads: Int
        public var chunkSize: Int
        public var resume: Bool
        /// Start afresh over an unfinished run in the directory.
        public var force: Bool
        /// (index, count): run only that shard's points, into `DIR/shards/I-of-N/`.
        public var shard: (index: Int, count: Int)?
        public var cancel: CancellationFlag
        /// Called on the calling thread after each chunk is written: (worlds done, worlds in range).
        public var progress: ((Int, Int) -> Void)?
        /// The command line that asked for the run, kept in summary.json (`run.commandLine`).
        public var commandLine: [String]?
        /// Who makes a chunk's rows and points: the collecting thread (true) or the worker that ran
        /// it (false); nil: the collecting thread when there are fewer workers than cores.
        public var formatsOnCollector: Bool?
        /// A whole run's last files (the syncs of worlds.csv, partners.csv and rows.sum, the point
        /// tables, then summary.json) are finished on another thread, beside what the caller does
        /// next (the report): the outcome's `closing` waits for them and must be called before the
        /// process ends. Otherwise the syncs would be the run's end with nothing else to do.
        public var closesInBackground = false
        /// Done on the calling thread once the workers have started, before the first chunk's
        /// rows are written (SweepRequest.whileWorkersRun).
        public var whileWorkersRun: (() -> Void)?

        public init(threads: Int = Scheduler.defaultThreads(), chunkSize: Int = 64, resume: Bool = false, force: Bool = false,
                    shard: (index: Int, count: Int)? = nil, cancel: CancellationFlag = CancellationFlag(),
                    progress: ((Int, Int) -> Void)? = nil, commandLine: [String]? = nil) {
            self.threads = threads; self.chunkSize = chunkSize; self.resume = resume; self.force = force
            self.shard = shard; self.cancel = cancel; self.progress = progress; self.commandLine = commandLine
        }
    }

    /// What a run left (WorldSweepResults' `SweepReply`: the commands get it from either
    /// compilation of this module).
    public typealias Outcome = SweepReply

    public let scene: SceneFile
    public let fileData: Data
    /// The `--set` / `--sweep` the scene was loaded with (kept in run.json and sweep.yaml).
    public let overrides: SceneOverrides
    public let directory: String
    public var runner: WorldRunner
    public var layout: CSVLayout { CSVLayout(scene: scene) }

    public init(scene: SceneFile, fileData: Data, directory: String, overrides: SceneOverrides = SceneOverrides()) {
        self.scene = scene
        self.fileData = fileData
        self.overrides = overrides
        self.directory = directory
        runner = WorldRunner(scene: scene)
    }

    /// The contiguous range of whole points of shard `index` of `count`, as worlds.
    public static func shardWorlds(index: Int, count: Int, points: Int, replicas: Int) -> Range<Int> {
        let lo = points * index / count, hi = points * (index + 1) / count
        return (lo * replicas)..<(hi * replicas)
    }

    /// The run folder's copy of the sweep file it ran, byte for byte; with overrides, followed by
    /// them as comments (the file alone would not make the same worlds).
    public static let sweepCopyName = "sweep.yaml"
    /// The flat per-point table beside summary.json.
    public static let pointsTableName = "points.csv"
    /// Its per-partner statistics, a row per point, item and partner touched.
    public static let partnerPointsTableName = "partner_points.csv"

    /// sweep.yaml's bytes: the file, then (when there are any) the overrides as YAML comments, so
    /// the copy says how the run's worlds differ from the file's.
    public static func sweepCopy(_ fileData: Data, overrides: SceneOverrides) -> Data {
        guard !overrides.isEmpty else { return fileData }
        var text = String(decoding: fileData, as: UTF8.self)
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += overridesHeading + "\n"
        for value in overrides.sets { text += "#   --set \(value)\n" }
        for value in overrides.sweeps { text += "#   --sweep \(value)\n" }
        return Data(text.utf8)
    }

    static let overridesHeading = "# worldsweep: this run applied these overrides from its command line:"

    /// The overrides a sweep copy records (`sweepCopy`'s closing comment lines): what a tune
    /// folder, which has no run.json, ran its sweep.yaml with.
    public static func sweepCopyOverrides(_ copy: String) -> SceneOverrides {
        let lines = copy.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.lastIndex(of: Substring(overridesHeading)) else {
            return SceneOverrides()
        }
        var overrides = SceneOverrides()
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#   --set ") { overrides.sets.append(String(line.dropFirst("#   --set ".count))) }
            else if line.hasPrefix("#   --sweep ") { overrides.sweeps.append(String(line.dropFirst("#   --sweep ".count))) }
        }
        return overrides
    }

    public static func shardFolder(_ directory: String, index: Int, count: Int) -> String {
        "\(directory)/shards/\(index)-of-\(count)"
    }

    public func run(_ options: Options) throws -> Outcome {
        let started = DispatchTime.now()
        let total = runner.worldCount
        let range: Range<Int>
        let dir: String
        if let shard = options.shard {
            range = Self.shardWorlds(index: shard.index, count: shard.count, points: runner.pointCount, replicas: runner.replicas)
            dir = Self.shardFolder(directory, index: shard.index, count: shard.count)
        } else {
            range = 0..<total
            dir = directory
        }
        let settings = RunSettings(name: scene.name, fileFingerprint: fingerprint(fileData), file: URL(fileURLWithPath: scene.sourcePath).standardizedFileURL.path,
                                   totalWorlds: total, lowerWorld: range.lowerBound, upperWorld: range.upperBound,
                                   shard: options.shard?.index, shardCount: options.shard?.count,
                                   engine: runner.engine.name, overrides: overrides.isEmpty ? nil : overrides)
        let sweepCopy = Self.sweepCopy(fileData, overrides: overrides)
        let fm = FileManager.default
        let worldsPath = "\(dir)/worlds.csv", partnersPath = "\(dir)/partners.csv", runPath = "\(dir)/run.json"
        let sweepCopyPath = "\(dir)/\(Self.sweepCopyName)"
        let sumsPath = "\(dir)/\(RowSums.fileName)"
        let finalMarker = options.shard == nil ? "\(dir)/summary.json" : "\(dir)/done"
        let layout = self.layout

        var builder = SummaryBuilder(layout: layout, replicas: runner.replicas, totalWorlds: total, totalPoints: runner.pointCount,
                                     writesTables: options.shard == nil)
        var start = range.lowerBound
        let worlds: AppendFile, partners: AppendFile, sums: AppendFile
        /// run.json and sweep.yaml of a fresh run, being put in place (nil on `--resume`).
        var firstFiles: BackgroundWork?
        // However the run ends (a thrown error included), they are in place or gone before it
        // returns: nothing half-written is left for the process's exit to cut short.
        defer { try? firstFiles?.wait() }
        /// Byte lengths of worlds.csv and partners.csv as written so far (for rows.sum).
        var worldsEnd = 0, partnersEnd = 0
        /// The per-point files (more than one replica per point, whole runs), streamed as points finish.
        var pointFiles: PointFiles?
        func streamPoints() throws {
            pointFiles = builder.writesTables ? try PointFiles(directory: dir, layout: layout) : nil
        }
        func writePoints() throws {
            let records = builder.takeRecords()
            try pointFiles?.append(records)
        }

        // `--resume` with nothing to resume starts afresh (so a retried array task may always pass it).
        try OutputFolder.check(dir)
        if let shard = options.shard, !options.force { try Shards.checkSiblings(of: shard, in: directory, settings: settings) }
        let resumable = options.resume && fm.fileExists(atPath: runPath) && fm.fileExists(atPath: worldsPath)
        if resumable {
            guard let data = fm.contents(atPath: runPath), let old = try? JSONDecoder().decode(RunSettings.self, from: data) else {
                throw RunInputError("\(runPath): cannot read the run settings; run without --resume (or with --force)")
            }
            guard old.fileFingerprint == settings.fileFingerprint else {
                throw RunInputError("\(scene.sourcePath): the file changed since the run in \(dir) started, so its rows "
                                    + "cannot be continued; add --force (instead of --resume) to start again with the edited file, "
                                    + "or give another --out")
            }
            guard old.overrides == settings.overrides else {
                let was = old.overrides?.arguments.joined(separator: " ") ?? "none"
                throw RunInputError("\(dir): the run there was made with other overrides (\(was)); give the same --set and --sweep to resume it")
            }
            var same = old; same.file = settings.file
            guard same == settings else { throw RunInputError("\(dir): the run there has other settings (range, shard or engine)") }
            unlink(finalMarker)
            try AtomicFile.write(sweepCopy, to: sweepCopyPath)
            try streamPoints()
            // Only chunks whose rows still match rows.sum are kept; the rest is computed again.
            let kept = try RowReader.read(worlds: worldsPath, partners: partnersPath, sums: sumsPath, layout: layout,
                                          from: range.lowerBound, upTo: range.upperBound) { try builder.add($0) }
            try writePoints()
            try truncateFile(worldsPath, to: kept.worldsLength)
            worldsEnd = kept.worldsLength
            if kept.partnersLength == 0 {
                try AtomicFile.write(layout.partnersHeader + "\n", to: partnersPath)
                partnersEnd = layout.partnersHeader.utf8.count + 1
            } else {
                try truncateFile(partnersPath, to: kept.partnersLength)
                partnersEnd = kept.partnersLength
            }
            if OutputFolder.kind(of: sumsPath) == nil { try AtomicFile.write("", to: sumsPath) }
            try truncateFile(sumsPath, to: kept.sumsLength)
            start = range.lowerBound + kept.rows
            worlds = try AppendFile(path: worldsPath, truncate: false)
            partners = try AppendFile(path: partnersPath, truncate: false)
            sums = try AppendFile(path: sumsPath, truncate: false)
        } else {
            if fm.fileExists(atPath: runPath) && !fm.fileExists(atPath: finalMarker) && !options.force && !options.resume {
                throw RunInputError("\(dir) holds an unfinished run: add --resume to continue it or --force to start again")
            }
            // A finished run is someone's results: replacing it takes a word.
            if fm.fileExists(atPath: finalMarker) && !options.force && !options.resume {
                throw RunInputError("\(dir) holds a finished run: give another --out, or add --force to replace it")
            }
            try OutputFolder.create(dir)
            // Plain files of this run's own (OutputFolder.check refused anything else); the marker
            // first, so that a kill from here on leaves an unfinished run. The big rows files of a
            // run this one replaces are moved to their temporary names (ours too) and removed
            // beside the engine (removed here, freeing their blocks would delay the run's start).
            unlink(finalMarker)
            var dropped: [String] = []
            for path in [worldsPath, partnersPath] where rename(path, path + ".tmp") == 0 { dropped.append(path + ".tmp") }
            for path in [sumsPath, "\(dir)/\(Self.pointsTableName)", "\(dir)/\(Self.partnerPointsTableName)"] { unlink(path) }
            var staged: [StagedFile] = []
            do {
                staged.append(try StagedFile(try JSONText.encode(settings), to: runPath))
            } catch let error as RunFileError {
                // The first file written: a folder that takes no file (/proc, a read-only mount) is a
                // bad --out, refused as bad input like one that cannot be created.
                throw RunInputError("cannot write in the output folder \(dir) (\(error.description))")
            }
            staged.append(try StagedFile(sweepCopy, to: sweepCopyPath))
            // Synced and put in place beside the engine: the first fsyncs in a new folder would hold
            // up the start of every run. No row goes
            // into worlds.csv before they are in place (`firstFiles.wait()`), so a killed run
            // always has the run.json that `--resume` needs.
            let files = staged
            // The report of the run this one replaces describes rows about to be rewritten: it goes
            // now, beside the engine. Replaced only at the end, the old report.html's pages would be
            // freed inside the new one's rename, the run's last step.
            let oldFiles = dropped + (options.force ? OutputFolder.reportNames.map { "\(dir)/\($0)" } : [])
            firstFiles = BackgroundWork {
                for path in oldFiles { unlink(path) }
                for file in files { try file.place() }
            }
            worlds = try AppendFile(path: worldsPath, truncate: true)
            let header = layout.header + "\n", partnersHeader = layout.partnersHeader + "\n"   // each made once
            try worlds.append(header)
            partners = try AppendFile(path: partnersPath, truncate: true)
            try partners.append(partnersHeader)
            sums = try AppendFile(path: sumsPath, truncate: true)
            (worldsEnd, partnersEnd) = (header.utf8.count, partnersHeader.utf8.count)
            try streamPoints()
        }

        let scheduler = Scheduler(threads: options.threads, chunkSize: options.chunkSize)
        var spareThreads = self.runner
        spareThreads.threadsPerWorld = scheduler.threadsPerWorld(start..<range.upperBound)
        let runner = spareThreads
        let folder = builder.chunkFolder
        var done = start - range.lowerBound
        var engineNanoseconds: UInt64 = 0
        options.progress?(done, range.count)
        // A chunk's rows and whole points are made by the worker that ran it, beside the engine;
        // with fewer workers than cores, by the collecting thread instead, on a core the workers
        // leave free (it writes the files there already). The bytes are the same either way.
        let formatsOnCollector = options.formatsOnCollector ?? (options.threads < Scheduler.defaultThreads())
        var whileWorkersRun = options.whileWorkersRun
        let end = try scheduler.run(start..<range.upperBound, cancel: options.cancel, work: { chunk in
            let engineStart = DispatchTime.now().uptimeNanoseconds
            let results = runner.run(worlds: chunk)
            let engineNanoseconds = DispatchTime.now().uptimeNanoseconds - engineStart
            if formatsOnCollector { return ChunkOutput(results: results, engineNanoseconds: engineNanoseconds) }
            return ChunkOutput(formatting: results, layout: layout, folder: folder, engineNanoseconds: engineNanoseconds)
        }, consume: { chunk, ran in
            if let work = whileWorkersRun {
                whileWorkersRun = nil
                work()
            }
            let out = formatsOnCollector ? ChunkOutput(formatting: ran.results, layout: layout, folder: folder,
                                                       engineNanoseconds: ran.engineNanoseconds) : ran
            try firstFiles?.wait()
            try worlds.append(out.csv)
            try partners.append(out.partners)
            worldsEnd += out.csv.count
            partnersEnd += out.partners.count
            // After the rows: a kill between the two leaves rows without a sum, computed again.
            try sums.append(RowSums.line(RowSums.Entry(first: chunk.lowerBound, count: chunk.count, worldsEnd: worldsEnd,
                                                       partnersEnd: partnersEnd, hash: out.hash)))
            try builder.add(out.points, copyingKept: !formatsOnCollector)
            try writePoints()
            engineNanoseconds += out.engineNanoseconds
            done += chunk.count
            options.progress?(done, range.count)
        })
        try firstFiles?.wait()
        let rows = ClosingFiles(worlds: worlds, partners: partners, sums: sums, points: pointFiles)
        let ranWorlds = end - start
        guard end == range.upperBound else {
            try rows.syncRows()
            // Resume rebuilds the points from worlds.csv.
            pointFiles?.discard()
            return Outcome(directory: dir, completed: false, worldsDone: end - range.lowerBound, worldsInRange: range.count,
                           summary: nil, sample: builder.sample)
        }
        try builder.finish()
        try writePoints()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var info = RunInfo(engine: runner.engine.name, threads: options.threads, worlds: range.count,
                           ticksPerWorld: runner.ticksPerWorld, wallSeconds: wall,
                           worldTicksPerSecond: wall > 0 ? Double(ranWorlds) * Double(runner.ticksPerWorld) / wall : 0,
                           version: WorldSweepVersion.current, commandLine: options.commandLine, codePath: CodePath.current,
                           seconds: scene.world.duration)
        info.recordEngineTime(worldsRun: ranWorlds, engineThreadSeconds: Double(engineNanoseconds) / 1e9,
                              threadsUsed: scheduler.workerCount(for: start..<range.upperBound))
        if options.shard != nil {
            try rows.syncRows()
            try AtomicFile.write(try JSONText.encode(info), to: finalMarker)
            return Outcome(directory: dir, completed: true, worldsDone: range.count, worldsInRange: range.count,
                           summary: nil, sample: builder.sample)
        }
        var summary = Self.summary(scene: scene, builder: builder, run: info)
        let tables = builder.writesTables ? PointTables(layout: layout) : nil
        // summary.json marks the run finished: only once every row and table is on the disk.
        let close: @Sendable () throws -> Void = { [summary, rows, tables, dir, finalMarker] in
            try rows.syncRows()
            try rows.points?.finish()
            try Self.writeSummary(summary, tables: tables, directory: dir, to: finalMarker)
        }
        summary.points = builder.keptPoints
        var outcome = Outcome(directory: dir, completed: true, worldsDone: range.count, worldsInRange: range.count,
                              summary: summary, sample: builder.sample)
        if options.closesInBackground {
            let work = BackgroundWork(close)
            outcome.closing = { try work.wait() }
            outcome.closingFiles = ["summary.json"] + (pointFiles == nil ? [] : [Self.pointsTableName, Self.partnerPointsTableName])
        } else {
            try close()
        }
        return outcome
    }

    /// The files a run writes rows into, finished once the last chunk is in (on another thread
    /// with `closesInBackground`; nothing else touches them by then).
    private final class ClosingFiles: @unchecked Sendable {
        let worlds: AppendFile, partners: AppendFile, sums: AppendFile
        let points: PointFiles?
        init(worlds: AppendFile, partners: AppendFile, sums: AppendFile, points: PointFiles?) {
            self.worlds = worlds; self.partners = partners; self.sums = sums; self.points = points
        }
        func syncRows() throws {
            try worlds.sync(); try partners.sync(); try sums.sync()
            worlds.close(); partners.close(); sums.close()
        }
    }

    /// What summary.json's per-point tables are read from: the columns, and the rows PointFiles wrote.
    struct PointTables: Sendable {
        var layout: CSVLayout
    }

    /// The sweep's summary as summary.json holds it, without its points: the sweep's description
    /// and the run info.
    static func summary(scene: SceneFile, builder: SummaryBuilder, run: RunInfo) -> SweepSummary {
        var run = run
        run.sweepPoints = builder.totalPoints
        run.pointStride = builder.pointStride
        run.failedWorlds = builder.failedWorlds
        var summary = SweepSummary(name: scene.name, description: scene.description,
                                   parameters: scene.sweep?.parameters.map(\.path) ?? [], items: scene.items.map(\.name),
                                   partners: builder.sortedPartners, sweepKind: scene.sweep?.kind.rawValue ?? "none",
                                   replicas: scene.sweep?.replicas ?? 1, points: [], run: run)
        summary.writtenMetrics = scene.metricCatalog.written
        return summary
    }

    /// Writes summary.json: `summary` (without points) and the per-point tables (their rows
    /// streamed from the files PointFiles wrote in `directory`; `null` with one replica per point,
    /// `tables` nil).
    static func writeSummary(_ summary: SweepSummary, tables: PointTables?, directory: String, to path: String) throws {
        let empty = String(decoding: try JSONText.encode(summary), as: UTF8.self)
        guard let hole = JSONText.firstRange(of: "\"points\":null", in: empty) else { throw RunFileError("summary.json: no place for the points") }
        let tmp = path + ".tmp"
        let out = try AppendFile(path: tmp, truncate: true)
        try out.append(String(empty[..<hole.lowerBound]) + "\"points\":")
        let rowFiles = [PointFiles.pointsJSONName, PointFiles.partnerPointsJSONName].map { "\(directory)/\($0)" }
        if let tables {
            // Streamed: the rows of a big sweep run to tens of megabytes. Left open for what follows.
            func table(_ columns: [String], rows: String) throws {
                try out.append("{\"columns\":" + String(decoding: try JSONText.encode(columns), as: UTF8.self) + ",\"data\":[")
                if let input = FileHandle(forReadingAtPath: rows) {
                    defer { try? input.close() }
                    while let block = try input.read(upToCount: 1 << 20), !block.isEmpty { try out.append(block) }
                }
                try out.append("]")
            }
            try table(PointTable.columns(layout: tables.layout), rows: rowFiles[0])
            try out.append(",\"partners\":")
            try table(PointTable.partnerColumns, rows: rowFiles[1])
            try out.append("}}")
        } else {
            try out.append("null")
        }
        try out.append(String(empty[hole.upperBound...]) + "\n")
        try out.sync()
        out.close()
        guard rename(tmp, path) == 0 else { throw RunFileError("cannot rename \(tmp) to \(path)") }
        for file in rowFiles { try? FileManager.default.removeItem(atPath: file) }
    }
}
