// `worldsweep compare`: the comparison of two runs as a text table (stdout), compare.md,
// compare.html (one offline page, no scripts) and compare.csv (every matched point and metric,
// exact numbers, for pandas).
import Foundation
import WorldSweepRun

public enum ComparisonReport {
    /// Rows of the largest differences shown in the text, Markdown and HTML (compare.csv has all).
    public static let defaultLimit = 25

    /// The text for stdout: what was matched, per-metric summary, the largest differences.
    public static func text(_ c: Comparison, limit: Int = defaultLimit) -> String {
        var out = headline(c).map { $0 + "\n" }.joined()
        out += sweepFileLines(c).map { $0 + "\n" }.joined()
        let metrics = c.metricSummaries.filter { $0.differing > 0 }
        if !metrics.isEmpty {
            out += "\n" + table(metricHeader, metrics.map(metricCells))
            let rows = c.differing
            out += "\nlargest differences, by |B-A| / spread (\(min(limit, rows.count)) of \(rows.count)):\n"
            out += table(differenceHeader,
                         rows.prefix(limit).map { differenceCells(c, $0.point, $0.difference) })
        }
        out += unmatchedText(c, limit: limit)
        return out
    }

    /// Lines saying what was compared and the verdict.
    static func headline(_ c: Comparison) -> [String] {
        var lines = ["A: \(c.a.label) (\(c.a.summary.name), \(c.a.summary.points.count) points)",
                     "B: \(c.b.label) (\(c.b.summary.name), \(c.b.summary.points.count) points)"]
        let on = c.parameters.isEmpty ? "(no swept parameters)" : c.parameters.joined(separator: ", ")
        lines.append("matched \(c.matched.count) point\(c.matched.count == 1 ? "" : "s") on \(on); only in A: \(c.onlyInA.count); only in B: \(c.onlyInB.count)")
        if !c.identical && !c.matched.isEmpty {
            lines.append("ranked by |B-A| / spread (the metric's max - min over both runs' points); relative = (B-A)/|A|, "
                         + "left out (-) where |A| < \(number(Comparison.nearZero))")
        }
        if c.identical {
            lines.append("no difference: every metric of every point is identical")
        } else {
            let n = c.differing.count
            let metrics = c.metricSummaries.filter { $0.differing > 0 }.count
            lines.append(n == 0 ? "no difference in the matched points" :
                "\(n) difference\(n == 1 ? "" : "s") in \(metrics) metric\(metrics == 1 ? "" : "s") (means over each point's replicas)")
        }
        return lines
    }

    static let metricHeader = ["metric", "points differing", "one side only", "largest |B-A|", "largest |B-A|/spread",
                               "largest |relative|"]
    static let differenceHeader = ["point A", "point B", "values", "metric", "A", "B", "B-A", "|B-A|/spread", "relative"]

    /// What differs in what was run: the scene's name, and the two sweep.yaml files (the file
    /// each run ran, then its overrides) as a diff, `-` A's lines, `+` B's. Empty when the same.
    static func sweepFileLines(_ c: Comparison, maximum: Int = 60) -> [String] {
        var lines: [String] = []
        if c.a.summary.name != c.b.summary.name {
            lines.append("different scenes: A ran '\(c.a.summary.name)', B ran '\(c.b.summary.name)'")
        }
        guard let x = c.a.sweepFile, let y = c.b.sweepFile, x != y else { return lines }
        guard let diff = LineDiff.lines(x, y) else {
            return lines + ["the sweep files differ (sweep.yaml; too long to show the lines)"]
        }
        lines.append("the sweep files differ (sweep.yaml; - A, + B):")
        lines += diff.prefix(maximum).map { "  " + $0 }
        if diff.count > maximum { lines.append("  … \(diff.count - maximum) more lines") }
        return lines
    }

    static func unmatchedText(_ c: Comparison, limit: Int) -> String {
        var out = ""
        for (label, list) in [("A", c.onlyInA), ("B", c.onlyInB)] where !list.isEmpty {
            out += "\nonly in \(label) (\(list.count) point\(list.count == 1 ? "" : "s")):\n"
            for p in list.prefix(limit) { out += "  point \(p.point): \(values(c, p.values))\n" }
            if list.count > limit { out += "  … \(list.count - limit) more in compare.md\n" }
        }
        return out
    }

    static func metricCells(_ m: Comparison.MetricSummary) -> [String] {
        [m.metric, "\(m.differing)/\(m.points)", "\(m.oneSided)", m.largestDelta.map(number) ?? "-",
         m.largestScaled.map(number) ?? "-", m.largestRelative.map(percent) ?? "-"]
    }

    static func differenceCells(_ c: Comparison, _ m: Comparison.MatchedPoint, _ d: Comparison.Difference) -> [String] {
        ["\(m.pointA)", "\(m.pointB)", values(c, m.values.map { $0 }), d.metric,
         d.a.map(number) ?? "-", d.b.map(number) ?? "-", d.delta.map(number) ?? "-", c.scaled(d).map(number) ?? "-",
         d.relative.map(percent) ?? "-"]
    }

    static func values(_ c: Comparison, _ values: [Double?]) -> String {
        zip(c.parameters, values).map { "\($0)=\($1.map(NumberText.double) ?? "?")" }.joined(separator: " ")
    }

