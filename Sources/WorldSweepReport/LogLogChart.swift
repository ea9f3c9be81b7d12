// A line chart with both axes logarithmic (decade ticks), for quantities that span orders of
// magnitude: `worldsweep bench` draws world-ticks per second against world counts with it. Public,
// with the page style and escaping, so other modules can build small offline pages of their own.
import Foundation
import WorldSweepResults

public struct LogChartPoint: Sendable {
    public var x: Double
    public var y: Double
    /// Hover text.
    public var title: String
    public init(x: Double, y: Double, title: String = "") { self.x = x; self.y = y; self.title = title }
}

public struct LogChartSeries: Sendable {
    public var name: String
    public var color: String
    /// An SVG `stroke-dasharray` ("6 4"), or nil for a solid line.
    public var dash: String?
    public var points: [LogChartPoint]
    public init(name: String, color: String, dash: String? = nil, points: [LogChartPoint]) {
        self.name = name; self.color = color; self.dash = dash; self.points = points
    }
}

/// Decade ticks (with 2× and 5× when the axis spans two decades or fewer) over [min, max] > 0.
struct LogAxis: Sendable {
    /// log10 of the axis ends.
    var lo: Double
    var hi: Double
    var ticks: [Double]

    init(min a: Double, max b: Double) {
        var lo = floor(log10(a.isFinite && a > 0 ? a : 1))
        var hi = ceil(log10(b.isFinite && b > 0 ? b : 10))
        if hi <= lo { hi = lo + 1 }
        if !lo.isFinite || !hi.isFinite { lo = 0; hi = 1 }
        self.lo = lo; self.hi = hi
        let minor = hi - lo <= 2
        var t: [Double] = []
        var e = lo
        while e <= hi {
            let decade = pow(10, e)
            t.append(decade)
            if minor && e < hi { t += [2 * decade, 5 * decade] }
            e += 1
        }
        ticks = t
    }

    /// 1, 20, 500, 1k, 2M, 10G.
    static func label(_ v: Double) -> String {
        for (scale, suffix) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] where v >= scale {
            return Text.short(v / scale) + suffix
        }
        return Text.short(v)
    }
}

public struct LogLogChart: Sendable {
    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var legendTitle: String
    public var series: [LogChartSeries]

    public init(title: String, xLabel: String, yLabel: String, legendTitle: String, series: [LogChartSeries]) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.legendTitle = legendTitle; self.series = series
    }

    /// Taller when the legend needs the room.
    var frame: ChartFrame {
        ChartFrame(width: 760, height: max(400, 30 + 30 + Double(series.count) * 18 + 20), left: 70, right: 170, top: 30, bottom: 46)
    }

    /// Points that a log axis can show.
    static func plotted(_ points: [LogChartPoint]) -> [LogChartPoint] {
        points.filter { $0.x > 0 && $0.y > 0 && $0.x.isFinite && $0.y.isFinite }
    }

    public func svg() -> String {
        let f = frame
        let pts = series.flatMap { Self.plotted($0.points) }
        let xa = LogAxis(min: pts.map(\.x).min() ?? 1, max: pts.map(\.x).max() ?? 10)
        let ya = LogAxis(min: pts.map(\.y).min() ?? 1, max: pts.map(\.y).max() ?? 10)
        let xs = LinearScale(domain: (xa.lo, xa.hi), range: (f.plotLeft, f.plotRight))
        let ys = LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop))
        func px(_ p: LogChartPoint) -> (Double, Double) { (xs.map(log10(p.x)), ys.map(log10(p.y))) }

        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title) + "<g class=\"axes\">\n"
        for t in ya.ticks {
            let y = Text.px(ys.map(log10(t)))
            s += "<line class=\"grid\" x1=\"\(Text.px(f.plotLeft))\" x2=\"\(Text.px(f.plotRight))\" y1=\"\(y)\" y2=\"\(y)\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft - 6))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(HTML.escape(LogAxis.label(t)))</text>\n"
        }
        for t in xa.ticks {
            let x = Text.px(xs.map(log10(t)))
            s += "<line class=\"grid\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(Text.px(f.plotTop))\" y2=\"\(Text.px(f.plotBottom))\"/>"
            s += "<text class=\"tick\" x=\"\(x)\" y=\"\(Text.px(f.plotBottom + 16))\" text-anchor=\"middle\">\(HTML.escape(LogAxis.label(t)))</text>\n"
        }
        s += "<rect class=\"frame\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(f.plotTop))\" width=\"\(Text.px(f.plotRight - f.plotLeft))\" height=\"\(Text.px(f.plotBottom - f.plotTop))\"/>\n"
        s += SVGKit.axisLabels(f, xLabel: xLabel, yLabel: yLabel) + "</g>\n"

        for se in series {
            let points = Self.plotted(se.points).sorted { $0.x < $1.x }
            let dash = se.dash.map { " stroke-dasharray=\"\(HTML.escape($0))\"" } ?? ""
            s += "<g class=\"series\" data-series=\"\(HTML.escape(se.name))\">\n"
            if points.count >= 2 {
                let path = points.map { let (x, y) = px($0); return "\(Text.px(x)),\(Text.px(y))" }.joined(separator: " ")
                s += "<polyline class=\"line\" stroke=\"\(se.color)\"\(dash) points=\"\(path)\"/>\n"
            }
            for p in points {
                let (x, y) = px(p)
                s += "<circle class=\"pt\" cx=\"\(Text.px(x))\" cy=\"\(Text.px(y))\" r=\"3\" fill=\"\(se.color)\">"
                s += "<title>\(HTML.escape(p.title))</title></circle>\n"
            }
            s += "</g>\n"
        }

        // Legend: a short line in each series' colour and dash.
        let lx = f.plotRight + 14
        s += "<g class=\"legend\"><text class=\"lgt\" x=\"\(Text.px(lx))\" y=\"\(Text.px(f.plotTop + 4))\">\(HTML.escape(Text.shorten(legendTitle, to: 22)))<title>\(HTML.escape(legendTitle))</title></text>\n"
        for (i, se) in series.enumerated() {
            let y = f.plotTop + 22 + Double(i) * 18
            let dash = se.dash.map { " stroke-dasharray=\"\(HTML.escape($0))\"" } ?? ""
            s += "<line class=\"line\" stroke=\"\(se.color)\"\(dash) x1=\"\(Text.px(lx))\" x2=\"\(Text.px(lx + 24))\" y1=\"\(Text.px(y - 4))\" y2=\"\(Text.px(y - 4))\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(lx + 30))\" y=\"\(Text.px(y))\">\(HTML.escape(Text.shorten(se.name, to: 20)))<title>\(HTML.escape(se.name))</title></text>\n"
        }
        return s + "</g>\n</svg>\n"
    }
}

/// The report pages' building blocks, for pages made outside this module.
public enum ReportKit {
    /// Escapes text for a Markdown table cell.
    public static func markdownCell(_ s: String) -> String { Text.markdownCell(s) }
    /// The i-th categorical colour.
    public static func color(_ i: Int) -> String { Palette.color(i) }
    /// Colours grouped in families: family f's hue (the f-th categorical colour), from dark (step 0)
    /// to light (the last of `count` steps), so that lines of one family read as one group.
    public static func shade(family f: Int, step k: Int, of count: Int) -> String { Palette.shade(family: f, step: k, of: count) }
    /// A large count with thin-space digit groups (1 200 000).
    public static func grouped(_ x: Double) -> String { Text.grouped(x) }
}
