// report.html: one self-contained page (inline CSS, inline SVG, no external URLs; one optional
// inline script, the parallel-coordinates brushing, without which the page reads the same),
// readable from 390 px up: every chart scales to its column (viewBox), wide tables scroll inside
// their own box, and the page itself never scrolls sideways.
import Foundation
import WorldSweepRun

enum HTMLReport {
    static func render(_ m: ReportModel) -> String { parts(m).map { $0(m) }.joined() }

    /// The page in order, cut where its sections (and each key metric's views) meet: the writer
    /// renders them on the run's threads beside report.md (the whole-sweep views and the replayed
    /// extremes are most of the page) and joins them, the same bytes as one after the other.
    static func parts(_ model: ReportModel) -> [(ReportModel) -> String] {
        let views = viewParts(model)
        return [
            { m in
                let s = m.summary
                var h = HTML.head(title: "\(s.name) — sweep report")
                h += "<h1>Sweep report: \(HTML.escape(s.name))</h1>\n"
                if !s.description.isEmpty { h += "<p class=\"desc\">\(HTML.escape(s.description))</p>\n" }
                return h + finding(m) + toc(m)
            },
            { m in m.summary.parameters.isEmpty ? singlePoint(m) : importance(m) },
        ] + views + [
            { m in m.summary.parameters.isEmpty ? "" : parallel(m) },
            { m in distributions(m) },
            { m in extremes(m) },
            { m in
                var h = "<section id=\"run\">\n<h2>The run</h2>\n"
                h += "<details><summary>\(HTML.escape(m.runSummary))</summary>\n"
                h += HTML.keyValues(m.header)
                if !m.dataFiles.isEmpty {
                    let links = m.dataFiles.map { "<a href=\"\(HTML.escape($0))\">\(HTML.escape($0))</a>" }
                    h += "<p class=\"files\">Data: \(links.joined(separator: " · "))</p>\n"
                }
                return h + "</details>\n</section>\n" + HTML.tail
            },
        ]
    }

    /// The whole-sweep views' parts: a head, each key metric's views, a tail (none without a sweep).
    private static func viewParts(_ model: ReportModel) -> [(ReportModel) -> String] {
        guard !model.summary.parameters.isEmpty else { return [] }
        return [viewsHead] + model.keyColumns.map { c in { m in viewsOf(m, c) } } + [viewsTail]
    }

    /// Where the parallel coordinates are among `parts(model)`: the page's longest part, which
    /// the writer starts among the first jobs (started in page order, it would often be the last
    /// job, its thread working alone).
    static func parallelPart(_ model: ReportModel) -> Int { 2 + viewParts(model).count }

    // MARK: what matters

    static func finding(_ m: ReportModel) -> String {
        let unreached = m.unreachedOutcomes
        guard !m.headlines.isEmpty || !unreached.isEmpty else { return "" }
        return "<div id=\"finding\">\n" + m.headlines.enumerated().map { k, a in
            "<p class=\"finding\" id=\"f-\(k + 1)\">\(HTML.escape(m.headlineText(a)))</p>\n"
        }.joined() + unreached.map { "<p class=\"finding\">\(HTML.escape($0))</p>\n" }.joined() + "</div>\n"
    }

    /// Links to each section and each key metric's views.
    static func toc(_ m: ReportModel) -> String {
        var items: [HTML.TOCEntry] = []
        if !m.summary.parameters.isEmpty {
            items.append(.init(id: "importance", title: "What matters"))
            let shown = m.keyColumns.filter { m.analysis($0).map { $0.signal != .constant } ?? false }
            items.append(.init(id: "views", title: "The whole sweep", links: shown.map { ("v-" + $0, $0) }))
        }
        if m.wantsParallel { items.append(.init(id: "parallel", title: "Parallel coordinates")) }
        if m.spreadColumn != nil { items.append(.init(id: "distributions", title: "Spread over replicas")) }
        if !m.extremes().isEmpty, m.summary.points.count > 1 { items.append(.init(id: "extremes", title: "Extremes")) }
        items.append(.init(id: "run", title: "The run"))
        return HTML.toc(items)
    }

