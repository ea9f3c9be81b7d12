import Foundation
import Testing
@testable import WorldSweepReport
import WorldSweepResults

/// The Pareto chart draws from plain numbers (TuneChartData): what it marks follows from the
/// numbers alone.
@Suite struct TuneChartsTests {
    /// Front (1, 4), (2, 2), (4, 1): each axis spans 3 and the window reaches 3 beyond it, x in
    /// [−2, 7] and y in [−2, 7]. Of the feasible points, (3, 3) is inside and (10, 10) and (2, 9)
    /// are not: 4 of 6 drawn grey, 3 front points, the answer (2, 2) ringed.
    @Test func paretoChartKeepsTheFrontsWindowAndRingsTheAnswer() throws {
        let front: [[Double]] = [[4, 1], [1, 4], [2, 2]]
        let data = TuneChartData(objectiveNames: ["a.settle_time", "a.overshoot"],
                                 feasible: front + [[3, 3], [10, 10], [2, 9]], front: front, answer: [2, 2], best: nil)
        let chart = try #require(TuneCharts.paretoChart(data))
        #expect(chart.shown == 4 && chart.feasible == 6)
        #expect(chart.svg.components(separatedBy: "class=\"evaluated\"").count - 1 == 4)
        #expect(chart.svg.components(separatedBy: "class=\"front-point\"").count - 1 == 3)
        #expect(chart.svg.components(separatedBy: "class=\"answer\"").count - 1 == 1)
        // The front is joined in order of the first objective.
        let titles = chart.svg.components(separatedBy: "class=\"front-point\"").dropFirst().map { piece in
            String(piece[piece.range(of: "<title>")!.upperBound..<piece.range(of: "</title>")!.lowerBound])
        }
        #expect(titles == ["a.settle_time 1, a.overshoot 4", "a.settle_time 2, a.overshoot 2", "a.settle_time 4, a.overshoot 1"])
    }

    /// One objective, or an empty front: no chart.
    @Test func noChartWithoutTwoObjectivesAndAFront() {
        #expect(TuneCharts.paretoChart(TuneChartData(objectiveNames: ["a.y"], feasible: [[1]], front: [[1]],
                                                     answer: [1], best: nil)) == nil)
        #expect(TuneCharts.paretoChart(TuneChartData(objectiveNames: ["a.y", "a.x"], feasible: [], front: [],
                                                     answer: nil, best: nil)) == nil)
    }
}
