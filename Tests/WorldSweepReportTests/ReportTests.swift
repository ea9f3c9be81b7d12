import Foundation
import TestScratch
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WorldSweepRun
@testable import WorldSweepReport

/// Every `<svg …>…</svg>` block of a page.
func svgBlocks(_ html: String) -> [String] {
    var out: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
        out.append(String(rest[start.lowerBound..<end.upperBound]))
        rest = rest[end.upperBound...]
    }
    return out
}

/// Attribute values of every element with the given tag and class in an SVG block.
func elements(_ svg: String, tag: String, cls: String) throws -> [[String: String]] {
    let doc = try XMLDocument(xmlString: svg)
    let nodes = try doc.nodes(forXPath: "//\(tag)[@class='\(cls)']")
    return nodes.compactMap { $0 as? XMLElement }.map { e in
        Dictionary(uniqueKeysWithValues: (e.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") })
    }
}

func checkPage(_ html: String) throws {
    #expect(!html.contains("http://") && !html.contains("https://"))
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("src=") && !html.contains("href="))
    for svg in svgBlocks(html) { _ = try XMLDocument(xmlString: svg) }
    #expect(html.components(separatedBy: "<svg").count == html.components(separatedBy: "</svg>").count)
}

@Suite struct ReportTests {
    static let grid = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 16)), ("bouncy.density", [0.5, 1, 2]),
                                           ("shove.magnitude", [0, 0.5, 1])], replicas: 5)

    @Test func twoParameterGridHasEverySection() throws {
        let (summary, worlds) = Self.grid
        let html = ReportWriter.html(summary: summary, sample: Array(worlds.prefix(200)))
        try checkPage(html)
        for id in ["bounce", "contacts", "distributions", "extremes", "sensitivity"] { #expect(html.contains("<section id=\"\(id)\">")) }
        #expect(!html.contains("<section id=\"point\">"))
        #expect(html.contains("shove.magnitude = 0"))            // which points are charted
        #expect(svgBlocks(html).count == 2 + 2 + 2)               // lines, heatmaps, whisker + histogram
        // Heatmap: one cell per (elasticity, density), each with its value on hover, and a colour legend.
        let heat = svgBlocks(html)[3]
        let doc = try XMLDocument(xmlString: heat)
        #expect(try doc.nodes(forXPath: "//rect[@class='cell']").count == 16 * 3)
        let titles = try doc.nodes(forXPath: "//rect[@class='cell']/title").map { $0.stringValue ?? "" }
        #expect(titles.count == 16 * 3 && titles.allSatisfy { $0.contains("bottom.contacts mean") })
        #expect(try doc.nodes(forXPath: "//linearGradient/stop").count >= 2)
        // Line chart: one line per density, a legend naming the densities, bands for the replicas.
        let bottomLines = svgBlocks(html)[1]
        #expect(try elements(bottomLines, tag: "polyline", cls: "line").count == 3)
        #expect(try elements(bottomLines, tag: "polygon", cls: "band").count == 3)
        #expect(bottomLines.contains(">bouncy.density<") && bottomLines.contains(">0.5<"))
        let md = ReportWriter.markdown(summary: summary, sample: worlds)
        for h in ["## First bounce height against bouncy.elasticity", "## Contacts over", "## Spread over replicas", "## Extremes", "## Sensitivity"] {
            #expect(md.contains(h))
        }
        #expect(md.contains("| bouncy.elasticity | bouncy.density | shove.magnitude | R² | Points |"))
    }

    @Test func oneParameterHasLinesButNoHeatmap() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 8))], replicas: 1)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(html.contains("<section id=\"bounce\">"))
        #expect(!html.contains("<section id=\"contacts\">"))
        #expect(!html.contains("<section id=\"distributions\">"))   // one replica: nothing to spread
        #expect(html.contains("<section id=\"sensitivity\">"))
        let md = ReportWriter.markdown(summary: summary)
        #expect(md.contains("## First bounce height") && !md.contains("## Contacts over"))
    }

    @Test func noParametersGiveASinglePointTable() throws {
        let (summary, _) = Fixture.sweep(axes: [], replicas: 3)
        #expect(summary.points.count == 1)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(html.contains("<section id=\"point\">"))
        for id in ["bounce", "contacts", "extremes", "sensitivity"] { #expect(!html.contains("<section id=\"\(id)\">")) }
        let md = ReportWriter.markdown(summary: summary)
        #expect(md.contains("## Results of the single point") && md.contains("| bottom.bounce1 (pt) |"))
        #expect(!md.contains("## Sensitivity"))
    }

    @Test func randomSweepIsAScatter() throws {
        var rng = Rand(3)
        let combos = (0..<300).map { _ in [rng.next(), 0.5 + rng.next() * 2] }
        let (summary, _) = Fixture.make(name: "rnd", names: ["bouncy.elasticity", "bouncy.density"], combos: combos,
                                        replicas: 1, kind: "random", items: ["top", "bottom"], seed: 1)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(!html.contains("<polyline"))
        #expect(!html.contains("<section id=\"contacts\">"))
        let svg = try #require(svgBlocks(html).first)
        #expect(try elements(svg, tag: "circle", cls: "pt").count == 300)
    }

    @Test func hugeSweepsAreCappedAndSaySo() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 60)), ("bouncy.density", Fixture.linspace(0.5, 3, 50))],
                                         replicas: 2)
        if let dir = ProcessInfo.processInfo.environment["WSR_HUGE_DIR"] { try ReportWriter.write(summary: summary, sample: [], to: dir) }
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        let blocks = svgBlocks(html)
        #expect(try elements(blocks[0], tag: "polyline", cls: "line").count == ReportModel.maxLines)
        #expect(try elements(blocks[2], tag: "rect", cls: "cell").count == ReportModel.maxHeatmapSide * ReportModel.maxHeatmapSide)
        #expect(html.contains("8 of 50 values shown"))
        #expect(html.contains("at most 40 values per axis"))
        #expect(html.range(of: "60 of [0-9]+ points shown", options: .regularExpression) != nil)
    }

    @Test func missingValuesBreakTheLine() throws {
        var (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 8))], replicas: 3)
        summary.points[4].metrics["bottom.bounce1"] = nil      // point 0 (e = 0) has no bounce either
        let html = ReportWriter.html(summary: summary)
        let bottom = svgBlocks(html)[1]
        #expect(try elements(bottom, tag: "polyline", cls: "line").count == 2)
        #expect(try elements(bottom, tag: "circle", cls: "pt").count == 6)
        #expect(html.contains("Gaps in a line"))
    }

    @Test func namesAreEscaped() throws {
        let (s0, _) = Fixture.sweep(axes: [("bouncy.elasticity", [0, 0.5, 1]), ("bouncy.density", [1, 2])], replicas: 2,
                                    items: ["a<b", "c&d"])
        var summary = s0
        summary.name = "<b>evil</b>"
        summary.description = "x & y <script>alert(1)</script>"
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(!html.contains("<b>evil") && html.contains("&lt;b&gt;evil&lt;/b&gt;"))
        #expect(html.contains("x &amp; y &lt;script&gt;"))
        #expect(html.contains("a&lt;b: first bounce height") && !html.contains("a<b"))
        let md = ReportWriter.markdown(summary: summary)
        #expect(!md.contains("<script>") && !md.contains("<b>"))
    }

    @Test func lineChartPlacesPointsByTheAxisMapping() throws {
        // x in [0, 1] and y in [0, 10] are already "nice": the axes span exactly those ranges.
        let xs = [0.0, 0.25, 0.5, 1.0], ys = [0.0, 2.5, 10.0, 7.5]
        let chart = LineChart(title: "t", xLabel: "x", yLabel: "y (pt)", legendTitle: "",
                              series: [LineSeries(name: "s", color: "#000", points: zip(xs, ys).map { LinePoint(x: $0, y: $1) })])
        let f = chart.frame
        let svg = chart.svg()
        let pts = try elements(svg, tag: "circle", cls: "pt")
        #expect(pts.count == 4)
        for (i, p) in pts.enumerated() {
            let ex = f.left + xs[i] / 1.0 * (f.width - f.left - f.right)
            let ey = (f.height - f.bottom) - ys[i] / 10.0 * (f.height - f.bottom - f.top)
            #expect(abs(Double(p["cx"]!)! - ex) < 0.01)
            #expect(abs(Double(p["cy"]!)! - ey) < 0.01)
        }
        // The tick labelled 0.4 sits where x = 0.4 maps.
        let ticks = try XMLDocument(xmlString: svg).nodes(forXPath: "//text[@class='tick'][.='0.4']").compactMap { $0 as? XMLElement }
        let tx = try #require(ticks.first?.attribute(forName: "x")?.stringValue)
        #expect(abs(Double(tx)! - (f.left + 0.4 * (f.width - f.left - f.right))) < 0.01)
    }

    @Test func writerWritesBothFilesAtomically() throws {
        let dir = ProcessInfo.processInfo.environment["WSR_REPORT_DIR"]
            ?? Scratch.directory("report", create: false)
        let (summary, worlds) = Self.grid
        try ReportWriter.write(summary: summary, sample: Array(worlds.prefix(400)), to: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.contains("report.md") && files.contains("report.html"))
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        #expect(html == ReportWriter.html(summary: summary, sample: Array(worlds.prefix(400))))
    }
}
