// report.html's whole-sweep views: per key metric its finding, the slice of its strongest
// parameter and its first pair map (open for the headline metrics, folded for the rest), every
// other slice and pair map folded; each chart of a metric worlds can lack states its never-shares.
import Foundation
import WorldSweepRun

extension HTMLReport {
    // MARK: whole-sweep views

    /// A key metric's view title (its declaration's).
    static func keyTitle(_ key: String, _ metrics: MetricCatalog) -> String? { metrics.named(key)?.view?.title }

    static func views(_ m: ReportModel) -> String {
        viewsHead(m) + m.keyColumns.map { viewsOf(m, $0) }.joined() + viewsTail(m)
    }

    /// The section's title and what it shows.
    static func viewsHead(_ m: ReportModel) -> String {
        let s = m.summary
        let h = "<section id=\"views\">\n<h2>The whole sweep</h2>\n"
        var intro = "Each key metric against every swept parameter, using "
            + (m.pointStride > 1 ? "the \(s.points.count) points the report reads (every \(Text.ordinal(m.pointStride)) of \(m.sweepPointCount))" : "all \(s.points.count) points")
            + ", most important parameter first"
        intro += m.isRandom ? "; the parameters of a random sweep are cut into \(SweepViews.bins) equal-width ranges for the line." : "."
        if s.items.count > ReportModel.maxItemsCharted { intro += " Views of the first \(ReportModel.maxItemsCharted) of \(s.items.count) items." }
        return h + HTML.note(intro)
    }

    /// The metrics the same at every point, named once after the charted ones.
    static func viewsTail(_ m: ReportModel) -> String {
        let constant = m.keyColumns.filter { c in m.analysis(c).map { $0.signal == .constant } ?? false }
        return (constant.isEmpty ? "" : HTML.note("The same at every point, not charted: " + constant.joined(separator: ", ") + ".")) + "</section>\n"
    }

    /// One key metric's views; empty for a metric without an analysis or the same everywhere.
    static func viewsOf(_ m: ReportModel, _ column: String) -> String {
        guard let a = m.analysis(column), a.signal != .constant else { return "" }
        var h = ""
        let key = Units.metricKey(column)
        h += "<h3 id=\"v-\(HTML.escape(column))\">\(HTML.escape(column)): \(HTML.escape((keyTitle(key, m.metrics) ?? key).lowercased())) of \(HTML.escape(column.split(separator: ".").first.map(String.init) ?? ""))</h3>\n"
        // A headline's sentence is said once, at the top; here a pointer to it and to its chart.
        let lead = m.headlines.firstIndex { $0.column == column }
        if let k = lead {
            let strongest = m.parameterOrder(column).first.map { m.summary.parameters[$0] } ?? ""
            h += "<p class=\"note\">Finding \(k + 1), <a href=\"#f-\(k + 1)\">at the top</a>; its chart against \(HTML.escape(strongest)) is under <a href=\"#importance\">What matters</a>.</p>\n"
        } else {
            if let k = m.headlines.firstIndex(where: { Censoring.timeColumn(ofNever: $0.column, m.metrics) == column }) {
                h += "<p class=\"note\">Whether worlds get there at all is finding \(k + 1), <a href=\"#f-\(k + 1)\">at the top</a>.</p>\n"
            }
            switch a.signal {
            case .constant: return ""
            case .noise(let why): h += HTML.note("Not a finding: \(why).")
            case .signal: h += HTML.note(m.finding(a))
            }
        }
        let slices = m.slices(column)
        let (maps, total) = m.pairs(column)
        let all = maps.flatMap { $0.cells.flatMap { $0 }.compactMap { $0?.mean } }
        let shared = all.isEmpty ? nil : (all.min()!, all.max()!)
        // Every chart of a metric folds: its sentence says what they show (a headline's
        // strongest slice is already open under What matters).
        let shown = lead == nil ? 0 : 1
        let more = slices.count - shown + maps.count
        if more > 0 {
            h += "<details><summary>\(shown > 0 ? "\(more) more chart\(more == 1 ? "" : "s")" : "\(more) chart\(more == 1 ? "" : "s")") of \(HTML.escape(column))</summary>\n<div class=\"charts\">\n"
            for v in slices.dropFirst(shown) { h += sliceFigure(m, v, hover: false) }
            for (k, p) in maps.enumerated() { h += pairFigure(m, p, id: "pm-\(column)-\(k)", shared: shared) }
            h += "</div>\n"
            if maps.count > 1 { h += HTML.note("The maps of \(column) share one colour scale.") }
            if total > maps.count { h += HTML.note("\(maps.count) of \(total) pairs of parameters shown: the most important ones.") }
            h += "</details>\n"
        }
        return h
    }

