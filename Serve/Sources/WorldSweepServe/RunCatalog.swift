import Foundation
import WorldSweepRun
import WorldSweepScene

/// Finds every run under the served folder and says what state each is in, from its files alone
/// (the server never writes to a run): summary.json or `done` finish a run; a rows file that a
/// process on this machine holds open, or that changed within `liveWindow` seconds (a shard on
/// another node), means it is running; anything else started is interrupted, and `--resume`
/// finishes it.
public final class RunCatalog: @unchecked Sendable {
    public let folder: RunsFolder
    /// How recently a run's rows must have changed to count as running when no process here holds them.
    public let liveWindow: Double
    /// At most this many runs are listed (the deepest folders searched: `depth`).
    public let limit = 2_000, depth = 3
    private let lock = NSLock()
    private var progress = ProgressWatch()
    /// What was read of files that have not changed since (a finished run's summary, report, sweep file).
    private var memo: [String: (signature: String, value: Any)] = [:]

    public init(folder: RunsFolder, liveWindow: Double = 60) {
        self.folder = folder
        self.liveWindow = liveWindow
    }

    /// Every run, newest first.
    public func entries() -> [RunEntry] {
        lock.lock(); defer { lock.unlock() }
        let open = OpenFiles.under(folder.real)
        let now = Date().timeIntervalSince1970
        var found: [RunEntry] = []
        var queue: [(path: String, depth: Int)] = [(folder.real, 0)]
        while let (dir, level) = queue.popLast(), found.count < limit {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            let listing = Set(names)
            if dir != folder.real, let entry = entry(at: dir, names: listing, open: open, now: now) {
                found.append(entry)
                continue
            }
            guard level < depth else { continue }
            for name in names.reversed() where !name.hasPrefix(".") {
                let path = dir + "/" + name
                // Links are not followed: a folder reached through one could lie outside.
                if RunsFolder.kind(path) == .folder { queue.append((path, level + 1)) }
            }
        }
        progress.forget(except: Set(found.map(\.path)))
        if memo.count > 4 * limit { memo.removeAll() }
        for i in found.indices where found[i].state == .running {
            if let done = found[i].worldsDone {
                let (rate, left) = progress.observe(found[i].path, done: done, total: found[i].worlds, at: now)
                found[i].rate = rate
                found[i].secondsLeft = left
            }
        }
        return found.sorted { ($0.modified, $1.path) > ($1.modified, $0.path) }
    }

    /// The run in `dir` alone, as `entries()` lists it (less its rate): for a page that follows one run.
    func entry(of dir: String) -> RunEntry? {
        lock.lock(); defer { lock.unlock() }
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
        return entry(at: dir, names: names, open: OpenFiles.under(dir), now: Date().timeIntervalSince1970)
    }

    /// `read()` again only when one of `files` (in `dir`) changed size or time since it was last read.
    private func remembered<T>(_ dir: String, _ files: [String], _ tag: String, _ read: () -> T) -> T {
        let signature = files.map { f in RunsFolder.stamp(dir + "/" + f).map { "\($0.size)@\($0.modified)" } ?? "-" }.joined(separator: " ")
        let key = tag + ":" + dir
        if let kept = memo[key], kept.signature == signature, let value = kept.value as? T { return value }
        let value = read()
        memo[key] = (signature, value)
        return value
    }

