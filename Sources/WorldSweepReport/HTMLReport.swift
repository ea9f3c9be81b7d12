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
    nav.toc{font-size:14px;background:#fafafa;border:1px solid #e4e4e4;padding:6px 12px;margin:10px 0}nav.toc ul{margin:2px 0;padding-left:18px}
    figure.full{flex-basis:100%}
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
        h += toc(m)
        if s.parameters.isEmpty { h += singlePoint(m) } else { h += importance(m) + views(m) + parallel(m) }
        h += distributions(m) + extremes(m)
        h += "<section id=\"run\">\n<h2>The run</h2>\n"
        h += "<details><summary>\(Text.escape(m.runSummary))</summary>\n"
        h += "<div class=\"tw\"><table class=\"kv\">\n" + m.header.map { "<tr><th>\(Text.escape($0.0))</th><td>\(Text.escape($0.1))</td></tr>" }.joined(separator: "\n") + "\n</table></div>\n"
        if !m.dataFiles.isEmpty {
            let links = m.dataFiles.map { "<a href=\"\(Text.escape($0))\">\(Text.escape($0))</a>" }
            h += "<p class=\"files\">Data: \(links.joined(separator: " · "))</p>\n"
        }
        return h + "</details>\n</section>\n</main>\n</body>\n</html>\n"
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
        guard !m.headlines.isEmpty else { return "" }
        return "<div id=\"finding\">\n" + m.headlines.map { "<p class=\"finding\">\(Text.escape(m.finding($0)))</p>\n" }.joined() + "</div>\n"
    }

    /// Links to each section and each key metric's views.
    static func toc(_ m: ReportModel) -> String {
        var items: [(String, String)] = []
        if !m.summary.parameters.isEmpty {
            items.append(("importance", "What matters"))
            items.append(("views", "The whole sweep"))
        }
        if m.wantsParallel { items.append(("parallel", "Parallel coordinates")) }
        if m.spreadColumn != nil { items.append(("distributions", "Spread over replicas")) }
        if !m.extremes().isEmpty, m.summary.points.count > 1 { items.append(("extremes", "Extremes")) }
        items.append(("run", "The run"))
        var h = "<nav class=\"toc\" id=\"toc\"><ul>\n"
        for (id, title) in items {
            h += "<li><a href=\"#\(id)\">\(Text.escape(title))</a>"
            if id == "views" {
                let shown = m.keyColumns.filter { m.analysis($0).map { $0.signal != .constant } ?? false }
                h += ": " + shown.map { "<a href=\"#v-\(Text.escape($0))\">\(name($0))</a>" }.joined(separator: " · ")
            }
            h += "</li>\n"
        }
        return h + "</ul></nav>\n"
    }

    static func importance(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<section id=\"importance\">\n<h2>What matters</h2>\n"
        var intro = "Each metric's variation over every world split into parts that add to 100 %: each parameter's main effect, each pair's interaction, interaction of three or more parameters"
        intro += s.replicas > 1 ? ", and noise (the variation between the \(s.replicas) replicas of a point)." : ". The sweep has one world per point, so it cannot measure noise: none is reported."
        intro += m.isGrid ? " On this full grid the split is exact (functional ANOVA), steps and curves included." : " The points are no full grid: the split is of a least-squares quadratic with pair products fitted to the point means (its R² stated; the rest is what it does not capture); metrics with fewer than \(Decomposition.minPointsPerCoefficient) points per coefficient are not split."
        intro += " Outcomes that never happen count: " + censoringNote(m) + " Every share is in importance.csv."
        h += note(intro)
        if let head = m.headline, let d = head.importance {
            h += "<div class=\"charts\">\n"
            var bars = d.ranked.map { j in
                ImportanceChart.Bar(label: s.parameters[j], share: d.mains[j]!, note: m.shape(head.column, j, short: true), color: Palette.color(0))
            }
            bars += d.pairs.prefix(3).filter { $0.share >= 0.01 }.map {
                ImportanceChart.Bar(label: "\(s.parameters[$0.a]) × \(s.parameters[$0.b])", share: $0.share, note: "together", color: Palette.color(1))
            }
            if d.higherOrder >= 0.01 { bars.append(.init(label: "three or more together", share: d.higherOrder, note: "", color: Palette.color(1))) }
            if d.unfitted > 0 { bars.append(.init(label: "not captured by the fit", share: d.unfitted, note: "", color: "#bab0ac")) }
            if let noise = d.noise { bars.append(.init(label: "noise (replicas)", share: noise, note: "", color: "#bab0ac")) }
            h += figure(ImportanceChart(title: "What drives \(head.column)", bars: bars).svg(),
                        "Shares of the variation of \(head.column) over \(d.points) points\(d.rSquared.map { " (surrogate R² \(PrintfNumber.fixed($0, decimals: 2)))" } ?? ""). Blue: one parameter; orange: parameters together; grey: noise or what the fit misses.")
            h += interaction(m)
            h += "</div>\n"
        }
        let ranked = m.rankedMetrics
        if !ranked.isEmpty {
            let varying = s.parameters.indices.filter(m.varyingParameters.contains)
            let replicated = s.replicas > 1
            let surrogate = ranked.contains { $0.importance!.rSquared != nil }
            let rows = ranked.map { a -> String in
                let d = a.importance!
                var r = "<tr><td>\(name(m.metricLabel(a.column)))</td>"
                for j in varying { r += shareCell(d.mains[j]) }
                let top = d.pairs.first
                r += "<td>\(top.map { "\(name(s.parameters[$0.a])) × \(name(s.parameters[$0.b])) \(ReportModel.percent($0.share))" } ?? "—")</td>"
                r += shareCell(d.higherOrder)
                if replicated { r += shareCell(d.noise) }
                if surrogate { r += "<td class=\"n\">\(d.rSquared.map { PrintfNumber.fixed($0, decimals: 2) } ?? "exact")</td>" }
                return r + "<td class=\"n\">\(d.points)</td></tr>\n"
            }
            h += "<details><summary>Every metric whose variation the parameters explain (\(ranked.count))</summary>\n"
            h += table(["Metric"] + varying.map { s.parameters[$0] } + ["Strongest pair", "3+ together"] + (replicated ? ["Noise"] : []) + (surrogate ? ["Fit R²"] : []) + ["Points"], rows)
            h += note("Main-effect shares per parameter, the largest pair interaction, the rest of the interactions\(replicated ? ", the noise between replicas" : ""); key metrics first.")
            h += "</details>\n"
        }
        h += noiseList(m)
        return h + "</section>\n"
    }

    static func shareCell(_ share: Double?) -> String {
        guard let share else { return "<td class=\"n\">—</td>" }
        return "<td class=\"n\" style=\"background:rgba(78,121,167,\(Text.px(min(1, max(0, share)) * 0.6)))\">\(ReportModel.percent(share))</td>"
    }

    /// How the page counts outcomes that never happen.
    static func censoringNote(_ m: ReportModel) -> String {
        let length = Text.value(m.runSeconds) + " s"
        return "a rest or settle time never reached counts as the run's length (\(length)\(m.runSecondsKnown ? "" : ", the longest time seen: this run's summary does not say its length")), and the share of worlds that never got there is a metric of its own (never_rest, never_settle); a bounce never made counts as height 0."
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
        // Ordered values, ordered colours: a sequential palette, low purple to high yellow.
        let series = it.lines.enumerated().map { k, line in
            LineSeries(name: Text.value(line.value), color: Palette.sequential(it.lines.count > 1 ? 0.9 * Double(k) / Double(it.lines.count - 1) : 0), points: line.points.map { p in
                LinePoint(x: p.x, y: p.mean, title: "\(s.parameters[it.x]) = \(Text.value(p.x)), \(s.parameters[it.group]) = \(Text.value(line.value)): mean \(Text.value(p.mean)) over \(p.n) points")
            })
        }
        var chart = LineChart(title: "\(it.column) by \(Text.shorten(s.parameters[it.group], to: 22))", xLabel: m.axisLabel(it.x), yLabel: m.metricLabel(it.column),
                              legendTitle: s.parameters[it.group], series: series, nonNegative: ReportModel.nonNegative(it.column))
        chart.legendPlace = .below
        chart.logX = m.isLogSpaced(it.x)
        let entries = chart.legendEntries()
        chart.frame = ChartFrame(width: 360, height: 300 + SVGKit.legendBelowHeight(width: 360, entries: entries), left: 56, right: 14, top: 30,
                                 bottom: 46 + SVGKit.legendBelowHeight(width: 360, entries: entries) + 4)
        var caption = "Mean of \(it.column) against \(s.parameters[it.x]), one line per value of \(s.parameters[it.group]) (light: high)"
        caption += others.isEmpty ? "." : ", each averaged over \(others.joined(separator: " and "))."
        let coincide = chart.coincidentGroups().filter { $0.count > 1 }
        for g in coincide {
            caption += " \(s.parameters[it.group]) \(g.map { series[$0].name }.joined(separator: ", ")) coincide: one line is drawn for them."
        }
        if let n = it.cappedFrom { caption += " \(ReportModel.maxInteractionLines) of \(n) values shown, spread evenly." }
        if let rule = Censoring.rule(it.column, runSeconds: m.runSeconds), let never = m.neverShare(it.column) {
            caption += " \(ReportModel.percent(never)) of all worlds \(lacking(it.column)): \(rule)."
        }
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
        var constant: [String] = []
        for column in m.keyColumns {
            guard let a = m.analysis(column) else { continue }
            if a.signal == .constant { constant.append(column); continue }
            let key = Units.metricKey(column)
            h += "<h3 id=\"v-\(Text.escape(column))\">\(Text.escape(column)): \(Text.escape((keyTitles[key] ?? key).lowercased())) of \(Text.escape(column.split(separator: ".").first.map(String.init) ?? ""))</h3>\n"
            switch a.signal {
            case .constant:
                continue
            case .noise(let why):
                h += note("Noise: \(why).")
            case .signal:
                h += note(m.finding(a))
            }
            let slices = m.slices(column)
            let (maps, total) = m.pairs(column)
            // The strongest parameter's chart stays open; the others fold.
            let all = maps.flatMap { $0.cells.flatMap { $0 }.compactMap { $0?.mean } }
            let shared = all.isEmpty ? nil : (all.min()!, all.max()!)
            // A headline metric's strongest slice and first pair map stay open; the rest fold (all
            // of another metric's charts: its finding above says what they show).
            let open = m.headlines.contains { $0.column == column } ? 1 : 0
            if open > 0 {
                h += "<div class=\"charts\">\n" + (slices.first.map { sliceFigure(m, $0) } ?? "")
                h += (maps.first.map { pairFigure(m, $0, id: "pm-\(column)-0", shared: shared) } ?? "") + "</div>\n"
            }
            let more = slices.count - open + max(0, maps.count - open)
            if more > 0 {
                h += "<details><summary>\(open > 0 ? "\(more) more chart\(more == 1 ? "" : "s")" : "\(more) chart\(more == 1 ? "" : "s")") of \(Text.escape(column))</summary>\n<div class=\"charts\">\n"
                for v in slices.dropFirst(open) { h += sliceFigure(m, v) }
                for (k, p) in maps.enumerated().dropFirst(open) { h += pairFigure(m, p, id: "pm-\(column)-\(k)", shared: shared) }
                h += "</div>\n"
                if maps.count > 1 { h += note("The maps of \(column) share one colour scale.") }
                if total > maps.count { h += note("\(maps.count) of \(total) pairs of parameters shown: the most important ones.") }
                h += "</details>\n"
            }
        }
        if !constant.isEmpty { h += note("The same at every point, not charted: " + constant.joined(separator: ", ") + ".") }
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
                      title: "\(name) \(v.binned ? "≈ " : "= ")\(Text.value(l.x)): mean \(Text.value(l.mean)) \(unit) over \(l.points) points (min \(Text.value(l.min)), max \(Text.value(l.max)))")
        }, inLegend: false)
        var chart = LineChart(title: "\(v.column) vs \(name)", xLabel: m.axisLabel(v.parameter), yLabel: m.metricLabel(v.column),
                              legendTitle: "", series: [dots, line], nonNegative: ReportModel.nonNegative(v.column))
        chart.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
        chart.logX = m.isLogSpaced(v.parameter)
        let others = othersText(m, except: [v.parameter])
        let replicas = s.replicas > 1 ? " (its mean over \(s.replicas) replicas)" : ""
        let missing = s.points.count - v.dots.count
        var caption = "Dots: each of the \(v.dots.count) points\(replicas)"
        caption += missing > 0 ? " (the other \(missing) have only failed worlds). Line: " : ". Line: "
        if others.isEmpty {
            caption += "the mean at each value of \(name); band: min–max."
        } else if v.binned {
            caption += "the mean over the points in each of \(v.levels.count) equal-width ranges of \(name) (the other parameters, \(others), vary within a range); band: their min–max."
        } else {
            caption += "at each value of \(name), the mean over the other parameters (\(others)); band: their min–max."
        }
        if v.dots.isEmpty { caption += " No point has a value." }
        caption += neverText(m, v)
        if v.dots.count > ReportModel.maxDots { caption += " \(ReportModel.maxDots) of the \(v.dots.count) dots drawn, spread evenly; the line and band use every point." }
        if chart.clamped { caption += " Bands are cut at 0, which this metric cannot go below." }
        if chart.logX { caption += " \(name) is log-spaced: a log axis." }
        return figure(chart.svg(), caption)
    }

    /// The never-shares along a slice, said in its caption (every chart of a metric worlds can lack).
    static func neverText(_ m: ReportModel, _ v: SliceView) -> String {
        let shares = v.levels.compactMap { l in l.never.map { (l.x, $0) } }
        guard !shares.isEmpty, let rule = Censoring.rule(v.column, runSeconds: m.runSeconds) else { return "" }
        guard shares.contains(where: { $0.1 > 0 }) else { return " Every world has a value." }
        let name = m.summary.parameters[v.parameter]
        let some = shares.filter { $0.1 > 0 }
        let listed = some.count <= 16
            ? some.map { "\(ReportModel.percent($0.1).replacingOccurrences(of: "under 1 %", with: "<1 %")) at \(Text.short($0.0))" }.joined(separator: ", ")
                + (some.count < shares.count ? ", none at the other \(shares.count - some.count) value\(shares.count - some.count == 1 ? "" : "s")" : "")
            : "from \(ReportModel.percent(shares.map(\.1).min()!)) to \(ReportModel.percent(shares.map(\.1).max()!))"
        return " Worlds that \(lacking(v.column)), by \(name)\(v.binned ? " (range means)" : ""): \(listed); \(rule)."
    }

    /// What it means that a point has no value of a key metric.
    static func lacking(_ column: String) -> String {
        switch Units.metricKey(column) {
        case let k where k.hasPrefix("bounce"): k == "bounce1" ? "never bounced" : "never bounced \(k.dropFirst(6)) times"
        case "rest_time": "never came to rest in the run"
        case "settle_time": "never settled in the run"
        default: "have no \(column)"
        }
    }

    static func pairFigure(_ m: ReportModel, _ p: PairView, id: String, shared: (Double, Double)? = nil) -> String {
        let s = m.summary
        let (nx, ny) = (s.parameters[p.xParameter], s.parameters[p.yParameter])
        let cells = p.cells.map { row in row.map { $0?.mean } }
        let titles = p.cells.enumerated().map { r, row in row.enumerated().map { c, cell in
            let where_ = "\(nx) \(p.binned ? "≈" : "=") \(Text.value(p.xValues[c])), \(ny) \(p.binned ? "≈" : "=") \(Text.value(p.yValues[r]))"
            return cell.map { "\(where_): mean \(p.column) \(Text.value($0.mean)) over \($0.points) point\($0.points == 1 ? "" : "s")" + ($0.never.map { "; \(ReportModel.percent($0)) of worlds \(lacking(p.column))" } ?? "") } ?? "\(where_): no point"
        } }
        let unit = Units.metric(p.column)
        var hm = Heatmap(title: "\(Text.shorten(p.column, to: 30)): pair map", xLabel: m.axisLabel(p.xParameter), yLabel: m.axisLabel(p.yParameter),
                         valueLabel: unit.isEmpty ? "mean" : unit, xValues: p.xValues, yValues: p.yValues, cells: cells, titles: titles,
                         id: id.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce("") { $0 + String($1) })
        hm.integerSteps = ReportModel.isCount(p.column)
        hm.nonNegative = ReportModel.nonNegative(p.column)
        hm.sharedRange = shared
        let counted = Censoring.missing(p.column) != .none
        if counted { hm.never = p.cells.map { row in row.map { $0?.never } } }
        hm.frame = ChartFrame(width: 360, height: 290, left: 56, right: 72, top: 30, bottom: 46)
        let others = othersText(m, except: [p.xParameter, p.yParameter])
        var caption = "\(p.column) over \(nx) × \(ny). Colour: its mean over the points in each cell"
        caption += others.isEmpty ? "." : ", averaged over \(others)."
        if p.binned { caption += " Both parameters cut into \(p.xValues.count) equal-width ranges." }
        if p.cells.contains(where: { $0.contains { $0 == nil } }) { caption += " Grey: no point has a value there." }
        if counted, let rule = Censoring.rule(p.column, runSeconds: m.runSeconds) {
            let shares = p.cells.flatMap { $0 }.compactMap { $0?.never }
            caption += shares.contains { $0 > 0 }
                ? " Hatched: half or more of the worlds \(lacking(p.column)); corner mark: some did (from \(ReportModel.percent(shares.min() ?? 0)) to \(ReportModel.percent(shares.max() ?? 0)) per cell; \(rule))."
                : " Every world has a value."
        }
        if p.capped { caption += " At most \(ReportModel.maxHeatmapSide) values per axis, spread evenly." }
        if hm.integerSteps { caption += " Whole-number steps from 0." }
        return figure(hm.svg(), caption)
    }

    static func parallel(_ m: ReportModel) -> String {
        guard m.wantsParallel, let head = m.headline ?? m.keyColumns.first.flatMap(m.analysis) else { return "" }
        let s = m.summary
        let order = m.parameterOrder(head.column).filter(m.varyingParameters.contains)
        var pts = m.valued(head.column)
        let total = pts.count
        if pts.count > ReportModel.maxParallelLines {
            pts = ReportModel.thinned(pts, ReportModel.maxParallelLines)
        }
        let axes = order.map { j in ParallelAxis(label: s.parameters[j], values: pts.map { $0.0.parameters[safe: j] ?? .nan }) }
            + [ParallelAxis(label: m.metricLabel(head.column), values: pts.map(\.1))]
        let titles = pts.count <= 300 ? pts.map { "point \($0.0.point) (\(m.describe($0.0))): \(head.column) \(Text.value($0.1))" } : []
        var chart = ParallelCoordinates(title: "Every point across the parameters", axes: axes, titles: titles)
        // About 100 px between axes: readable from 390 px up; more axes scroll inside their box.
        let width = max(1100, 100 * Double(axes.count - 1) + 88)
        chart.frame = ChartFrame(width: width, height: 340, left: 44, right: 44, top: 56, bottom: 20)
        var h = "<section id=\"parallel\">\n<h2>Parallel coordinates</h2>\n<div class=\"charts\">\n"
        var caption = "One line per point through its parameter values (most important for \(head.column) first) to its mean \(head.column) on the right; colour: \(head.column), yellow high, purple low."
        if pts.count < total { caption += " \(pts.count) of \(total) points drawn, spread evenly." }
        if let rule = Censoring.rule(head.column, runSeconds: m.runSeconds) { caption += " Every point is drawn: \(rule)." }
        h += "<figure class=\"full\">\n<div class=\"sc\">\(chart.svg())</div><figcaption>\(Text.escape(caption))</figcaption>\n</figure>\n"
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
        let vals = s.points.compactMap { p in p.metrics[column].map { (p, $0) } }
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
            caption += b.neverBounced > 0 ? " \(b.neverBounced) of them (\(ReportModel.percent(Double(b.neverBounced) / Double(max(1, b.worlds))))) never bounced and have no height: the histogram shows the \(b.values.count) that did." : " Every one of them bounced."
            h += figure(hist.svg(), caption)
        }
        return h + "</div>\n</section>\n"
    }

    static func extremes(_ m: ReportModel) -> String {
        let ex = m.extremes()
        guard !ex.isEmpty, m.summary.points.count > 1 else { return "" }
        var h = "<section id=\"extremes\">\n<h2>Extremes</h2>\n"
        h += "<details><summary>The points with the highest and the lowest mean of each key metric, the commands that replay them, and pictures of them</summary>\n"
        var rows: [String] = []
        for e in ex {
            for (which, pv) in [("highest", e.high), ("lowest", e.low)] {
                rows.append("<tr><td>\(name(m.metricLabel(e.column)))</td><td class=\"n\">\(which) \(Text.value(pv.1))</td>"
                    + "<td>point \(pv.0.point): \(Text.escape(m.describe(pv.0)))<br>\(command(m, world: m.world(of: pv.0)))</td></tr>\n")
            }
        }
        h += table(["Metric", "Mean", "At, and the command that replays it"], rows, cls: "stack")
        h += trajectories(m)
        return h + "</details>\n</section>\n"
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

    // MARK: single point

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "<section id=\"point\"><h2>Results</h2><p>No points.</p></section>\n" }
        var h = "<section id=\"point\">\n<h2>Results of the single point</h2>\n"
        h += note("Nothing is swept: every metric over the \(p.replicas) replica(s) of the one point.")
        var rows: [String] = []
        for c in m.metricColumns {
            guard let st = p.metrics[c] else { continue }
            rows.append("<tr><td>\(name(m.metricLabel(c)))</td><td class=\"n\">\(Text.value(st.mean))</td><td class=\"n\">\(Text.value(st.std))</td>"
                + "<td class=\"n\">\(Text.value(st.min))</td><td class=\"n\">\(Text.value(st.max))</td><td class=\"n\">\(st.count)</td></tr>\n")
        }
        return h + table(["Metric", "Mean", "Std", "Min", "Max", "Replicas with a value"], rows) + "</section>\n"
    }
}