    static func othersText(_ m: ReportModel, except: [Int]) -> String {
        let others = m.summary.parameters.indices.filter { !except.contains($0) && m.varyingParameters.contains($0) }.map { m.summary.parameters[$0] }
        return others.isEmpty ? "" : others.joined(separator: ", ")
    }

    /// `finding`: the headline (1, 2, …) this chart shows the shape of, said first in its caption.
    /// `hover`: whether its dots name their worlds; the folded charts' do not, since a dot's hover
    /// costs the page far more bytes than the dot and the same worlds are named in the open charts.
    static func sliceFigure(_ m: ReportModel, _ v: SliceView, finding: Int? = nil, hover wanted: Bool = true) -> String {
        let s = m.summary
        let name = s.parameters[v.parameter]
        let unit = Units.metric(v.column, m.metrics)
        // Thousands of points: their density (every point counted), not a dot each; so too a
        // folded chart's hundreds, whose dots name no worlds (a dot without a hover still cost
        // about 90 bytes: twin-drop's 16 folded slices of 768 were half its page).
        let dense = v.dots.count > DensityLayer.above || (!wanted && v.dots.count > ReportModel.maxPlainDots)
        // A share of worlds (never_rest, never_settle) is drawn as the share at each value: its
        // min–max over points of one world each is 0 to 1, a band that says nothing, and the dots
        // of such points sit only at 0 and 1 (yes or no).
        let share = unit == "share"
        let yesNo = share && v.dots.allSatisfy { $0.y == 0 || $0.y == 1 }
        let hover = wanted && !yesNo && v.dots.count <= ReportModel.maxHoverDots
        let dots = LineSeries(name: "points", color: "#8c9db5", points: yesNo ? [] : (dense ? v.dots : ReportModel.thinned(v.dots, ReportModel.maxDots)).map { d in
            LinePoint(x: d.x, y: d.y, title: hover ? m.dotTitle(s.points[d.point], "mean \(Text.value(d.y)) \(unit)") : "")
        }, style: dense ? .density : .dots, inLegend: false)
        let line = LineSeries(name: "mean", color: Palette.color(0), points: v.levels.map { l in
            LinePoint(x: l.x, y: l.mean, lo: share ? nil : l.min, hi: share ? nil : l.max,
                      title: "\(name) \(v.binned ? "≈ " : "= ")\(Text.value(l.x)): mean \(Text.value(l.mean)) \(unit) over \(Text.count(l.points, "point")) (min \(Text.value(l.min)), max \(Text.value(l.max)))")
        }, inLegend: false)
        var chart = LineChart(title: "\(v.column) vs \(name)", xLabel: m.axisLabel(v.parameter), yLabel: m.metricLabel(v.column),
                              legendTitle: "", series: [dots, line], nonNegative: ReportModel.nonNegative(v.column, m.metrics))
        chart.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
        chart.logX = m.isLogSpaced(v.parameter)
        chart.xTicks = m.sweptValues(v.parameter)
        let others = othersText(m, except: [v.parameter])
        let replicas = s.replicas > 1 ? " (its mean over \(s.replicas) replicas)" : ""
        let missing = s.points.count - v.dots.count
        var caption = finding.map { "Finding \($0): \(v.column) against \(name). " } ?? ""
        if yesNo {
            caption += "Line: at each value of \(name), the share of its worlds (\(Text.count(v.dots.count, "point"))\(s.replicas == 1 ? ", one world each" : "")\(others.isEmpty ? "" : ", over \(others)")) that \(lacking(Censoring.timeColumn(ofNever: v.column, m.metrics) ?? v.column, m.metrics)). Each world is a yes or a no, so no band or dots are drawn."
            if chart.logX { caption += " \(name) is geometric (each value a constant multiple of the one before): a log axis, ticked at the swept values." }
            return HTML.figure(chart.svg(), caption: caption)
        }
        caption += dense ? "Shade: how many of the \(v.dots.count) points\(replicas) fall in each cell (a 2-D histogram; darker holds more)"
            : "Dots: each of the \(v.dots.count) points\(replicas)"
        caption += missing > 0 ? " (the other \(missing) have only failed worlds). Line: " : ". Line: "
        if others.isEmpty {
            caption += "the mean at each value of \(name); band: min–max."
        } else if v.binned {
            caption += "the mean over the points in each of \(v.levels.count) \(v.log ? "ranges of equal width in log \(name)" : "equal-width ranges of \(name)") (the other parameters, \(others), vary within a range); band: their min–max."
        } else {
            caption += "at each value of \(name), the mean over the other parameters (\(others)); band: their min–max."
        }
        if v.dots.isEmpty { caption += " No point has a value." }
        if hover && !v.dots.isEmpty { caption += " " + m.hoverKey }
        else if !wanted && !dense && !v.dots.isEmpty { caption += " Hover the dots of the open charts (What matters, parallel coordinates) for their worlds." }
        if !dense && 2 * Set(v.dots.map(\.x)).count <= v.dots.count { caption += " Dots at one value of \(name) are spread sideways a little, so that they do not hide each other." }
        caption += neverText(m, v)
        if !dense && v.dots.count > ReportModel.maxDots { caption += " \(ReportModel.maxDots) of the \(v.dots.count) dots drawn, spread evenly; the line and band use every point." }
        if chart.clamped { caption += " Bands are cut at 0, which this metric cannot go below." }
        if chart.logX { caption += m.isRandom ? " \(name) is drawn log-uniform: a log axis." : " \(name) is geometric (each value a constant multiple of the one before): a log axis, ticked at the swept values." }
        return HTML.figure(chart.svg(), caption: caption)
    }