    /// The run in `dir`, or nil when it holds none (then its subfolders are searched).
    func entry(at dir: String, names: Set<String>, open: Set<String>, now: Double) -> RunEntry? {
        let path = folder.relative(dir)
        let reports = ["report.html", "report.md", "compare.html", "compare.md", "compare.csv", "importance.csv",
                       "worlds.csv", "summary.json", "tune.json", "best.yaml", "pareto.csv"]
            .filter { names.contains($0) && RunsFolder.kind(dir + "/" + $0) == .file }.map { path + "/" + $0 }
        let modified = names.compactMap { RunsFolder.stamp(dir + "/" + $0)?.modified }.max()
            ?? RunsFolder.stamp(dir)?.modified ?? 0
        var entry = RunEntry(path: path, name: (dir as NSString).lastPathComponent, kind: .sweep, state: .unknown,
                             status: "", modified: modified, reports: reports, parameters: [])
        let live = { (files: [String]) -> Bool in
            files.contains { open.contains(dir + "/" + $0) }
                || files.contains { RunsFolder.stamp(dir + "/" + $0).map { now - $0.modified < self.liveWindow } ?? false }
        }
        if names.contains("shards"), RunsFolder.kind(dir + "/shards") == .folder {
            entry.kind = .shards
            shardSet(&entry, dir: dir, open: open, now: now)
            if names.contains("summary.json") { finished(&entry, dir: dir, merged: true) }
            return entry
        }
        if names.contains("run.json") {
            sweep(&entry, dir: dir, names: names, live: live)
            return entry
        }
        if names.contains(TuneSearch.checkpointName) || names.contains("tune.json") {
            entry.kind = .tune
            tune(&entry, dir: dir, names: names, live: live)
            return entry
        }
        if names.contains("compare.html") || names.contains("compare.md") {
            entry.kind = .compare
            entry.state = .done
            entry.status = "done"
            entry.headline = remembered(dir, ["compare.md"], "verdict") { RunText.compareVerdict(dir) }
            return entry
        }
        if names.contains("summary.json") {
            finished(&entry, dir: dir, merged: false)
            return entry
        }
        return nil
    }

    private func sweep(_ entry: inout RunEntry, dir: String, names: Set<String>, live: ([String]) -> Bool) {
        let settings = RunText.settings(dir)
        if let settings {
            entry.name = settings.name
            entry.worlds = settings.upperWorld - settings.lowerWorld
        }
        entry.parameters = remembered(dir, ["sweep.yaml", "run.json"], "parameters") { RunText.parameters(dir) }
        if names.contains("summary.json") || names.contains("done") {
            finished(&entry, dir: dir, merged: false)
            if entry.worldsDone == nil { entry.worldsDone = entry.worlds }
            return
        }
        entry.worldsDone = RunText.worldsWritten(dir)
        entry.seconds = (RunsFolder.stamp(dir + "/run.json")?.modified).map { Date().timeIntervalSince1970 - $0 }
        if live(["worlds.csv", "partners.csv", "rows.sum", "run.json", "summary.json.tmp", "report.html.tmp"]) {
            entry.state = .running
            entry.status = "running"
        } else {
            entry.state = .interrupted
            entry.status = "interrupted, resumable"
            entry.seconds = nil
            if let settings {
                let overrides = (settings.overrides?.arguments ?? []).map(RunText.shellWord).joined(separator: " ")
                entry.resume = "worldsweep run \(RunText.shellWord(settings.file)) --out \(RunText.shellWord(folder.shown + "/" + entry.path))"
                    + (settings.shard.map { " --shard \($0)/\(settings.shardCount ?? 1)" } ?? "")
                    + (overrides.isEmpty ? "" : " " + overrides) + " --resume"
            }
        }
    }

    private func finished(_ entry: inout RunEntry, dir: String, merged: Bool) {
        entry.state = .done
        entry.status = merged ? "done (shards merged)" : "done"
        if let run = remembered(dir, ["summary.json"], "summary", { RunText.summaryRun(dir) }) {
            entry.name = run.name ?? entry.name
            entry.worlds = run.worlds ?? entry.worlds
            entry.worldsDone = run.worlds ?? entry.worldsDone
            entry.seconds = run.wallSeconds
        }
        if entry.parameters.isEmpty { entry.parameters = remembered(dir, ["sweep.yaml", "run.json"], "parameters") { RunText.parameters(dir) } }
        entry.headline = remembered(dir, ["report.md"], "headline") { RunText.reportHeadline(dir) }
    }

