import Foundation
import Testing
import WorldSweepRun
import WorldSweepResults
@testable import WorldSweepReport

// Known answers for the report's rules, on synthetic points whose answer is worked out by hand:
// a partner some worlds never touched, an outcome no world reaches, a two-parameter sweep, a
// yes/no share, extremes of a metric worlds can lack, a question in the description.

/// One world per point over a grid of `a` × `b`; `values(a, b)` gives the point's metrics (a
/// missing key: the world has no value). `declared`: every metric column the run recorded.
private func grid(_ a: [Double], _ b: [Double], declared: [String], description: String = "",
                  partners: [String: [String]] = [:], values: (Double, Double) -> [String: Double]) -> SweepSummary {
    let names = MetricNames(declared)
    var points: [PointSummary] = []
    for x in a {
        for y in b {
            let v = values(x, y)
            let slots = declared.map { v[$0].map(MetricStats.init(oneValue:)) }
            points.append(PointSummary(point: points.count, parameters: [x, y], replicas: 1, failedReplicas: 0,
                                       metrics: PointMetrics(names: names, slots: slots)))
        }
    }
    var run = RunInfo(engine: "test", threads: 1, worlds: points.count, ticksPerWorld: 300, wallSeconds: 0.2, worldTicksPerSecond: 1)
    run.seconds = 5
    return SweepSummary(name: "rules", description: description, parameters: ["p.a", "p.b"], items: ["box"], partners: partners,
                        sweepKind: "grid", replicas: 1, points: points, run: run)
}

@Suite struct AnswerRulesTests {
    @Test func aPartnerNeverTouchedCountsAsZeroContacts() throws {
        // Contacts with the wall: 4 where a = 1, none (no row, no value) where a = 0. With the
        // zeros the whole variation is a's (the mean is 0 or 4); leaving the zeros out, every
        // point left has 4, a constant with nothing to say, over half the points.
        let s = grid([0, 1], [0, 1, 2, 3], declared: ["box.contacts", "box.contacts.wall"], partners: ["box": ["wall"]]) { a, b in
            var v = ["box.contacts": 1 + 4 * a + 0.1 * b]
            if a == 1 { v["box.contacts.wall"] = 4 }
            return v
        }
        let model = ReportModel(summary: s, sample: WorldSample())
        let wall = try #require(model.analysis("box.contacts.wall"))
        let d = try #require(wall.importance)
        #expect(d.points == 8 && d.method == .grid)
        #expect(abs(d.mains[0]! - 1) < 1e-12 && d.mains[1]! == 0)
        #expect(model.valued("box.contacts.wall").map(\.1) == [0, 0, 0, 0, 4, 4, 4, 4])
        // The same shares in importance.csv, and no never-share is made of a partner not touched.
        #expect(ImportanceCSV.render(model).contains("box.contacts.wall,p.a,main,1\n"))
        #expect(model.neverShare("box.contacts.wall") == nil)
    }

    @Test func anOutcomeNoWorldReachesIsSaidFirst() throws {
        // No world comes to rest (box.rest_time recorded, empty everywhere): the page says so in
        // its findings and in the constants, and importance.csv has no row to say it with.
        let s = grid([0, 1], [0, 1, 2], declared: ["box.contacts", "box.rest_time"]) { a, b in ["box.contacts": a + b] }
        let model = ReportModel(summary: s, sample: WorldSample())
        #expect(model.unreachedOutcomes == ["In all 6 worlds box never came to rest in the 5 s run: box.rest_time has no value in any world."])
        let html = ReportWriter.html(summary: s)
        #expect(html.contains("<p class=\"finding\">In all 6 worlds box never came to rest in the 5 s run"))
        #expect(html.contains("Never reached: In all 6 worlds box never came to rest"))
        #expect(ReportWriter.markdown(summary: s).contains("- **In all 6 worlds box never came to rest"))
    }

    @Test func twoParametersHaveNoThreeWayTermAndResidueIsZero() throws {
        // y = a + b exactly: two main effects of one half each, no pair, and no "3+" term at all.
        let s = grid([0, 1, 2], [0, 1, 2], declared: ["box.contacts"]) { a, b in ["box.contacts": a + b] }
        let model = ReportModel(summary: s, sample: WorldSample())
        let d = try #require(model.analysis("box.contacts")?.importance)
        #expect(!d.hasHigherOrder && d.higherOrder == 0)
        #expect(d.pairs.allSatisfy { $0.share == 0 })
        #expect(!ImportanceCSV.render(model).contains("higher"))
        let html = ReportWriter.html(summary: s), md = ReportWriter.markdown(summary: s)
        #expect(!html.contains("3+ together") && !html.contains("three or more") && !md.contains("3+ together"))
        // A residue of 1e-16 is no share.
        var residue = d
        residue.pairs = [(0, 1, 1e-16)]
        #expect(residue.withoutResidue().pairs[0].share == 0)
    }