    /// The never-shares along a slice, said in its caption (every chart of a metric worlds can lack).
    static func neverText(_ m: ReportModel, _ v: SliceView) -> String {
        let shares = v.levels.compactMap { l in l.never.map { (l.x, $0) } }
        guard !shares.isEmpty, let rule = Censoring.rule(v.column, m.metrics, runSeconds: m.runSeconds) else { return "" }
        guard shares.contains(where: { $0.1 > 0 }) else { return " Every world has a value." }
        let name = m.summary.parameters[v.parameter]
        let some = shares.filter { $0.1 > 0 }
        let listed = some.count <= 16
            ? some.map { "\(ReportModel.percent($0.1).replacingOccurrences(of: "under 1 %", with: "<1 %")) at \(Text.short($0.0))" }.joined(separator: ", ")
                + (some.count < shares.count ? ", none at the other \(shares.count - some.count) value\(shares.count - some.count == 1 ? "" : "s")" : "")
            : "from \(ReportModel.percent(shares.map(\.1).min()!)) to \(ReportModel.percent(shares.map(\.1).max()!))"
        return " Worlds that \(lacking(v.column, m.metrics)), by \(name)\(v.binned ? " (range means)" : ""): \(listed); \(rule)."
    }

    /// What it means that a point has no value of a key metric.
    static func lacking(_ column: String, _ metrics: MetricCatalog) -> String {
        metrics.named(Units.metricKey(column))?.censoring.lacking ?? "have no \(column)"
    }

    static func pairFigure(_ m: ReportModel, _ p: PairView, id: String, shared: (Double, Double)? = nil) -> String {
        let s = m.summary
        let (nx, ny) = (s.parameters[p.xParameter], s.parameters[p.yParameter])
        let cells = p.cells.map { row in row.map { $0?.mean } }
        // A cell's hover: "x, y: mean v unit over n points; s of worlds …", the parameters named
        // once in the caption. The parts each column, row and map share are made (and escaped)
        // once, and each cell's text written straight into the map's bytes.
        let xTexts = p.xValues.map { HTML.escape((p.binned ? "≈ " : "") + Text.value($0)) }, yTexts = p.yValues.map { HTML.escape(", " + Text.value($0)) }
        let meanOf = HTML.escape(": mean "), worldsThat = HTML.escape(" of worlds " + lacking(p.column, m.metrics))
        let unitText = Units.metric(p.column, m.metrics).isEmpty || Units.metric(p.column, m.metrics) == "count" ? "" : HTML.escape(" " + Units.metric(p.column, m.metrics))
        let pairCells = p.cells
        let counts = Set(p.cells.flatMap { $0.compactMap { $0?.points } })
        let sameCount = counts.count == 1 ? counts.first : nil
        let unit = Units.metric(p.column, m.metrics)
        var hm = Heatmap(title: "\(Text.shorten(p.column, to: 30)): pair map", xLabel: m.axisLabel(p.xParameter), yLabel: m.axisLabel(p.yParameter),
                         valueLabel: unit.isEmpty ? "mean" : unit, xValues: p.xValues, yValues: p.yValues, cells: cells,
                         writeTitle: { r, c, out in
                             out.text(xTexts[c]); out.text(yTexts[r])
                             guard let cell = pairCells[r][c] else { out.raw(": no point"); return }
                             out.text(meanOf); out.escaped(Text.value(cell.mean)); out.text(unitText)
                             // Said once in the caption when every cell averages as many points.
                             if sameCount == nil { out.raw(" over "); out.integer(cell.points); out.raw(cell.points == 1 ? " point" : " points") }
                             if let never = cell.never, never > 0 { out.raw("; "); out.escaped(ReportModel.percent(never)); out.text(worldsThat) }
                         },
                         id: id.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce("") { $0 + String($1) })
        hm.integerSteps = ReportModel.isCount(p.column, m.metrics)
        hm.nonNegative = ReportModel.nonNegative(p.column, m.metrics)
        hm.sharedRange = shared
        let counted = Censoring.missing(p.column, m.metrics).countsNever
        if counted { hm.never = p.cells.map { row in row.map { $0?.never } } }
        hm.frame = ChartFrame(width: 360, height: 290, left: 56, right: 72, top: 30, bottom: 46)
        let others = othersText(m, except: [p.xParameter, p.yParameter])
        var caption = "\(p.column) over \(nx) × \(ny). Colour: its mean over the points in each cell (hover a cell for its \(nx), \(ny): the mean)"
        caption += others.isEmpty ? "." : ", averaged over \(others)."
        if p.binned { caption += " Both parameters cut into \(p.xValues.count) equal-width ranges" + (m.isLogSpaced(p.xParameter) || m.isLogSpaced(p.yParameter) ? " (of the logarithm, for a log-uniform one)." : ".") }
        if let n = sameCount { caption += " Each cell averages \(Text.count(n, "point"))." }
        if p.cells.contains(where: { $0.contains { $0 == nil } }) { caption += " Grey: no point has a value there." }
        if counted, let rule = Censoring.rule(p.column, m.metrics, runSeconds: m.runSeconds) {
            let shares = p.cells.flatMap { $0 }.compactMap { $0?.never }
            caption += shares.contains { $0 > 0 }
                ? " Hatched: half or more of the worlds \(lacking(p.column, m.metrics)); corner mark: some did (from \(ReportModel.percent(shares.min() ?? 0)) to \(ReportModel.percent(shares.max() ?? 0)) per cell; \(rule))."
                : " Every world has a value."
        }
        if p.capped { caption += " At most \(ReportModel.maxHeatmapSide) values per axis, spread evenly." }
        if hm.integerSteps { caption += " Whole-number steps from 0." }
        return HTML.figure(hm.svg(), caption: caption)
    }

