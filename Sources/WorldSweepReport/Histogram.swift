// A histogram of one metric over the worlds sampled for the report.
import WorldSweepResults

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
            s += "<title>\(HTML.escape("\(Text.value(edges[i])) – \(Text.value(edges[i + 1])): \(n) worlds"))</title></rect>\n"
        }
        return s + "</svg>\n"
    }
}
