// A grid of coloured cells over two swept axes (each value one column or row), with the value in
// the cell when it fits, on hover always, and a colour-scale legend. Counts get discrete steps of
// whole numbers from 0, so 2 against 3 contacts are neighbouring colours, not the scale's ends;
// other metrics that cannot be negative run from 0 as well.
import WorldSweepResults

struct Heatmap: Sendable {
    var title: String
    var xLabel: String
    var yLabel: String
    var valueLabel: String
    var xValues: [Double]
    var yValues: [Double]
    /// cells[row][column], row = index into yValues; nil where there is no value.
    var cells: [[Double?]]
    /// Writes the hover text of the cell at (row, column), escaped, into the chart's bytes (a pair
    /// map's texts share most of their parts, so no String is made per cell). `titles(_:)` writes
    /// given texts.
    var writeTitle: @Sendable (_ row: Int, _ column: Int, _ out: inout TextBuffer) -> Void
    /// Unique within the page (the legend's gradient id).
    var id: String
    /// Values are counts: discrete steps of whole numbers.
    var integerSteps = false
    /// The metric cannot be negative: the scale starts at 0.
    var nonNegative = false
    /// One colour scale for every map of a metric: the range over all of them (nil: this map's own).
    var sharedRange: (Double, Double)?
    /// Per cell (same shape as `cells`), for a metric worlds can lack: the share of worlds without
    /// a value. Hatched where it is at least a half, a corner mark where it is above 0.
    var never: [[Double?]] = []
    var frame = ChartFrame(width: 540, height: 340, left: 62, right: 110, top: 30, bottom: 46)

    /// A `writeTitle` of given hover texts (same shape as `cells`).
    static func titles(_ texts: [[String]]) -> @Sendable (Int, Int, inout TextBuffer) -> Void {
        { r, c, out in out.escaped(texts[r][c]) }
    }

    var range: (Double, Double) {
        let v = cells.flatMap { $0 }.compactMap { $0 }.filter(\.isFinite)
        var lo = sharedRange?.0 ?? v.min() ?? 0, hi = sharedRange?.1 ?? v.max() ?? 1
        if nonNegative || integerSteps { lo = Swift.min(0, lo) }
        if integerSteps { lo = lo.rounded(.down); hi = Swift.max(lo + 1, hi.rounded(.up)) }
        return (lo, hi)
    }

    /// Discrete levels for counts: lo, lo + w, … up to hi, w a whole number (1, 2, 5, 10 …) so
    /// that there are at most 11 levels; a cell takes the colour of the level nearest its value.
    var steps: [Double]? {
        guard integerSteps else { return nil }
        let (lo, hi) = range
        var w = 1.0, magnitude = 1.0, k = 0
        while (hi - lo) / w > 10 {
            k += 1
            if k == 3 { k = 0; magnitude *= 10 }
            w = [1.0, 2, 5][k] * magnitude
        }
        var levels = [lo]
        while levels.last! < hi { levels.append(levels.last! + w) }
        return levels
    }

    /// Position on the colour scale (0…1) of a value: its nearest level's colour for counts.
    func scalePosition(_ v: Double) -> Double { Self.scalePosition(v, range: range, steps: steps) }

    /// The same, with `range` and `steps` worked out once by the caller (each walks every cell:
    /// asking them per cell made drawing a map quadratic in its cells).
    static func scalePosition(_ v: Double, range: (Double, Double), steps: [Double]?) -> Double {
        let (lo, hi) = range
        if let e = steps {
            let w = e.count > 1 ? e[1] - e[0] : 1
            let k = Swift.max(0, Swift.min(e.count - 1, Int(((v - e[0]) / w).rounded())))
            return Palette.step(k, of: e.count)
        }
        return hi > lo ? (v - lo) / (hi - lo) : 0.5
    }

