// The report's entry points: report.md and report.html from a sweep summary (and the first
// bounces of a sample of worlds, for histograms), written atomically.
import Foundation
import WorldSweepRun

public enum ReportWriter {
    public enum WriteError: Error, CustomStringConvertible {
        case cannotWrite(path: String, reason: String)
        public var description: String {
            switch self { case let .cannotWrite(path, reason): "cannot write \(path): \(reason)" }
        }
    }

    /// Writes `report.md` and `report.html` into `directory` (created if missing): each first as
    /// `NAME.tmp`, then renamed over the final name, so readers never see a half-written file.
    /// With `replay`, the report replays its extreme worlds to draw their paths.
    /// The report links to the run's data files found beside it.
    /// `threads`: the threads the per-metric work and the three files are spread over (the run's
    /// own count); the files' bytes are the same for any count.
    /// `comingFiles`: data files the run is still putting in place (SweepReply.closingFiles), linked
    /// as the others found. importance.csv, written here, is always linked (it was linked only
    /// when a run before had left one in the folder: the page depended on the folder's past).
    public static func write(summary: SweepSummary, sample: WorldSample, to directory: String, replay: WorldReplay? = nil,
                             threads: Int = 1, comingFiles: [String] = []) throws {
        let present = dataFileNames.filter {
            $0 == ImportanceCSV.fileName || comingFiles.contains($0)
                || FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
        let model = ReportModel(summary: summary, sample: sample, replay: replay, dataFiles: present, threads: threads)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The HTML page is most of the work: its sections are jobs of their own beside the
        // Markdown page and importance.csv, joined in page order once all are done. Taken from the
        // page's end (the replayed extremes, the longest, start first, so no thread waits alone on them).
        let parts = HTMLReport.parts(model), html = parts.count
        let texts = ParallelMap.map(html + 2, threads: threads) { k -> String in
            k == 0 ? MarkdownReport.render(model) : k == html + 1 ? ImportanceCSV.render(model) : parts[html - k](model)
        }
        // The page's sections are written one after another, not joined first (a copy of 1.8 MB
        // of text, and another into Data, on a 4 096-point report's path to its end).
        let files = [("report.html", Array(texts[1...html].reversed())), ("report.md", [texts[0]]), (ImportanceCSV.fileName, [texts[html + 1]])]
        let failures = ParallelMap.map(files.count, threads: threads) { k -> Error? in
            do {
                try writeAtomically(files[k].1, to: (directory as NSString).appendingPathComponent(files[k].0))
                return nil
            } catch { return error }
        }
        if let first = failures.compactMap({ $0 }).first { throw first }
    }

    /// A run folder's data files, in the order the report lists them.
    static let dataFileNames = ["worlds.csv", SweepRun.pointsTableName, "partners.csv", SweepRun.partnerPointsTableName,
                                "summary.json", ImportanceCSV.fileName, SweepRun.sweepCopyName]

    /// The Markdown report.
    public static func markdown(summary: SweepSummary, sample: WorldSample = WorldSample()) -> String {
        MarkdownReport.render(ReportModel(summary: summary, sample: sample))
    }

    /// The self-contained HTML report (inline CSS and SVG, no scripts, no external references).
    public static func html(summary: SweepSummary, sample: WorldSample = WorldSample(), replay: WorldReplay? = nil) -> String {
        HTMLReport.render(ReportModel(summary: summary, sample: sample, replay: replay))
    }

    /// importance.csv: every metric's variance decomposition.
    public static func importance(summary: SweepSummary) -> String { ImportanceCSV.render(ReportModel(summary: summary, sample: WorldSample())) }

    /// Sensitivity fits of every metric with enough points (what the report tabulates).
    public static func sensitivity(summary: SweepSummary) -> [SensitivityFit] {
        ReportModel(summary: summary, sample: WorldSample()).analyses.compactMap(\.fit)
    }

    static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically([text], to: path)
    }

    /// The pieces' text, one after another, as the file at `path` (written beside it, then renamed).
    static func writeAtomically(_ pieces: [String], to path: String) throws {
        let tmp = path + ".tmp"
        do {
            let file = try AppendFile(path: tmp, truncate: true, startsWriteback: false)
            for piece in pieces { try file.append(piece) }
            file.close()
        } catch is RunFileError {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw WriteError.cannotWrite(path: tmp, reason: reason)
        }
        if rename(tmp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw WriteError.cannotWrite(path: path, reason: reason)
        }
    }
}
