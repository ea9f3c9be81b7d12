// Small helpers shared by the hand-written SVG charts (their escaping is `HTML.escape`): number
// formatting, linear scales, "nice" axis ticks, colours and the axis frame (grid, ticks, labels).
import Foundation
import WorldSweepResults

enum Text {
    /// "2nd", "3rd", "7th", "11th", "21st": an English ordinal.
    static func ordinal(_ n: Int) -> String {
        let tens = n % 100, ones = n % 10
        let suffix = (11...13).contains(tens) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th"
        return "\(n)\(suffix)"
    }

    /// "1 point", "3 points": a count with its noun in the right number (regular plurals only).
    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// Escapes text for a Markdown table cell (pipes, angle brackets, ampersands, line breaks).
    static func markdownCell(_ s: String) -> String {
        // Most cells (names, numbers) have nothing to escape: returned as is, without walking
        // their characters (a world of a thousand items fills 66 000 cells).
        // (Read from the contiguous bytes: the view's iterator cost more than the check.)
        var bytes = s
        guard bytes.withUTF8({ $0.contains { $0 == 0x7C || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x0A || $0 == 0x0D } }) else { return s }
        var out = ""
        for ch in s {
            switch ch {
            case "|": out += "\\|"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\n", "\r": out += " "
            default: out.append(ch)
            }
        }
        return out
    }

