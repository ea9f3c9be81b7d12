// The ranked parameter-importance chart (Optuna's plot_param_importances is the model).
import WorldSweepResults

/// Ranked horizontal bars: each parameter's share of a metric's variation, largest first, the
/// parameter's name above its bar so that the chart reads on a narrow screen. A bar's note (the
/// shape the parameter gives the metric) wraps onto lines of its own under the name: never cut.
struct ImportanceChart: Sendable {
    struct Bar: Sendable { var label: String; var share: Double; var note: String; var color: String }
    var title: String
    var bars: [Bar]
    var width = 360.0

    /// Characters a line of the 12 px note holds across the chart (about 7.2 px each, DejaVu Sans).
    var noteLine: Int { max(12, Int((width - 8 - 12) / 7.2)) }

    /// Each bar's text lines: its label (with the note when both fit on one line), then the
    /// note's lines.
    func lines(_ b: Bar) -> (label: String, note: [String]) {
        let together = b.label + " " + b.note
        if b.note.isEmpty || Double(together.count) * 7.5 <= width - 20 { return (b.label, b.note.isEmpty ? [] : [b.note]) }
        return (b.label, Text.wrap(b.note, width: noteLine))
    }

    private func rowHeight(_ b: Bar) -> Double {
        let l = lines(b)
        let oneLine = l.note.count == 1 && Double((b.label + " " + b.note).count) * 7.5 <= width - 20
        return 40 + (oneLine ? 0 : 15 * Double(l.note.count))
    }

    var frame: ChartFrame {
        ChartFrame(width: width, height: 30 + bars.reduce(0) { $0 + rowHeight($1) } + 34, left: 8, right: 52, top: 30, bottom: 34)
    }

    func svg() -> String {
        let f = frame
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        let scale = LinearScale(domain: (0, 1), range: (f.plotLeft, f.plotRight))
        var y = f.plotTop
        for b in bars {
            let l = lines(b), h = rowHeight(b)
            let share = ReportModel.percent(b.share)
            if h == 40 {
                s += "<text class=\"lbl\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(y + 13))\">\(HTML.escape(b.label))<tspan class=\"tick\"> \(HTML.escape(l.note.first ?? ""))</tspan></text>\n"
            } else {
                s += "<text class=\"lbl\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(y + 13))\">\(HTML.escape(b.label))</text>\n"
                for (k, line) in l.note.enumerated() {
                    s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(y + 28 + 15 * Double(k)))\">\(HTML.escape(line))</text>\n"
                }
            }
            let barY = y + h - 21
            let w = max(1, scale.map(b.share) - f.plotLeft)
            s += "<rect class=\"bar\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(barY))\" width=\"\(Text.px(w))\" height=\"14\" fill=\"\(b.color)\"><title>\(HTML.escape("\(b.label): \(share) of the variation\(b.note.isEmpty ? "" : "; " + b.note)"))</title></rect>"
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft + w + 4))\" y=\"\(Text.px(barY + 11))\">\(HTML.escape(share))</text>\n"
            y += h
        }
        let base = y
        s += "<line x1=\"\(Text.px(f.plotLeft))\" x2=\"\(Text.px(f.plotRight))\" y1=\"\(Text.px(base))\" y2=\"\(Text.px(base))\" stroke=\"#999\"/>\n"
        for v in [0.0, 0.5, 1.0] {
            s += "<text class=\"tick\" x=\"\(Text.px(scale.map(v)))\" y=\"\(Text.px(base + 15))\" text-anchor=\"\(v == 0 ? "start" : v == 1 ? "end" : "middle")\">\(Int(v * 100)) %</text>\n"
        }
        s += "<text class=\"lbl\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(base + 31))\">share of the variation over the points</text>\n"
        return s + "</svg>\n"
    }
}
