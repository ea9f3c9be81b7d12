import Foundation
import Testing
@testable import WorldSweepReport
import WorldSweepRun

/// The levels a report works out once per parameter group a grid's slices and pair maps by index;
/// what they group must be what hashing each view's own values groups, value for value.
@Suite struct ParameterLevelsTests {
    /// A 7 × 45 × 3 grid (45 values: more than a pair map's side).
    static func points(second: [Double] = (0..<45).map { Double($0) / 4 }) -> [PointSummary] {
        var points: [PointSummary] = []
        for a in [0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 1.0] {
            for b in second {
                for c in [2.0, 1.0, 3.0] {
                    let n = points.count
                    let metrics = ["top.contacts": MetricStats(oneValue: Double((n * 7) % 11) + a * 10 + b - c)]
                    points.append(PointSummary(point: n, parameters: [a, b, c], replicas: 1, failedReplicas: 0, metrics: metrics))
                }
            }
        }
        return points
    }

    @Test func levelsAreTheSortedDistinctValuesAndEachPointsPlace() throws {
        let points = Self.points()
        let levels = ParameterLevels(points.map(\.parameters), parameter: 0)
        #expect(levels.values == [0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0])
        let index = try #require(levels.index)
        for (i, p) in points.enumerated() { #expect(levels.values[Int(index[i])] == p.parameters[0]) }
        // Only the points given: the first point has a = 0.5, the 136th a = 0.1.
        #expect(levels.values(of: [0, 135], index: index) == [0.1, 0.5])
        // A point without the parameter has no place.
        var short = points
        short[4].parameters = [0.5]
        #expect(ParameterLevels(short.map(\.parameters), parameter: 2).index?[4] == -1)
    }

    /// A NaN or a −0 among the values: no index, so views hash as before (a set keeps one of 0
    /// and −0, whichever it met first, and never finds a NaN).
    @Test func nanAndNegativeZeroLeaveNoIndex() {
        #expect(ParameterLevels(Self.points(second: [0, 1, -0.0]).map(\.parameters), parameter: 1).index == nil)
        #expect(ParameterLevels(Self.points(second: [0, .nan]).map(\.parameters), parameter: 1).index == nil)
        #expect(ParameterLevels(Self.points(second: [0, 1]).map(\.parameters), parameter: 1).index != nil)
    }

    /// Slices and pair maps made through the levels are those made by hashing, over every point and
    /// over a third of them (as for a metric only some points have), capped or not.
    @Test func viewsThroughLevelsAreTheViewsMadeByHashing() {
        let points = Self.points()
        let levels = (0..<3).map { ParameterLevels(points.map(\.parameters), parameter: $0) }
        let column = "top.contacts"
        let every = SweepViews.valued(points, column, .builtIn, runSeconds: 5)
        #expect(every.count == points.count)
        for valued in [every, every.filter { $0.0 % 3 == 1 }] {
            let shares = SweepViews.neverShares(valued, of: points, column, .builtIn)
            for j in 0..<3 {
                let hashed = SweepViews.slice(valued: valued, of: points, never: shares, parameter: j, column: column, binned: false)
                let indexed = SweepViews.slice(valued: valued, of: points, never: shares, parameter: j, column: column, binned: false, levels: levels[j])
                #expect(indexed.levels.count == hashed.levels.count)
                #expect(indexed.levels.map { [$0.x, $0.mean, $0.min, $0.max, Double($0.points)] }
                        == hashed.levels.map { [$0.x, $0.mean, $0.min, $0.max, Double($0.points)] })
                #expect(indexed.dots.map { [$0.x, $0.y, Double($0.point)] } == hashed.dots.map { [$0.x, $0.y, Double($0.point)] })
            }
            for (x, y) in [(0, 1), (0, 2), (1, 2)] {
                for side in [40, 5] {
                    let hashed = SweepViews.pair(valued: valued, of: points, never: shares, x: x, y: y, column: column, binned: false, maxSide: side)
                    let indexed = SweepViews.pair(valued: valued, of: points, never: shares, x: x, y: y, column: column, binned: false, maxSide: side,
                                                  levels: (levels[x], levels[y]))
                    #expect(indexed.xValues == hashed.xValues && indexed.yValues == hashed.yValues)
                    #expect(indexed.capped == hashed.capped)
                    #expect(indexed.cells.map { $0.map { $0.map { [$0.mean, Double($0.points)] } ?? [] } }
                            == hashed.cells.map { $0.map { $0.map { [$0.mean, Double($0.points)] } ?? [] } })
                }
            }
        }
        // The 45-value axis is capped at a side of 40 (and of 5): the views really were capped.
        let contacts = SweepViews.valued(points, "top.contacts", .builtIn, runSeconds: 5)
        let capped = SweepViews.pair(valued: contacts, of: points, never: SweepViews.neverShares(contacts, of: points, "top.contacts", .builtIn), x: 0, y: 1,
                                     column: "top.contacts", binned: false, maxSide: 40, levels: (levels[0], levels[1]))
        #expect(capped.capped && capped.yValues.count == 40)
    }
}
