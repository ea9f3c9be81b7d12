// A big sweep's report reads every k-th point (SummaryBuilder.keepStride): its page says so where
// it counts the points, and counts failures over the whole sweep, not over the points it read.
import Testing
import WorldSweepRun
@testable import WorldSweepReport

@Suite struct KeptPointsReportTests {
    static func sweep() -> SweepSummary {
        Fixture.sweep(axes: [("bouncy.elasticity", [0.2, 0.5, 0.8]), ("bouncy.density", [0.5, 1, 2])], replicas: 1).0
    }

    @Test func theRunTableSaysWhichPointsTheReportReads() {
        var s = Self.sweep()
        s.run.worlds = 63
        s.run.sweepPoints = 63
        s.run.pointStride = 7
        s.run.failedWorlds = 5
        let m = ReportModel(summary: s, sample: WorldSample())
        let header = Dictionary(uniqueKeysWithValues: m.header)
        #expect(header["Points"] == "63 (grid sweep; the report reads every 7th point (9); worlds.csv has every world)")
        #expect(header["Failed worlds"] == "5")
        #expect(m.runSummary.hasPrefix("63 worlds, 63 points × 1 replica,") && m.runSummary.hasSuffix("; the report reads every 7th point (9); worlds.csv has every world"))
        #expect(MarkdownReport.render(m).contains("(every point the report reads counts: every 7th of the sweep's)"))
        #expect(HTMLReport.viewsHead(m).contains("using the 9 points the report reads (every 7th of 63)"))
    }

    /// A summary of every point (or one from before the counts were kept) reads as before.
    @Test func aSummaryOfEveryPointSaysNothingMore() {
        for stride in [nil, 1] {
            var s = Self.sweep()
            s.run.worlds = 9
            s.run.sweepPoints = stride.map { _ in 9 }
            s.run.pointStride = stride
            let m = ReportModel(summary: s, sample: WorldSample())
            let header = Dictionary(uniqueKeysWithValues: m.header)
            #expect(header["Points"] == "9 (grid sweep)" && header["Failed worlds"] == "0")
            #expect(m.keptPointsNote == nil && MarkdownReport.render(m).contains("(every point counts)"))
            #expect(HTMLReport.viewsHead(m).contains("using all 9 points"))
        }
    }

    /// The pages say "exact on this full grid" only of shares had on a full grid: every k-th
    /// point of a grid is no grid, and its shares are a fitted surrogate's.
    @Test func theMethodLineFollowsTheSharesMade() {
        let axes = [("bouncy.elasticity", (0..<10).map { 0.1 * Double($0) }), ("bouncy.density", (0..<10).map { 0.5 + 0.2 * Double($0) })]
        let whole = Fixture.sweep(axes: axes, replicas: 1).0
        let full = ReportModel(summary: whole, sample: WorldSample())
        #expect(full.importanceMethod == .grid)
        #expect(full.analyses.contains { $0.importance?.method == .grid })
        var every3rd = whole
        every3rd.points = stride(from: 0, to: whole.points.count, by: 3).map { whole.points[$0] }
        every3rd.run.sweepPoints = whole.points.count
        every3rd.run.pointStride = 3
        let read = ReportModel(summary: every3rd, sample: WorldSample())
        #expect(read.importanceMethod == .surrogate)
        #expect(read.analyses.contains { if case .surrogate? = $0.importance?.method { true } else { false } })
        #expect(MarkdownReport.render(read).contains("; of a fitted quadratic surrogate on this sweep (R² stated)."))
        #expect(MarkdownReport.render(full).contains("; exact on this full grid (functional ANOVA)."))
    }

    /// With no headline, the parallel-coordinates chart leads with a metric that varies, not with a
    /// key metric that is the same at every point (it drew every line to that one value).
    @Test func theParallelChartLeadsWithAMetricThatVaries() {
        var s = Fixture.sweep(axes: [("bouncy.elasticity", [0.2, 0.5, 0.8]), ("bouncy.density", [0.5, 1, 2]),
                                     ("shove.magnitude", [0, 0.5, 1, 1.5])], replicas: 1).0
        for i in s.points.indices {
            let push = s.points[i].parameters[2]
            let one = { (v: Double) in MetricStats(count: 1, mean: v, std: 0, min: v, max: v) }
            s.points[i].metrics = ["top.contacts": one(0), "top.bounces": one(0), "bottom.contacts": one(0), "bottom.bounces": one(0),
                                   "top.x": one(60 + 48.3 * push), "top.y": one(30), "bottom.x": one(220), "bottom.y": one(50)]
        }
        let m = ReportModel(summary: s, sample: WorldSample())
        #expect(m.headline == nil)
        #expect(m.keyColumns.first.flatMap(m.analysis)?.signal == .constant)
        let chart = HTMLReport.parallel(m)
        #expect(chart.contains("to its mean top.x on the right"))
    }

    @Test func ordinals() {
        #expect([1, 2, 3, 4, 7, 11, 12, 13, 21, 22, 23, 51, 101, 111, 112].map(Text.ordinal)
                == ["1st", "2nd", "3rd", "4th", "7th", "11th", "12th", "13th", "21st", "22nd", "23rd", "51st", "101st", "111th", "112th"])
    }
}
