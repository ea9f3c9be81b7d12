// The report's entry points: report.md and report.html from a sweep summary (and the first
// bounces of a sample of worlds, for histograms), written atomically.
import Dispatch
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
    /// `threads`: the threads the per-metric work, the replays and the three files are spread over
    /// (the run's own count); the files' bytes are the same for any count.
    /// `comingFiles`: data files the run is still putting in place (SweepReply.closingFiles), linked
    /// as the others found. importance.csv, written here, is always linked (it was linked only
    /// when a run before had left one in the folder: the page depended on the folder's past).
    /// `groundwork`: what the run made of its points' parameters while the workers simulated
    /// (`ReportGroundwork`); the bytes are the same without it.
    public static func write(summary: SweepSummary, sample: WorldSample, to directory: String, replay: WorldReplay? = nil,
                             threads: Int = 1, comingFiles: [String] = [], groundwork: ReportGroundwork? = nil) throws {
        let present = dataFileNames.filter {
            $0 == ImportanceCSV.fileName || comingFiles.contains($0)
                || FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
        // The model's steps and the pages' jobs are parallel steps with short serial ones between.
        try ParallelMap.keepingHelpersAwake(threads: threads) {
            // Freed on another thread: the model's arrays (a view per metric and parameter, each
            // metric's values, the designs) took the report's last millisecond to free, object by
            // object. The box is the model's only owner once the pages are written (the copies the
            // jobs held are gone with them), and is emptied there; a plain copy sent to another
            // thread was freed here all the same whenever that thread let go of it first.
            let box = Leftovers(ReportModel(summary: summary, sample: sample, replay: replay, dataFiles: present, threads: threads,
                                            groundwork: groundwork))
            defer { DispatchQueue.global(qos: .utility).async { box.empty() } }
            try writePages(box.model!, to: directory, threads: threads)
        }
    }

    /// A value kept until `empty` is called, which frees it on the calling thread.
    private final class Leftovers: @unchecked Sendable {
        private(set) var model: ReportModel?
        init(_ model: ReportModel) { self.model = model }
        func empty() { model = nil }
    }

    /// report.md, importance.csv and report.html of `model` into `directory`.
    private static func writePages(_ model: ReportModel, to directory: String, threads: Int) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // One set of jobs on the run's threads, the longest first: the extreme worlds' replays
        // (side by side in one batch), the parallel coordinates, then report.md and
        // importance.csv, each written by its job, then the HTML page's other sections in page
        // order. Each section is appended to report.html as soon as those before it are
        // (`PageInOrder`), so that writing the page is not the report's last step on one thread.
        let replays = model.replay == nil ? [] : model.trajectoryWorlds().map(\.world)
        let parts = HTMLReport.parts(model)
        let early = parts.indices.contains(HTMLReport.parallelPart(model)) ? [HTMLReport.parallelPart(model)] : []
        enum Job { case replays, markdown, importance, section(Int) }
        let jobs: [Job] = (replays.isEmpty ? [] : [.replays]) + early.map(Job.section) + [.markdown, .importance]
            + parts.indices.filter { !early.contains($0) }.map(Job.section)
        let page = try PageInOrder(path: (directory as NSString).appendingPathComponent("report.html"), sections: parts.count)
        let path = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        let failures = ParallelMap.map(jobs.count, threads: threads) { k -> Error? in
            do {
                switch jobs[k] {
                case .replays: model.replayTogether(replays)
                case .markdown: try writeAtomically(MarkdownReport.render(model), to: path("report.md"))
                case .importance: try writeAtomically(ImportanceCSV.render(model), to: path(ImportanceCSV.fileName))
                case .section(let s): try page.deliver(s, parts[s](model))
                }
                return nil
            } catch { return error }
        }
        if let first = failures.compactMap({ $0 }).first {
            page.discard()
            throw first
        }
        try page.finish()
    }

    /// A page written section by section in order, each as soon as every section before it is
    /// delivered, by the thread that delivers the last missing one (into `PATH.tmp`, renamed over
    /// `PATH` by `finish`).
    final class PageInOrder: @unchecked Sendable {
        private let lock = NSLock()
        private let path: String
        private let file: AppendFile
        private let sections: Int
        private var ready: [Int: String] = [:]
        private var next = 0
        /// A thread is writing sections: others leave theirs in `ready` for it.
        private var writing = false
        private var failure: Error?

        init(path: String, sections: Int) throws {
            self.path = path
            self.sections = sections
            do {
                file = try AppendFile(path: path + ".tmp", truncate: true, startsWriteback: false)
            } catch {
                throw WriteError.cannotWrite(path: path + ".tmp", reason: String(cString: strerror(errno)))
            }
        }

        /// Section `index`'s text; writes it and any that follow it, when those before are written.
        func deliver(_ index: Int, _ text: String) throws {
            lock.lock()
            ready[index] = text
            guard !writing else { lock.unlock(); return }
            writing = true
            while true {
                var run: [String] = []
                while let t = ready.removeValue(forKey: next) { run.append(t); next += 1 }
                guard !run.isEmpty, failure == nil else { break }
                lock.unlock()
                do {
                    for t in run { try file.append(t) }
                } catch {
                    lock.lock()
                    failure = WriteError.cannotWrite(path: path + ".tmp", reason: String(cString: strerror(errno)))
                    break
                }
                lock.lock()
            }
            writing = false
            let failed = failure
            lock.unlock()
            if let failed { throw failed }
        }

        /// Every section written: the file closed and renamed into place.
        func finish() throws {
            lock.lock(); defer { lock.unlock() }
            precondition(next == sections && !writing, "every section written")
            if let failure { discard(); throw failure }
            file.close()
            if rename(path + ".tmp", path) != 0 {
                let reason = String(cString: strerror(errno))
                unlink(path + ".tmp")
                throw WriteError.cannotWrite(path: path, reason: reason)
            }
        }

        /// Drops the unfinished page.
        func discard() {
            file.close()
            unlink(path + ".tmp")
        }
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
