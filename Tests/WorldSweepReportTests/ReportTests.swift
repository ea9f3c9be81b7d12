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

/// The report's charts: every parameter on an axis, every point drawn, values placed by the axes.
@Suite struct ReportTests {
    @Test func everySweptParameterIsOnAnAxisAndEveryPointIsCharted() throws {
        let (summary, worlds) = ReportGrid.grid
        let html = ReportWriter.html(summary: summary, sample: WorldSample(Array(worlds.prefix(200))))
        try checkPage(html)
        for id in ["importance", "views", "parallel", "distributions", "extremes", "run"] { #expect(html.contains("<section id=\"\(id)\">")) }
        #expect(!html.contains("<section id=\"sensitivity\">"))   // the decomposition says it, once
        // A table of contents linking every section and each charted key metric.
        for id in ["importance", "views", "parallel", "distributions", "extremes", "run", "v-bottom.bounce1"] { #expect(html.contains("<a href=\"#\(id)\">")) }
        let labels = try svgBlocks(html).flatMap(axisLabels)
        for (name, _) in ReportGrid.axes { #expect(labels.contains { $0.hasPrefix(name) }, "\(name) is on no axis") }
        // A slice per key metric and parameter, each with a dot for every one of the 144 points.
        for (name, _) in ReportGrid.axes {
            let slice = try #require(try charts(html, titled: "bottom.contacts vs \(name)").first)
            #expect(try elements(slice, tag: "circle", cls: "pt").count == 144 + Set(summary.points.map { $0.parameters[ReportGrid.axes.firstIndex { $0.0 == name }!] }).count)
            #expect(try axisLabels(slice).contains { $0.hasPrefix(name) })
        }
        // Pair maps: every pair of the three parameters, averaged over the third.
        let pairs = try charts(html, titled: "bottom.contacts: pair map")
        #expect(pairs.count == 3)
        #expect(html.contains("averaged over shove.magnitude"))
    }

    @Test func sliceLinesAverageOverTheOtherParameters() throws {
        let (summary, _) = ReportGrid.grid
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
        var (summary, worlds) = ReportGrid.grid
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
        let interLegend = try XMLDocument(xmlString: inter).nodes(forXPath: "//g[@class='legend']/text[@class='tick']").map { $0.stringValue ?? "" }
        #expect(interLegend.count == 1 && interLegend[0].hasPrefix("0.5, 1, 2 coincide"))
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
        let (summary, worlds) = ReportGrid.grid
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
        let slice = SweepViews.slice(points: summary.points, parameter: 0, column: "bottom.rest_time", .builtIn, binned: false, runSeconds: 5)
        #expect(slice.levels.count == 16 && slice.levels.last?.mean == 5 && slice.levels.last?.never == 1)
        #expect(slice.levels.dropLast().allSatisfy { $0.never == 0 })
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
        #expect(html.contains("bouncy.elasticity is geometric"))
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
        let (summary, worlds) = ReportGrid.grid
        let never = worlds.filter { $0.items[1].bounceHeights.isEmpty }.count
        #expect(never > 0)   // elasticity 0 and the lowest ones: no rebound
        let html = ReportWriter.html(summary: summary, sample: WorldSample(worlds))
        #expect(html.contains("\(never) of them ("))
        let hist = try #require(try charts(html, titled: "bottom.bounce1: \(worlds.count - never) of \(worlds.count) sampled worlds").first)
        let bars = try XMLDocument(xmlString: hist).nodes(forXPath: "//rect/title").count
        #expect(bars > 0)
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
}

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
