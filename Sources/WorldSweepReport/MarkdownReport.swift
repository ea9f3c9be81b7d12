// report.md: the same findings as the HTML page, as text and tables (the pictures stay in report.html).
import Foundation
import WorldSweepRun

enum MarkdownReport {
    static let maxRows = 40

    static func cell(_ s: String) -> String { Text.markdownCell(s) }

    static func table(_ head: [String], _ rows: [[String]]) -> String {
        var t = "| " + head.map(cell).joined(separator: " | ") + " |\n"
        t += "|" + head.map { _ in " --- |" }.joined() + "\n"
        for r in rows { t += "| " + r.map(cell).joined(separator: " | ") + " |\n" }
        return t + "\n"
    }

    static func render(_ m: ReportModel) -> String {
        let s = m.summary
        var md = "# Sweep report: \(cell(s.name))\n\n"
        if !s.description.isEmpty { md += cell(s.description) + "\n\n" }
        if let h = m.headline { md += "**\(cell(m.finding(h)))**\n\n" }
        md += table(["", ""], m.header.map { [$0.0, $0.1] })
        if !m.dataFiles.isEmpty { md += "Data: " + m.dataFiles.map { "[\($0)](\($0))" }.joined(separator: " · ") + "\n\n" }
        if s.parameters.isEmpty { md += singlePoint(m) } else { md += importance(m) + views(m) }
        md += extremes(m) + sensitivity(m)
        return md
    }

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "## Results\n\nNo points.\n\n" }
        var md = "## Results of the single point\n\nNothing is swept: every metric over the \(Text.count(p.replicas, "replica")) of the one point.\n\n"
        let rows = m.metricColumns.compactMap { c in
            p.metrics[c].map { [m.metricLabel(c), Text.value($0.mean), Text.value($0.std), Text.value($0.min), Text.value($0.max), "\($0.count)"] }
        }
        md += table(["Metric", "Mean", "Std", "Min", "Max", "Replicas with a value"], rows)
        return md
    }

    static func importance(_ m: ReportModel) -> String {
        let s = m.summary
        var md = "## What matters\n\nShare of each metric's variation over the points that only that parameter explains (R² lost when its terms leave a least-squares fit, LAPACK dgels; straight and squared terms). Key metrics first.\n\n"
        for a in m.rankedMetrics where m.keyColumns.contains(a.column) && a.column != m.headline?.column {
            md += "- \(cell(m.finding(a)))\n"
        }
        if let why = m.nothingRanked { md += cell(why) + "\n" }
        for note in m.mixingNotes { md += "Note: " + cell(note) + "\n\n" }
        md += "\n"
        let rows = m.rankedMetrics.map { a in
            [m.metricLabel(a.column)] + s.parameters.indices.map { j in
                a.importance!.shares[j].map { "\(Int(($0 * 100).rounded())) % " + (m.direction(a, j) == "raises it" ? "↑" : m.direction(a, j) == "lowers it" ? "↓" : "~") } ?? "—"
            } + [PrintfNumber.fixed(a.importance!.rSquared, decimals: 2), "\(a.importance!.points)"]
        }
        if !rows.isEmpty { md += table(["Metric"] + s.parameters + ["R²", "Points"], rows) + "↑ raises, ↓ lowers, ~ not in one direction.\n\n" }
        if !m.noiseMetrics.isEmpty {
            md += "Noise, not ranked: " + m.noiseMetrics.map { "\(cell($0.0)) (\(cell($0.1)))" }.joined(separator: "; ") + ".\n\n"
        }
        if !m.constantMetrics.isEmpty { md += "Constant: " + m.constantMetrics.map(cell).joined(separator: ", ") + ".\n\n" }
        return md
    }

    /// Per key metric and parameter: at each value, the mean, min and max of the point means over
    /// the other parameters (the lines and bands of the HTML slice charts).
    static func views(_ m: ReportModel) -> String {
        var md = "## The whole sweep\n\nAt each value of a parameter: the mean of the point means over all the other parameters, and their min and max (every point counts)"
        md += m.isRandom ? "; random sweeps in \(SweepViews.bins) equal-width ranges per parameter.\n\n" : ".\n\n"
        for column in m.keyColumns {
            guard let a = m.analysis(column), a.signal != .constant else { continue }
            md += "### \(cell(column))\n\n"
            if case .noise(let why) = a.signal { md += "Noise: \(cell(why)).\n\n" }
            for v in m.slices(column) {
                let shown = ReportModel.capped(v.levels.indices.map(Double.init), maxRows).map { v.levels[Int($0)] }
                md += table([m.axisLabel(v.parameter), "mean", "min", "max", "points"], shown.map { l in
                    [(v.binned ? "≈ " : "") + Text.value(l.x), Text.value(l.mean), Text.value(l.min), Text.value(l.max), "\(l.points)"]
                })
                if shown.count < v.levels.count { md += "\(shown.count) of \(v.levels.count) values shown, spread evenly.\n\n" }
            }
        }
        return md
    }

    static func extremes(_ m: ReportModel) -> String {
        let ex = m.extremes()
        guard !ex.isEmpty, m.summary.points.count > 1 else { return "" }
        let md = "## Extremes\n\nThe points with the highest and the lowest mean of each key metric, and the command that replays the point's first replica.\n\n"
        var rows: [[String]] = []
        for e in ex {
            for (which, pv) in [("highest", e.high), ("lowest", e.low)] {
                rows.append([m.metricLabel(e.column), which, Text.value(pv.1), "point \(pv.0.point): \(m.describe(pv.0))",
                             "`\(m.traceCommand(world: m.world(of: pv.0)))`"])
            }
        }
        return md + table(["Metric", "", "Mean", "At", "Replay"], rows)
    }

    static func sensitivity(_ m: ReportModel) -> String {
        let s = m.summary
        guard !s.parameters.isEmpty else { return "" }
        var md = "## Sensitivity\n\nStandardized straight-line least-squares coefficients (z-score of the metric's per-point mean per z-score of each parameter, the others held fixed; LAPACK dgels) and R² of the fit, for the ranked metrics. — : parameter constant or collinear with an earlier one.\n\n"
        let fits = m.rankedMetrics.compactMap(\.fit).prefix(ReportModel.maxSensitivityRows)
        if !fits.isEmpty {
            md += table(["Metric"] + s.parameters + ["R²", "Points"], fits.map { f in
                [m.metricLabel(f.metric)] + f.coefficients.map { $0.map { PrintfNumber.fixed($0, decimals: 3, plus: true) } ?? "—" }
                    + [PrintfNumber.fixed(f.rSquared, decimals: 3), "\(f.points)"]
            })
        }
        let unfitted = m.analyses.filter { $0.fit == nil && $0.signal != .constant }
        if !unfitted.isEmpty {
            md += "Not fitted: " + unfitted.map { "\(cell($0.column)) (\(cell($0.unfitted ?? "no fit")))" }.joined(separator: ", ") + ".\n\n"
        }
        return md
    }
}
