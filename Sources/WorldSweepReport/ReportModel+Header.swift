// The run's particulars as both pages state them: how the shares of variation were had, which
// points the report reads, the one-line summary and the table under it.
import Foundation
import WorldSweepRun

extension ReportModel {
    /// How the shares of variation were had: exactly on a full grid of the points, by a fitted
    /// surrogate, or each where it applies (a grid sweep's metrics that lack some points, or a
    /// big grid whose points the report reads every k-th of, are fitted). Said by the pages'
    /// method lines; from the analyses made, not from the sweep's kind.
    enum ImportanceMethod { case grid, surrogate, both }
    var importanceMethod: ImportanceMethod {
        var grid = false, fitted = false
        for a in analyses {
            switch a.importance?.method {
            case .grid?: grid = true
            case .surrogate?: fitted = true
            case nil: break
            }
        }
        if grid && fitted { return .both }
        if grid || fitted { return grid ? .grid : .surrogate }
        return isGrid && pointStride == 1 ? .grid : .surrogate
    }

    /// Points in the whole sweep (a summary of a big sweep keeps every `pointStride`-th).
    var sweepPointCount: Int { max(summary.run.sweepPoints ?? 0, summary.points.count) }
    /// The report reads the sweep's points whose index is a multiple of this (1: all of them).
    var pointStride: Int { sweepPointCount > summary.points.count ? summary.run.pointStride ?? 1 : 1 }
    /// Where the report reads fewer points than the sweep has, which ones, said where the counts
    /// are (the analyses and charts are of these; worlds.csv has every world).
    var keptPointsNote: String? {
        guard sweepPointCount > summary.points.count else { return nil }
        return "the report reads every \(Text.ordinal(pointStride)) point (\(summary.points.count)); worlds.csv has every world"
    }

    /// One line on the run (the table folds under it).
    var runSummary: String {
        let r = summary.run
        return "\(r.worlds) worlds, \(sweepPointCount) points × \(summary.replicas) replica\(summary.replicas == 1 ? "" : "s"), \(Text.value(runSeconds)) s simulated each; \(r.wallText) wall time"
            + (keptPointsNote.map { "; \($0)" } ?? "")
    }

    var header: [(String, String)] {
        let r = summary.run
        let pts = sweepPointCount
        let kind = summary.parameters.isEmpty ? "nothing swept" : "\(summary.sweepKind) sweep"
        var rows = [
            ("Worlds", "\(r.worlds)"),
            ("Points", "\(pts) (\(kind)\(keptPointsNote.map { "; \($0)" } ?? ""))"),
            ("Replicas per point", "\(summary.replicas)"),
            ("Swept parameters", summary.parameters.isEmpty ? "none" : summary.parameters.joined(separator: ", ")),
            ("Items", summary.items.joined(separator: ", ")),
            ("Failed worlds", "\(summary.failedWorlds)"),
            ("Engine", r.engine),
            ("Threads", "\(r.threads)"),
            ("Ticks per world", "\(r.ticksPerWorld)"),
            ("Simulated per world", "\(Text.value(runSeconds)) s\(runSecondsKnown ? "" : " (the longest time seen; the summary does not say)")"),
            ("Wall time", "\(r.wallText) (the worlds and their data files)"),
        ]
        rows += Self.rateRows(r)
        if let v = r.version { rows.append(("Version", v)) }
        if let c = r.commandLine { rows.append(("Command", (["worldsweep"] + c).joined(separator: " "))) }
        return rows
    }
}

extension ReportModel {
    /// The run's rates, labelled apart: the simulation's own (engine time per thread) and the
    /// run's over its wall time (files included); a merged run has neither (no process ran it all).
    static func rateRows(_ r: RunInfo) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let ran = r.worldsRun, ran < r.worlds { rows.append(("Worlds run by this process", "\(ran) (the rest kept before --resume)")) }
        if let sim = r.simulationWorldTicksPerSecond { rows.append(("Simulation rate", "\(Text.grouped(sim)) world-ticks/s")) }
        if r.worldTicksPerSecond > 0 { rows.append(("Run rate", "\(Text.grouped(r.worldTicksPerSecond)) world-ticks/s (the worlds and their data files)")) }
        return rows
    }
}