    /// Six significant digits: enough to read, and the exact numbers are in compare.csv.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return x > 0 ? "inf" : x < 0 ? "-inf" : "nan" }
        let s = String(format: "%.6g", x)
        return s == "-0" ? "0" : s
    }

    static func percent(_ x: Double) -> String {
        guard x.isFinite else { return x > 0 ? "+inf" : "-inf" }
        return String(format: "%+.3g %%", x * 100)
    }

    /// A plain aligned table (columns padded to their widest cell).
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }.joined(separator: "\n") + "\n"
    }

    /// compare.md.
    public static func markdown(_ c: Comparison, limit: Int = defaultLimit) -> String {
        var out = "# Comparison: \(Text.markdownCell(c.a.summary.name)) (A) and \(Text.markdownCell(c.b.summary.name)) (B)\n\n"
        out += headline(c).map { "- \(Text.markdownCell($0))\n" }.joined()
        let files = sweepFileLines(c, maximum: 400)
        if !files.isEmpty { out += "\n~~~~\n" + files.joined(separator: "\n") + "\n~~~~\n" }
        let metrics = c.metricSummaries.filter { $0.differing > 0 }
        if !metrics.isEmpty {
            out += "\n## Metrics that differ\n\n| metric | points differing | one side only | largest \\|B−A\\| | largest \\|B−A\\|/spread | largest \\|relative\\| |\n|---|---:|---:|---:|---:|---:|\n"
            for m in metrics { out += "| " + metricCells(m).map(Text.markdownCell).joined(separator: " | ") + " |\n" }
            let rows = c.differing
            out += "\n## Largest differences (\(min(limit, rows.count)) of \(rows.count); all in compare.csv)\n\n"
            out += "| point A | point B | values | metric | A | B | B−A | \\|B−A\\|/spread | relative |\n|---:|---:|---|---|---:|---:|---:|---:|---:|\n"
            for (m, d) in rows.prefix(limit) {
                out += "| " + differenceCells(c, m, d).map(Text.markdownCell).joined(separator: " | ") + " |\n"
            }
        }
        for (label, list) in [("A", c.onlyInA), ("B", c.onlyInB)] where !list.isEmpty {
            out += "\n## Only in \(label) (\(list.count))\n\n"
            for p in list { out += "- point \(p.point): \(Text.markdownCell(values(c, p.values)))\n" }
        }
        return out
    }

    /// compare.html: the same content as compare.md, one offline page.
    public static func html(_ c: Comparison, limit: Int = defaultLimit) -> String {
        var h = "<h1>Comparison: \(HTML.escape(c.a.summary.name)) (A) and \(HTML.escape(c.b.summary.name)) (B)</h1>\n"
        let lines = headline(c)
        h += "<ul>\n" + lines.dropLast().map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        h += "<p class=\"finding\">\(HTML.escape(lines.last!))</p>\n"
        let files = sweepFileLines(c, maximum: 400)
        if !files.isEmpty { h += "<pre>" + HTML.escape(files.joined(separator: "\n")) + "</pre>\n" }
        let metrics = c.metricSummaries.filter { $0.differing > 0 }
        if !metrics.isEmpty {
            h += "<h2>Metrics that differ</h2>\n"
            h += HTML.table(metricHeader, metrics.map { HTML.row(metricCells($0), numeric: Set(1..<metricHeader.count)) })
            let rows = c.differing
            h += "<h2>Largest differences (\(min(limit, rows.count)) of \(rows.count); all in compare.csv)</h2>\n"
            h += HTML.table(differenceHeader, rows.prefix(limit).map { m, d in
                HTML.row(differenceCells(c, m, d), numeric: Set(differenceHeader.indices).subtracting([2, 3]))
            })
        }
        for (label, list) in [("A", c.onlyInA), ("B", c.onlyInB)] where !list.isEmpty {
            h += "<h2>Only in \(label) (\(list.count))</h2>\n<ul>\n"
            for p in list { h += "<li>point \(p.point): \(HTML.escape(values(c, p.values)))</li>\n" }
            h += "</ul>\n"
        }
        return HTML.page(title: "\(c.a.summary.name) vs \(c.b.summary.name) — comparison", body: h)
    }

    /// compare.csv: one row per matched point and metric, the values as the runs hold them.
    public static func csv(_ c: Comparison) -> String {
        var out = (["point_a", "point_b"] + c.parameters + ["metric", "a", "b", "delta", "relative"]).joined(separator: ",") + "\n"
        for m in c.matched {
            let prefix = "\(m.pointA),\(m.pointB)," + m.values.map(NumberText.double).map { $0 + "," }.joined()
            for d in m.differences {
                out += prefix + [d.metric, d.a.map(NumberText.double) ?? "", d.b.map(NumberText.double) ?? "",
                                 d.delta.map(NumberText.double) ?? "", d.relative.map(NumberText.double) ?? ""].joined(separator: ",") + "\n"
            }
        }
        return out
    }

    /// Writes compare.md, compare.html and compare.csv into `directory` (made if missing), each atomically.
    public static func write(_ c: Comparison, to directory: String, limit: Int = defaultLimit) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ReportWriter.writeAtomically(markdown(c, limit: limit), to: "\(directory)/compare.md")
        try ReportWriter.writeAtomically(html(c, limit: limit), to: "\(directory)/compare.html")
        try ReportWriter.writeAtomically(csv(c), to: "\(directory)/compare.csv")
    }
}
