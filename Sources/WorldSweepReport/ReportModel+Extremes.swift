import Foundation
import WorldSweepRun

// Each key metric's highest and lowest points, and the worlds the report replays for them.
extension ReportModel {
    // MARK: extremes

    /// The highest and lowest points: their indices in `summary.points`, and their values. For a
    /// metric worlds can lack, the values are the means over the worlds that have one (as
    /// points.csv and worlds.csv give them: a rest never reached or a bounce never made is no
    /// measurement), the points where no world has one are left out, and `lacking` says how many.
    struct Extreme {
        var column: String; var high: (Int, Double); var low: (Int, Double)
        var lacking = 0
    }

    func extremes() -> [Extreme] { extremeList }

    /// The points with a value of `column` (their indices in `summary.points`), and that value
    /// (`SweepViews.valued`, made once).
    func valued(_ column: String) -> [(Int, Double)] {
        valuedColumns[column] ?? SweepViews.valued(summary.points, column, metrics, runSeconds: runSeconds)
    }

    /// Per point of `valued(column)`, the share of its worlds without a value (made once).
    func neverShares(_ column: String) -> [Double?] {
        neverColumns[column] ?? SweepViews.neverShares(valued(column), of: summary.points, column, metrics)
    }

    var computedExtremes: [Extreme] {
        keyColumns.compactMap { column in
            let measured = Censoring.missing(column, metrics).countsNever
            let vals: [(Int, Double)] = measured
                ? summary.points.indices.compactMap { i in summary.points[i].metrics[column].flatMap { $0.count > 0 && $0.mean.isFinite ? (i, $0.mean) : nil } }
                : valued(column)
            // The first point on a tie, as points.csv lists them.
            guard let hi = vals.max(by: { ($0.1, -$0.0) < ($1.1, -$1.0) }), let lo = vals.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), hi.1 > lo.1 else { return nil }
            let ran = summary.points.filter { Censoring.worlds($0) > 0 }.count
            return Extreme(column: column, high: hi, low: lo, lacking: measured ? ran - vals.count : 0)
        }
    }

    /// What an extreme of a metric worlds can lack is over, said under the table.
    func extremeNote(_ e: Extreme) -> String? {
        guard Censoring.missing(e.column, metrics).countsNever else { return nil }
        var text = "\(e.column): means over the worlds that have a value (a world that \(HTMLReport.lacking(e.column, metrics)) has none), as in \(summary.replicas > 1 ? "points.csv" : "worlds.csv")"
        if e.lacking > 0 { text += "; the \(Text.count(e.lacking, "point")) where no world has one are left out" }
        return text + "."
    }

    /// The world the report replays for a point: its first replica.
    func world(of p: PointSummary) -> Int { p.point * max(1, summary.replicas) }

    /// The sweep file as the command line named it, for the commands the report prints.
    var sweepFile: String {
        if let f = replay?.file { return f }
        if let c = summary.run.commandLine, let i = c.firstIndex(of: "run"), c.indices.contains(i + 1) { return c[i + 1] }
        return "SWEEP_FILE"
    }

    /// The command that replays one world of the sweep.
    func traceCommand(world: Int) -> String {
        func quoted(_ f: String) -> String {
            f.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=,:".contains($0) } ? f : "'" + f.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return (["worldsweep", "trace", quoted(sweepFile)] + (replay?.overrides ?? []).map(quoted)).joined(separator: " ")
            + " --world \(world)"
    }

    /// Sentences on swept elasticities and frictions that the mixing rules make (partly) idle, from
    /// the partners the items actually touched.
    var mixingNotes: [String] { replay?.scene.mixingNotes(touched: summary.partners) ?? [] }

    /// The extreme worlds to draw: the headline metric's highest and lowest first, then the other
    /// key metrics', each world once.
    func trajectoryWorlds() -> [(world: Int, why: String)] {
        var out: [(world: Int, why: String)] = []
        var ex = extremes()
        if let h = headline?.column, let i = ex.firstIndex(where: { $0.column == h }) { ex.insert(ex.remove(at: i), at: 0) }
        for e in ex {
            for (which, pv) in [("highest", e.high), ("lowest", e.low)] {
                let p = summary.points[pv.0], w = world(of: p)
                guard !out.contains(where: { $0.world == w }), out.count < Self.maxTrajectories else { continue }
                out.append((w, "\(which) mean \(e.column) (\(Text.value(pv.1))\(Censoring.missing(e.column, metrics).countsNever ? " over the worlds with one" : "")): \(describe(p))"))
            }
        }
        return out
    }

    func trajectories() -> [(Trajectory, String)] {
        guard replay != nil else { return [] }
        return trajectoryWorlds().compactMap { w in replayed(w.world).map { ($0, w.why) } }
    }

    /// World `world` replayed (made once: ReportWriter replays the extreme worlds together in its
    /// first job, before the sections that draw them); nil without a replay or a world.
    func replayed(_ world: Int) -> Trajectory? {
        guard let replay else { return nil }
        return replays.value(world) { Trajectory.replay(replay, world: world) }
    }

    /// Replays `worlds` together, side by side in the lanes of one batch (one at a time when they
    /// cannot share one), filed for `replayed`: ReportWriter's first job.
    func replayTogether(_ worlds: [Int]) {
        guard let replay else { return }
        replays.values(worlds) { missing in
            Trajectory.replayInLanes(replay, worlds: missing) ?? missing.map { Trajectory.replay(replay, world: $0) }
        }
    }
}