    static func importance(_ m: ReportModel) -> String {
        let s = m.summary
        var h = "<section id=\"importance\">\n<h2>What matters</h2>\n"
        // The method in one line, its full statement folded under it.
        let method = m.importanceMethod
        var line = switch method {
        case .grid: "Shares of each metric's variation, exact on this full grid"
        case .surrogate: "Shares of each metric's variation, from a fitted surrogate (R² stated)"
        case .both: "Shares of each metric's variation, exact on the full grid where a metric has every point, else from a fitted surrogate (R² stated)"
        }
        line += s.replicas > 1 ? ", noise measured between the \(s.replicas) replicas" : ", no noise estimate (one world per point)"
        line += "; outcomes that never happen count."
        var intro = "Each metric's variation over every world split into parts that add to 100 %: each parameter's main effect, each pair's interaction\(s.parameters.count >= 3 ? ", interaction of three or more parameters" : "")"
        intro += s.replicas > 1 ? ", and noise (the variation between the \(s.replicas) replicas of a point)." : ". The sweep has one world per point, so it cannot measure noise: none is reported."
        let fitted = "the split is of a least-squares quadratic with pair products fitted to the point means (its R² stated; the rest is what it does not capture); metrics with fewer than \(Decomposition.minPointsPerCoefficient) points per coefficient are not split."
        switch method {
        case .grid: intro += " On this full grid the split is exact (functional ANOVA), steps and curves included."
        case .surrogate: intro += " The points are no full grid: " + fitted
        case .both: intro += " Where a metric has a value at every point of a full grid the split is exact (functional ANOVA), steps and curves included; elsewhere " + fitted
        }
        intro += " Outcomes that never happen count: " + censoringNote(m) + " Every share is in importance.csv."
        h += "<details id=\"method\"><summary>\(HTML.escape(line))</summary>\n" + HTML.note(intro) + "</details>\n"
        if let why = m.nothingRanked { h += "<p>\(HTML.escape(why))</p>\n" }
        for text in m.mixingNotes { h += HTML.note("Note: " + text) }
        if let head = m.headline, let d = head.importance {
            h += "<div class=\"charts\">\n"
            var bars = d.ranked.map { j in
                ImportanceChart.Bar(label: s.parameters[j], share: d.mains[j]!, note: m.shape(head.column, j, short: true), color: Palette.color(0))
            }
            bars += d.pairs.prefix(3).filter { $0.share >= 0.01 }.map {
                ImportanceChart.Bar(label: "\(s.parameters[$0.a]) × \(s.parameters[$0.b])", share: $0.share, note: "together", color: Palette.color(1))
            }
            if d.hasHigherOrder, d.higherOrder >= 0.01 { bars.append(.init(label: "three or more together", share: d.higherOrder, note: "", color: Palette.color(1))) }
            if d.unfitted > 0 { bars.append(.init(label: "not captured by the fit", share: d.unfitted, note: "", color: "#bab0ac")) }
            if let noise = d.noise { bars.append(.init(label: "noise (replicas)", share: noise, note: "", color: "#bab0ac")) }
            var never = ""
            if let rule = Censoring.rule(head.column, m.metrics, runSeconds: m.runSeconds), let share = m.neverShare(head.column) {
                never = " \(ReportModel.percent(share)) of all worlds \(lacking(head.column, m.metrics)): \(rule)."
            }
            h += HTML.figure(ImportanceChart(title: "What drives \(head.column)", bars: bars).svg(),
                             caption: "Shares of the variation of \(head.column) over \(d.points) points\(d.rSquared.map { " (surrogate R² \(PrintfNumber.fixed($0, decimals: 2)))" } ?? ""). Blue: one parameter; orange: parameters together\(d.noise != nil || d.rSquared != nil ? "; grey: " + [d.noise != nil ? "noise between replicas" : nil, d.rSquared != nil ? "what the fit misses" : nil].compactMap { $0 }.joined(separator: ", ") : "")." + never)
            // Each headline's chart against its strongest parameter (the shape its sentence
            // describes) sits here once; the metric's other charts fold under its views.
            if let lead = m.slices(head.column).first { h += sliceFigure(m, lead, finding: 1) }
            h += interaction(m)
            for (k, a) in m.headlines.enumerated().dropFirst() {
                if let v = m.slices(a.column).first { h += sliceFigure(m, v, finding: k + 1) }
            }
            h += "</div>\n"
        }
        let ranked = m.rankedMetrics
        if !ranked.isEmpty {
            let varying = s.parameters.indices.filter(m.varyingParameters.contains)
            let replicated = s.replicas > 1
            let surrogate = ranked.contains { $0.importance!.rSquared != nil }
            let higher = ranked.contains { $0.importance!.hasHigherOrder }
            let rows = ranked.map { a -> String in
                let d = a.importance!
                var r = "<tr><td>\(HTML.breakable(m.metricLabel(a.column)))</td>"
                for j in varying { r += shareCell(d.mains[j]) }
                let top = d.pairs.first
                r += "<td>\(top.map { "\(HTML.breakable(s.parameters[$0.a])) × \(HTML.breakable(s.parameters[$0.b])) \(ReportModel.percent($0.share))" } ?? "—")</td>"
                if higher { r += shareCell(d.hasHigherOrder ? d.higherOrder : nil) }
                if replicated { r += shareCell(d.noise) }
                if surrogate { r += "<td class=\"n\">\(d.rSquared.map { PrintfNumber.fixed($0, decimals: 2) } ?? "exact")</td>" }
                return r + "<td class=\"n\">\(d.points)</td></tr>\n"
            }
            h += "<details><summary>Every metric whose variation the parameters explain (\(ranked.count))</summary>\n"
            h += HTML.table(["Metric"] + varying.map { s.parameters[$0] } + ["Strongest pair"] + (higher ? ["3+ together"] : []) + (replicated ? ["Noise"] : []) + (surrogate ? ["Fit R²"] : []) + ["Points"], rows)
            h += HTML.note("Main-effect shares per parameter, the largest pair interaction, the rest of the interactions\(replicated ? ", the noise between replicas" : ""); key metrics first.")
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
        let noise = m.noiseMetrics, constant = m.constantMetrics, unreached = m.unreachedOutcomes
        guard !noise.isEmpty || !constant.isEmpty || !unreached.isEmpty else { return "" }
        var h = "<details id=\"noise\"><summary>\(noise.count) metric\(noise.count == 1 ? "" : "s") not ranked (too little variation to say anything), \(constant.count) constant</summary>\n"
        if !noise.isEmpty {
            h += "<ul>\n" + noise.map { "<li>\(HTML.escape($0.0)): \(HTML.escape($0.1))</li>\n" }.joined() + "</ul>\n"
        }
        if !constant.isEmpty { h += HTML.note("The same at every point: " + constant.joined(separator: ", ") + ".") }
        for text in unreached { h += HTML.note("Never reached: " + text) }
        return h + "</details>\n"
    }

    static func interaction(_ m: ReportModel) -> String {
        guard let it = m.interaction() else { return "" }
        let s = m.summary
        let others = s.parameters.indices.filter { $0 != it.x && $0 != it.group }.map { s.parameters[$0] }
        // Ordered values, ordered colours: a sequential palette, low purple to high yellow.
        let series = it.lines.enumerated().map { k, line in
            LineSeries(name: Text.value(line.value), color: Palette.sequential(it.lines.count > 1 ? 0.9 * Double(k) / Double(it.lines.count - 1) : 0), points: line.points.map { p in
                LinePoint(x: p.x, y: p.mean, title: "\(s.parameters[it.x]) = \(Text.value(p.x)), \(s.parameters[it.group]) = \(Text.value(line.value)): mean \(Text.value(p.mean)) over \(Text.count(p.n, "point"))")
            })
        }
        var chart = LineChart(title: "\(it.column) by \(Text.shorten(s.parameters[it.group], to: 22))", xLabel: m.axisLabel(it.x), yLabel: m.metricLabel(it.column),
                              legendTitle: s.parameters[it.group], series: series, nonNegative: ReportModel.nonNegative(it.column, m.metrics))
        chart.legendPlace = .below
        chart.logX = m.isLogSpaced(it.x)
        chart.xTicks = m.sweptValues(it.x)
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
        if let rule = Censoring.rule(it.column, m.metrics, runSeconds: m.runSeconds), let never = m.neverShare(it.column) {
            caption += " \(ReportModel.percent(never)) of all worlds \(lacking(it.column, m.metrics)): \(rule)."
        }
        return HTML.figure(chart.svg(), caption: caption)
    }

    // MARK: spread, extremes, trajectories

    static func distributions(_ m: ReportModel) -> String {
        guard let column = m.spreadColumn else { return "" }
        let s = m.summary
        let item = column.split(separator: ".").first.map(String.init) ?? column
        var h = "<section id=\"distributions\">\n<h2>Spread over replicas</h2>\n"
        h += HTML.note("\(column): the key metric that varies most between the replicas of a point.")
        h += "<div class=\"charts\">\n"
        let j = m.parameterOrder(column).first ?? 0
        let vals = m.valued(column).compactMap { i, _ in s.points[i].metrics[column].map { (s.points[i], $0) } }
        if vals.count > 1, !s.parameters.isEmpty {
            let many = vals.count > ReportModel.maxHoverDots
            let dense = vals.count > DensityLayer.above
            let series = LineSeries(name: "points", color: Palette.color(0), points: (dense ? vals : ReportModel.thinned(vals, ReportModel.maxDots)).compactMap { p, st in
                p.parameters[safe: j].map { LinePoint(x: $0, y: st.std, title: many ? "" : m.dotTitle(p, "std \(Text.value(st.std)) pt over \(st.count) replicas, mean \(Text.value(st.mean))")) }
            }, style: dense ? .density : .dots, inLegend: false)
            var chart = LineChart(title: "\(column): spread per point", xLabel: m.axisLabel(j), yLabel: "std of \(column) (pt)",
                                  legendTitle: "", series: [series], nonNegative: true)
            chart.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
            chart.logX = m.isLogSpaced(j)
            chart.xTicks = m.sweptValues(j)
            var caption = "Each dot: one of the \(vals.count) points, the standard deviation of \(column) over its replicas (up to \(s.replicas)), against \(s.parameters[j])."
            if dense { caption += " Drawn as their density: darker cells hold more points." } else if vals.count > ReportModel.maxDots { caption += " \(ReportModel.maxDots) of them drawn, spread evenly." }
            h += HTML.figure(chart.svg(), caption: caption)
        }
        let b = m.sampleBounces(item: item)
        if b.values.count >= 2 {
            var hist = Histogram(title: "\(column): \(b.values.count) of \(b.worlds) sampled worlds", xLabel: "\(column) (pt)", values: b.values)
            hist.frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)
            var caption = "First bounce height of \(item) in the \(b.worlds) worlds sampled for this report."
            caption += b.neverBounced > 0 ? " \(b.neverBounced) of them (\(ReportModel.percent(Double(b.neverBounced) / Double(max(1, b.worlds))))) never bounced and have no height: the histogram shows the \(b.values.count) that did." : " Every one of them bounced."
            h += HTML.figure(hist.svg(), caption: caption)
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
                let p = m.summary.points[pv.0]
                rows.append("<tr><td>\(HTML.breakable(m.metricLabel(e.column)))</td><td class=\"n\">\(which) \(Text.value(pv.1))</td>"
                    + "<td>point \(p.point): \(HTML.escape(m.describe(p)))<br>\(command(m, world: m.world(of: p)))</td></tr>\n")
            }
        }
        h += HTML.table(["Metric", "Mean", "At, and the command that replays it"], rows, class: "stack")
        for e in ex { if let text = m.extremeNote(e) { h += HTML.note(text) } }
        h += trajectories(m)
        return h + "</details>\n</section>\n"
    }

    /// The trace command as code that wraps only between its words (never inside `--world`).
    static func command(_ m: ReportModel, world: Int) -> String {
        let text = m.traceCommand(world: world)
        // Words stay whole, but a path may wrap after its slashes: a long file name is wider than
        // a world's figure.
        let words = text.split(separator: " ").map { "<span class=\"w\">\(HTML.escape(String($0)).replacingOccurrences(of: "/", with: "/<wbr/>"))</span>" }
        return "<code>" + words.joined(separator: " ") + "</code>"
    }

    static func trajectories(_ m: ReportModel) -> String {
        let worlds = m.trajectories()
        guard !worlds.isEmpty else {
            return m.replay == nil ? HTML.note("Pictures of these worlds are drawn when `worldsweep run` writes the report (it replays them).") : ""
        }
        let items = worlds[0].0.items
        let key = items.enumerated().map { k, it in "<span class=\"swatch\" style=\"background:\(Palette.color(k))\"></span>\(HTML.escape(it.name))" }.joined()
        var h = "<div id=\"trajectories\">\n<h3>The extreme worlds, replayed</h3>\n"
        h += "<p class=\"note\">Each item's path (its centre, every tick) in the reference bounds; dashed: where it starts, filled: where it ends; rings: where a contact began. Items: \(key).</p>\n"
        h += "<div class=\"charts\">\n"
        if let (t, why) = worlds.first {
            let chart = TrajectoryChart(title: "world \(t.world), animated", trajectory: t, animated: true)
            h += HTML.figure(chart.svg(), caption: "World \(t.world) in motion (\(Text.value(Double(t.items[0].states.count - 1) * t.tick)) s, looping): \(why).", class: "world")
        }
        // Springs, snaps and pendulums: each world's distance from rest over time, on one scale.
        let shared = RestReplayChart.sharedDomains(worlds.map(\.0))
        if shared != nil { h += HTML.note(RestReplayChart.note) }
        for (t, why) in worlds {
            let chart = t.hasRest ? RestReplayChart(title: "world \(t.world): distance from rest", trajectory: t, yDomain: shared?.y, xDomain: shared?.x).svg()
                : TrajectoryChart(title: "world \(t.world)", trajectory: t).svg()
            h += HTML.figure(chart, captionHTML: HTML.escape("World \(t.world): \(why). \(t.contacts.count) contacts began.") + " " + command(m, world: t.world),
                             class: t.hasRest ? "" : "world")
        }
        return h + "</div>\n</div>\n"
    }

    // MARK: single point

    static func singlePoint(_ m: ReportModel) -> String {
        guard let p = m.summary.points.first else { return "<section id=\"point\"><h2>Results</h2><p>No points.</p></section>\n" }
        var h = "<section id=\"point\">\n<h2>Results of the single point</h2>\n"
        h += HTML.note("Nothing is swept: every metric over the \(Text.count(p.replicas, "replica")) of the one point.")
        var rows: [String] = []
        for c in m.metricColumns {
            guard let st = p.metrics[c] else { continue }
            rows.append("<tr><td>\(HTML.breakable(m.metricLabel(c)))</td><td class=\"n\">\(Text.value(st.mean))</td><td class=\"n\">\(Text.value(st.std))</td>"
                + "<td class=\"n\">\(Text.value(st.min))</td><td class=\"n\">\(Text.value(st.max))</td><td class=\"n\">\(st.count)</td></tr>\n")
        }
        return h + HTML.table(["Metric", "Mean", "Std", "Min", "Max", "Replicas with a value"], rows) + "</section>\n"
    }
}
