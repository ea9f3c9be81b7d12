// A grid of coloured cells over two swept axes (each value one column or row), with the value in
// the cell when it fits, on hover always, and a colour-scale legend.

struct Heatmap: Sendable {
    var title: String
    var xLabel: String
    var yLabel: String
    var valueLabel: String
    var xValues: [Double]
    var yValues: [Double]
    /// cells[row][column], row = index into yValues; nil where there is no value.
    var cells: [[Double?]]
    /// Hover text per cell (same shape as `cells`).
    var titles: [[String]]
    /// Unique within the page (the legend's gradient id).
    var id: String
    var frame = ChartFrame(width: 540, height: 340, left: 62, right: 110, top: 30, bottom: 46)

    var range: (Double, Double) {
        let v = cells.flatMap { $0 }.compactMap { $0 }.filter(\.isFinite)
        return (v.min() ?? 0, v.max() ?? 1)
    }

    func svg() -> String {
        let f = frame
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        let nx = max(1, xValues.count), ny = max(1, yValues.count)
        let cw = (f.plotRight - f.plotLeft) / Double(nx), ch = (f.plotBottom - f.plotTop) / Double(ny)
        let (lo, hi) = range
        let t: (Double) -> Double = { hi > lo ? ($0 - lo) / (hi - lo) : 0.5 }
        let showValues = cw >= 22 && ch >= 14
        for (r, row) in cells.enumerated() {
            // Row 0 (the smallest y value) at the bottom, as on a numeric axis.
            let y = f.plotBottom - Double(r + 1) * ch
            for (c, v) in row.enumerated() {
                let x = f.plotLeft + Double(c) * cw
                let fill = v.map { Palette.sequential(t($0)) } ?? "#eeeeee"
                s += "<rect class=\"cell\" x=\"\(Text.px(x))\" y=\"\(Text.px(y))\" width=\"\(Text.px(cw + 0.5))\" height=\"\(Text.px(ch + 0.5))\" fill=\"\(fill)\">"
                s += "<title>\(Text.escape(titles[r][c]))</title></rect>"
                if showValues, let v {
                    s += "<text class=\"cv\" x=\"\(Text.px(x + cw / 2))\" y=\"\(Text.px(y + ch / 2))\" fill=\"\(Palette.textOn(t(v)))\" text-anchor=\"middle\" dominant-baseline=\"middle\">\(Text.escape(Text.short(v)))</text>"
                }
                s += "\n"
            }
        }
        // Category ticks: thin out so that labels never overlap.
        let xStride = max(1, Int((Double(nx) * 44 / (f.plotRight - f.plotLeft)).rounded(.up)))
        for (c, v) in xValues.enumerated() where c % xStride == 0 {
            let x = f.plotLeft + (Double(c) + 0.5) * cw
            s += "<text class=\"tick\" x=\"\(Text.px(x))\" y=\"\(Text.px(f.plotBottom + 16))\" text-anchor=\"middle\">\(Text.escape(Text.short(v)))</text>\n"
        }
        let yStride = max(1, Int((Double(ny) * 16 / (f.plotBottom - f.plotTop)).rounded(.up)))
        for (r, v) in yValues.enumerated() where r % yStride == 0 {
            let y = f.plotBottom - (Double(r) + 0.5) * ch
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft - 6))\" y=\"\(Text.px(y))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Text.escape(Text.short(v)))</text>\n"
        }
        s += "<rect class=\"frame\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(f.plotTop))\" width=\"\(Text.px(f.plotRight - f.plotLeft))\" height=\"\(Text.px(f.plotBottom - f.plotTop))\"/>\n"
        s += SVGKit.axisLabels(f, xLabel: xLabel, yLabel: yLabel)
        s += legend(lo: lo, hi: hi)
        return s + "</svg>\n"
    }

    /// A vertical gradient bar from the lowest value (bottom) to the highest (top).
    private func legend(lo: Double, hi: Double) -> String {
        let f = frame
        let x = f.plotRight + 16, top = f.plotTop + 18, h = f.plotBottom - f.plotTop - 18
        var s = "<defs><linearGradient id=\"\(id)\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        for i in 0...8 {
            let t = Double(i) / 8
            s += "<stop offset=\"\(Text.px(t))\" stop-color=\"\(Palette.sequential(t))\"/>"
        }
        s += "</linearGradient></defs>\n"
        s += "<text class=\"lgt\" x=\"\(Text.px(x))\" y=\"\(Text.px(f.plotTop + 6))\">\(Text.escape(Text.shorten(valueLabel, to: 14)))<title>\(Text.escape(valueLabel))</title></text>\n"
        s += "<rect x=\"\(Text.px(x))\" y=\"\(Text.px(top))\" width=\"14\" height=\"\(Text.px(h))\" fill=\"url(#\(id))\" stroke=\"#888\" stroke-width=\"0.5\"/>\n"
        let axis = NiceAxis(min: lo, max: hi, count: 4)
        let scale = LinearScale(domain: (lo, hi), range: (top + h, top))
        for v in axis.ticks where v >= lo - 1e-12 && v <= hi + 1e-12 {
            let y = scale.map(v)
            s += "<line x1=\"\(Text.px(x + 14))\" x2=\"\(Text.px(x + 18))\" y1=\"\(Text.px(y))\" y2=\"\(Text.px(y))\" stroke=\"#555\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(x + 21))\" y=\"\(Text.px(y))\" dominant-baseline=\"middle\">\(Text.escape(axis.label(v)))</text>\n"
        }
        return s
    }
}
