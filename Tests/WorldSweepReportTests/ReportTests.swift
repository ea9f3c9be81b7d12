import Foundation
import TestScratch
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WorldSweep
import WorldSweepResults
import WorldSweepRun
import WorldSweepScene
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

/// The charts of a page whose aria-label starts with `prefix`.
func charts(_ html: String, titled prefix: String) throws -> [String] {
    try svgBlocks(html).filter { svg in
        let root = try XMLDocument(xmlString: svg).rootElement()
        return root?.attribute(forName: "aria-label")?.stringValue?.hasPrefix(prefix) ?? false
    }
}

/// The text of every axis label (class `lbl`, its hover title included) in a chart.
func axisLabels(_ svg: String) throws -> [String] {
    try XMLDocument(xmlString: svg).nodes(forXPath: "//text[@class='lbl']").map { $0.stringValue ?? "" }
}

/// Every y pixel coordinate a chart draws data at: dots, line and band vertices, bar ends.
func dataYs(_ svg: String) throws -> [Double] {
    let doc = try XMLDocument(xmlString: svg)
    var ys: [Double] = []
    for n in try doc.nodes(forXPath: "//circle[@class='pt']") {
        if let v = (n as? XMLElement)?.attribute(forName: "cy")?.stringValue.flatMap(Double.init) { ys.append(v) }
    }
    for n in try doc.nodes(forXPath: "//polyline[@class='line'] | //polygon[@class='band']") {
        let pts = (n as? XMLElement)?.attribute(forName: "points")?.stringValue ?? ""
        for pair in pts.split(separator: " ") { if let y = pair.split(separator: ",").last.flatMap({ Double($0) }) { ys.append(y) } }
    }
    for n in try doc.nodes(forXPath: "//line[@class='err']") {
        for a in ["y1", "y2"] { if let v = (n as? XMLElement)?.attribute(forName: a)?.stringValue.flatMap(Double.init) { ys.append(v) } }
    }
    return ys
}

/// The pixel row of y = 0 a chart declares.
func zeroRow(_ svg: String) throws -> Double? {
    try XMLDocument(xmlString: svg).rootElement()?.attribute(forName: "data-y0")?.stringValue.flatMap(Double.init)
}

func checkPage(_ html: String) throws {
    #expect(!html.contains("http://") && !html.contains("https://"))
    // The one script a page may hold is the parallel-coordinates brushing (inline, no source).
    let scripts = html.lowercased().components(separatedBy: "<script").count - 1
    #expect(scripts == html.components(separatedBy: ParallelBrush.element).count - 1 && scripts <= 1)
    // Links only within the page (the table of contents).
    #expect(!html.contains("src=") && !html.replacingOccurrences(of: "href=\"#", with: "").contains("href="))
    for svg in svgBlocks(html) {
        let root = try #require(try XMLDocument(xmlString: svg).rootElement())
        // Every chart scales with its column: a viewBox and the CSS width rule.
        #expect(root.attribute(forName: "viewBox") != nil)
    }
    // On the page shell: its one stylesheet (which scales every chart) in the head, once.
    let shell = try PageShell(html)
    #expect(shell.styles == [HTML.style] && shell.stylesInPage == 1 && shell.doctypes == 1)
    #expect(html.components(separatedBy: "<svg").count == html.components(separatedBy: "</svg>").count)
}

@Suite struct ReportTests {
    static let axes: [(String, [Double])] = [("bouncy.elasticity", Fixture.linspace(0, 1, 16)), ("bouncy.density", [0.5, 1, 2]),
                                             ("shove.magnitude", [0, 0.5, 1])]
    static let grid = Fixture.sweep(axes: axes, replicas: 5)

