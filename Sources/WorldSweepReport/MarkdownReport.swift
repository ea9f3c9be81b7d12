// report.md: the same sections as the HTML page, as tables.
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

    static func meanStd(_ st: MetricStats?, replicas: Int) -> String {
        guard let st else { return "—" }
        return replicas > 1 ? "\(Text.value(st.mean)) ± \(Text.short(st.std))" : Text.value(st.mean)
    }

    static func render(_ m: ReportModel) -> String {
        let s = m.summary
        var md = "# Sweep report: \(cell(s.name))\n\n"
        if !s.description.isEmpty { md += cell(s.description) + "\n\n" }
        md += table(["", ""], m.header.map { [$0.0, $0.1] })
        if s.parameters.isEmpty { md += singlePoint(m) } else { md += bounce(m) + contacts(m) }
        md += distributions(m) + extremes(m) + sensitivity(m)
        return md
    }

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "## Results\n\nNo points.\n\n" }
        var md = "## Results of the single point\n\nNothing is swept: every metric over the \(p.replicas) replica(s) of the one point.\n\n"
        let rows = m.metricColumns.compactMap { c in
            p.metrics[c].map { [m.metricLabel(c), Text.value($0.mean), Text.value($0.std), Text.value($0.min), Text.value($0.max), "\($0.count)"] }
        }
        md += table(["Metric", "Mean", "Std", "Min", "Max", "Replicas with a value"], rows)
        return md
    }

    static func bounce(_ m: ReportModel) -> String {
        guard let x = m.xAxis else { return "" }
        let s = m.summary
        var md = "## First bounce height against \(cell(s.parameters[x]))\n\n"
        var notes = ["Mean first bounce height (`ITEM.bounce1`, pt)" + (s.replicas > 1 ? " ± standard deviation over \(s.replicas) replicas." : "."), m.selectionNote]
        if s.items.count > ReportModel.maxItemsCharted { notes.append("Tables for the first \(ReportModel.maxItemsCharted) of \(s.items.count) items.") }
        md += notes.filter { !$0.isEmpty }.joined(separator: " ") + "\n\n"
        for item in m.itemsCharted {
            let (groups, cappedFrom) = m.bounceGroups(item: item)
            md += "### \(cell(item))\n\n"
            if m.isRandom {
                let pts = groups.flatMap(\.points).sorted { $0.x < $1.x }
                let shown = ReportModel.capped(pts.indices.map(Double.init), maxRows).map { pts[Int($0)] }
                md += table(["Point", "Parameters", "\(item).bounce1 (pt)"], shown.map { p in
                    ["\(p.point.point)", m.describe(p.point), meanStd(p.stats, replicas: s.replicas)]
                })
                if pts.count > shown.count { md += "\(shown.count) of \(pts.count) points shown, spread evenly over \(s.parameters[x]).\n\n" }
                continue
            }
            let xs = Array(Set(groups.flatMap { $0.points.map(\.x) })).sorted()
            let shownX = ReportModel.capped(xs, maxRows)
            let head = [m.axisLabel(x)] + groups.map { g in g.value.map { "\(m.summary.parameters[m.groupAxis!]) = \(Text.value($0))" } ?? "\(item).bounce1 (pt)" }
            let rows = shownX.map { xv in [Text.value(xv)] + groups.map { g in meanStd(g.points.first { $0.x == xv }?.stats, replicas: s.replicas) } }
            md += table(head, rows)
            if let n = cappedFrom { md += "\(ReportModel.maxLines) of \(n) values of \(s.parameters[m.groupAxis!]) shown.\n\n" }
            if shownX.count < xs.count { md += "\(shownX.count) of \(xs.count) values of \(s.parameters[x]) shown, spread evenly.\n\n" }
        }
        return md
    }

    static func contacts(_ m: ReportModel) -> String {
        guard let grid = m.heatmapGrid(), let x = m.xAxis, let g = m.groupAxis else { return "" }
        let s = m.summary
        var md = "## Contacts over \(cell(s.parameters[x])) × \(cell(s.parameters[g]))\n\n"
        md += ["Mean contacts that began (`ITEM.contacts`); rows: \(s.parameters[g]), columns: \(s.parameters[x]).", m.selectionNote]
            .filter { !$0.isEmpty }.joined(separator: " ") + "\n\n"
        let cols = ReportModel.capped(grid.xValues, 16)
        let colIndex = cols.map { v in grid.xValues.firstIndex(of: v)! }
        let rowIndex = ReportModel.capped(grid.yValues.indices.map(Double.init), maxRows).map { Int($0) }
        for item in m.itemsCharted {
            md += "### \(cell(item))\n\n"
            let head = ["\(s.parameters[g]) \\ \(s.parameters[x])"] + cols.map(Text.value)
            let rows = rowIndex.map { r in
                [Text.value(grid.yValues[r])] + colIndex.map { c in grid.cells[r][c]?.metrics["\(item).contacts"].map { Text.value($0.mean) } ?? "—" }
            }
            md += table(head, rows)
        }
        if grid.capped || cols.count < grid.xValues.count || rowIndex.count < grid.yValues.count {
            md += "Large sweep: some values of the axes left out, spread evenly.\n\n"
        }
        return md
    }

    static func distributions(_ m: ReportModel) -> String {
        guard let item = m.distributionItem else { return "" }
        let column = "\(item).bounce1"
        var md = "## Spread over replicas\n\n`\(cell(column))` per point (the item whose first bounce varies most between replicas), pt.\n\n"
        let (pts, cappedFrom) = m.whiskerPoints(column: column)
        let shown = pts.count > 1 ? Array(pts.prefix(maxRows)) : []
        if !shown.isEmpty { md += table(["Point", "Parameters", "Min", "Mean", "Std", "Max", "Replicas"], shown.map { p, st in
            ["\(p.point)", m.describe(p), Text.value(st.min), Text.value(st.mean), Text.value(st.std), Text.value(st.max), "\(st.count)"]
        }) }
        let total = cappedFrom ?? pts.count
        if !shown.isEmpty && shown.count < total { md += "\(shown.count) of \(total) points shown.\n\n" }
        let values = m.sampleBounces(item: item)
        if values.count >= 2 {
            let h = Histogram(title: "", xLabel: "", values: values, bins: 10).counts()
            md += "First bounce height of \(cell(item)) over \(values.count) sampled worlds:\n\n"
            md += table(["From (pt)", "To (pt)", "Worlds"], h.counts.indices.map { [Text.value(h.edges[$0]), Text.value(h.edges[$0 + 1]), "\(h.counts[$0])"] })
        }
        return md
    }

    static func extremes(_ m: ReportModel) -> String {
        let ex = m.extremes()
        guard !ex.isEmpty, m.summary.points.count > 1 else { return "" }
        var md = "## Extremes\n\nThe points with the highest and the lowest mean of each key metric.\n\n"
        md += table(["Metric", "Highest", "at", "Lowest", "at"], ex.map { e in
            [m.metricLabel(e.column), Text.value(e.high.1), "point \(e.high.0.point): \(m.describe(e.high.0))",
             Text.value(e.low.1), "point \(e.low.0.point): \(m.describe(e.low.0))"]
        })
        return md
    }

    static func sensitivity(_ m: ReportModel) -> String {
        let s = m.summary
        guard !s.parameters.isEmpty else { return "" }
        let (fits, skipped) = m.sensitivity()
        var md = "## Sensitivity\n\nStandardized least-squares coefficients (z-score of the metric's per-point mean per z-score of each parameter, the others held fixed; LAPACK dgels) and R² of the fit. — : parameter constant or collinear with an earlier one.\n\n"
        if !fits.isEmpty {
            let shown = fits.prefix(ReportModel.maxSensitivityRows)
            md += table(["Metric"] + s.parameters + ["R²", "Points"], shown.map { f in
                [m.metricLabel(f.metric)] + f.coefficients.map { $0.map { String(format: "%+.3f", $0) } ?? "—" }
                    + [String(format: "%.3f", f.rSquared), "\(f.points)"]
            })
            if fits.count > shown.count { md += "First \(shown.count) of \(fits.count) metrics shown.\n\n" }
        }
        if !skipped.isEmpty { md += "Not fitted (constant over the points, or too few points): " + skipped.map(cell).joined(separator: ", ") + ".\n\n" }
        return md
    }
}