    func svg() -> String {
        let f = frame
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        let nx = max(1, xValues.count), ny = max(1, yValues.count)
        let cw = (f.plotRight - f.plotLeft) / Double(nx), ch = (f.plotBottom - f.plotTop) / Double(ny)
        let range = self.range, steps = self.steps
        let (lo, hi) = range
        let t: (Double) -> Double = { Self.scalePosition($0, range: range, steps: steps) }
        let showValues = cw >= 22 && ch >= 14
        var out = TextBuffer(capacity: nx * ny * 260)
        if !never.isEmpty {
            out.raw("<defs><pattern id=\""); out.text(id); out.raw("-h\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
            out.raw("<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#fff\" stroke-width=\"2.2\" stroke-opacity=\"0.85\"/></pattern></defs>\n")
        }
        for (r, row) in cells.enumerated() {
            // Row 0 (the smallest y value) at the bottom, as on a numeric axis.
            let y = f.plotBottom - Double(r + 1) * ch
            for (c, v) in row.enumerated() {
                let x = f.plotLeft + Double(c) * cw
                out.raw("<rect class=\"cell\" x=\""); out.px(x); out.raw("\" y=\""); out.px(y)
                out.raw("\" width=\""); out.px(cw + 0.5); out.raw("\" height=\""); out.px(ch + 0.5)
                out.raw("\" fill=\""); out.text(v.map { Palette.sequential(t($0)) } ?? "#eeeeee"); out.raw("\">")
                out.raw("<title>")
                writeTitle(r, c, &out)
                out.raw("</title></rect>")
                if let n = never[safe: r]?[safe: c] ?? nil, n > 0 {
                    if n >= 0.5 {
                        out.raw("<rect x=\""); out.px(x); out.raw("\" y=\""); out.px(y); out.raw("\" width=\""); out.px(cw)
                        out.raw("\" height=\""); out.px(ch); out.raw("\" fill=\"url(#"); out.text(id); out.raw("-h)\" pointer-events=\"none\"/>")
                    } else {
                        out.raw("<path d=\"M"); out.px(x + cw); out.raw(" "); out.px(y); out.raw("h-"); out.px(min(cw, ch) * 0.4)
                        out.raw("l"); out.px(min(cw, ch) * 0.4); out.raw(" "); out.px(min(cw, ch) * 0.4); out.raw("z\" fill=\"#222\" pointer-events=\"none\"/>")
                    }
                }
                if showValues, let v {
                    out.raw("<text class=\"cv\" x=\""); out.px(x + cw / 2); out.raw("\" y=\""); out.px(y + ch / 2)
                    out.raw("\" fill=\""); out.text(Palette.textOn(t(v)))
                    out.raw("\" text-anchor=\"middle\" dominant-baseline=\"middle\">"); out.text(HTML.escape(Text.short(v))); out.raw("</text>")
                }
                out.raw("\n")
            }
        }
        s += out.string
        // Category ticks: thin out so that labels never overlap.
        let xStride = max(1, Int((Double(nx) * 44 / (f.plotRight - f.plotLeft)).rounded(.up)))
        for (c, v) in xValues.enumerated() where c % xStride == 0 {
            let x = f.plotLeft + (Double(c) + 0.5) * cw
            s += "<text class=\"tick\" x=\"\(Text.px(x))\" y=\"\(Text.px(f.plotBottom + 16))\" text-anchor=\"middle\">\(HTML.escape(Text.short(v)))</text>\n"
        }
        let yStride = max(1, Int((Double(ny) * 16 / (f.plotBottom - f.plotTop)).rounded(.up)))
        for (r, v) in yValues.enumerated() where r % yStride == 0 {
            let y = f.plotBottom - (Double(r) + 0.5) * ch
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft - 6))\" y=\"\(Text.px(y))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(HTML.escape(Text.short(v)))</text>\n"
        }
        s += "<rect class=\"frame\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(f.plotTop))\" width=\"\(Text.px(f.plotRight - f.plotLeft))\" height=\"\(Text.px(f.plotBottom - f.plotTop))\"/>\n"
        s += SVGKit.axisLabels(f, xLabel: xLabel, yLabel: yLabel)
        s += legend(lo: lo, hi: hi, steps: steps)
        return s + "</svg>\n"
    }

    /// A vertical colour bar from the lowest value (bottom) to the highest (top): a gradient, or
    /// one block per step for counts.
    private func legend(lo: Double, hi: Double, steps: [Double]?) -> String {
        let f = frame
        let x = f.plotRight + 16, top = f.plotTop + 18, h = f.plotBottom - f.plotTop - 18
        var s = "<text class=\"lgt\" x=\"\(Text.px(x))\" y=\"\(Text.px(f.plotTop + 6))\">\(HTML.escape(Text.shorten(valueLabel, to: 14)))<title>\(HTML.escape(valueLabel))</title></text>\n"
        let scale = LinearScale(domain: (lo, hi), range: (top + h, top))
        if let e = steps {
            // One block per level, its value beside it; the blocks split the bar evenly.
            let block = h / Double(e.count)
            for (k, v) in e.enumerated() {
                let y = top + h - Double(k + 1) * block
                s += "<rect class=\"step\" x=\"\(Text.px(x))\" y=\"\(Text.px(y))\" width=\"14\" height=\"\(Text.px(block))\" fill=\"\(Palette.sequential(Palette.step(k, of: e.count)))\" stroke=\"#fff\" stroke-width=\"0.5\"><title>\(HTML.escape("nearest to \(Text.value(v))"))</title></rect>"
                if k % Swift.max(1, Int((14 / block).rounded(.up))) == 0 || k == e.count - 1 {
                    s += "<text class=\"tick\" x=\"\(Text.px(x + 19))\" y=\"\(Text.px(y + block / 2))\" dominant-baseline=\"middle\">\(HTML.escape(Text.value(v)))</text>"
                }
                s += "\n"
            }
            return s
        }
        s += "<defs><linearGradient id=\"\(id)\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        for i in 0...8 {
            let t = Double(i) / 8
            s += "<stop offset=\"\(Text.px(t))\" stop-color=\"\(Palette.sequential(t))\"/>"
        }
        s += "</linearGradient></defs>\n"
        s += "<rect x=\"\(Text.px(x))\" y=\"\(Text.px(top))\" width=\"14\" height=\"\(Text.px(h))\" fill=\"url(#\(id))\" stroke=\"#888\" stroke-width=\"0.5\"/>\n"
        let axis = NiceAxis(min: lo, max: hi, count: 4)
        for v in axis.ticks where v >= lo - 1e-12 && v <= hi + 1e-12 {
            let y = scale.map(v)
            s += "<line x1=\"\(Text.px(x + 14))\" x2=\"\(Text.px(x + 18))\" y1=\"\(Text.px(y))\" y2=\"\(Text.px(y))\" stroke=\"#555\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(x + 21))\" y=\"\(Text.px(y))\" dominant-baseline=\"middle\">\(HTML.escape(axis.label(v)))</text>\n"
        }
        return s
    }
}
