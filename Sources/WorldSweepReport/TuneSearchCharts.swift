// The tune page's charts of the search itself: every evaluated point over the tuned parameters,
// coloured by what the search ranks by (grey rings: points that break a bound), the answer
// ringed; and that value per generation with the best so far. From TuneChartData's plain numbers.
import Foundation
import WorldSweepResults
import WorldSweepRun

enum TuneSearchCharts {
    /// Both charts as figures, or "" with nothing evaluated.
    static func html(_ data: TuneChartData) -> String {
        guard !data.evaluated.isEmpty, !data.parameterNames.isEmpty else { return "" }
        var s = "<h2 id=\"search\">The search</h2>\n<div class=\"charts\">\n"
        s += figure(points(data), pointsCaption(data))
        s += figure(generations(data), "Each dot: an evaluated point's \(data.objectiveLabel), by generation (grey: it breaks a bound); line: the best so far among the points that meet the bounds.")
        return s + "</div>\n"
    }

    static func figure(_ svg: String, _ caption: String) -> String {
        "<figure class=\"wide\">\n\(svg)<figcaption>\(HTML.escape(caption))</figcaption>\n</figure>\n"
    }

    static func pointsCaption(_ data: TuneChartData) -> String {
        let n = data.evaluated.count, feasible = data.evaluated.filter(\.feasible).count
        let over = data.parameterNames.count >= 2 ? "\(data.parameterNames[0]) across, \(data.parameterNames[1]) up"
            : "\(data.parameterNames[0]) across, \(data.objectiveLabel) up"
        var text = "Every evaluated point (\(n); \(feasible) meet the bounds), \(over). Colour: \(data.objectiveLabel), dark purple lowest, yellow highest; grey rings break a bound; the black ring is the answer."
        if data.parameterNames.count > 2 { text += " The other parameters (\(data.parameterNames.dropFirst(2).joined(separator: ", "))) are not shown." }
        if data.parameterLog.prefix(2).contains(true) { text += " Log-searched parameters on log axes." }
        return text
    }

    /// An axis over `values` (log10 when `log`): the axis and where a value sits on it.
    static func axis(_ values: [Double], log: Bool) -> (NiceAxis, (Double) -> Double) {
        let v = values.filter(\.isFinite)
        if log, let lo = v.min(), let hi = v.max(), lo > 0 {
            return (NiceAxis(logFrom: lo, to: hi), { log10($0) })
        }
        return (NiceAxis(min: v.min() ?? 0, max: v.max() ?? 1), { $0 })
    }

    static func points(_ data: TuneChartData) -> String {
        let f = ChartFrame(width: 460, height: 330, left: 64, right: 16, top: 30, bottom: 48)
        let two = data.parameterNames.count >= 2
        let xs = data.evaluated.map { $0.values[0] }
        let ys = data.evaluated.map { two ? $0.values[1] : ($0.objective ?? .nan) }
        let (xa, xp) = axis(xs, log: data.parameterLog.first ?? false)
        let (ya, yp) = axis(ys, log: two && (data.parameterLog[safe: 1] ?? false))
        let sx = LinearScale(domain: (xa.lo, xa.hi), range: (f.plotLeft, f.plotRight))
        let sy = LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop))
        let title = "Evaluated points: \(data.evaluated.count)"
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        s += SVGKit.axes(f, x: xa, y: ya, xScale: sx, yScale: sy, xLabel: data.parameterNames[0],
                         yLabel: two ? data.parameterNames[1] : data.objectiveLabel)
        let objectives = data.evaluated.compactMap { $0.feasible ? $0.objective : nil }
        let lo = objectives.min() ?? 0, hi = objectives.max() ?? 1
        for (e, y) in zip(data.evaluated, ys) where y.isFinite {
            let cx = Text.px(sx.map(xp(e.values[0]))), cy = Text.px(sy.map(yp(y)))
            let hover = HTML.escape(zip(data.parameterNames, e.values).map { "\($0) \(TuneResult.number($1))" }.joined(separator: ", ")
                + ": \(e.objective.map(TuneResult.number) ?? "no value")\(e.feasible ? "" : " (breaks a bound)"), generation \(e.generation)")
            if e.feasible, let o = e.objective {
                let t = hi > lo ? (o - lo) / (hi - lo) : 0
                s += "<circle class=\"evaluated\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"3.5\" fill=\"\(Palette.sequential(0.9 * t))\"><title>\(hover)</title></circle>\n"
            } else {
                s += "<circle class=\"infeasible\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"3\" fill=\"none\" stroke=\"#aaa\"><title>\(hover)</title></circle>\n"
            }
        }
        if let a = data.answerValues {
            let y = two ? a[1] : (data.evaluated.first { $0.values == a }?.objective ?? .nan)
            if y.isFinite {
                s += "<circle class=\"answer\" cx=\"\(Text.px(sx.map(xp(a[0]))))\" cy=\"\(Text.px(sy.map(yp(y))))\" r=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"><title>the answer</title></circle>\n"
            }
        }
        return s + "</svg>\n"
    }

    static func generations(_ data: TuneChartData) -> String {
        var best: Double?
        var line: [LinePoint] = []
        let last = data.evaluated.map(\.generation).max() ?? 0
        for g in 0...last {
            for e in data.evaluated where e.generation == g && e.feasible {
                if let o = e.objective, o < (best ?? .infinity) { best = o }
            }
            if let b = best { line.append(LinePoint(x: Double(g), y: b, title: "generation \(g): best so far \(TuneResult.number(b))")) }
        }
        let feasible = data.evaluated.filter { $0.feasible && $0.objective != nil }.map { LinePoint(x: Double($0.generation), y: $0.objective!) }
        let breaking = data.evaluated.filter { !$0.feasible && $0.objective != nil }.map { LinePoint(x: Double($0.generation), y: $0.objective!) }
        var chart = LineChart(title: "\(data.objectiveLabel) per generation", xLabel: "generation", yLabel: data.objectiveLabel, legendTitle: "",
                              series: [LineSeries(name: "breaks a bound", color: "#bbb", points: breaking, style: .dots, inLegend: false),
                                       LineSeries(name: "evaluated", color: "#8c9db5", points: feasible, style: .dots, inLegend: false),
                                       LineSeries(name: "best so far", color: Palette.color(0), points: line, inLegend: false)])
        chart.frame = ChartFrame(width: 460, height: 300, left: 64, right: 16, top: 30, bottom: 46)
        return chart.svg()
    }
}
