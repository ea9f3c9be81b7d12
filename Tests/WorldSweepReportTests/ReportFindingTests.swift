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

/// What the report concludes from a sweep, and how its views follow the sweep's shape and size.
@Suite struct ReportFindingTests {
    @Test func theFindingNamesWhatDrivesTheBottomBounce() throws {
        let (summary, worlds) = ReportGrid.grid
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
        let density = try XMLDocument(xmlString: slice).nodes(forXPath: "//g[@class='density']").first as? XMLElement
        #expect(density?.attribute(forName: "data-points")?.stringValue == "5000")
        let levels = SweepViews.slice(points: summary.points, parameter: 1, column: "top.contacts", .builtIn, binned: true, runSeconds: 5).levels
        #expect(levels.reduce(0) { $0 + $1.points } == 5000)
        let pc = try #require(try charts(html, titled: "Every point across").first)
        #expect(try elements(pc, tag: "polyline", cls: "pc").count == ReportModel.maxParallelLines)
    }
}
