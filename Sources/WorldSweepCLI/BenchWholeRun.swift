import Dispatch
import Foundation
import WorldSweep
import WorldSweepReport
import WorldSweepRun
import WorldSweepScene

/// `bench --whole-run`: the `run` path over the sweep's own worlds, files included (and the report
/// with `--whole-run-report`), timed beside the engine alone on the same worlds, so the gap between
/// what the engine does and what a user waits for stays visible.
enum BenchWholeRun {
    /// The row name of whole-run figures (`whole-run+report` when the report is timed too).
    static func engineName(report: Bool) -> String { report ? "whole-run+report" : "whole-run" }

    /// Wall seconds of one whole run of the sweep into `directory` (replaced each time):
    /// worlds.csv, partners.csv, the point tables and summary.json, then the report if `report`, on
    /// the run's threads and with the replays of its extreme worlds (`replay`) as `run` writes it.
    static func time(source: SweepSource, engine: SweepEngine, threads: Int, report: Bool,
                     replay: WorldReplay?, directory: String) throws -> Double {
        var request = SweepRequest(source: source, directory: directory, engine: engine.name, threads: threads,
                                   chunkSize: BenchCommand.chunkSize)
        request.force = true
        request.closesInBackground = true
        let start = DispatchTime.now().uptimeNanoseconds
        let groundwork = report ? replay.map { ReportGroundwork(scene: $0.scene) } : nil
        request.whileWorkersRun = groundwork.map { g in { g.make() } }
        let outcome = try WorldSweepCommand.engine.code.runSweep(request)
        // As `run` does: the report beside the run's last files.
        do {
            if report, let summary = outcome.summary {
                try ReportWriter.write(summary: summary, sample: outcome.sample, to: directory, replay: replay, threads: threads,
                                       comingFiles: outcome.closingFiles, groundwork: groundwork)
            }
        } catch {
            try? outcome.closing?()
            throw error
        }
        try outcome.closing?()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard outcome.completed else { throw RunFailure("bench --whole-run: the run in \(directory) did not complete") }
        return seconds
    }
}

extension BenchResult {
    /// Each whole-run row's rate over the engine's at the same threads and worlds (the engine the
    /// whole run used: the first batched one measured, else the first).
    mutating func computeWholeRunRatios(engine: String) {
        let rows = engines
        for k in engines.indices where engines[k].engine.hasPrefix("whole-run") {
            let r = rows[k]
            if let base = rows.first(where: { $0.engine == engine && $0.worlds == r.worlds && $0.threads == r.threads }) {
                engines[k].vsEngine = r.worldTicksPerSecond / base.worldTicksPerSecond
            }
        }
    }
}
