// Lines and dots of a metric against one numeric axis, with an optional min–max band and ±std
// bars per point. Honest by construction: a metric that cannot be negative never has a band or bar
// drawn below zero (clamped, and `clamped` says so for the caption), and lines that coincide are
// drawn once under one legend entry naming them all.
import Foundation
import WorldSweepResults

struct LinePoint: Sendable {
    var x: Double
    var y: Double
    /// The band around y (min and max), when there is one.
    var lo: Double? = nil
    var hi: Double? = nil
    /// ± error bar half-length (standard deviation), when there is one.
    var err: Double? = nil
    /// Hover text (none when empty: thousands of dots would bloat the page).
    var title: String = ""
    /// Start a new line segment here (the previous x value had no data).
    var breakBefore = false
}

struct LineSeries: Sendable {
    /// `density`: the points as a 2-D histogram (DensityLayer), for scatters of thousands;
    /// `trace`: a line without a dot per point (a time series of hundreds of ticks).
    enum Style: Sendable { case line, dots, density, trace }
    var name: String
    var color: String
    var points: [LinePoint]
    var style: Style = .line
    /// Left out of the legend (the dots behind a mean line, say).
    var inLegend = true
}

struct LineChart: Sendable {
    enum LegendPlace: Sendable { case right, below }
    var title: String
    var xLabel: String
    var yLabel: String
    var legendTitle: String
    var series: [LineSeries]
    /// The metric cannot be negative (heights, times, counts): the y axis starts at 0 and bands
    /// and bars stop there.
    var nonNegative = false
    var legendPlace = LegendPlace.right
    /// A log-spaced parameter across: a log axis.
    var logX = false
    /// On a log axis, the parameter's swept values (a grid's levels): its ticks.
    var xTicks: [Double] = []
    /// Ranges the axes must cover whatever the data (charts that share one scale; x in data
    /// units, before any log).
    var xDomain: (Double, Double)?
    var yDomain: (Double, Double)?
    var frame = ChartFrame(width: 560, height: 340, left: 62, right: 140, top: 30, bottom: 46)   // room for a 17-character bold legend title

    /// Chart-wide dots only (random sweeps), kept for callers that draw one scatter.
    var scatter: Bool {
        get { series.allSatisfy { $0.style == .dots } }
        set { for i in series.indices { series[i].style = newValue ? .dots : .line } }
    }

