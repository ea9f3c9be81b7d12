// The report's entry points: report.md and report.html from a sweep summary (and a sample of
// worlds for histograms), written atomically.
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
    public static func write(summary: SweepSummary, sample: [WorldResult], to directory: String, replay: WorldReplay? = nil) throws {
        let present = dataFileNames.filter { FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        let model = ReportModel(summary: summary, sample: sample, replay: replay, dataFiles: present)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeAtomically(MarkdownReport.render(model), to: (directory as NSString).appendingPathComponent("report.md"))
        try writeAtomically(HTMLReport.render(model), to: (directory as NSString).appendingPathComponent("report.html"))
        try writeAtomically(ImportanceCSV.render(model), to: (directory as NSString).appendingPathComponent(ImportanceCSV.fileName))
    }

    /// A run folder's data files, in the order the report lists them.
    static let dataFileNames = ["worlds.csv", SweepRun.pointsTableName, "partners.csv", SweepRun.partnerPointsTableName,
                                "summary.json", ImportanceCSV.fileName, SweepRun.sweepCopyName]

    /// The Markdown report.
    public static func markdown(summary: SweepSummary, sample: [WorldResult] = []) -> String {
        MarkdownReport.render(ReportModel(summary: summary, sample: sample))
    }

    /// The self-contained HTML report (inline CSS and SVG, no scripts, no external references).
    public static func html(summary: SweepSummary, sample: [WorldResult] = [], replay: WorldReplay? = nil) -> String {
        HTMLReport.render(ReportModel(summary: summary, sample: sample, replay: replay))
    }

    /// importance.csv: every metric's variance decomposition.
    public static func importance(summary: SweepSummary) -> String { ImportanceCSV.render(ReportModel(summary: summary, sample: [])) }

    /// Sensitivity fits of every metric with enough points (what the report tabulates).
    public static func sensitivity(summary: SweepSummary) -> [SensitivityFit] {
        ReportModel(summary: summary, sample: []).analyses.compactMap(\.fit)
    }

    static func writeAtomically(_ text: String, to path: String) throws {
        let tmp = path + ".tmp"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: tmp))
        } catch {
            throw WriteError.cannotWrite(path: tmp, reason: "\(error.localizedDescription)")
        }
        if rename(tmp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw WriteError.cannotWrite(path: path, reason: reason)
        }
    }
}