    private func tune(_ entry: inout RunEntry, dir: String, names: Set<String>, live: ([String]) -> Bool) {
        let progress = remembered(dir, ["sweep.yaml", TuneSearch.checkpointName], "tune") { TuneProgress.read(dir) }
        entry.name = progress?.name ?? entry.name
        entry.worlds = progress?.budget
        entry.worldsDone = progress?.worlds
        entry.parameters = []
        if names.contains("tune.json") {
            entry.state = .done
            entry.status = "done"
            entry.headline = remembered(dir, ["tune.json"], "answer") { RunText.tuneAnswer(dir) } ?? progress?.line
            if entry.worldsDone != nil { entry.worlds = entry.worldsDone }
        } else if live(["worlds.csv", TuneSearch.checkpointName]) {
            entry.state = .running
            entry.status = "running"
            entry.headline = progress?.line
        } else {
            entry.state = .interrupted
            entry.status = "interrupted, resumable"
            entry.headline = progress?.line
            entry.resume = "worldsweep tune \(RunText.shellWord(folder.shown + "/" + entry.path + "/sweep.yaml")) --out \(RunText.shellWord(folder.shown + "/" + entry.path)) --resume"
        }
    }

    private func shardSet(_ entry: inout RunEntry, dir: String, open: Set<String>, now: Double) {
        let count = (try? Shards.shardCount(in: dir)) ?? nil
        guard let count, count > 0 else {
            entry.status = "no shards yet"
            return
        }
        var states = RunEntry.ShardStates(count: count, done: [], running: [], interrupted: [], missing: [])
        var worlds = 0, done = 0
        for index in 0..<count {
            let shardDir = SweepRun.shardFolder(dir, index: index, count: count)
            guard RunsFolder.kind(shardDir) == .folder else { states.missing.append(index); continue }
            if let settings = RunText.settings(shardDir) {
                entry.name = settings.name
                entry.worlds = settings.totalWorlds
                worlds = settings.totalWorlds
                if entry.parameters.isEmpty { entry.parameters = remembered(shardDir, ["sweep.yaml", "run.json"], "parameters") { RunText.parameters(shardDir) } }
            }
            if RunsFolder.kind(shardDir + "/done") == .file {
                states.done.append(index)
                done += RunText.settings(shardDir).map { $0.upperWorld - $0.lowerWorld } ?? 0
            } else {
                done += RunText.worldsWritten(shardDir) ?? 0
                let files = ["worlds.csv", "rows.sum", "run.json"]
                let live = files.contains { open.contains(shardDir + "/" + $0) }
                    || files.contains { RunsFolder.stamp(shardDir + "/" + $0).map { now - $0.modified < liveWindow } ?? false }
                if live { states.running.append(index) } else { states.interrupted.append(index) }
            }
        }
        entry.shards = states
        entry.worldsDone = done
        if worlds > 0 { entry.worlds = worlds }
        var words = ["shards \(states.done.count) of \(count) done"]
        if !states.running.isEmpty { words.append("running \(RunText.list(states.running))") }
        if !states.interrupted.isEmpty { words.append("interrupted \(RunText.list(states.interrupted))") }
        if !states.missing.isEmpty { words.append("missing \(RunText.list(states.missing))") }
        entry.status = words.joined(separator: "; ")
        entry.state = !states.running.isEmpty ? .running : states.done.count == count ? .done : .partial
        if states.done.count == count { entry.status += " (not merged yet: worldsweep merge \(RunText.shellWord(folder.shown + "/" + entry.path)))" }
    }
}

/// Worlds a second over the last minute of observations, per running run.
struct ProgressWatch {
    private var samples: [String: [(time: Double, done: Int)]] = [:]

    mutating func observe(_ key: String, done: Int, total: Int?, at now: Double) -> (rate: Double?, left: Double?) {
        var list = samples[key, default: []]
        if let last = list.last, last.done > done { list.removeAll() }   // a run started afresh
        if list.last?.done != done || list.isEmpty { list.append((now, done)) }
        while list.count > 2, now - list[0].time > 60 { list.removeFirst() }
        samples[key] = list
        guard let first = list.first, let last = list.last, last.time > first.time, last.done > first.done else { return (nil, nil) }
        let rate = Double(last.done - first.done) / (last.time - first.time)
        let left = total.map { Double(max($0 - done, 0)) / rate }
        return (rate, left)
    }

    mutating func forget(except keep: Set<String>) {
        samples = samples.filter { keep.contains($0.key) }
    }
}