    @Test func everySweptParameterIsOnAnAxisAndEveryPointIsCharted() throws {
        let (summary, worlds) = Self.grid
        let html = ReportWriter.html(summary: summary, sample: WorldSample(Array(worlds.prefix(200))))
        try checkPage(html)
        for id in ["importance", "views", "parallel", "distributions", "extremes", "run"] { #expect(html.contains("<section id=\"\(id)\">")) }
        #expect(!html.contains("<section id=\"sensitivity\">"))   // the decomposition says it, once
        // A table of contents linking every section and each charted key metric.
        for id in ["importance", "views", "parallel", "distributions", "extremes", "run", "v-bottom.bounce1"] { #expect(html.contains("<a href=\"#\(id)\">")) }
        let labels = try svgBlocks(html).flatMap(axisLabels)
        for (name, _) in Self.axes { #expect(labels.contains { $0.hasPrefix(name) }, "\(name) is on no axis") }
        // A slice per key metric and parameter, each with a dot for every one of the 144 points.
        for (name, _) in Self.axes {
            let slice = try #require(try charts(html, titled: "bottom.contacts vs \(name)").first)
            #expect(try elements(slice, tag: "circle", cls: "pt").count == 144 + Set(summary.points.map { $0.parameters[Self.axes.firstIndex { $0.0 == name }!] }).count)
            #expect(try axisLabels(slice).contains { $0.hasPrefix(name) })
        }
        // Pair maps: every pair of the three parameters, averaged over the third.
        let pairs = try charts(html, titled: "bottom.contacts: pair map")
        #expect(pairs.count == 3)
        #expect(html.contains("averaged over shove.magnitude"))
    }

    @Test func sliceLinesAverageOverTheOtherParameters() throws {
        let (summary, _) = Self.grid
        let model = ReportModel(summary: summary, sample: WorldSample())
        let j = 2   // shove.magnitude
        let slice = SweepViews.slice(points: summary.points, parameter: j, column: "top.contacts", .builtIn, binned: false, runSeconds: 5)
        #expect(slice.levels.map(\.x) == [0, 0.5, 1] && slice.dots.count == 144)
        for level in slice.levels {
            let members = summary.points.filter { $0.parameters[j] == level.x }.map { $0.metrics["top.contacts"]!.mean }
            #expect(level.points == 48)
            #expect(abs(level.mean - members.reduce(0, +) / 48) < 1e-12)
            #expect(level.min == members.min()! && level.max == members.max()!)
        }
        // The pair map of elasticity × density averages each cell over the three push values.
        let pair = SweepViews.pair(points: summary.points, x: 0, y: 1, column: "bottom.bounce1", .builtIn, binned: false, maxSide: 40, runSeconds: 5)
        // Elasticity 0 gives no bounce: its column stays, at height 0, with its never-share 1.
        #expect(pair.xValues.count == 16 && pair.xValues.first == 0 && pair.xValues.last == 1 && pair.yValues == [0.5, 1, 2])
        let none = try #require(pair.cells[0][0])
        #expect(none.mean == 0 && none.never == 1)
        let cell = try #require(pair.cells[2][15])   // density 2, elasticity 1
        let members = summary.points.filter { $0.parameters[0] == 1 && $0.parameters[1] == 2 }.map { $0.metrics["bottom.bounce1"]!.mean }
        #expect(cell.points == 3 && abs(cell.mean - members.reduce(0, +) / 3) < 1e-12 && cell.never == 0)
        #expect(model.pairs("bottom.bounce1").maps.count == 3)
    }

    @Test func noChartDrawsAHeightBelowZero() throws {
        // Heights whose replicas spread far: mean − std and the band's low end would go below 0.
        var (summary, worlds) = Self.grid
        worlds = Array(worlds.prefix(300))
        for i in summary.points.indices {
            if var st = summary.points[i].metrics["bottom.bounce1"] { st.std = st.mean * 2; st.min = -st.mean; summary.points[i].metrics["bottom.bounce1"] = st }
        }
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        var checked = 0
        for svg in svgBlocks(html) {
            let root = try #require(try XMLDocument(xmlString: svg).rootElement())
            guard let y0 = root.attribute(forName: "data-y0")?.stringValue.flatMap(Double.init) else { continue }
            // The tick labelled 0 sits at y0 (so y0 really is where zero is drawn).
            let zero = try XMLDocument(xmlString: svg).nodes(forXPath: "//text[@class='tick'][.='0' or .='0.0' or .='0.00']").compactMap { $0 as? XMLElement }
            #expect(zero.contains { abs(Double($0.attribute(forName: "y")!.stringValue!)! - y0) < 0.01 })
            for y in try dataYs(svg) { #expect(y <= y0 + 0.01) }
            checked += 1
        }
        #expect(checked >= 9)
        // A band reaching below zero is cut there, and the caption says so.
        var chart = LineChart(title: "t", xLabel: "x", yLabel: "h (pt)", legendTitle: "",
                              series: [LineSeries(name: "s", color: "#000", points: [LinePoint(x: 0, y: 1, lo: -2, hi: 3, err: 4), LinePoint(x: 1, y: 2, lo: -1, hi: 4)])],
                              nonNegative: true)
        #expect(chart.clamped)
        let svg = chart.svg()
        let y0 = try #require(try zeroRow(svg))
        let ys = try dataYs(svg)
        #expect(ys.allSatisfy { $0 <= y0 + 0.01 } && abs(y0 - chart.frame.plotBottom) < 0.01)
        chart.nonNegative = false
        let free = chart.svg()
        let freeY0 = try #require(try zeroRow(free))
        let freeYs = try dataYs(free)
        #expect(!chart.clamped && freeYs.contains { $0 > freeY0 + 1 })
    }

    @Test func theFindingNamesWhatDrivesTheBottomBounce() throws {
        let (summary, worlds) = Self.grid
        let model = ReportModel(summary: summary, sample: WorldSample(worlds))
        let bottom = try #require(model.analysis("bottom.bounce1"))
        #expect(bottom.importance?.ranked.first == 0)
        // The fixture's bounce grows with e² (and a little with density): a rise, said as a shape.
        // A smooth rise with e² (0, 1.9, 7.4, 17 pt at e = 0 … 0.2): no step stands out against the
        // means before it, so no threshold is said (a twentieth of the range called "no effect"
        // was a threshold the data does not have).
        #expect(model.finding(bottom).hasPrefix("bottom.bounce1 against bouncy.elasticity ("))
        #expect(model.finding(bottom).contains("of its variation): rises from 0 pt to "))
        #expect(model.finding(bottom).contains("never bounced (a world that never bounced counts as height 0)"))
        #expect(model.headlines.contains { $0.column == "bottom.bounce1" })
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        let finding = try #require(html.range(of: "<div id=\"finding\">"))
        let toc = try #require(html.range(of: "<nav class=\"toc\""))
        let header = try #require(html.range(of: "<table class=\"kv\">"))
        let views = try #require(html.range(of: "<section id=\"views\">"))
        #expect(finding.lowerBound < toc.lowerBound && toc.lowerBound < views.lowerBound)
        #expect(views.lowerBound < header.lowerBound)   // run metadata after the findings
        // The ranked chart: the parameters' bars in decreasing order, then the noise bar (5 replicas).
        let chart = try #require(try charts(html, titled: "What drives").first)
        let widths = try elements(chart, tag: "rect", cls: "bar").map { Double($0["width"]!)! }
        #expect(widths.count >= 4 && Array(widths.prefix(3)) == widths.prefix(3).sorted(by: >))
        #expect(chart.contains("noise (replicas)"))
        // Noise is grouped away: bottom.x wobbles by ±1 pt between replicas only; vx is always 0.
        #expect(model.noiseMetrics.contains { $0.0 == "bottom.x" })
        #expect(!model.rankedMetrics.contains { $0.column == "bottom.x" })
        #expect(model.constantMetrics.contains("bottom.vx"))
        let noise = try #require(html.range(of: "<details id=\"noise\">"))
        let listed = try #require(html.range(of: "<li>bottom.x: ", range: noise.upperBound..<html.endIndex))
        #expect(listed.lowerBound > noise.lowerBound)
        // The ranked table lists key metrics first.
        let keyed = model.rankedMetrics.map { model.keyColumns.contains($0.column) }
        #expect(keyed == keyed.sorted { $0 && !$1 })
    }

    @Test func fitsNeedMorePointsThanParametersPlusOne() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", [0.2, 0.8]), ("bouncy.density", [1, 2])], replicas: 3)
        let model = ReportModel(summary: summary, sample: WorldSample())
        // 4 points, 2 parameters: 4 > 3 is enough; with 3 points it would not be.
        #expect(model.analysis("bottom.bounce1")?.importance != nil)
        var three = summary
        three.points.removeLast()
        let m3 = ReportModel(summary: three, sample: WorldSample())
        #expect(m3.analyses.allSatisfy { $0.importance == nil && $0.fit == nil })
        // Three points are no grid: a surrogate of 4 coefficients (no squares of two-valued
        // parameters) would need 16.
        #expect(m3.analysis("bottom.bounce1")?.unfitted == "3 points for a surrogate of 4 coefficients: it needs 4 points per coefficient")
        #expect(m3.headline == nil)
    }

    @Test func zipSweepsSayTheirParametersCannotBeToldApart() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0.2, 1, 6)), ("shove.magnitude", Fixture.linspace(0, 1, 6))],
                                         replicas: 3, kind: "zip")
        let model = ReportModel(summary: summary, sample: WorldSample())
        let bottom = try #require(model.analysis("bottom.bounce1"))
        // Six points, every one with a value: enough for a fit, and not "sparse".
        #expect(bottom.signal == .signal && bottom.importance?.mains[1] == nil && bottom.importance?.method == .grid)
        #expect(model.finding(bottom).contains("bouncy.elasticity (") && model.finding(bottom).contains("or against shove.magnitude, which moves in lockstep with it"))
        #expect(model.pairs("bottom.bounce1").maps.isEmpty)   // a zip sweep has no pairs to map
    }

    @Test func coincidingLinesAreDrawnOnceAndSaySo() throws {
        let same = [LinePoint(x: 0, y: 1), LinePoint(x: 1, y: 5)]
        let other = [LinePoint(x: 0, y: 2), LinePoint(x: 1, y: 9)]
        let chart = LineChart(title: "t", xLabel: "x", yLabel: "y", legendTitle: "density",
                              series: [LineSeries(name: "0.5", color: "#111", points: same), LineSeries(name: "1", color: "#222", points: same),
                                       LineSeries(name: "2", color: "#333", points: same), LineSeries(name: "4", color: "#444", points: other)])
        #expect(chart.coincidentGroups() == [[0, 1, 2], [3]])
        let svg = chart.svg()
        #expect(try elements(svg, tag: "polyline", cls: "line").count == 2)
        let legend = try XMLDocument(xmlString: svg).nodes(forXPath: "//g[@class='legend']/text[@class='tick']").map { $0.stringValue ?? "" }
        #expect(legend.count == 2 && legend.contains { $0.hasPrefix("0.5, 1, 2 coincide") })
        // The example's shape: in the engine bottom.bounce1 depends on elasticity alone, so the
        // lines of the three densities lie on each other.
        var (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 6)), ("bouncy.density", [0.5, 1, 2]), ("shove.magnitude", [0, 1])], replicas: 2)
        for i in summary.points.indices {
            let e = summary.points[i].parameters[0]
            summary.points[i].metrics["bottom.bounce1"] = MetricStats(count: 2, mean: 400 * e * e, std: 1, min: 0, max: 500)
        }
        let html = ReportWriter.html(summary: summary)
        let inter = try #require(try charts(html, titled: "bottom.bounce1 by bouncy.density").first)
        #expect(try elements(inter, tag: "polyline", cls: "line").count == 1)
        #expect(html.contains("bouncy.density 0.5, 1, 2 coincide: one line is drawn for them."))
    }

    @Test func countsGetWholeNumberColourSteps() throws {
        var hm = Heatmap(title: "c", xLabel: "x", yLabel: "y", valueLabel: "count", xValues: [0, 1, 2], yValues: [0],
                         cells: [[2, 3, 2.2]], writeTitle: Heatmap.titles([["a", "b", "c"]]), id: "t")
        hm.integerSteps = true
        #expect(hm.range.0 == 0 && hm.range.1 == 3 && hm.steps == [0, 1, 2, 3])
        let fills = try elements(hm.svg(), tag: "rect", cls: "cell").map { $0["fill"]! }
        // 2 and 3 are neighbouring steps of four (not the two ends of the scale); 2.2 is nearest 2.
        #expect(fills[0] == Palette.sequential(2.0 / 3) && fills[1] == Palette.sequential(1) && fills[2] == fills[0])
        #expect(try elements(hm.svg(), tag: "rect", cls: "step").count == 4)
        hm.cells = [[0, 40, 17]]
        #expect(hm.steps == stride(from: 0.0, through: 40, by: 5).map { $0 })
    }

    /// Cell titles written part by part into the map's bytes are the same bytes as the whole
    /// texts given as strings: a text escaped part by part is the text escaped whole.
    @Test func cellTitlesWrittenInPlaceAreTheTitlesEscaped() throws {
        let texts = [["a < b & \"c\"", "d's"], ["e > f", "plain"]]
        let byText = Heatmap(title: "t", xLabel: "x", yLabel: "y", valueLabel: "v", xValues: [0, 1], yValues: [0, 1],
                             cells: [[1, 2], [3, nil]], writeTitle: Heatmap.titles(texts), id: "t")
        var inPlace = byText
        inPlace.writeTitle = { r, c, out in
            let t = texts[r][c], half = t.index(t.startIndex, offsetBy: t.count / 2)
            out.escaped(String(t[..<half])); out.escaped(String(t[half...]))
        }
        #expect(inPlace.svg() == byText.svg())
        let titles = try XMLDocument(xmlString: inPlace.svg()).nodes(forXPath: "//rect[@class='cell']/title").map { $0.stringValue ?? "" }
        #expect(titles == texts.flatMap { $0 })
    }

    /// A pair map's hover text per cell: both parameters' values, the cell's mean, its count of
    /// points (one per cell on a grid of the two) and, for a metric worlds can lack, the share of
    /// worlds without a value.
    @Test func pairMapCellsSayTheirValuesMeanAndPoints() throws {
        let combos = [0.2, 0.5, 0.8].flatMap { e in [1.0, 2.0].map { d in [e, d] } }
        let (summary, worlds) = Fixture.make(name: "pair", names: ["bouncy.elasticity", "bouncy.density"], combos: combos,
                                             replicas: 2, kind: "grid", items: ["top", "bottom"], seed: 4)
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        let map = try #require(try charts(html, titled: "top.bounce1: pair map").first)
        let titles = try XMLDocument(xmlString: map).nodes(forXPath: "//rect[@class='cell']/title").map { $0.stringValue ?? "" }
        let expected = summary.points.map { p in
            // The metric is the chart's title and the parameters are named in its caption: a cell
            // says their values, its mean with its unit, and the share of worlds that never
            // bounced only where some did not.
            let never = 1 - Double(p.metrics["top.bounce1"]!.count) / Double(p.replicas)
            return "\(Text.value(p.parameters[0])), \(Text.value(p.parameters[1])): mean "
                + "\(Text.value(p.metrics["top.bounce1"]!.mean)) pt"
                + (never > 0 ? "; \(ReportModel.percent(never)) of worlds never bounced" : "")
        }
        #expect(titles.count == 6 && Set(titles) == Set(expected), "\(titles)")
        #expect(html.contains("Each cell averages 1 point."))
    }

    @Test func benchColoursComeInOneFamilyPerEngine() {
        // Family 0 is #4e79a7 = (78, 121, 167). Darkest: 65 % of each channel = (50.7, 78.65, 108.55);
        // lightest: 45 % of the way to white = (157.65, 181.3, 206.6).
        #expect(ReportKit.shade(family: 0, step: 0, of: 2) == "#334f6d")
        #expect(ReportKit.shade(family: 0, step: 1, of: 2) == "#9eb5cf")
        #expect(ReportKit.shade(family: 1, step: 0, of: 1) != ReportKit.shade(family: 0, step: 0, of: 1))
    }

    @Test func randomSweepsPlotParametersNotPointNumbers() throws {
        var rng = Rand(3)
        let combos = (0..<300).map { _ in [rng.next(), 0.5 + rng.next() * 2] }
        let (summary, worlds) = Fixture.make(name: "rnd", names: ["bouncy.elasticity", "bouncy.density"], combos: combos,
                                             replicas: 2, kind: "random", items: ["top", "bottom"], seed: 1)
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        try checkPage(html)
        #expect(html.contains("<section id=\"parallel\">"))
        let model = ReportModel(summary: summary, sample: WorldSample(worlds))
        let head = try #require(model.headline?.column)
        let pc = try #require(try charts(html, titled: "Every point across").first)
        // Every point is a line: never-bounced points at height 0.
        #expect(try elements(pc, tag: "polyline", cls: "pc").count == SweepViews.valued(summary.points, head, .builtIn, runSeconds: model.runSeconds).count)
        #expect(SweepViews.valued(summary.points, head, .builtIn, runSeconds: model.runSeconds).count == 300)
        for name in ["bouncy.elasticity", "bouncy.density"] {
            let slice = try #require(try charts(html, titled: "bottom.contacts vs \(name)").first)
            #expect(try elements(slice, tag: "circle", cls: "pt").count == 300 + SweepViews.bins)
        }
        let bounced = summary.points.filter { $0.metrics["bottom.bounce1"] != nil }.count
        #expect(bounced > 250 && bounced < 300)   // the least elastic points never bounce
        let spread = try #require(try charts(html, titled: "bottom.bounce1: spread per point").first)
        #expect(try elements(spread, tag: "circle", cls: "pt").count == bounced)
        #expect(try axisLabels(spread).contains { $0.hasPrefix("bouncy.") })
        let allLabels = try svgBlocks(html).flatMap(axisLabels)
        #expect(!allLabels.contains("sweep point"))   // no axis of point numbers
        // Binned pair map over the two parameters.
        #expect(try charts(html, titled: "bottom.bounce1: pair map").count == 1)
    }

    @Test func everyChartOfAMetricWorldsCanLackStatesItsNeverShare() throws {
        // The fixture's bottom view never rests above elasticity 0.97 (the last of 16 values) and
        // never bounces at elasticity 0: each chart of those metrics says so, and none drops them.
        let (summary, worlds) = Self.grid
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        let figures = html.components(separatedBy: "<figure").dropFirst()
        var checked = 0
        for (metric, words) in [("bottom.rest_time", "never came to rest"), ("bottom.bounce1", "never bounced")] {
            for f in figures where f.contains("aria-label=\"\(metric) vs ") || f.contains("aria-label=\"\(metric): pair map") {
                #expect(f.contains(words), "\(metric): \(f.suffix(400))")
                checked += 1
            }
        }
        #expect(checked == 2 * (3 + 3))   // three slices and three pair maps each
        // By elasticity: 100 % of the worlds at 1 never rest, none below; the line keeps every point.
        #expect(html.contains("Worlds that never came to rest in the run, by bouncy.elasticity: 100 % at 1, none at the other 15 values"))
        let slice = SweepViews.slice(points: summary.points, parameter: 0, column: "bottom.rest_time", .builtIn, binned: false, runSeconds: 5)
        #expect(slice.levels.count == 16 && slice.levels.last?.mean == 5 && slice.levels.last?.never == 1)
    }

    @Test func logSpacedParametersGetALogAxis() throws {
        // A decade apart, doubling (0.5, 1, 2: geometric, though within a decade), evenly spaced.
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", [0.01, 0.1, 1]), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 0.5, 1])], replicas: 1)
        let model = ReportModel(summary: summary, sample: WorldSample())
        #expect(model.isLogSpaced(0) && model.isLogSpaced(1) && !model.isLogSpaced(2))
        let html = ReportWriter.html(summary: summary)
        let slice = try #require(try charts(html, titled: "bottom.contacts vs bouncy.elasticity").first)
        // A decade per third of the axis: 0.01, 0.1 and 1 evenly apart (the mean line's dots: the
        // points' dots are jittered about them).
        let xs = try XMLDocument(xmlString: slice).nodes(forXPath: "//g[@class='series'][@data-series='mean']/circle[@class='pt']").compactMap {
            ($0 as? XMLElement)?.attribute(forName: "cx")?.stringValue.flatMap(Double.init)
        }
        let levels = Array(Set(xs)).sorted()
        #expect(levels.count == 3 && abs((levels[1] - levels[0]) - (levels[2] - levels[1])) < 0.05)
        #expect(html.contains("bouncy.elasticity is geometric (each value a constant multiple of the one before): a log axis, ticked at the swept values."))
        // Ticks at the swept values, not at 10^(k/2) (0.0316, 0.316 …).
        func ticks(_ chart: String) throws -> Set<String> {
            Set(try XMLDocument(xmlString: chart).nodes(forXPath: "//text[@class='tick']").compactMap { $0.stringValue })
        }
        #expect(try ticks(slice).isSuperset(of: ["0.01", "0.1", "1"]) && !(try ticks(slice)).contains("0.0316"))
        let density = try #require(try charts(html, titled: "bottom.contacts vs bouncy.density").first)
        #expect(try ticks(density).isSuperset(of: ["0.5", "1", "2"]))
        #expect(html.contains("bouncy.density is geometric"))
        #expect(!html.contains("shove.magnitude is geometric"))
    }

    @Test func theHistogramSaysHowManyWorldsNeverBounced() throws {
        let (summary, worlds) = Self.grid
        let never = worlds.filter { $0.items[1].bounceHeights.isEmpty }.count
        #expect(never > 0)   // elasticity 0 and the lowest ones: no rebound
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        #expect(html.contains("\(never) of them ("))
        let hist = try #require(try charts(html, titled: "bottom.bounce1: \(worlds.count - never) of \(worlds.count) sampled worlds").first)
        let bars = try XMLDocument(xmlString: hist).nodes(forXPath: "//rect/title").count
        #expect(bars > 0)
    }

    @Test func oneParameterHasSlicesButNoPairs() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 8))], replicas: 1)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(html.contains("<section id=\"views\">"))
        #expect(try charts(html, titled: "bottom.bounce1 vs bouncy.elasticity").count == 1)
        #expect(try charts(html, titled: "bottom.bounce1: ").isEmpty)
        #expect(!html.contains("<section id=\"parallel\">") && !html.contains("<section id=\"distributions\">"))
        #expect(!html.contains("<section id=\"sensitivity\">"))
        let md = ReportWriter.markdown(summary: summary)
        #expect(md.contains("## The whole sweep") && md.contains("### bottom.bounce1"))
    }

    @Test func noParametersGiveASinglePointTable() throws {
        let (summary, _) = Fixture.sweep(axes: [], replicas: 3)
        #expect(summary.points.count == 1)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(html.contains("<section id=\"point\">"))
        for id in ["importance", "views", "extremes", "sensitivity"] { #expect(!html.contains("<section id=\"\(id)\">")) }
        let md = ReportWriter.markdown(summary: summary)
        #expect(md.contains("## Results of the single point") && md.contains("| bottom.bounce1 (pt) |"))
        #expect(!md.contains("## Sensitivity"))
    }

    @Test func hugeSweepsAreCappedAndSaySo() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 60)), ("bouncy.density", Fixture.linspace(0.5, 3, 50))],
                                         replicas: 2)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        let map = try #require(try charts(html, titled: "bottom.contacts: ").first)
        #expect(try elements(map, tag: "rect", cls: "cell").count == ReportModel.maxHeatmapSide * ReportModel.maxHeatmapSide)
        #expect(html.contains("At most 40 values per axis"))
        // The slices still use all 3000 points: more than DensityLayer.above, so drawn as their
        // density (every point counted) beside the 50 level marks, not a dot each.
        let slice = try #require(try charts(html, titled: "bottom.contacts vs bouncy.density").first)
        #expect(try elements(slice, tag: "circle", cls: "pt").count == 50)
        #expect(slice.contains("<g class=\"density\" data-points=\"3000\">"))
    }

    @Test func bigRandomSweepsDrawAtMostMaxDotsButAverageEveryPoint() throws {
        var rng = Rand(9)
        let combos = (0..<5000).map { _ in [rng.next(), rng.next()] }
        let (summary, _) = Fixture.make(name: "big", names: ["bouncy.elasticity", "shove.magnitude"], combos: combos,
                                        replicas: 1, kind: "random", items: ["top", "bottom"], seed: 2)
        let html = ReportWriter.html(summary: summary)
        let slice = try #require(try charts(html, titled: "top.contacts vs shove.magnitude").first)
        // 5000 points: their density, every one counted, and the 10 bins' level marks.
        #expect(try elements(slice, tag: "circle", cls: "pt").count == SweepViews.bins)
        #expect(slice.contains("<g class=\"density\" data-points=\"5000\">"))
        #expect(html.contains("Shade: how many of the 5000 points fall in each cell"))
        let levels = SweepViews.slice(points: summary.points, parameter: 1, column: "top.contacts", .builtIn, binned: true, runSeconds: 5).levels
        #expect(levels.reduce(0) { $0 + $1.points } == 5000)
        let pc = try #require(try charts(html, titled: "Every point across").first)
        #expect(try elements(pc, tag: "polyline", cls: "pc").count == ReportModel.maxParallelLines)
    }

    @Test func extremesPrintTheCommandThatReplaysTheWorld() throws {
        var (summary, _) = Self.grid
        summary.run.commandLine = ["run", "Sweeps/twin-drop.yaml", "--out", "runs/x"]
        let model = ReportModel(summary: summary, sample: WorldSample())
        let ex = try #require(model.extremes().first { $0.column == "bottom.bounce1" })
        let world = model.summary.points[ex.high.0].point * 5
        let html = ReportWriter.html(summary: summary)
        let commands = try XMLDocument(xmlString: "<r>" + html.components(separatedBy: "<code>").dropFirst().map { "<code>" + $0.components(separatedBy: "</code>")[0] + "</code>" }.joined() + "</r>")
            .nodes(forXPath: "//code").map { code in (code.children ?? []).map { $0.stringValue ?? "" }.filter { !$0.isEmpty && $0 != " " }.joined(separator: " ") }
        #expect(commands.contains("worldsweep trace Sweeps/twin-drop.yaml --world \(world)"))
        #expect(html.contains("<span class=\"w\">Sweeps/<wbr/>twin-drop.yaml</span>"))   // a path wraps at its folders
        #expect(ReportWriter.markdown(summary: summary).contains("`worldsweep trace Sweeps/twin-drop.yaml --world \(world)`"))
        // Without a replay the page says where the pictures come from.
        #expect(html.contains("drawn when `worldsweep run` writes the report"))
    }

    @Test func extremeWorldsAreReplayedAndDrawn() throws {
        let root = Repository.root
        let file = root.appendingPathComponent("Sweeps/twin-drop.yaml").path
        let scene = try SceneFile.load(path: file)
        // A summary over the first 36 worlds of the real sweep (replicas 1: world = point).
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 4)), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 0.5, 1])], replicas: 1)
        let model = ReportModel(summary: summary, sample: WorldSample(), replay: WorldReplay(scene: scene, file: "Sweeps/twin-drop.yaml"))
        let drawn = model.trajectories()
        #expect(drawn.count == ReportModel.maxTrajectories)
        // World 0 of the sweep: elasticity 0, no push; the two views fall side by side.
        let t = try #require(Trajectory.replay(WorldReplay(scene: scene, file: file), world: 0))
        let bottom = try #require(t.items.first { $0.name == "bottom" })
        // The bottom view starts where the file puts it (no jitter on it) and never sinks through
        // the ledge at y = 468: its centre stays above 468 − 25 (half its side), give or take the slop.
        #expect(bottom.states[0].x == 220 && bottom.states[0].y == 50)
        #expect(bottom.states.map(\.y).max()! < 443.5 && bottom.states.map(\.y).max()! > 440)
        // Its first contact is with the ledge, on the ledge's line.
        let first = try #require(t.contacts.first { $0.item == "bottom" })
        #expect(first.other == "ledge" && abs(first.y - 468) < 1)
        let html = ReportWriter.html(summary: summary, replay: WorldReplay(scene: scene, file: "Sweeps/twin-drop.yaml"))
        try checkPage(html)
        let pictures = try charts(html, titled: "world ")
        #expect(pictures.count == ReportModel.maxTrajectories + 1)   // + the animated one
        #expect(try elements(pictures[1], tag: "polyline", cls: "path").count == 2)
        #expect(try elements(pictures[1], tag: "circle", cls: "contact").count == drawn[0].0.contacts.count)
        #expect(pictures[0].components(separatedBy: "<animateMotion").count - 1 == 2)
    }

    @Test func snapPointsAndAnchorsAreDrawn() throws {
        let root = Repository.root
        for (name, point, item) in [("snap", Point(x: 100, y: 284), "view"), ("spring-card", Point(x: 160, y: 140), "card")] {
            let file = root.appendingPathComponent("Sweeps/\(name).yaml").path
            let t = try #require(Trajectory.replay(WorldReplay(scene: try SceneFile.load(path: file), file: file), world: 0))
            #expect(t.anchors.count == 1 && t.anchors[0].point == point && t.items[t.anchors[0].item].name == item)
            let svg = TrajectoryChart(title: "world 0", trajectory: t).svg()
            #expect(svg.contains("class=\"anchor\"") && svg.contains("class=\"tether\""))
        }
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
        #expect(html.contains("a&lt;b.bounce1 vs") && !html.contains("a<b"))
        let md = ReportWriter.markdown(summary: summary)
        #expect(!md.contains("<script>") && !md.contains("<b>"))
    }

    /// Column names break after each dot, escaped; Markdown cells escape what tables and pages
    /// read (names without any of it pass as they are).
    @Test func namesBreakAfterDotsAndCellsEscape() {
        #expect(HTML.breakable("top.contacts.ledge") == "top.<wbr>contacts.<wbr>ledge")
        #expect(HTML.breakable("a<b.bounce1") == "a&lt;b.<wbr>bounce1")
        #expect(HTML.breakable("é.ü") == "é.<wbr>ü" && HTML.breakable("plain") == "plain")
        #expect(Text.markdownCell("top.bounce1") == "top.bounce1")
        #expect(Text.markdownCell("a|b <c> & d\ne") == "a\\|b &lt;c&gt; &amp; d e")
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
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(400))), to: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.contains("report.md") && files.contains("report.html"))
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        // The page as `html` renders it, with the link to importance.csv, written beside it.
        let links = "<p class=\"files\">Data: <a href=\"importance.csv\">importance.csv</a></p>\n"
        #expect(html.contains(links))
        #expect(html.replacingOccurrences(of: links, with: "") == ReportWriter.html(summary: summary, sample: WorldSample(Array(worlds.prefix(400)))))
    }

    @Test func theReportLinksTheDataFilesBesideIt() throws {
        let dir = Scratch.directory("report-links")
        let (summary, worlds) = Self.grid
        // The files that are there are linked, worlds.csv and sweep.yaml, not points.csv; and
        // importance.csv, which the writer writes beside the pages.
        for name in ["worlds.csv", "sweep.yaml"] { try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(10))), to: dir)
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        let line = try #require(html.split(separator: "\n").first { $0.hasPrefix("<p class=\"files\">") })
        let para = try XMLDocument(xmlString: String(line)).rootElement()
        let hrefs = (para?.elements(forName: "a") ?? []).compactMap { $0.attribute(forName: "href")?.stringValue }
        #expect(hrefs == ["worlds.csv", "importance.csv", "sweep.yaml"])
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(md.contains("Data: [worlds.csv](worlds.csv) · [importance.csv](importance.csv) · [sweep.yaml](sweep.yaml)"))
        // Files the run is still putting in place (`run` writes the report beside them) are
        // linked too, in the page's order, though not there yet.
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(10))), to: dir,
                               comingFiles: ["summary.json", "points.csv"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/summary.json"))
        let coming = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(coming.contains("Data: [worlds.csv](worlds.csv) · [points.csv](points.csv) · [summary.json](summary.json) · [importance.csv](importance.csv) · [sweep.yaml](sweep.yaml)"))
    }
}

