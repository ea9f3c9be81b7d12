// Parallel coordinates: one vertical axis per swept parameter and one for the metric, each sweep
// point a line through its values, coloured by the metric, so that the combinations that give high
// or low values stand out (for sweeps of three or more axes, and random sweeps). A small inline
// script (ParallelBrush) lets a reader drag a range on any axis to keep only the lines through it;
// without scripts every line shows, and the chart reads the same.
import Foundation
import WorldSweepResults

struct ParallelAxis: Sendable {
    var label: String
    /// One value per line.
    var values: [Double]
    /// A log-spaced or log-uniform parameter: its values placed by their logarithm.
    var log = false
}

struct ParallelCoordinates: Sendable {
    var title: String
    /// Parameters first, the metric last (it colours the lines).
    var axes: [ParallelAxis]
    /// Hover text per line (empty: none).
    var titles: [String] = []
    var frame = ChartFrame(width: 560, height: 340, left: 40, right: 60, top: 52, bottom: 40)

    /// Where a value sits along its axis before scaling: its log10 on a log axis.
    static func position(_ v: Double, _ a: ParallelAxis) -> Double { a.log && v > 0 ? log10(v) : v }

    func scale(_ a: ParallelAxis) -> (NiceAxis, LinearScale) {
        let logs = a.log && a.values.allSatisfy { !$0.isFinite || $0 > 0 }
        let v = a.values.filter(\.isFinite).map { logs ? log10($0) : $0 }
        let axis = logs && !v.isEmpty
            ? NiceAxis(logFrom: pow(10, v.min()!), to: pow(10, v.max()!), values: Array(Set(a.values.filter(\.isFinite))).count <= 12 ? Array(Set(a.values.filter(\.isFinite))) : [], count: 4)
            : NiceAxis(min: v.min() ?? 0, max: v.max() ?? 1, count: 4)
        return (axis, LinearScale(domain: (axis.lo, axis.hi), range: (frame.plotBottom, frame.plotTop)))
    }

    /// The pixel row of a line's value on axis k.
    func y(_ v: Double, axis k: Int, _ scales: [(NiceAxis, LinearScale)]) -> Double {
        scales[k].1.map(scales[k].0.log ? log10(v) : v)
    }

    func svg() -> String {
        let f = frame
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        guard axes.count >= 2, let metric = axes.last else { return s + "</svg>\n" }
        let gap = (f.plotRight - f.plotLeft) / Double(axes.count - 1)
        let xs = axes.indices.map { f.plotLeft + Double($0) * gap }
        let scales = axes.map(scale)
        let mv = metric.values.filter(\.isFinite)
        let (lo, hi) = (mv.min() ?? 0, mv.max() ?? 1)
        let lines = metric.values.count
        // Low values first so the high ones are drawn on top.
        let order = metric.values.indices.sorted { metric.values[$0] < metric.values[$1] }
        let opacity = lines > 500 ? "0.25" : lines > 100 ? "0.45" : "0.8"
        s += "<g class=\"lines\" fill=\"none\" stroke-width=\"1\" stroke-opacity=\"\(opacity)\">\n"
        // The lines as bytes: each point's coordinates interpolated into a String, joined, and the
        // line appended to the page would be most of the chart's work.
        var out = TextBuffer(capacity: order.count * (axes.count * 16 + 64))
        for i in order where axes.allSatisfy({ $0.values[i].isFinite }) {
            let t = hi > lo ? (metric.values[i] - lo) / (hi - lo) : 0.5
            out.raw("<polyline class=\"pc\" stroke=\""); out.text(Palette.sequential(t)); out.raw("\" points=\"")
            for k in axes.indices {
                if k > 0 { out.raw(" ") }
                out.px(xs[k]); out.raw(","); out.px(y(axes[k].values[i], axis: k, scales))
            }
            out.raw("\">")
            if titles.indices.contains(i) && !titles[i].isEmpty { out.raw("<title>"); out.escaped(titles[i]); out.raw("</title>") }
            out.raw("</polyline>\n")
        }
        s += out.string
        s += "</g>\n"
        // The metric's axis is its colour bar: the scale the lines take, low (purple) to high (yellow).
        if let last = xs.last, hi > lo {
            let (_, sc) = scales[scales.count - 1]
            let (top, bottom) = (sc.map(hi), sc.map(lo))
            s += "<defs><linearGradient id=\"pc-bar\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
            for i in 0...8 { s += "<stop offset=\"\(Text.px(Double(i) / 8))\" stop-color=\"\(Palette.sequential(Double(i) / 8))\"/>" }
            s += "</linearGradient></defs>\n<rect class=\"cbar\" x=\"\(Text.px(last + 3))\" y=\"\(Text.px(top))\" width=\"10\" height=\"\(Text.px(max(1, bottom - top)))\" fill=\"url(#pc-bar)\"/>\n"
        }
        for (k, a) in axes.enumerated() {
            let (axis, sc) = scales[k]
            let x = xs[k]
            // Brushing: a range dragged on this axis is drawn here (empty until then).
            s += "<rect class=\"sel\" data-k=\"\(k)\" x=\"\(Text.px(x - 6))\" y=\"\(Text.px(f.plotTop))\" width=\"12\" height=\"0\" fill=\"#000\" fill-opacity=\"0.15\" stroke=\"#333\"/>\n"
            s += "<line x1=\"\(Text.px(x))\" x2=\"\(Text.px(x))\" y1=\"\(Text.px(f.plotTop))\" y2=\"\(Text.px(f.plotBottom))\" stroke=\"#333\"/>\n"
            for v in axis.ticks {
                let y = sc.map(v)
                s += "<line x1=\"\(Text.px(x - 3))\" x2=\"\(Text.px(x))\" y1=\"\(Text.px(y))\" y2=\"\(Text.px(y))\" stroke=\"#333\"/>"
                s += "<text class=\"tick\" x=\"\(Text.px(x - 5))\" y=\"\(Text.px(y))\" text-anchor=\"end\" dominant-baseline=\"middle\" paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\">\(HTML.escape(axis.label(v)))</text>\n"
            }
            // Axis names alternate between two rows so that neighbours never overlap.
            let y = f.plotTop - (k % 2 == 0 ? 22 : 8)
            let anchor = k == 0 ? "start" : k == axes.count - 1 ? "end" : "middle"
            let shown = Text.shorten(a.label, to: max(8, Int(2 * gap / 7)))
            s += "<text class=\"lbl\" x=\"\(Text.px(x))\" y=\"\(Text.px(y))\" text-anchor=\"\(anchor)\">\(HTML.escape(shown))<title>\(HTML.escape(a.label))</title></text>\n"
        }
        // The brushes' hit areas over the axes (drawn last, on top), the count of lines kept, and
        // the script that joins them.
        for (k, x) in xs.enumerated() {
            s += "<rect class=\"brush\" data-k=\"\(k)\" x=\"\(Text.px(x - 9))\" y=\"\(Text.px(f.plotTop))\" width=\"18\" height=\"\(Text.px(f.plotBottom - f.plotTop))\" fill=\"#000\" fill-opacity=\"0\" style=\"cursor:ns-resize;touch-action:none\"/>\n"
        }
        s += "<text class=\"tick brushcount\" x=\"\(Text.px(f.plotRight))\" y=\"\(Text.px(f.height - 4))\" text-anchor=\"end\"></text>\n"
        return s + ParallelBrush.element + "</svg>\n"
    }
}
