// report.html: one self-contained page (inline CSS, inline SVG, no scripts, no external URLs),
// readable from 390 px up: every chart scales to its column (viewBox), wide tables scroll inside
// their own box, and the page itself never scrolls sideways.
import Foundation
import WorldSweepRun

enum HTMLReport {
    static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;background:#fff;margin:0}
    main{max-width:1160px;margin:0 auto;padding:16px 14px 60px}
    h1{font-size:26px;margin:8px 0 4px;overflow-wrap:anywhere}h2{font-size:20px;margin:34px 0 6px;border-bottom:1px solid #ddd;padding-bottom:4px}
    h3{font-size:16px;margin:22px 0 4px;overflow-wrap:anywhere}
    p.desc{font-size:16px;color:#444;margin:0 0 14px}p.note{color:#555;margin:4px 0 10px;font-size:14px}
    p.finding{font-size:18px;line-height:1.4;background:#f3f7fb;border-left:4px solid #4e79a7;padding:10px 14px;margin:12px 0}
    ul.findings{margin:4px 0 12px;padding-left:20px}
    .tw{max-width:100%;overflow-x:auto}
    table{border-collapse:collapse;font-size:14px;margin:6px 0 12px}
    th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}code .w{white-space:nowrap}th{background:#f4f4f4}
    td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    table.kv th{font-weight:600;background:#fafafa}
    code{font-size:13px;background:#f4f4f4;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
    .charts{display:flex;flex-wrap:wrap;gap:12px 18px}
    figure{margin:0;flex:0 1 360px;max-width:100%;min-width:0}figure.wide{flex-basis:560px}figure.world{flex-basis:220px}
    figcaption{font-size:13px;color:#555}
    details{margin:8px 0}summary{cursor:pointer;color:#333}
    svg.chart{display:block;width:100%;height:auto;font-family:system-ui,"DejaVu Sans",sans-serif;background:#fff}
    svg .ttl{font-size:14px;font-weight:600;fill:#222}svg .tick{font-size:12px;fill:#444}
    svg .lbl{font-size:13px;fill:#222}svg .lgt{font-size:12px;font-weight:600;fill:#222}svg .cv{font-size:10px}
    svg .grid{stroke:#e6e6e6;stroke-width:1}svg .frame{fill:none;stroke:#999;stroke-width:1}
    svg .line{fill:none;stroke-width:2}svg .band{fill-opacity:.13;stroke:none}svg .err{stroke-width:1.2}
    @media (max-width:600px){table.stack,table.stack tbody,table.stack tr,table.stack td{display:block}table.stack tr:first-child{display:none}
    table.stack tr{border:1px solid #ddd;margin:0 0 8px}table.stack td{border:none;padding:2px 8px}table.stack td.n{text-align:left}}
    .sc{overflow-x:auto}.sc svg.chart{min-width:360px}
    .swatch{display:inline-block;width:10px;height:10px;margin:0 3px 0 6px;vertical-align:baseline}
    """

    static func render(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>\(Text.escape(s.name)) — sweep report</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n<main>\n"
        h += "<h1>Sweep report: \(Text.escape(s.name))</h1>\n"
        if !s.description.isEmpty { h += "<p class=\"desc\">\(Text.escape(s.description))</p>\n" }
        h += finding(m)
        h += "<div class=\"tw\"><table class=\"kv\">\n" + m.header.map { "<tr><th>\(Text.escape($0.0))</th><td>\(Text.escape($0.1))</td></tr>" }.joined(separator: "\n") + "\n</table></div>\n"
        if !m.dataFiles.isEmpty {
            let links = m.dataFiles.map { "<a href=\"\(Text.escape($0))\">\(Text.escape($0))</a>" }
            h += "<p class=\"files\">Data: \(links.joined(separator: " · "))</p>\n"
        }
        if s.parameters.isEmpty { h += singlePoint(m) } else { h += importance(m) + views(m) + parallel(m) }
        h += distributions(m) + extremes(m) + sensitivity(m)
        return h + "</main>\n</body>\n</html>\n"
    }

    static func figure(_ svg: String, _ caption: String, cls: String = "") -> String {
        "<figure\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\n\(svg)<figcaption>\(Text.escape(caption))</figcaption>\n</figure>\n"
    }

    static func note(_ s: String) -> String { s.isEmpty ? "" : "<p class=\"note\">\(Text.escape(s))</p>\n" }

    static func table(_ head: [String], _ rows: [String], cls: String = "") -> String {
        "<div class=\"tw\"><table\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\n<tr>" + head.map { "<th>\(name($0))</th>" }.joined() + "</tr>\n" + rows.joined() + "</table></div>\n"
    }

    /// A dotted name (`bottom.contacts.ledge`) escaped, free to wrap after each dot on a narrow screen.
    static func name(_ s: String) -> String { Text.escape(s).replacingOccurrences(of: ".", with: ".<wbr>") }

    // MARK: what matters

    static func finding(_ m: ReportModel) -> String {
        guard let h = m.headline else { return "" }
        return "<p class=\"finding\" id=\"finding\">\(Text.escape(m.finding(h)))</p>\n"
    }

    static func importance(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<section id=\"importance\">\n<h2>What matters</h2>\n"
        h += note("Share of each metric's variation over the sweep points that only that parameter explains: the R² a least-squares fit (LAPACK dgels) loses when the parameter's terms are left out. Each parameter enters standardized and, with three or more values, squared too, so curved effects count; what the parameters do together shows as the unexplained rest. Fits only where there are more points than parameters + 1.")
        let ranked = m.rankedMetrics
        if let why = m.nothingRanked { h += "<p>\(Text.escape(why))</p>\n" }
        for text in m.mixingNotes { h += note("Note: " + text) }
        if let head = m.headline, let imp = head.importance {
            h += "<div class=\"charts\">\n"
            let bars = imp.ranked.map { j in
                ImportanceChart.Bar(label: s.parameters[j], share: imp.shares[j]!, note: m.direction(head, j),
                                    color: (imp.slopes[safe: j].flatMap { $0 } ?? 0) >= 0 ? Palette.color(0) : Palette.color(2))
            }
            h += figure(ImportanceChart(title: "What drives \(head.column)", bars: bars).svg(),
                        "Ranked by share of the variation of \(head.column) over \(imp.points) points (R² of the fit \(PrintfNumber.fixed(imp.rSquared, decimals: 2))). Blue: raises it; red: lowers it.")
            h += interaction(m)
            h += "</div>\n"
        }
        let others = ranked.filter { m.keyColumns.contains($0.column) && $0.column != m.headline?.column }
        if !others.isEmpty {
            h += "<ul class=\"findings\">\n" + others.map { "<li>\(Text.escape(m.finding($0)))</li>\n" }.joined() + "</ul>\n"
        }
        if !ranked.isEmpty {
            let rows = ranked.map { a -> String in
                let imp = a.importance!
                var r = "<tr><td>\(name(m.metricLabel(a.column)))</td>"
                for j in s.parameters.indices {
                    if let share = imp.shares[j] {
                        let slope = imp.slopes[safe: j].flatMap { $0 } ?? 0
                        let bg = slope >= 0 ? "rgba(78,121,167,\(Text.px(min(1, share) * 0.6)))" : "rgba(225,87,89,\(Text.px(min(1, share) * 0.6)))"
                        r += "<td class=\"n\" style=\"background:\(bg)\">\(Int((share * 100).rounded())) %</td>"
                    } else {
                        r += "<td class=\"n\">—</td>"
                    }
                }
                return r + "<td class=\"n\">\(PrintfNumber.fixed(imp.rSquared, decimals: 2))</td><td class=\"n\">\(imp.points)</td></tr>\n"
            }
            h += "<h3>Every metric whose variation the parameters explain</h3>\n"
            h += table(["Metric"] + s.parameters + ["R²", "Points"], rows)
            h += note("Key metrics first, then by R². Blue: the parameter raises the metric; red: lowers it. —: constant over the points or in lockstep with an earlier parameter.")
        }
        h += noiseList(m)
        return h + "</section>\n"
    }

    /// The metrics left out of the ranking, grouped away under one closed heading.
    static func noiseList(_ m: ReportModel) -> String {
        let noise = m.noiseMetrics, constant = m.constantMetrics
        guard !noise.isEmpty || !constant.isEmpty else { return "" }
        var h = "<details id=\"noise\"><summary>\(noise.count) metric\(noise.count == 1 ? "" : "s") whose variation is noise, \(constant.count) constant</summary>\n"
        if !noise.isEmpty {
            h += "<ul>\n" + noise.map { "<li>\(Text.escape($0.0)): \(Text.escape($0.1))</li>\n" }.joined() + "</ul>\n"
        }
        if !constant.isEmpty { h += note("The same at every point: " + constant.joined(separator: ", ") + ".") }
        return h + "</details>\n"
    }

    static func interaction(_ m: ReportModel) -> String {
        guard let it = m.interaction() else { return "" }
        let s = m.summary
        let others = s.parameters.indices.filter { $0 != it.x && $0 != it.group }.map { s.parameters[$0] }
        let series = it.lines.enumerated().map { k, line in
            LineSeries(name: Text.value(line.value), color: Palette.color(k), points: line.points.map { p in
                LinePoint(x: p.x, y: p.mean, title: "\(s.parameters[it.x]) = \(Text.value(p.x)), \(s.parameters[it.group]) = \(Text.value(line.value)): mean \(Text.value(p.mean)) over \(Text.count(p.n, "point"))")
            })
        }
        var chart = LineChart(title: "\(it.column): the two strongest", xLabel: m.axisLabel(it.x), yLabel: m.metricLabel(it.column),
                              legendTitle: s.parameters[it.group], series: series, nonNegative: ReportModel.nonNegative(it.column))
        chart.legendPlace = .below
        let entries = chart.legendEntries()
        chart.frame = ChartFrame(width: 360, height: 300 + SVGKit.legendBelowHeight(width: 360, entries: entries), left: 56, right: 14, top: 30,
                                 bottom: 46 + SVGKit.legendBelowHeight(width: 360, entries: entries) + 4)
        var caption = "Mean of \(it.column) against \(s.parameters[it.x]), one line per value of \(s.parameters[it.group])"
        caption += others.isEmpty ? "." : ", each averaged over \(others.joined(separator: " and "))."
        let coincide = chart.coincidentGroups().filter { $0.count > 1 }
        for g in coincide {
            caption += " \(s.parameters[it.group]) \(g.map { series[$0].name }.joined(separator: ", ")) coincide: one line is drawn for them."
        }
        if let n = it.cappedFrom { caption += " \(ReportModel.maxInteractionLines) of \(n) values shown, spread evenly." }
        return figure(chart.svg(), caption)
    }

    // MARK: whole-sweep views

    static let keyTitles = ["bounce1": "First bounce height", "contacts": "Contacts", "rest_time": "Rest time",
                            "overshoot": "Overshoot", "settle_time": "Settle time", "oscillations": "Oscillations"]

    static func views(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<section id=\"views\">\n<h2>The whole sweep</h2>\n"
        var intro = "Each key metric against every swept parameter, using all \(s.points.count) points, most important parameter first"
        intro += m.isRandom ? "; the parameters of a random sweep are cut into \(SweepViews.bins) equal-width ranges for the line." : "."
        if s.items.count > ReportModel.maxItemsCharted { intro += " Views of the first \(ReportModel.maxItemsCharted) of \(s.items.count) items." }
        h += note(intro)
        for column in m.keyColumns {
            guard let a = m.analysis(column) else { continue }
            let key = Units.metricKey(column)
            h += "<h3 id=\"v-\(Text.escape(column))\">\(Text.escape(column)): \(Text.escape((keyTitles[key] ?? key).lowercased())) of \(Text.escape(column.split(separator: ".").first.map(String.init) ?? ""))</h3>\n"
            switch a.signal {
            case .constant:
                h += note("The same at every point: nothing to chart."); continue
            case .noise(let why):
                h += note("Noise: \(why).")
            case .signal:
                h += note(m.finding(a))
            }
            h += "<div class=\"charts\">\n"
            for v in m.slices(column) { h += sliceFigure(m, v) }
            let (maps, total) = m.pairs(column)
            for (k, p) in maps.enumerated() { h += pairFigure(m, p, id: "pm-\(column)-\(k)") }
            h += "</div>\n"
            if total > maps.count { h += note("\(maps.count) of \(total) pairs of parameters shown: the most important ones.") }
        }
        return h + "</section>\n"
    }

    static func othersText(_ m: ReportModel, except: [Int]) -> String {
        let others = m.summary.parameters.indices.filter { !except.contains($0) && m.varyingParameters.contains($0) }.map { m.summary.parameters[$0] }
        return others.isEmpty ? "" : others.joined(separator: ", ")
    }

    static func sliceFigure(_ m: ReportModel, _ v: SliceView) -> String {
        let s = m.summary
        let name = s.parameters[v.parameter]
        let unit = Units.metric(v.column)
        let many = v.dots.count > 200
        let dots = LineSeries(name: "points", color: "#8c9db5", points: ReportModel.thinned(v.dots, ReportModel.maxDots).map { d in
            LinePoint(x: d.x, y: d.y, title: many ? "" : "point \(d.point.point) (\(m.describe(d.point))): mean \(Text.value(d.y)) \(unit)")
        }, style: .dots, inLegend: false)
        let line = LineSeries(name: "mean", color: Palette.color(0), points: v.levels.map { l in
            LinePoint(x: l.x, y: l.mean, lo: l.min, hi: l.max,
                      title: "\(name) \(v.binned ? "≈ " : "= ")\(Text.value(l.x)): mean \(Text.value(l.mean)) \(unit) over \(Text.count(l.points, "point")) (min \(Text.value(l.min)), max \(Text.value(l.max)))")
        }, inLegend: false)
        var chart = LineChart(title: "\(v.column) vs \(name)", xLabel: m.axisLabel(v.parameter), yLabel: m.metricLabel(v.column),
                              legendTitle: "", series: [dots, line], nonNegative: ReportModel.nonNegative(v.column))
        chart.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
        let others = othersText(m, except: [v.parameter])
        let replicas = s.replicas > 1 ? " (its mean over \(s.replicas) replicas)" : ""
        let missing = s.points.count - v.dots.count
        var caption = "Dots: each of the \(v.dots.count) points\(replicas)"
        caption += missing > 0 ? " (the other \(missing) \(lacking(v.column))). Line: " : ". Line: "
        if others.isEmpty {
            caption += "the mean at each value of \(name); band: min–max."
        } else if v.binned {
            caption += "the mean over the points in each of \(v.levels.count) equal-width ranges of \(name) (the other parameters, \(others), vary within a range); band: their min–max."
        } else {
            caption += "at each value of \(name), the mean over the other parameters (\(others)); band: their min–max."
        }
        if v.dots.isEmpty { caption += " No point has a value." }
        if v.dots.count > ReportModel.maxDots { caption += " \(ReportModel.maxDots) of the \(v.dots.count) dots drawn, spread evenly; the line and band use every point." }
        if chart.clamped { caption += " Bands are cut at 0, which this metric cannot go below." }
        return figure(chart.svg(), caption)
    }

    /// What it means that a point has no value of a key metric.
    static func lacking(_ column: String) -> String {
        switch Units.metricKey(column) {
        case "bounce1": "never bounced"
        case "rest_time": "never came to rest in the run"
        case "settle_time": "never settled in the run"
        default: "have no \(column)"
        }
    }

    static func pairFigure(_ m: ReportModel, _ p: PairView, id: String) -> String {
        let s = m.summary
        let (nx, ny) = (s.parameters[p.xParameter], s.parameters[p.yParameter])
        let cells = p.cells.map { row in row.map { $0?.mean } }
        let titles = p.cells.enumerated().map { r, row in row.enumerated().map { c, cell in
            let where_ = "\(nx) \(p.binned ? "≈" : "=") \(Text.value(p.xValues[c])), \(ny) \(p.binned ? "≈" : "=") \(Text.value(p.yValues[r]))"
            return cell.map { "\(where_): mean \(p.column) \(Text.value($0.mean)) over \($0.points) point\($0.points == 1 ? "" : "s")" } ?? "\(where_): no point"
        } }
        let unit = Units.metric(p.column)
        var hm = Heatmap(title: "\(p.column): \(Text.shorten(nx, to: 16)) × \(Text.shorten(ny, to: 16))", xLabel: m.axisLabel(p.xParameter), yLabel: m.axisLabel(p.yParameter),
                         valueLabel: unit.isEmpty ? "mean" : unit, xValues: p.xValues, yValues: p.yValues, cells: cells, titles: titles,
                         id: id.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce("") { $0 + String($1) })
        hm.integerSteps = ReportModel.isCount(p.column)
        hm.nonNegative = ReportModel.nonNegative(p.column)
        hm.frame = ChartFrame(width: 360, height: 290, left: 56, right: 72, top: 30, bottom: 46)
        let others = othersText(m, except: [p.xParameter, p.yParameter])
        var caption = "Colour: mean of \(p.column) over the points in each cell"
        caption += others.isEmpty ? "." : ", averaged over \(others)."
        if p.binned { caption += " Both parameters cut into \(p.xValues.count) equal-width ranges." }
        if p.cells.contains(where: { $0.contains { $0 == nil } }) { caption += " Grey: no point has a value there." }
        if p.capped { caption += " At most \(ReportModel.maxHeatmapSide) values per axis, spread evenly." }
        if hm.integerSteps { caption += " Whole-number steps from 0." }
        return figure(hm.svg(), caption)
    }

    static func parallel(_ m: ReportModel) -> String {
        guard m.wantsParallel, let head = m.headline ?? m.keyColumns.first.flatMap(m.analysis) else { return "" }
        let s = m.summary
        let order = m.parameterOrder(head.column).filter(m.varyingParameters.contains)
        var pts = SweepViews.valued(s.points, head.column)
        let total = pts.count
        if pts.count > ReportModel.maxParallelLines {
            pts = ReportModel.thinned(pts, ReportModel.maxParallelLines)
        }
        let axes = order.map { j in ParallelAxis(label: s.parameters[j], values: pts.map { $0.0.parameters[safe: j] ?? .nan }) }
            + [ParallelAxis(label: m.metricLabel(head.column), values: pts.map(\.1))]
        let titles = pts.count <= 300 ? pts.map { "point \($0.0.point) (\(m.describe($0.0))): \(head.column) \(Text.value($0.1))" } : []
        var chart = ParallelCoordinates(title: "Every point across the parameters", axes: axes, titles: titles)
        // About 100 px between axes: readable from 390 px up; more axes scroll inside their box.
        let width = max(400, 100 * Double(axes.count - 1) + 88)
        chart.frame = ChartFrame(width: width, height: 340, left: 44, right: 44, top: 56, bottom: 20)
        var h = "<section id=\"parallel\">\n<h2>Parallel coordinates</h2>\n<div class=\"charts\">\n"
        var caption = "One line per point through its parameter values (most important for \(head.column) first) to its mean \(head.column) on the right; colour: \(head.column), yellow high, purple low."
        if pts.count < total { caption += " \(pts.count) of \(total) points drawn, spread evenly." }
        h += "<figure style=\"flex-basis:\(Text.px(width))px\">\n<div class=\"sc\">\(chart.svg())</div><figcaption>\(Text.escape(caption))</figcaption>\n</figure>\n"
        return h + "</div>\n</section>\n"
    }

    // MARK: spread, extremes, trajectories

    static func distributions(_ m: ReportModel) -> String {
        guard let column = m.spreadColumn else { return "" }
        let s = m.summary
        let item = column.split(separator: ".").first.map(String.init) ?? column
        var h = "<section id=\"distributions\">\n<h2>Spread over replicas</h2>\n"
        h += note("\(column): the key metric that varies most between the replicas of a point.")
        h += "<div class=\"charts\">\n"
        let j = m.parameterOrder(column).first ?? 0
        let vals = SweepViews.valued(s.points, column).compactMap { p, _ in p.metrics[column].map { (p, $0) } }
        if vals.count > 1, !s.parameters.isEmpty {
            let many = vals.count > 200
            let series = LineSeries(name: "points", color: Palette.color(0), points: ReportModel.thinned(vals, ReportModel.maxDots).compactMap { p, st in
                p.parameters[safe: j].map { LinePoint(x: $0, y: st.std, title: many ? "" : "point \(p.point) (\(m.describe(p))): std \(Text.value(st.std)) pt over \(st.count) replicas, mean \(Text.value(st.mean))") }
            }, style: .dots, inLegend: false)
            var chart = LineChart(title: "\(column): spread per point", xLabel: m.axisLabel(j), yLabel: "std of \(column) (pt)",
                                  legendTitle: "", series: [series], nonNegative: true)
            chart.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
            var caption = "Each dot: one of the \(vals.count) points, the standard deviation of \(column) over its replicas (up to \(s.replicas)), against \(s.parameters[j])."
            if vals.count > ReportModel.maxDots { caption += " \(ReportModel.maxDots) of them drawn, spread evenly." }
            h += figure(chart.svg(), caption)
        }
        let b = m.sampleBounces(item: item)
        if b.values.count >= 2 {
            var hist = Histogram(title: "\(column): \(b.values.count) of \(b.worlds) sampled worlds", xLabel: "\(column) (pt)", values: b.values)
            hist.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
            var caption = "First bounce height of \(item) in the \(b.worlds) worlds sampled for this report."
            caption += b.neverBounced > 0 ? " \(b.neverBounced) of them never bounced and have no height: they are not in the histogram." : " Every one of them bounced."
            h += figure(hist.svg(), caption)
        }
        return h + "</div>\n</section>\n"
    }

    static func extremes(_ m: ReportModel) -> String {
        let ex = m.extremes()
        guard !ex.isEmpty, m.summary.points.count > 1 else { return "" }
        var h = "<section id=\"extremes\">\n<h2>Extremes</h2>\n"
        h += note("The points with the highest and the lowest mean of each key metric, and the command that replays the point's first replica tick by tick.")
        var rows: [String] = []
        for e in ex {
            for (which, pv) in [("highest", e.high), ("lowest", e.low)] {
                rows.append("<tr><td>\(name(m.metricLabel(e.column)))</td><td class=\"n\">\(which) \(Text.value(pv.1))</td>"
                    + "<td>point \(pv.0.point): \(Text.escape(m.describe(pv.0)))<br>\(command(m, world: m.world(of: pv.0)))</td></tr>\n")
            }
        }
        h += table(["Metric", "Mean", "At, and the command that replays it"], rows, cls: "stack")
        h += trajectories(m)
        return h + "</section>\n"
    }

    /// The trace command as code that wraps only between its words (never inside `--world`).
    static func command(_ m: ReportModel, world: Int) -> String {
        let text = m.traceCommand(world: world)
        let words = text.split(separator: " ").map { "<span class=\"w\">\(Text.escape(String($0)))</span>" }
        return "<code>" + words.joined(separator: " ") + "</code>"
    }

    static func trajectories(_ m: ReportModel) -> String {
        let worlds = m.trajectories()
        guard !worlds.isEmpty else {
            return m.replay == nil ? note("Pictures of these worlds are drawn when `worldsweep run` writes the report (it replays them).") : ""
        }
        let items = worlds[0].0.items
        let key = items.enumerated().map { k, it in "<span class=\"swatch\" style=\"background:\(Palette.color(k))\"></span>\(Text.escape(it.name))" }.joined()
        var h = "<div id=\"trajectories\">\n<h3>The extreme worlds, replayed</h3>\n"
        h += "<p class=\"note\">Each item's path (its centre, every tick) in the reference bounds; dashed: where it starts, filled: where it ends; rings: where a contact began. Items: \(key).</p>\n"
        h += "<div class=\"charts\">\n"
        if let (t, why) = worlds.first {
            let chart = TrajectoryChart(title: "world \(t.world), animated", trajectory: t, animated: true)
            h += figure(chart.svg(), "World \(t.world) in motion (\(Text.value(Double(t.items[0].states.count - 1) * t.tick)) s, looping): \(why).", cls: "world")
        }
        for (t, why) in worlds {
            let chart = TrajectoryChart(title: "world \(t.world)", trajectory: t)
            h += "<figure class=\"world\">\n\(chart.svg())<figcaption>\(Text.escape("World \(t.world): \(why). \(t.contacts.count) contacts began.")) \(command(m, world: t.world))</figcaption>\n</figure>\n"
        }
        return h + "</div>\n</div>\n"
    }

    // MARK: single point, sensitivity

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "<section id=\"point\"><h2>Results</h2><p>No points.</p></section>\n" }
        var h = "<section id=\"point\">\n<h2>Results of the single point</h2>\n"
        h += note("Nothing is swept: every metric over the \(Text.count(p.replicas, "replica")) of the one point.")
        var rows: [String] = []
        for c in m.metricColumns {
            guard let st = p.metrics[c] else { continue }
            rows.append("<tr><td>\(name(m.metricLabel(c)))</td><td class=\"n\">\(Text.value(st.mean))</td><td class=\"n\">\(Text.value(st.std))</td>"
                + "<td class=\"n\">\(Text.value(st.min))</td><td class=\"n\">\(Text.value(st.max))</td><td class=\"n\">\(st.count)</td></tr>\n")
        }
        return h + table(["Metric", "Mean", "Std", "Min", "Max", "Replicas with a value"], rows) + "</section>\n"
    }

    static func sensitivity(_ m: ReportModel) -> String {
        let s = m.summary
        guard !s.parameters.isEmpty else { return "" }
        var h = "<section id=\"sensitivity\">\n<h2>Sensitivity</h2>\n"
        h += note("Straight-line least-squares fit of each metric's per-point mean on the swept parameters, both standardized (z-scores), solved with LAPACK dgels. A coefficient is the change of the metric, in standard deviations, per standard deviation of the parameter with the others held fixed; R² is the share of the variation the straight-line fit explains. Blue: the metric rises with the parameter; red: it falls. —: constant over the points, or in lockstep with an earlier parameter (zip sweeps). Metrics in the order of the ranking above; noise apart, below.")
        func rows(_ list: [ReportModel.MetricAnalysis]) -> [String] {
            list.prefix(ReportModel.maxSensitivityRows).compactMap { a in
                guard let f = a.fit else { return nil }
                var r = "<tr><td>\(name(m.metricLabel(f.metric)))</td>"
                for c in f.coefficients {
                    if let c {
                        let alpha = min(1, abs(c)) * 0.55
                        let bg = c >= 0 ? "rgba(78,121,167,\(Text.px(alpha)))" : "rgba(225,87,89,\(Text.px(alpha)))"
                        r += "<td class=\"n\" style=\"background:\(bg)\">\(PrintfNumber.fixed(c, decimals: 3, plus: true))</td>"
                    } else {
                        r += "<td class=\"n\">—</td>"
                    }
                }
                return r + "<td class=\"n\">\(PrintfNumber.fixed(f.rSquared, decimals: 3))</td><td class=\"n\">\(f.points)</td></tr>\n"
            }
        }
        let head = ["Metric"] + s.parameters + ["R²", "Points"]
        let ranked = rows(m.rankedMetrics)
        if !ranked.isEmpty { h += table(head, ranked) }
        let noise = m.analyses.filter { if case .noise = $0.signal { return $0.fit != nil }; return false }
        if !noise.isEmpty {
            h += "<details><summary>Fits of the \(noise.count) metric\(noise.count == 1 ? "" : "s") judged noise</summary>\n" + table(head, rows(noise)) + "</details>\n"
        }
        let unfitted = m.analyses.filter { $0.fit == nil && $0.signal != .constant }
        if !unfitted.isEmpty {
            h += note("Not fitted: " + unfitted.map { "\($0.column) (\($0.unfitted ?? "no fit"))" }.joined(separator: ", ") + ".")
        }
        return h + "</section>\n"
    }
}