/// A scatter drawn as density: each point lands in its cell, and the fullest cell is darkest.
@Suite struct DensityLayerTests {
    @Test func cellsCountTheirPointsAndTheFullestIsDarkest() throws {
        let frame = ChartFrame(width: 100 + 48 * 4, height: 100 + 36 * 4, left: 50, right: 50, top: 50, bottom: 50)
        // 4 px cells; the scales map 0…48 × 0…36 onto the plot (y down, as on the page).
        let xs = LinearScale(domain: (0, 48), range: (frame.plotLeft, frame.plotRight))
        let ys = LinearScale(domain: (0, 36), range: (frame.plotTop, frame.plotBottom))
        // 100 points in cell (1, 1), 4 in (10, 20), 1 in (47, 35): three cells.
        let points = Array(repeating: LinePoint(x: 1.5, y: 1.5), count: 100) + Array(repeating: LinePoint(x: 10.5, y: 20.5), count: 4)
            + [LinePoint(x: 47.5, y: 35.5)]
        let svg = DensityLayer.svg(points, xScale: xs, yScale: ys, frame: frame, color: "#123456")
        #expect(svg.contains("data-points=\"105\""))
        #expect(svg.components(separatedBy: "M").count - 1 == 3)
        // The fullest cell (at 54, 54) in the darkest shade; 4 of 100 is sqrt 0.2 → step 1; 1 of 100 → step 0.
        #expect(svg.contains("fill-opacity=\"1\" d=\"M54 54h4v4h-4z\""))
        #expect(svg.contains("fill-opacity=\"0.43\" d=\"M90 130h4v4h-4z\""))
        #expect(svg.contains("fill-opacity=\"0.29\" d=\"M238 190h4v4h-4z\""))
    }
}
