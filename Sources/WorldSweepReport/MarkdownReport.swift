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
        for h in m.headlines { md += "- **\(cell(m.headlineText(h)))**\n" }
        for text in m.unreachedOutcomes { md += "- **\(cell(text))**\n" }
        if !m.headlines.isEmpty || !m.unreachedOutcomes.isEmpty { md += "\n" }
        if s.parameters.isEmpty { md += singlePoint(m) } else { md += importance(m) + views(m) }
        md += extremes(m)
        md += "## The run\n\n" + table(["", ""], m.header.map { [$0.0, $0.1] })
        if !m.dataFiles.isEmpty { md += "Data: " + m.dataFiles.map { "[\($0)](\($0))" }.joined(separator: " · ") + "\n\n" }
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
        var md = "## What matters\n\nEach metric's variation split into parts that add to 100 %: main effects, pair interactions\(s.parameters.count >= 3 ? ", three or more together" : "")"
        md += s.replicas > 1 ? ", noise between replicas" : " (one world per point: no noise estimate)"
        switch m.importanceMethod {
        case .grid: md += "; exact on this full grid (functional ANOVA).\n\n"
        case .surrogate: md += "; of a fitted quadratic surrogate on this sweep (R² stated).\n\n"
        case .both: md += "; exact on the full grid where a metric has every point (functional ANOVA), else of a fitted quadratic surrogate (R² stated).\n\n"
        }
        md += "Outcomes that never happen count: " + HTMLReport.censoringNote(m) + " Every share is in importance.csv.\n\n"
        for a in m.rankedMetrics where m.keyColumns.contains(a.column) && !m.headlines.contains(where: { $0.column == a.column }) {
            md += "- \(cell(m.finding(a)))\n"
        }
        if let why = m.nothingRanked { md += cell(why) + "\n" }
        for note in m.mixingNotes { md += "Note: " + cell(note) + "\n\n" }
        md += "\n"
        let varying = s.parameters.indices.filter(m.varyingParameters.contains)
        let higher = m.rankedMetrics.contains { $0.importance!.hasHigherOrder }
        let rows = m.rankedMetrics.map { a -> [String] in
            let d = a.importance!
            let mains: [String] = varying.map { j in d.mains[j].map(ReportModel.percent) ?? "—" }
            let pair: String = d.pairs.first.map { "\(s.parameters[$0.a]) × \(s.parameters[$0.b]) \(ReportModel.percent($0.share))" } ?? "—"
            let noise: String = d.noise.map(ReportModel.percent) ?? "—"
            let fit: String = d.rSquared.map { PrintfNumber.fixed($0, decimals: 2) } ?? "exact"
            return [m.metricLabel(a.column)] + mains + [pair] + (higher ? [d.hasHigherOrder ? ReportModel.percent(d.higherOrder) : "—"] : []) + [noise, fit, "\(d.points)"]
        }
        if !rows.isEmpty { md += table(["Metric"] + varying.map { s.parameters[$0] } + ["Strongest pair"] + (higher ? ["3+ together"] : []) + ["Noise", "Fit R²", "Points"], rows) }
        let noise = m.noiseMetrics, constant = m.constantMetrics
        if !noise.isEmpty {
            md += "Not ranked (too little variation to say anything): " + noise.map { "\(cell($0.0)) (\(cell($0.1)))" }.joined(separator: "; ") + ".\n\n"
        }
        if !constant.isEmpty { md += "Constant: " + constant.map(cell).joined(separator: ", ") + ".\n\n" }
        return md
    }

    /// Per key metric and parameter: at each value, the mean, min and max of the point means over
    /// the other parameters (the lines and bands of the HTML slice charts).
    static func views(_ m: ReportModel) -> String {
        var md = "## The whole sweep\n\nAt each value of a parameter: the mean of the point means over all the other parameters, and their min and max "
            + (m.pointStride > 1 ? "(every point the report reads counts: every \(Text.ordinal(m.pointStride)) of the sweep's)" : "(every point counts)")
        md += m.isRandom ? "; random sweeps in \(SweepViews.bins) equal-width ranges per parameter.\n\n" : ".\n\n"
        for column in m.keyColumns {
            guard let a = m.analysis(column), a.signal != .constant else { continue }
            md += "### \(cell(column))\n\n"
            if case .noise(let why) = a.signal { md += "Not a finding: \(cell(why)).\n\n" }
            for v in m.slices(column) {
                let shown = ReportModel.capped(v.levels.indices.map(Double.init), maxRows).map { v.levels[Int($0)] }
                let counted = v.levels.contains { $0.never != nil }
                md += table([m.axisLabel(v.parameter), "mean", "min", "max", "points"] + (counted ? ["never"] : []), shown.map { l in
                    [(v.binned ? "≈ " : "") + Text.value(l.x), Text.value(l.mean), Text.value(l.min), Text.value(l.max), "\(l.points)"]
                        + (counted ? [l.never.map(ReportModel.percent) ?? "—"] : [])
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
                let p = m.summary.points[pv.0]
                rows.append([m.metricLabel(e.column), which, Text.value(pv.1), "point \(p.point): \(m.describe(p))",
                             "`\(m.traceCommand(world: m.world(of: p)))`"])
            }
        }
        return md + table(["Metric", "", "Mean", "At", "Replay"], rows) + ex.compactMap(m.extremeNote).map { $0 + "\n\n" }.joined()
    }
}
