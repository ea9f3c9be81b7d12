// The ranked parameter-importance chart (Optuna's plot_param_importances is the model).
import WorldSweepResults

/// Ranked horizontal bars: each parameter's share of a metric's variation, largest first, the
/// parameter's name above its bar so that the chart reads on a narrow screen.
struct ImportanceChart: Sendable {
    struct Bar: Sendable { var label: String; var share: Double; var note: String; var color: String }
    var title: String
    var bars: [Bar]
    var width = 360.0

    var frame: ChartFrame { ChartFrame(width: width, height: 30 + Double(bars.count) * 40 + 34, left: 8, right: 52, top: 30, bottom: 34) }

    func svg() -> String {
        let f = frame
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        let scale = LinearScale(domain: (0, 1), range: (f.plotLeft, f.plotRight))
        for (i, b) in bars.enumerated() {
            let y = f.plotTop + Double(i) * 40
            // The note is cut to the chart's width (about 7.8 px a character of the 13 px label,
            // 7.2 of the 12 px note, DejaVu Sans); the full text is in the bar's hover title.
            let room = Int((f.width - f.plotLeft - 4 - 7.8 * Double(b.label.count)) / 7.2)
            let note = room >= 6 ? Text.shorten(b.note, to: room) : ""
            s += "<text class=\"lbl\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(y + 13))\">\(HTML.escape(b.label))<tspan class=\"tick\"> \(HTML.escape(note))</tspan></text>\n"
            let w = max(1, scale.map(b.share) - f.plotLeft)
            s += "<rect class=\"bar\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(y + 19))\" width=\"\(Text.px(w))\" height=\"14\" fill=\"\(b.color)\"><title>\(HTML.escape("\(b.label): \(Int((b.share * 100).rounded())) % of the variation\(b.note.isEmpty ? "" : "; " + b.note)"))</title></rect>"
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft + w + 4))\" y=\"\(Text.px(y + 30))\">\(Int((b.share * 100).rounded())) %</text>\n"
        }
        let base = f.plotTop + Double(bars.count) * 40
        s += "<line x1=\"\(Text.px(f.plotLeft))\" x2=\"\(Text.px(f.plotRight))\" y1=\"\(Text.px(base))\" y2=\"\(Text.px(base))\" stroke=\"#999\"/>\n"
        for v in [0.0, 0.5, 1.0] {
            s += "<text class=\"tick\" x=\"\(Text.px(scale.map(v)))\" y=\"\(Text.px(base + 15))\" text-anchor=\"\(v == 0 ? "start" : v == 1 ? "end" : "middle")\">\(Int(v * 100)) %</text>\n"
        }
        s += "<text class=\"lbl\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(base + 31))\">share of the variation over the points</text>\n"
        return s + "</svg>\n"
    }
}
