import Foundation
import WorldSweepRun
import WorldSweepScene

/// What the catalog reads of a run's files: run.json, summary.json's `run` block, rows.sum, the
/// first finding of report.md, a tune's answer, a comparison's verdict. Every read is bounded.
enum RunText {
    static func settings(_ dir: String) -> RunSettings? {
        RunsFolder.text(dir + "/run.json", limit: 1 << 20).flatMap { try? JSONDecoder().decode(RunSettings.self, from: Data($0.utf8)) }
    }

    struct SummaryRun {
        var name: String?
        var worlds: Int?
        var wallSeconds: Double?
    }

    /// summary.json's name, worlds and wall time, read from its head (the point tables follow
    /// `run` only in files written with replicas; the head is read as far as its `run` block).
    static func summaryRun(_ dir: String) -> SummaryRun? {
        guard let bytes = try? RunsFolder.bytes(dir + "/summary.json", limit: 256 << 20),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        let run = object["run"] as? [String: Any]
        return SummaryRun(name: object["name"] as? String, worlds: (run?["worlds"] as? NSNumber)?.intValue,
                          wallSeconds: (run?["wallSeconds"] as? NSNumber)?.doubleValue)
    }

    /// Worlds whose rows are written: the sum of rows.sum's chunk counts (a line per chunk).
    static func worldsWritten(_ dir: String) -> Int? {
        guard let text = RunsFolder.text(dir + "/rows.sum", limit: 16 << 20) else { return nil }
        var total = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 5, let count = Int(fields[1]) else { break }
            total += count
        }
        return total
    }

    /// The swept parameters of the run's copy of its sweep file (its `--sweep` overrides included).
    static func parameters(_ dir: String) -> [String] {
        (try? ReplaySource.scene(dir))?.sweep?.parameters.map(\.path) ?? []
    }

    /// report.md's first finding (the first bullet, bold marks removed).
    static func reportHeadline(_ dir: String) -> String? {
        guard let text = RunsFolder.text(dir + "/report.md", limit: 8 << 20) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("- ") {
            return String(line.dropFirst(2)).replacingOccurrences(of: "**", with: "")
        }
        return nil
    }

    static func tuneAnswer(_ dir: String) -> String? {
        guard let text = RunsFolder.text(dir + "/tune.json", limit: 64 << 20),
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        return object["answer"] as? String
    }

    /// compare.md's verdict: its last line before the first section that is not a heading.
    static func compareVerdict(_ dir: String) -> String? {
        guard let text = RunsFolder.text(dir + "/compare.md", limit: 8 << 20) else { return nil }
        var last: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            if !line.hasPrefix("#"), !line.hasPrefix("```"), !line.trimmingCharacters(in: .whitespaces).isEmpty {
                last = String(line).replacingOccurrences(of: "**", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "- "))
            }
        }
        return last
    }

    /// A word as a POSIX shell reads it back unchanged.
    static func shellWord(_ s: String) -> String {
        let plain = s.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:+@%".contains($0) }
        return plain && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// "2, 5, 7" (at most 12 listed).
    static func list(_ indices: [Int]) -> String {
        indices.prefix(12).map(String.init).joined(separator: ", ") + (indices.count > 12 ? " …" : "")
    }
}

/// A tune in progress from its checkpoint (search.json): worlds used, the budget, the best so far.
struct TuneProgress {
    var name: String
    var worlds: Int
    var budget: Int
    var line: String?

    static func read(_ dir: String) -> TuneProgress? {
        guard let scene = try? ReplaySource.scene(dir), let tune = scene.tune else { return nil }
        let generations = TuneSearch.recordedGenerations(at: dir + "/" + TuneSearch.checkpointName) ?? []
        let all = generations.flatMap { $0 }
        let worlds = all.reduce(0) { $0 + $1.replicas }
        let scoring = TuneScoring(tune: tune)
        let line = all.isEmpty ? nil : TuneResult.progressLine(generation: generations.count - 1, worlds: worlds,
                                                               budget: tune.budget, best: TuneResult.best(all, scoring: scoring),
                                                               tune: tune, scoring: scoring)
        return TuneProgress(name: scene.name, worlds: worlds, budget: tune.budget, line: line)
    }
}