    @Test func aYesNoShareIsDrawnAsASharePerValueWithoutBands() throws {
        // One world per point: the never-share of each point is 0 or 1 (a world rests where a is
        // 0, or where a is 1 and b is 0). It leads, and its chart draws the share at each value of
        // a (0 and 3/4) and no min–max band from 0 to 1.
        let s = grid([0, 1], [0, 1, 2, 3], declared: ["box.contacts", "box.rest_time"]) { a, b in
            var v: [String: Double] = ["box.contacts": 1]
            if a == 0 || b == 0 { v["box.rest_time"] = 1 + 0.1 * b }
            return v
        }
        let model = ReportModel(summary: s, sample: WorldSample())
        #expect(model.headlines.first?.column == "box.never_rest")
        let html = ReportWriter.html(summary: s)
        let chart = try #require(try charts(html, titled: "box.never_rest vs p.a").first)
        #expect(!chart.contains("class=\"band\""))
        #expect(html.contains("Each world is a yes or a no, so no band or dots are drawn."))
    }

    @Test func extremesOfATimeAreOverTheWorldsThatReachedIt() throws {
        // box.rest_time: 2 s at a = 0, 4 s at a = 1 where b = 0; never elsewhere at a = 1. The
        // highest rest is 4 s (not the run's 5 s a never counts as), the lowest 2 s; the points
        // with no rest are left out and counted.
        let s = grid([0, 1], [0, 1], declared: ["box.contacts", "box.rest_time"]) { a, b in
            var v = ["box.contacts": a + b]
            if a == 0 { v["box.rest_time"] = 2 } else if b == 0 { v["box.rest_time"] = 4 }
            return v
        }
        let model = ReportModel(summary: s, sample: WorldSample())
        let rest = try #require(model.extremes().first { $0.column == "box.rest_time" })
        #expect(rest.high.1 == 4 && s.points[rest.high.0].parameters == [1, 0])
        #expect(rest.low.1 == 2 && rest.lacking == 1)
        #expect(model.extremeNote(rest)?.contains("the 1 point where no world has one are left out") == true)
    }

    @Test func theDescriptionsQuestionLeads() throws {
        // "When it settles" is asked: settle time leads, although its support is below the others'.
        #expect(ReportModel.askedMetrics("a card on a spring; how far it overshoots, how often it swings through and when it settles")
                == ["overshoot", "oscillations", "settle_time"])
        #expect(ReportModel.askedMetrics("two views fall; the bottom one is far more elastic").isEmpty)
        #expect(ReportModel.askedMetrics("an interest in the rest of it").isEmpty == false)   // "rest" at a word's start
        #expect(ReportModel.askedMetrics("interesting").isEmpty)
        let s = grid([0, 1, 2, 3], [0, 1, 2, 3], declared: ["box.contacts", "box.rest_time"],
                     description: "when does the box come to rest?") { a, b in
            ["box.contacts": 10 * a, "box.rest_time": 1 + 0.2 * b + 0.1 * a * b]
        }
        let model = ReportModel(summary: s, sample: WorldSample())
        #expect(model.headlines.first?.column == "box.rest_time")
    }

    @Test func importanceBarsWrapTheirNotesAndSayPercentsAsTheTableDoes() {
        let note = "no effect up to 0.267, then rises from 5.84 pt to 233 pt"
        let chart = ImportanceChart(title: "What drives", bars: [.init(label: "bouncy.elasticity", share: 0.58, note: note, color: "#000"),
                                                                 .init(label: "bouncy.density", share: 0.004, note: "", color: "#000")])
        let svg = chart.svg()
        // Every word of the note is drawn (no "…"), and a share under 1 % reads as in the table.
        #expect(!svg.contains("…"))
        for word in note.split(separator: " ") { #expect(svg.contains(String(word))) }
        #expect(svg.contains(">under 1 %<") && !svg.contains(">0 %</text>\n<line"))
    }

    @Test func parallelCoordinatesKeepLegibleLabelsAt390Pixels() throws {
        // Three swept parameters: the parallel chart is drawn 1100 units wide. At 390 px a chart
        // that shrinks to its column (about 360 px) draws its 12 px ticks 4 px tall; in its own
        // scrolling box with a 900 px floor they stay at least 12 × 900 / 1100 ≈ 9.8 px.
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 6)), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 1])], replicas: 1)
        let html = ReportWriter.html(summary: summary)
        let figure = try #require(html.components(separatedBy: "<section id=\"parallel\">").dropFirst().first)
        #expect(figure.contains("<div class=\"sc pc\"><svg"))
        let chart = try #require(try charts(html, titled: "Every point across").first)
        let viewBox = try #require(chart.range(of: #"viewBox="0 0 ([\d.]+) "#, options: .regularExpression))
        let width = try #require(Double(chart[viewBox].dropFirst(13).dropLast()))
        func pixels(_ rule: String) -> Double? {
            guard let r = HTML.style.range(of: NSRegularExpression.escapedPattern(for: rule) + #"[\d.]+px"#, options: .regularExpression) else { return nil }
            return Double(HTML.style[r].dropFirst(rule.count).dropLast(2))
        }
        let floor = try #require(pixels(".sc.pc svg.chart{min-width:")), tick = try #require(pixels("svg .tick{font-size:"))
        #expect(HTML.style.contains(".sc{overflow-x:auto}"))
        #expect(tick * floor / width >= 9, "ticks \(tick * floor / width) px tall at 390 px")
    }
}
