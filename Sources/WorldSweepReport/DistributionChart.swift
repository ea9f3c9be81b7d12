// How a metric spreads over replicas: a whisker per sweep point (min–max line, mean ± std box,
// mean dot), and a histogram of the sampled worlds' values.

struct Whisker: Sendable {
    var label: String
    var min: Double
    var max: Double
    var mean: Double
    var std: Double
    var title: String
}

struct WhiskerChart: Sendable {
    var title: String
    var xLabel: String
    var yLabel: String
    var whiskers: [Whisker]
    var color = Palette.color(0)
    var frame = ChartFrame(width: 540, height: 340, left: 62, right: 20, top: 30, bottom: 46)

    func svg() -> String {
        let f = frame
        let ys = whiskers.flatMap { [$0.min, $0.max, $0.mean - $0.std, $0.mean + $0.std] }.filter(\.isFinite)
        let ya = NiceAxis(min: Swift.min(0, ys.min() ?? 0), max: ys.max() ?? 1)
        let ysc = LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop))
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title) + "<g class=\"axes\">\n"
        for t in ya.ticks {
            let py = Text.px(ysc.map(t))
            s += "<line class=\"grid\" x1=\"\(Text.px(f.plotLeft))\" x2=\"\(Text.px(f.plotRight))\" y1=\"\(py)\" y2=\"\(py)\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft - 6))\" y=\"\(py)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Text.escape(ya.label(t)))</text>\n"
        }
        let n = Swift.max(1, whiskers.count)
        let cw = (f.plotRight - f.plotLeft) / Double(n)
        let stride = Swift.max(1, Int((Double(n) * 34 / (f.plotRight - f.plotLeft)).rounded(.up)))
        let box = Swift.max(2, Swift.min(14, cw * 0.6))
        for (i, w) in whiskers.enumerated() {
            let cx = f.plotLeft + (Double(i) + 0.5) * cw
            s += "<g class=\"whisker\"><title>\(Text.escape(w.title))</title>"
            s += "<line stroke=\"#555\" x1=\"\(Text.px(cx))\" x2=\"\(Text.px(cx))\" y1=\"\(Text.px(ysc.map(w.min)))\" y2=\"\(Text.px(ysc.map(w.max)))\"/>"
            let top = ysc.map(w.mean + w.std), bottom = ysc.map(w.mean - w.std)
            s += "<rect fill=\"\(color)\" fill-opacity=\"0.45\" stroke=\"\(color)\" x=\"\(Text.px(cx - box / 2))\" y=\"\(Text.px(top))\" width=\"\(Text.px(box))\" height=\"\(Text.px(Swift.max(1, bottom - top)))\"/>"
            s += "<circle cx=\"\(Text.px(cx))\" cy=\"\(Text.px(ysc.map(w.mean)))\" r=\"2.5\" fill=\"#222\"/></g>\n"
            if i % stride == 0 {
                s += "<text class=\"tick\" x=\"\(Text.px(cx))\" y=\"\(Text.px(f.plotBottom + 16))\" text-anchor=\"middle\">\(Text.escape(w.label))</text>\n"
            }
        }
        s += "<rect class=\"frame\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(f.plotTop))\" width=\"\(Text.px(f.plotRight - f.plotLeft))\" height=\"\(Text.px(f.plotBottom - f.plotTop))\"/>\n"
        s += SVGKit.axisLabels(f, xLabel: xLabel, yLabel: yLabel)
        return s + "</g></svg>\n"
    }
}

struct Histogram: Sendable {
    var title: String
    var xLabel: String
    var values: [Double]
    var bins = 20
    var color = Palette.color(1)
    var frame = ChartFrame(width: 540, height: 340, left: 62, right: 20, top: 30, bottom: 46)

    /// Bin edges over the nice x axis and the count in each bin.
    func counts() -> (axis: NiceAxis, edges: [Double], counts: [Int]) {
        let v = values.filter(\.isFinite)
        let xa = NiceAxis(min: v.min() ?? 0, max: v.max() ?? 1)
        let w = (xa.hi - xa.lo) / Double(bins)
        let edges = (0...bins).map { xa.lo + Double($0) * w }
        var c = Array(repeating: 0, count: bins)
        for x in v { c[Swift.min(bins - 1, Swift.max(0, Int((x - xa.lo) / w)))] += 1 }
        return (xa, edges, c)
    }

    func svg() -> String {
        let f = frame
        let (xa, edges, c) = counts()
        let ya = NiceAxis(min: 0, max: Double(Swift.max(1, c.max() ?? 1)), count: 4)
        let xs = LinearScale(domain: (xa.lo, xa.hi), range: (f.plotLeft, f.plotRight))
        let ys = LinearScale(domain: (ya.lo, ya.hi), range: (f.plotBottom, f.plotTop))
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        s += SVGKit.axes(f, x: xa, y: ya, xScale: xs, yScale: ys, xLabel: xLabel, yLabel: "worlds (count)")
        for (i, n) in c.enumerated() where n > 0 {
            let x0 = xs.map(edges[i]), x1 = xs.map(edges[i + 1]), y = ys.map(Double(n))
            s += "<rect fill=\"\(color)\" stroke=\"#fff\" stroke-width=\"0.5\" x=\"\(Text.px(x0))\" y=\"\(Text.px(y))\" width=\"\(Text.px(x1 - x0))\" height=\"\(Text.px(f.plotBottom - y))\">"
            s += "<title>\(Text.escape("\(Text.value(edges[i])) – \(Text.value(edges[i + 1])): \(n) worlds"))</title></rect>\n"
        }
        return s + "</svg>\n"
    }
}
