// Lines (or a scatter) of a metric against one numeric axis, with an optional min–max band per
// point and ±std error bars; one colour per series, legend on the right.

struct LinePoint: Sendable {
    var x: Double
    var y: Double
    /// The band around y (min and max over replicas), when there is one.
    var lo: Double? = nil
    var hi: Double? = nil
    /// ± error bar half-length (standard deviation), when there is one.
    var err: Double? = nil
    /// Hover text.
    var title: String = ""
    /// Start a new line segment here (the previous x value had no data).
    var breakBefore = false
}

struct LineSeries: Sendable {
    var name: String
    var color: String
    var points: [LinePoint]
}

struct LineChart: Sendable {
    var title: String
    var xLabel: String
    var yLabel: String
    var legendTitle: String
    var series: [LineSeries]
    /// Dots only (random sweeps): no lines joining the points.
    var scatter = false
    var frame = ChartFrame(width: 560, height: 340, left: 62, right: 140, top: 30, bottom: 46)   // room for a 17-character bold legend title

    /// The axes and the mapping from data to pixels (what `svg()` draws with).
    func layout() -> (x: NiceAxis, y: NiceAxis, xScale: LinearScale, yScale: LinearScale) {
        let pts = series.flatMap(\.points)
        let xs = pts.map(\.x).filter(\.isFinite)
        var ys = pts.map(\.y).filter(\.isFinite)
        ys += pts.compactMap(\.lo).filter(\.isFinite) + pts.compactMap(\.hi).filter(\.isFinite)
        ys += pts.compactMap { p in p.err.map { p.y - $0 } }.filter(\.isFinite)
        ys += pts.compactMap { p in p.err.map { p.y + $0 } }.filter(\.isFinite)
        let xa = NiceAxis(min: xs.min() ?? 0, max: xs.max() ?? 1)
        let ya = NiceAxis(min: min(0, ys.min() ?? 0), max: ys.max() ?? 1)
        let f = frame
        return (xa, ya, LinearScale(domain: (xa.lo, xa.hi), range: (f.plotLeft, f.plotRight)),
                LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop)))
    }

    /// Runs of points without a gap between them.
    static func segments(_ points: [LinePoint]) -> [[LinePoint]] {
        var out: [[LinePoint]] = []
        for p in points {
            if p.breakBefore || out.isEmpty { out.append([p]) } else { out[out.count - 1].append(p) }
        }
        return out
    }

    func svg() -> String {
        let f = frame
        let (xa, ya, xs, ys) = layout()
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        s += SVGKit.axes(f, x: xa, y: ya, xScale: xs, yScale: ys, xLabel: xLabel, yLabel: yLabel)
        // Bands first, so that every line stays visible on top of them.
        for se in series where !scatter {
            for segment in Self.segments(se.points) {
                let band = segment.filter { $0.lo != nil && $0.hi != nil }
                guard band.count >= 2 else { continue }
                let upper = band.map { "\(Text.px(xs.map($0.x))),\(Text.px(ys.map($0.hi!)))" }
                let lower = band.reversed().map { "\(Text.px(xs.map($0.x))),\(Text.px(ys.map($0.lo!)))" }
                s += "<polygon class=\"band\" fill=\"\(se.color)\" points=\"\((upper + lower).joined(separator: " "))\"/>\n"
            }
        }
        for se in series {
            s += "<g class=\"series\" data-series=\"\(Text.escape(se.name))\">\n"
            for segment in Self.segments(se.points) where !scatter && segment.count >= 2 {
                let path = segment.map { "\(Text.px(xs.map($0.x))),\(Text.px(ys.map($0.y)))" }.joined(separator: " ")
                s += "<polyline class=\"line\" stroke=\"\(se.color)\" points=\"\(path)\"/>\n"
            }
            // Dense lines: small dots and no error bars (the band still shows the spread).
            let dense = !scatter && se.points.count > 25
            let radius = scatter ? "2.5" : dense ? "1.5" : "3"
            for p in se.points {
                let cx = xs.map(p.x), cy = ys.map(p.y)
                if !dense, let e = p.err, e > 0 {
                    s += "<line class=\"err\" stroke=\"\(se.color)\" x1=\"\(Text.px(cx))\" x2=\"\(Text.px(cx))\" y1=\"\(Text.px(ys.map(p.y - e)))\" y2=\"\(Text.px(ys.map(p.y + e)))\"/>"
                }
                s += "<circle class=\"pt\" cx=\"\(Text.px(cx))\" cy=\"\(Text.px(cy))\" r=\"\(radius)\" fill=\"\(se.color)\">"
                s += "<title>\(Text.escape(p.title))</title></circle>\n"
            }
            s += "</g>\n"
        }
        if series.count > 1 || !legendTitle.isEmpty {
            s += SVGKit.legend(f, title: legendTitle, entries: series.map { ($0.name, $0.color) }, marker: scatter)
        }
        return s + "</svg>\n"
    }
}