    init(title: String, xLabel: String, yLabel: String, legendTitle: String, series: [LineSeries], scatter: Bool = false,
         nonNegative: Bool = false) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.legendTitle = legendTitle
        self.series = series; self.nonNegative = nonNegative
        if scatter { self.scatter = true }
    }

    /// The lower end of a band or bar, clamped at 0 for a metric that cannot be negative.
    func floor(_ v: Double) -> Double { nonNegative ? Swift.max(0, v) : v }

    /// True when some band or bar reached below zero and was cut there.
    var clamped: Bool {
        guard nonNegative else { return false }
        return series.contains { s in s.points.contains { p in (p.lo ?? 0) < 0 || (p.err.map { p.y - $0 } ?? 0) < 0 } }
    }

    /// Groups of line series that coincide: at every x the same set of points, and y within 0.5 %
    /// of the axis span (closer than a line's width). Each group lists series indices, first first.
    /// `yAxis`: `layout()`'s, when the caller has it (a layout walks every point of every series).
    func coincidentGroups(yAxis: NiceAxis? = nil) -> [[Int]] {
        guard series.contains(where: { $0.style == .line && $0.inLegend }) else { return [] }
        let ya = yAxis ?? layout().y
        let tolerance = 0.005 * (ya.hi - ya.lo)
        var groups: [[Int]] = []
        for (i, s) in series.enumerated() where s.style == .line && s.inLegend {
            if let g = groups.firstIndex(where: { g in
                let o = series[g[0]].points
                return o.count == s.points.count && zip(o, s.points).allSatisfy { $0.x == $1.x && abs($0.y - $1.y) <= tolerance }
            }) {
                groups[g].append(i)
            } else {
                groups.append([i])
            }
        }
        return groups
    }

    /// Where a value sits on the x axis: its log10 on a log axis.
    func px(_ x: Double) -> Double { logX ? log10(x) : x }

    /// The axes and the mapping from data to pixels (what `svg()` draws with).
    /// The extremes are folded in one order over the values (every point's x, then the domain's;
    /// every y, lower band end, upper band end, lower and upper error end, then the domain's), as
    /// `min()`/`max()` of those lists in that order would take them, without the lists (copies of
    /// every point, hover text included).
    func layout() -> (x: NiceAxis, y: NiceAxis, xScale: LinearScale, yScale: LinearScale) {
        var xr = Extent(), yr = Extent()
        for se in series { for p in se.points { xr.add(px(p.x)) } }
        if let d = xDomain { xr.add(px(d.0)); xr.add(px(d.1)) }
        for se in series { for p in se.points { yr.add(p.y) } }
        for se in series { for p in se.points { if let lo = p.lo { yr.add(floor(lo)) } } }
        for se in series { for p in se.points { if let hi = p.hi { yr.add(hi) } } }
        for se in series { for p in se.points { if let e = p.err { yr.add(floor(p.y - e)) } } }
        for se in series { for p in se.points { if let e = p.err { yr.add(p.y + e) } } }
        if let d = yDomain { yr.add(d.0); yr.add(d.1) }
        let xa = logX && (xr.min.map { pow(10, $0) > 0 } ?? false)
            ? NiceAxis(logFrom: pow(10, xr.min!), to: pow(10, xr.max!), values: xTicks)
            : NiceAxis(min: xr.min ?? 0, max: xr.max ?? 1)
        let ya = NiceAxis(min: Swift.min(0, yr.min ?? 0), max: yr.max ?? 1)
        let f = frame
        return (xa, ya, LinearScale(domain: (xa.lo, xa.hi), range: (f.plotLeft, f.plotRight)),
                LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop)))
    }

    /// The least and greatest finite values seen, each the first of its equals (as `min()`/`max()`).
    struct Extent {
        var min: Double?, max: Double?
        mutating func add(_ v: Double) {
            guard v.isFinite else { return }
            if let m = min { if v < m { min = v } } else { min = v }
            if let m = max { if m < v { max = v } } else { max = v }
        }
    }

    /// Runs of points without a gap between them.
    static func segments(_ points: [LinePoint]) -> [[LinePoint]] {
        var out: [[LinePoint]] = []
        for p in points {
            if p.breakBefore || out.isEmpty { out.append([p]) } else { out[out.count - 1].append(p) }
        }
        return out
    }

    /// Legend entries: one per group of coinciding lines ("0.5, 1, 2 coincide"), one per dot series.
    /// `groups`: `coincidentGroups()`, when the caller has them.
    func legendEntries(groups known: [[Int]]? = nil) -> [(String, String)] {
        var out: [(String, String)] = []
        let groups = known ?? coincidentGroups()
        var done = Set<Int>()
        for (i, s) in series.enumerated() where s.inLegend && !done.contains(i) {
            if let g = groups.first(where: { $0.contains(i) }), g.count > 1 {
                out.append((g.map { series[$0].name }.joined(separator: ", ") + " coincide", s.color))
                done.formUnion(g)
            } else {
                out.append((s.name, s.color))
            }
        }
        return out
    }

    func svg() -> String {
        let f = frame
        let (xa, ya, xs, ys) = layout()
        var s = SVGKit.open(f, label: title, y0: ys.map(0)) + SVGKit.title(f, title)
        s += SVGKit.axes(f, x: xa, y: ya, xScale: xs, yScale: ys, xLabel: xLabel, yLabel: yLabel)
        // Dots behind everything, then bands, then lines: every line stays visible.
        let groups = coincidentGroups(yAxis: ya)
        let hidden = Set(groups.flatMap { $0.dropFirst() })
        for se in series where se.style == .density {
            // On a log axis the layer bins the logarithms, as the axis spaces them.
            let pts = logX ? se.points.map { p in var q = p; q.x = px(p.x); return q } : se.points
            s += DensityLayer.svg(pts, xScale: xs, yScale: ys, frame: f, color: se.color)
        }
        for se in series where se.style == .dots {
            let many = se.points.count > 300
            let spread = ScatterJitter(pixels: se.points.map { xs.map(px($0.x)) })
            let opacity = Text.px(spread.opacity(base: many ? 0.35 : 0.7))
            // Colour and opacity once on the group, which every dot inherits (per dot they were
            // a third of a scatter's bytes).
            s += "<g class=\"series\" data-series=\"\(HTML.escape(se.name))\" data-jitter=\"\(Text.px(spread.width))\" fill=\"\(se.color)\" fill-opacity=\"\(opacity)\">\n"
            var out = TextBuffer(capacity: se.points.count * 60)
            for (i, p) in se.points.enumerated() {
                out.raw("<circle class=\"pt\" cx=\""); out.px(xs.map(px(p.x)) + spread.offset(i)); out.raw("\" cy=\""); out.px(ys.map(p.y))
                out.raw(many ? "\" r=\"1.6\"" : "\" r=\"2.5\"")
                if p.title.isEmpty { out.raw("/>\n") } else { out.raw("><title>"); out.text(HTML.escape(p.title)); out.raw("</title></circle>\n") }
            }
            s += out.string
            s += "</g>\n"
        }
        for (i, se) in series.enumerated() where se.style == .line && !hidden.contains(i) {
            for segment in Self.segments(se.points) {
                let band = segment.filter { $0.lo != nil && $0.hi != nil }
                guard band.count >= 2 else { continue }
                let upper = band.map { "\(Text.px(xs.map(px($0.x)))),\(Text.px(ys.map($0.hi!)))" }
                let lower = band.reversed().map { "\(Text.px(xs.map(px($0.x)))),\(Text.px(ys.map(floor($0.lo!))))" }
                s += "<polygon class=\"band\" fill=\"\(se.color)\" points=\"\((upper + lower).joined(separator: " "))\"/>\n"
            }
        }
        for se in series where se.style == .trace {
            s += "<g class=\"series\" data-series=\"\(HTML.escape(se.name))\">\n"
            for segment in Self.segments(se.points) where segment.count >= 2 {
                let path = segment.map { "\(Text.px(xs.map(px($0.x)))),\(Text.px(ys.map($0.y)))" }.joined(separator: " ")
                s += "<polyline class=\"line\" stroke=\"\(se.color)\" points=\"\(path)\"><title>\(HTML.escape(se.name))</title></polyline>\n"
            }
            s += "</g>\n"
        }
        for (i, se) in series.enumerated() where se.style == .line && !hidden.contains(i) {
            s += "<g class=\"series\" data-series=\"\(HTML.escape(se.name))\">\n"
            for segment in Self.segments(se.points) where segment.count >= 2 {
                let path = segment.map { "\(Text.px(xs.map(px($0.x)))),\(Text.px(ys.map($0.y)))" }.joined(separator: " ")
                s += "<polyline class=\"line\" stroke=\"\(se.color)\" points=\"\(path)\"/>\n"
            }
            // Dense lines: small dots and no error bars (the band still shows the spread).
            let dense = se.points.count > 25
            var out = TextBuffer(capacity: se.points.count * 100)
            for p in se.points {
                let cx = xs.map(px(p.x)), cy = ys.map(p.y)
                if !dense, let e = p.err, e > 0 {
                    out.raw("<line class=\"err\" stroke=\""); out.text(se.color)
                    out.raw("\" x1=\""); out.px(cx); out.raw("\" x2=\""); out.px(cx)
                    out.raw("\" y1=\""); out.px(ys.map(floor(p.y - e))); out.raw("\" y2=\""); out.px(ys.map(p.y + e)); out.raw("\"/>")
                }
                out.raw("<circle class=\"pt\" cx=\""); out.px(cx); out.raw("\" cy=\""); out.px(cy)
                out.raw(dense ? "\" r=\"1.5\" fill=\"" : "\" r=\"3\" fill=\""); out.text(se.color); out.raw("\">")
                if p.title.isEmpty { out.raw("</circle>\n") } else { out.raw("<title>"); out.text(HTML.escape(p.title)); out.raw("</title></circle>\n") }
            }
            s += out.string
            s += "</g>\n"
        }
        let entries = legendEntries(groups: groups)
        if entries.count > 1 || !legendTitle.isEmpty {
            let marker = series.filter(\.inLegend).allSatisfy { $0.style == .dots }
            s += legendPlace == .right ? SVGKit.legend(f, title: legendTitle, entries: entries, marker: marker)
                : SVGKit.legendBelow(f, title: legendTitle, entries: entries, marker: marker)
        }
        return s + "</svg>\n"
    }
}