    static func parallel(_ m: ReportModel) -> String {
        // A constant metric draws every line to one value: the first key metric that varies, else
        // the best-ranked one.
        let varying = m.keyColumns.lazy.compactMap(m.analysis).first { $0.signal != .constant }
        guard m.wantsParallel, let head = m.headline ?? varying ?? m.rankedMetrics.first ?? m.keyColumns.first.flatMap(m.analysis) else { return "" }
        let s = m.summary
        let order = m.parameterOrder(head.column).filter(m.varyingParameters.contains)
        var pts = m.valued(head.column)
        let total = pts.count
        if pts.count > ReportModel.maxParallelLines {
            pts = ReportModel.thinned(pts, ReportModel.maxParallelLines)
        }
        let axes = order.map { j in ParallelAxis(label: s.parameters[j], values: pts.map { s.points[$0.0].parameters[safe: j] ?? .nan }, log: m.isLogSpaced(j)) }
            + [ParallelAxis(label: m.metricLabel(head.column), values: pts.map(\.1))]
        let titles = pts.count <= ReportModel.maxHoverDots ? pts.map { m.dotTitle(s.points[$0.0], Text.value($0.1)) } : []
        var chart = ParallelCoordinates(title: "Every point across the parameters", axes: axes, titles: titles)
        // About 100 px between axes: readable from 390 px up; more axes scroll inside their box.
        let width = max(1100, 100 * Double(axes.count - 1) + 88)
        chart.frame = ChartFrame(width: width, height: 340, left: 44, right: 44, top: 56, bottom: 20)
        var h = "<section id=\"parallel\">\n<h2>Parallel coordinates</h2>\n<div class=\"charts\">\n"
        var caption = "One line per point through its parameter values (most important for \(head.column) first) to its mean \(head.column) on the right; colour: \(head.column), yellow high, purple low."
        if pts.count < total { caption += " \(pts.count) of \(total) points drawn, spread evenly." }
        if let rule = Censoring.rule(head.column, m.metrics, runSeconds: m.runSeconds) {
            caption += " Every point is drawn: \(rule)\(m.neverShare(head.column).map { "; \(ReportModel.percent($0)) of all worlds \(lacking(head.column, m.metrics))" } ?? "")."
        }
        caption += " With scripts on, drag along an axis to keep only the lines through that range (a click on the axis clears it)."
        if !titles.isEmpty { caption += " " + m.hoverKey + " (then its \(head.column))" }
        caption += " Below 900 px of width the chart keeps that width (its labels readable) and scrolls sideways in its box."
        h += "<figure class=\"full\">\n<div class=\"sc pc\">\(chart.svg())</div><figcaption>\(HTML.escape(caption))</figcaption>\n</figure>\n"
        return h + "</div>\n</section>\n"
    }
}