    /// A readable value: up to 4 significant digits, exponent form only for very large/small numbers.
    static func value(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "—" : (x > 0 ? "∞" : "−∞") }
        if x == 0 { return "0" }
        let a = abs(x)
        if a >= 1e6 || a < 1e-3 { return PrintfNumber.exponent(x, decimals: 3) }
        return PrintfNumber.fixedTrimmed(x, decimals: max(0, 3 - Int(floor(log10(a)))), noNegativeZero: true)
    }

    /// A short label: 3 significant digits.
    static func short(_ x: Double) -> String {
        guard x.isFinite, x != 0 else { return value(x) }
        let a = abs(x)
        if a >= 1e5 || a < 1e-3 { return PrintfNumber.exponent(x, decimals: 2) }
        return PrintfNumber.fixedTrimmed(x, decimals: max(0, 2 - Int(floor(log10(a)))), noNegativeZero: false)
    }

    /// A large count with thin-space digit groups (1 200 000).
    static func grouped(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e15 else { return value(x) }
        let digits = String(Int64(x.rounded()).magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "\u{2009}" }
            out.append(ch)
        }
        return (x < 0 ? "−" : "") + out
    }

    /// A pixel coordinate: two decimals at most.
    static func px(_ x: Double) -> String { PrintfNumber.fixedTrimmed(x, decimals: 2, noNegativeZero: true) }

    /// Shortens long labels for legends and tick labels (the full text goes into a `<title>`).
    /// Words of `s` in lines of at most `width` characters (a longer word on a line of its own).
    static func wrap(_ s: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in s.split(separator: " ") {
            if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= width { line += " " + word } else {
                lines.append(line); line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    static func shorten(_ s: String, to n: Int) -> String {
        s.count <= n ? s : String(s.prefix(n - 1)) + "…"
    }
}

/// Maps a data interval onto a pixel interval.
struct LinearScale: Sendable {
    var domain: (Double, Double)
    var range: (Double, Double)
    func map(_ v: Double) -> Double {
        let span = domain.1 - domain.0
        let t = span == 0 ? 0.5 : (v - domain.0) / span
        return range.0 + t * (range.1 - range.0)
    }
}

/// Ticks at 1, 2 or 5 × 10ⁿ covering [lo, hi]; the domain is widened to the outer ticks.
struct NiceAxis: Sendable {
    var lo: Double
    var hi: Double
    var step: Double
    var ticks: [Double]
    /// The values are log10 of the data: ticks are labelled with the data's values (10^t).
    var log = false

    init(min a: Double, max b: Double, count: Int = 5) {
        var lo = a, hi = b
        if !lo.isFinite || !hi.isFinite { lo = 0; hi = 1 }
        if lo == hi {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            lo -= pad; hi += pad
        }
        let raw = (hi - lo) / Double(max(1, count))
        let mag = pow(10, floor(log10(raw)))
        let f = raw / mag
        let step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag
        self.step = step
        self.lo = floor(lo / step + 1e-9) * step
        self.hi = ceil(hi / step - 1e-9) * step
        var t: [Double] = []
        var v = self.lo
        var i = 0
        while v <= self.hi + step * 1e-6 && i < 100 {
            t.append(abs(v) < step * 1e-9 ? 0 : v)
            i += 1
            v = self.lo + Double(i) * step
        }
        ticks = t
    }

    /// A log axis over positive data from `a` to `b` (its values are log10 of the data): ticks at
    /// the swept values when there are few (`values`, a grid's levels: at most `count` + 3, else
    /// every k-th; the domain padded by a thirtieth of its span), else at 1, 2 and 5 × 10ⁿ.
    init(logFrom a: Double, to b: Double, values: [Double] = [], count: Int = 5) {
        let lo = log10(Swift.min(a, b)), hi = log10(Swift.max(a, b))
        let swept = values.filter { $0 > 0 && $0.isFinite }.sorted()
        // Swept values are drawn at the ends as dots: kept off the frame. Drawn data spans it.
        let pad = hi > lo ? (swept.count >= 2 ? (hi - lo) / 30 : 0) : 0.1
        self.lo = lo - pad; self.hi = hi + pad; self.log = true
        self.step = 0
        if swept.count >= 2 {
            let every = Swift.max(1, Int((Double(swept.count) / Double(count + 3)).rounded(.up)))
            ticks = swept.enumerated().filter { $0.offset % every == 0 || $0.offset == swept.count - 1 && $0.offset % every >= every / 2 }.map { log10($0.element) }
        } else {
            var t: [Double] = []
            var decade = floor(lo)
            while decade <= ceil(hi) && t.count < 40 {
                for m in [1.0, 2, 5] { let v = decade + log10(m); if v >= lo - 1e-9 && v <= hi + 1e-9 { t.append(v) } }
                decade += 1
            }
            if t.count > count + 3 { t = t.filter { abs($0 - $0.rounded()) < 1e-9 } }
            ticks = t.isEmpty ? [lo, hi] : t
        }
    }

    func label(_ v: Double) -> String {
        if log { return Text.short(pow(10, v)) }
        let a = max(abs(lo), abs(hi))
        if a >= 1e6 || (a < 1e-3 && a > 0) { return String(format: "%.2g", v) }
        let decimals = max(0, -Int(floor(log10(step) + 1e-9)))
        return PrintfNumber.fixed(v, decimals: decimals)
    }
}

enum Palette {
    /// Categorical colours (Tableau 10), readable on white and distinct in grey-scale order.
    static let categorical = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                              "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
    static func color(_ i: Int) -> String { categorical[i % categorical.count] }

    /// Family f's hue, darkened (first steps) to lightened (last steps).
    static func shade(family f: Int, step k: Int, of count: Int) -> String {
        let hex = Array(color(f).dropFirst())
        let rgb = stride(from: 0, to: 6, by: 2).map { Double(Int(String(hex[$0...$0 + 1]), radix: 16) ?? 0) }
        let t = count <= 1 ? 0.5 : Double(k) / Double(count - 1)
        // From 35 % towards black to 45 % towards white.
        let mixed = rgb.map { c in t < 0.4375 ? c * (0.65 + 0.8 * t) : c + (255 - c) * (t - 0.4375) * 0.8 }
        return PrintfNumber.hexColor(Int(mixed[0].rounded()), Int(mixed[1].rounded()), Int(mixed[2].rounded()))
    }

    /// Viridis stops, for sequential values (t in 0…1).
    static let viridis: [(Double, Double, Double)] = [
        (68, 1, 84), (72, 40, 120), (62, 74, 137), (49, 104, 142), (38, 130, 142),
        (31, 158, 137), (53, 183, 121), (109, 205, 89), (180, 222, 44), (253, 231, 37),
    ]
    static func sequential(_ t: Double) -> String {
        let (r, g, b) = sequentialRGB(t)
        return PrintfNumber.hexColor(Int(r.rounded()), Int(g.rounded()), Int(b.rounded()))
    }
    static func sequentialRGB(_ t: Double) -> (Double, Double, Double) {
        let c = min(1, max(0, t.isFinite ? t : 0)) * Double(viridis.count - 1)
        let i = min(viridis.count - 2, Int(c))
        let f = c - Double(i)
        let a = viridis[i], b = viridis[i + 1]
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f)
    }
    /// The colour of step k of n discrete steps (n >= 1): evenly spaced over the sequential scale.
    static func step(_ k: Int, of n: Int) -> Double { n <= 1 ? 0.5 : Double(k) / Double(n - 1) }

    /// Black or white text, whichever reads better on the sequential colour at t.
    static func textOn(_ t: Double) -> String {
        let (r, g, b) = sequentialRGB(t)
        return (0.299 * r + 0.587 * g + 0.114 * b) > 140 ? "#000" : "#fff"
    }
}

/// The pixel frame of a chart: the whole canvas and the plot area inside its margins.
struct ChartFrame: Sendable {
    var width: Double
    var height: Double
    var left: Double
    var right: Double
    var top: Double
    var bottom: Double
    var plotLeft: Double { left }
    var plotRight: Double { width - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }
}

enum SVGKit {
    /// The chart's root element. `y0`: the pixel row of y = 0, for charts with a numeric y axis
    /// (tests check that nothing of a non-negative metric is drawn below it).
    static func open(_ f: ChartFrame, label: String, y0: Double? = nil) -> String {
        "<svg class=\"chart\" width=\"\(Text.px(f.width))\" height=\"\(Text.px(f.height))\" "
            + "viewBox=\"0 0 \(Text.px(f.width)) \(Text.px(f.height))\" role=\"img\" aria-label=\"\(HTML.escape(label))\""
            + (y0.map { " data-y0=\"\(Text.px($0))\"" } ?? "") + ">\n"
    }

    /// The chart's title, shortened to the chart's width (about 9 px per bold character); the
    /// whole title shows on hover.
    static func title(_ f: ChartFrame, _ title: String) -> String {
        let fits = max(12, Int((f.width - 12) / 9))
        let shown = Text.shorten(title, to: fits)
        return "<text x=\"8\" y=\"18\" class=\"ttl\">\(HTML.escape(shown))"
            + (shown == title ? "" : "<title>\(HTML.escape(title))</title>") + "</text>\n"
    }

    /// Grid lines, tick marks, tick labels and axis labels for two numeric axes.
    static func axes(_ f: ChartFrame, x: NiceAxis, y: NiceAxis, xScale: LinearScale, yScale: LinearScale,
                     xLabel: String, yLabel: String) -> String {
        var s = "<g class=\"axes\">\n"
        for t in y.ticks {
            let py = Text.px(yScale.map(t))
            s += "<line class=\"grid\" x1=\"\(Text.px(f.plotLeft))\" x2=\"\(Text.px(f.plotRight))\" y1=\"\(py)\" y2=\"\(py)\"/>"
            s += "<text class=\"tick\" x=\"\(Text.px(f.plotLeft - 6))\" y=\"\(py)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(HTML.escape(y.label(t)))</text>\n"
        }
        let xLabelStride = x.ticks.count > 8 ? 2 : 1
        for (i, t) in x.ticks.enumerated() {
            let px = Text.px(xScale.map(t))
            s += "<line class=\"grid\" x1=\"\(px)\" x2=\"\(px)\" y1=\"\(Text.px(f.plotTop))\" y2=\"\(Text.px(f.plotBottom))\"/>"
            if i % xLabelStride == 0 {
                s += "<text class=\"tick\" x=\"\(px)\" y=\"\(Text.px(f.plotBottom + 16))\" text-anchor=\"middle\">\(HTML.escape(x.label(t)))</text>\n"
            }
        }
        s += "<rect class=\"frame\" x=\"\(Text.px(f.plotLeft))\" y=\"\(Text.px(f.plotTop))\" width=\"\(Text.px(f.plotRight - f.plotLeft))\" height=\"\(Text.px(f.plotBottom - f.plotTop))\"/>\n"
        s += axisLabels(f, xLabel: xLabel, yLabel: yLabel)
        return s + "</g>\n"
    }

    static func axisLabels(_ f: ChartFrame, xLabel: String, yLabel: String) -> String {
        let cx = (f.plotLeft + f.plotRight) / 2, cy = (f.plotTop + f.plotBottom) / 2
        return "<text class=\"lbl\" x=\"\(Text.px(cx))\" y=\"\(Text.px(f.plotBottom + 36))\" text-anchor=\"middle\">\(HTML.escape(xLabel))</text>\n"
            + "<text class=\"lbl\" transform=\"translate(14 \(Text.px(cy))) rotate(-90)\" text-anchor=\"middle\">\(HTML.escape(yLabel))</text>\n"
    }

    /// A vertical legend of coloured swatches to the right of the plot.
    static func legend(_ f: ChartFrame, title: String, entries: [(String, String)], marker: Bool = false) -> String {
        let x = f.plotRight + 14
        var s = "<g class=\"legend\"><text class=\"lgt\" x=\"\(Text.px(x))\" y=\"\(Text.px(f.plotTop + 4))\">\(HTML.escape(Text.shorten(title, to: 17)))<title>\(HTML.escape(title))</title></text>\n"
        for (i, e) in entries.enumerated() {
            let y = f.plotTop + 22 + Double(i) * 18
            if marker {
                s += "<circle cx=\"\(Text.px(x + 7))\" cy=\"\(Text.px(y - 4))\" r=\"4\" fill=\"\(e.1)\"/>"
            } else {
                s += "<rect x=\"\(Text.px(x))\" y=\"\(Text.px(y - 9))\" width=\"14\" height=\"10\" fill=\"\(e.1)\"/>"
            }
            s += "<text class=\"tick\" x=\"\(Text.px(x + 20))\" y=\"\(Text.px(y))\">\(HTML.escape(Text.shorten(e.0, to: 18)))<title>\(HTML.escape(e.0))</title></text>\n"
        }
        return s + "</g>\n"
    }
}

extension SVGKit {
    /// Rows of legend entries laid out left to right under the plot, wrapping at the chart's width.
    static func legendRows(width: Double, entries: [(String, String)]) -> [[(String, String, Double)]] {
        var rows: [[(String, String, Double)]] = [[]]
        var x = 0.0
        for e in entries {
            let w = 24 + 6.6 * Double(e.0.count) + 14
            if x + w > width - 16 && !rows[rows.count - 1].isEmpty { rows.append([]); x = 0 }
            rows[rows.count - 1].append((e.0, e.1, x)); x += w
        }
        return rows
    }

    /// How much height a legend below the plot needs (title row plus entry rows).
    static func legendBelowHeight(width: Double, entries: [(String, String)]) -> Double {
        20 + 18 * Double(legendRows(width: width, entries: entries).count)
    }

    /// A legend under the x-axis label: its title, then entries that wrap.
    static func legendBelow(_ f: ChartFrame, title: String, entries: [(String, String)], marker: Bool = false) -> String {
        let top = f.plotBottom + 56
        var s = "<g class=\"legend\"><text class=\"lgt\" x=\"8\" y=\"\(Text.px(top))\">\(HTML.escape(title))</text>\n"
        for (r, row) in legendRows(width: f.width, entries: entries).enumerated() {
            let y = top + 18 * Double(r + 1)
            for (name, color, x0) in row {
                let x = 8 + x0
                if marker {
                    s += "<circle cx=\"\(Text.px(x + 7))\" cy=\"\(Text.px(y - 4))\" r=\"4\" fill=\"\(color)\"/>"
                } else {
                    s += "<rect x=\"\(Text.px(x))\" y=\"\(Text.px(y - 9))\" width=\"14\" height=\"10\" fill=\"\(color)\"/>"
                }
                s += "<text class=\"tick\" x=\"\(Text.px(x + 20))\" y=\"\(Text.px(y))\">\(HTML.escape(name))</text>\n"
            }
        }
        return s + "</g>\n"
    }
}

/// Units for axis labels, from a parameter path or a metric column name.
enum Units {
    static func parameter(_ path: String) -> String {
        let p = path.lowercased()
        if p.hasSuffix("angular_velocity") { return "rad/s" }
        if p.hasSuffix("linear_velocity.x") || p.hasSuffix("linear_velocity.y") { return "pt/s" }
        if p.hasSuffix(".angle") { return "rad" }
        if p.hasSuffix("center.x") || p.hasSuffix("center.y") || p.hasSuffix(".width") || p.hasSuffix(".height") { return "pt" }
        // Attachments and snaps: lengths and points in points, spring frequencies in hertz.
        if p.hasSuffix(".length") || p.hasSuffix("anchor.x") || p.hasSuffix("anchor.y")
            || p.hasSuffix("point.x") || p.hasSuffix("point.y") { return "pt" }
        if p.hasSuffix(".frequency") { return "Hz" }
        return ""
    }

    /// The metric's declared unit (`metrics`: the run's); a never-share's is "share", anything
    /// else (partner contacts) a count.
    static func metric(_ column: String, _ metrics: MetricCatalog) -> String {
        let key = metricKey(column)
        if let declared = metrics.named(key) { return declared.unit }
        return metrics.counted(byNever: key) != nil ? "share" : "count"
    }

    /// `ITEM.contacts.PARTNER` → `contacts`, `ITEM.bounce1` → `bounce1`.
    static func metricKey(_ column: String) -> String {
        // Between the first dot and the next, found on the bytes: `split` made an array per call,
        // and the report asks this of every column in several views (66 000 calls for one world
        // of a thousand items).
        let dot = UInt8(ascii: "."), utf8 = column.utf8
        guard let first = utf8.firstIndex(of: dot) else { return column }
        let start = utf8.index(after: first)
        let end = utf8[start...].firstIndex(of: dot) ?? utf8.endIndex
        return String(column[start..<end])
    }

    static func label(_ name: String, unit: String) -> String {
        unit.isEmpty ? name : "\(name) (\(unit))"
    }
}
