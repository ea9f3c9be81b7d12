// report.html: one self-contained page (inline CSS, inline SVG, no scripts, no external URLs).
import Foundation
import WorldSweepRun

enum HTMLReport {
    static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;background:#fff;margin:0}
    main{max-width:1160px;margin:0 auto;padding:20px 28px 60px}
    h1{font-size:26px;margin:8px 0 4px}h2{font-size:20px;margin:34px 0 6px;border-bottom:1px solid #ddd;padding-bottom:4px}
    p.desc{font-size:16px;color:#444;margin:0 0 14px}p.note{color:#555;margin:4px 0 10px;font-size:14px}
    table{border-collapse:collapse;font-size:14px;margin:6px 0 12px}
    th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}
    td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    table.kv th{font-weight:600;background:#fafafa}
    .charts{display:flex;flex-wrap:wrap;gap:10px 18px}
    figure{margin:0;width:540px}figcaption{font-size:13px;color:#555}
    svg.chart{font-family:system-ui,"DejaVu Sans",sans-serif;background:#fff}
    svg .ttl{font-size:14px;font-weight:600;fill:#222}svg .tick{font-size:12px;fill:#444}
    svg .lbl{font-size:13px;fill:#222}svg .lgt{font-size:12px;font-weight:600;fill:#222}svg .cv{font-size:10px}
    svg .grid{stroke:#e6e6e6;stroke-width:1}svg .frame{fill:none;stroke:#999;stroke-width:1}
    svg .line{fill:none;stroke-width:2}svg .band{fill-opacity:.16;stroke:none}svg .err{stroke-width:1.2}
    """

    static func render(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>\(Text.escape(s.name)) — sweep report</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n<main>\n"
        h += "<h1>Sweep report: \(Text.escape(s.name))</h1>\n"
        if !s.description.isEmpty { h += "<p class=\"desc\">\(Text.escape(s.description))</p>\n" }
        h += "<table class=\"kv\">\n" + m.header.map { "<tr><th>\(Text.escape($0.0))</th><td>\(Text.escape($0.1))</td></tr>" }.joined(separator: "\n") + "\n</table>\n"
        if s.parameters.isEmpty { h += singlePoint(m) } else { h += bounce(m) + contacts(m) }
        h += distributions(m) + extremes(m) + sensitivity(m)
        return h + "</main>\n</body>\n</html>\n"
    }

    static func figure(_ svg: String, _ caption: String) -> String {
        "<figure>\n\(svg)<figcaption>\(Text.escape(caption))</figcaption>\n</figure>\n"
    }

    static func note(_ s: String) -> String { s.isEmpty ? "" : "<p class=\"note\">\(Text.escape(s))</p>\n" }

    // MARK: sections

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "<section id=\"point\"><h2>Results</h2><p>No points.</p></section>\n" }
        var h = "<section id=\"point\">\n<h2>Results of the single point</h2>\n"
        h += note("Nothing is swept: every metric over the \(p.replicas) replica(s) of the one point.")
        h += "<table>\n<tr><th>Metric</th><th>Mean</th><th>Std</th><th>Min</th><th>Max</th><th>Replicas with a value</th></tr>\n"
        for c in m.metricColumns {
            guard let st = p.metrics[c] else { continue }
            h += "<tr><td>\(Text.escape(m.metricLabel(c)))</td><td class=\"n\">\(Text.value(st.mean))</td><td class=\"n\">\(Text.value(st.std))</td>"
            h += "<td class=\"n\">\(Text.value(st.min))</td><td class=\"n\">\(Text.value(st.max))</td><td class=\"n\">\(st.count)</td></tr>\n"
        }
        return h + "</table>\n</section>\n"
    }

    static func bounce(_ m: ReportModel) -> String {
        guard let x = m.xAxis else { return "" }
        let s = m.summary
        var h = "<section id=\"bounce\">\n<h2>First bounce height against \(Text.escape(s.parameters[x]))</h2>\n"
        var notes = [m.selectionNote]
        if s.replicas > 1 && !m.isRandom { notes.append("Lines: mean over \(s.replicas) replicas; shaded band: min–max; bars: ± 1 standard deviation (on lines of up to 25 points).") }
        if m.summary.items.count > ReportModel.maxItemsCharted { notes.append("Charts for the first \(ReportModel.maxItemsCharted) of \(s.items.count) items.") }
        h += note(notes.filter { !$0.isEmpty }.joined(separator: " "))
        h += "<div class=\"charts\">\n"
        for item in m.itemsCharted {
            let (groups, cappedFrom) = m.bounceGroups(item: item)
            // Every x value of the charted points, to break lines where a value has no bounce.
            let allX = m.values(x, in: m.chartPoints)
            let position = Dictionary(allX.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            var gaps = false
            let series = groups.enumerated().map { (i, g) in
                var previous: Int? = nil
                return LineSeries(name: g.label ?? item, color: Palette.color(i), points: g.points.map { p in
                    let st = p.stats
                    let spread = s.replicas > 1 && !m.isRandom
                    let here = position[p.x] ?? 0
                    let gap = previous.map { here > $0 + 1 } ?? false
                    if gap { gaps = true }
                    previous = here
                    return LinePoint(x: p.x, y: st.mean, lo: spread ? st.min : nil, hi: spread ? st.max : nil, err: spread ? st.std : nil,
                                     title: "\(m.describe(p.point)): \(item).bounce1 mean \(Text.value(st.mean)) pt, std \(Text.value(st.std)), min \(Text.value(st.min)), max \(Text.value(st.max)) (\(st.count) replicas)",
                                     breakBefore: gap)
                })
            }
            let legend = m.groupAxis.map { m.summary.parameters[$0] } ?? ""
            let chart = LineChart(title: "\(item): first bounce height", xLabel: m.axisLabel(x), yLabel: "\(item).bounce1 (pt)",
                                  legendTitle: legend, series: series, scatter: m.isRandom)
            var caption = "Mean first bounce height of \(item) (pt) against \(s.parameters[x])"
            if let g = m.groupAxis { caption += m.isRandom ? ", coloured by ranges of \(s.parameters[g])" : ", one line per value of \(s.parameters[g])" }
            caption += "."
            if let n = cappedFrom { caption += m.isRandom ? " First \(ReportModel.maxScatter) of \(n) points shown." : " \(ReportModel.maxLines) of \(n) values shown, spread evenly." }
            if series.allSatisfy({ $0.points.isEmpty }) { caption += " No first bounce recorded at these points." }
            else if gaps && !m.isRandom { caption += " Gaps in a line: no first bounce recorded at that value." }
            h += figure(chart.svg(), caption)
        }
        return h + "</div>\n</section>\n"
    }

    static func contacts(_ m: ReportModel) -> String {
        guard let grid = m.heatmapGrid(), let x = m.xAxis, let g = m.groupAxis else { return "" }
        let s = m.summary
        var h = "<section id=\"contacts\">\n<h2>Contacts over \(Text.escape(s.parameters[x])) × \(Text.escape(s.parameters[g]))</h2>\n"
        var notes = [m.selectionNote, "Colour: mean number of contacts that began (over the replicas); hover a cell for its value."]
        if grid.capped { notes.append("Large sweep: at most \(ReportModel.maxHeatmapSide) values per axis shown, spread evenly.") }
        h += note(notes.filter { !$0.isEmpty }.joined(separator: " ")) + "<div class=\"charts\">\n"
        for (k, item) in m.itemsCharted.enumerated() {
            let column = "\(item).contacts"
            let cells = grid.cells.map { row in row.map { $0?.metrics[column]?.mean } }
            let titles = grid.cells.map { row in row.map { p in
                p.map { p in "\(m.describe(p)): \(column) mean \(p.metrics[column].map { Text.value($0.mean) } ?? "—")" } ?? "no point"
            } }
            let hm = Heatmap(title: "\(item): contacts", xLabel: m.axisLabel(x), yLabel: m.axisLabel(g), valueLabel: "contacts",
                             xValues: grid.xValues, yValues: grid.yValues, cells: cells, titles: titles, id: "hm\(k)")
            h += figure(hm.svg(), "Mean contacts of \(item) (count) per point.")
        }
        return h + "</div>\n</section>\n"
    }

    static func distributions(_ m: ReportModel) -> String {
        guard let item = m.distributionItem else { return "" }
        let column = "\(item).bounce1"
        var h = "<section id=\"distributions\">\n<h2>Spread over replicas</h2>\n"
        h += note("\(column) (the item whose first bounce varies most between replicas). Whisker: min–max over the replicas; box: mean ± 1 standard deviation; dot: mean. Hover for the point's parameters.")
        h += "<div class=\"charts\">\n"
        let (pts, cappedFrom) = m.whiskerPoints(column: column)
        if pts.count > 1 {
            let w = pts.map { p, st in
                Whisker(label: "\(p.point)", min: st.min, max: st.max, mean: st.mean, std: st.std,
                        title: "point \(p.point) (\(m.describe(p))): mean \(Text.value(st.mean)) pt, std \(Text.value(st.std)), min \(Text.value(st.min)), max \(Text.value(st.max)), \(st.count) replicas")
            }
            var caption = "Per point (x axis: point number), \(m.selectionNote.isEmpty ? "all points" : "charted points only")."
            if let n = cappedFrom { caption += " \(ReportModel.maxWhiskers) of \(n) points shown, spread evenly." }
            h += figure(WhiskerChart(title: "\(column) per point", xLabel: "sweep point", yLabel: "\(column) (pt)", whiskers: w).svg(), caption)
        }
        let values = m.sampleBounces(item: item)
        if values.count >= 2 {
            h += figure(Histogram(title: "\(column) over \(values.count) sampled worlds", xLabel: "\(column) (pt)", values: values).svg(),
                        "Histogram of the first bounce height of \(item) in the worlds sampled for this report.")
        }
        return h + "</div>\n</section>\n"
    }

    static func extremes(_ m: ReportModel) -> String {
        let ex = m.extremes()
        guard !ex.isEmpty, m.summary.points.count > 1 else { return "" }
        var h = "<section id=\"extremes\">\n<h2>Extremes</h2>\n"
        h += note("The points with the highest and the lowest mean of each key metric.")
        h += "<table>\n<tr><th>Metric</th><th>Highest</th><th>at</th><th>Lowest</th><th>at</th></tr>\n"
        for e in ex {
            h += "<tr><td>\(Text.escape(m.metricLabel(e.column)))</td><td class=\"n\">\(Text.value(e.high.1))</td><td>point \(e.high.0.point): \(Text.escape(m.describe(e.high.0)))</td>"
            h += "<td class=\"n\">\(Text.value(e.low.1))</td><td>point \(e.low.0.point): \(Text.escape(m.describe(e.low.0)))</td></tr>\n"
        }
        return h + "</table>\n</section>\n"
    }

    static func sensitivity(_ m: ReportModel) -> String {
        let s = m.summary
        guard !s.parameters.isEmpty else { return "" }
        let (fits, skipped) = m.sensitivity()
        var h = "<section id=\"sensitivity\">\n<h2>Sensitivity</h2>\n"
        h += note("Least-squares fit of each metric's per-point mean on the swept parameters, both standardized (z-scores), solved with LAPACK dgels. A coefficient is the change of the metric, in standard deviations, per standard deviation of the parameter with the others held fixed; R² is the share of the variation the linear fit explains. Blue: the metric rises with the parameter; red: it falls. —: the parameter is constant over the points or moves in lockstep with an earlier one (zip sweeps), so it is left out of the fit.")
        if !fits.isEmpty {
            h += "<table>\n<tr><th>Metric</th>" + s.parameters.map { "<th>\(Text.escape($0))</th>" }.joined() + "<th>R²</th><th>Points</th></tr>\n"
            for f in fits.prefix(ReportModel.maxSensitivityRows) {
                h += "<tr><td>\(Text.escape(m.metricLabel(f.metric)))</td>"
                for c in f.coefficients {
                    if let c {
                        let a = min(1, abs(c)) * 0.55
                        let bg = c >= 0 ? "rgba(78,121,167,\(Text.px(a)))" : "rgba(225,87,89,\(Text.px(a)))"
                        h += "<td class=\"n\" style=\"background:\(bg)\">\(String(format: "%+.3f", c))</td>"
                    } else {
                        h += "<td class=\"n\">—</td>"
                    }
                }
                h += "<td class=\"n\">\(String(format: "%.3f", f.rSquared))</td><td class=\"n\">\(f.points)</td></tr>\n"
            }
            h += "</table>\n"
            if fits.count > ReportModel.maxSensitivityRows { h += note("First \(ReportModel.maxSensitivityRows) of \(fits.count) metrics shown.") }
        }
        if !skipped.isEmpty {
            h += note("Not fitted (constant over the points, or too few points): " + skipped.joined(separator: ", ") + ".")
        }
        return h + "</section>\n"
    }
}
