// The report's shortcuts (issue 29) against the plain rules they stand for, on constructed data:
// each must give what the plain rule gives, or a byte of a report would change.
import Foundation
import Testing
import WorldSweepRun
@testable import WorldSweepReport

@Suite struct ReportShortcutTests {
    /// Points with a table of names of their own (made from a dictionary each), points sharing
    /// one table (as a run files them) with names outside it, long and short: the table's columns
    /// are what looking each name up in each point gives.
    @Test func metricTableMatchesLookUpsByName() {
        let shared = ["top.bounce1", "bottom.contacts", "a.rather.long.metric.name.past.fifteen.bytes"]
        // More points than MetricTable.layOutFrom, so that the columns asked for are laid out.
        var points = (0..<100).map { i -> PointSummary in
            var metrics: [String: MetricStats] = [:]
            for (k, name) in shared.enumerated() where (i + k) % 3 != 0 {
                metrics[name] = MetricStats(count: 1, mean: Double(i * 10 + k), std: 0, min: 0, max: 0)
            }
            // Made per point: equal text in new storage each time.
            let partner = ["top", "contacts", "bottom", "made", "per", "point"].joined(separator: ".")
            if i % 2 == 0 { metrics[partner] = MetricStats(count: 1, mean: Double(-i), std: 0, min: 0, max: 0) }
            return PointSummary(point: i, parameters: [Double(i)], replicas: 1, failedReplicas: 0, metrics: metrics)
        }
        // Every third point over one shared table of three names, one of which it may lack.
        let names = MetricNames(shared)
        for i in stride(from: 0, to: points.count, by: 3) {
            var metrics = PointMetrics(names: names, slots: shared.map { points[i].metrics[$0] })
            for (key, stats) in points[i].metrics where !shared.contains(key) { metrics[key] = stats }
            points[i].metrics = metrics
        }
        #expect(points[3].metrics.names === points[6].metrics.names && points[4].metrics.names !== points[3].metrics.names)
        let all = Set(points.flatMap { $0.metrics.keys })
        // Read from the points, and laid out by metric (one asked for twice, one absent) on one
        // thread and on three.
        for table in [MetricTable(points), MetricTable(points, columns: ["top.bounce1", "absent", "top.bounce1", "bottom.contacts"]),
                      MetricTable(points, columns: all.sorted(), threads: 3)] {
            #expect(table.names == all && all.count == 4)
            for name in all {
                #expect(table.column(name)?.values == points.map { $0.metrics[name] }, "\(name)")
            }
            #expect(table.column("absent") == nil)
        }
        #expect(points.count >= MetricTable.layOutFrom)
        // Fewer points than that: read from the points as asked, the same columns.
        let few = Array(points.prefix(MetricTable.layOutFrom - 1))
        let small = MetricTable(few, columns: all.sorted(), threads: 2)
        for name in all { #expect(small.column(name)?.values == few.map { $0.metrics[name] }, "\(name)") }
    }

    /// Points that each hold one world are laid out as their values: the columns read back the
    /// statistics each point gives, bit for bit (−0, names without a value, names outside the
    /// shared table); a table with one point of another kind lays out statistics instead, alike.
    @Test func oneWorldTableMatchesLookUpsBitForBit() {
        let names = MetricNames(["a.x", "a.bounce1", "a.contacts.b"])
        let specials: [Double] = [-0.0, 0, .nan, 1e-300, -7.25]
        var points = (0..<200).map { i -> PointSummary in
            let values = (0..<3).map { k in (i + k) % 4 == 0 ? specials[(i + k) % specials.count] : Double(i) / 8 - Double(k) }
            let extra: [(key: String, value: MetricStats)] = i % 3 == 0 ? [("a.contacts.wall", MetricStats(oneValue: i % 2 == 0 ? -0.0 : Double(i)))] : []
            return PointSummary(point: i, parameters: [Double(i)], replicas: 1, failedReplicas: 0,
                                metrics: PointMetrics(names: names, oneWorldValues: values, extra: extra))
        }
        func bits(_ s: MetricStats?) -> [UInt64]? { s.map { [UInt64($0.count), $0.mean.bitPattern, $0.std.bitPattern, $0.min.bitPattern, $0.max.bitPattern] } }
        let all = ["a.x", "a.bounce1", "a.contacts.b", "a.contacts.wall"]
        func check(_ points: [PointSummary]) {
            for threads in [1, 3] {
                let table = MetricTable(points, columns: all, threads: threads)
                for name in all {
                    let column = table.column(name)!
                    let wrong = points.indices.filter { bits(column[$0]) != bits(points[$0].metrics[name]) }
                    #expect(wrong.isEmpty, "\(name), \(threads) threads")
                }
            }
        }
        check(points)
        #expect(points.contains { $0.metrics["a.x"]?.min.sign == .minus })
        points[7].metrics["a.x"] = MetricStats(count: 2, mean: 1, std: 1, min: 0, max: 2)
        #expect(!points[7].metrics.holdsOneWorld)
        check(points)
    }

    /// Asked for one set of points by several threads at once, the cache makes it once (the
    /// others wait for it); each other set is made once too, and every asker gets its set's value.
    @Test func madeOnceMakesEachSetOnce() {
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var made: [[Int]] = []
            func note(_ set: [Int]) { lock.lock(); made.append(set); lock.unlock() }
        }
        let cache = MadeOnce<[Int], Int>(), tally = Tally()
        let shared = [-1]
        let out = ParallelMap.map(24, threads: 4) { k -> Int in
            let set = k % 3 == 0 ? shared : [k % 6]
            return cache.value(set) {
                tally.note(set)
                usleep(3_000)
                return set == shared ? 99 : k % 6
            }
        }
        #expect(out == (0..<24).map { $0 % 3 == 0 ? 99 : $0 % 6 })
        #expect(tally.made.filter { $0 == shared }.count == 1)
        #expect(tally.made.sorted { $0[0] < $1[0] } == [shared, [1], [2], [4], [5]])
    }

    /// Laid out by ranges of points on several threads, a big table's columns are each point's
    /// statistics in the points' order, wherever a range starts or ends.
    @Test func metricTableRangesCoverEveryPoint() {
        let names = MetricNames(["a", "b", "c"])
        /// Point i's statistics of metric k: none on every 7th, else a mean that names both.
        func stats(_ i: Int, _ k: Int) -> MetricStats? {
            (i + k) % 7 == 0 ? nil : MetricStats(count: 1, mean: Double(i * 3 + k), std: 0, min: 0, max: 0)
        }
        let points: [PointSummary] = (0..<5_003).map { i in
            let slots: [MetricStats?] = (0..<3).map { k in stats(i, k) }
            return PointSummary(point: i, parameters: [Double(i)], replicas: 1, failedReplicas: 0,
                                metrics: PointMetrics(names: names, slots: slots))
        }
        for threads in [1, 2, 5] {
            let table = MetricTable(points, columns: ["c", "a", "b"], threads: threads)
            for (k, name) in ["a", "b", "c"].enumerated() {
                let column = table.column(name)!
                #expect(column.count == points.count)
                let wrong = (0..<points.count).filter { i in column[i] != stats(i, k) }
                #expect(wrong.isEmpty, "\(name), \(threads) threads")
            }
        }
    }

    /// The cells' sums per level and per pair of levels, walked as nested runs, are the sums of
    /// each cell at its level by division (`level(c, k)`), added in cell order: the same bits.
    @Test func levelSumsMatchDivision() {
        for sides in [[3, 4, 5], [16, 16, 16], [2, 7], [5], [3, 1, 4, 2]] {
            let grid = Grid(levels: sides.map { n in (0..<n).map(Double.init) })
            let v: [Double] = (0..<grid.cellCount).map { c in
                let wave: Double = sin(Double(c) * 1.7) * 1000
                return wave + Double(c % 7) / 3
            }
            for a in grid.levels.indices {
                var sums = [Double](repeating: 0, count: grid.levels[a].count)
                for c in 0..<grid.cellCount { sums[grid.level(c, a)] += v[c] }
                #expect(grid.levelSums(v, outer: a, inner: nil) == sums, "\(sides), \(a)")
                for b in grid.levels.indices where b > a {
                    let nb = grid.levels[b].count
                    var pair = [Double](repeating: 0, count: grid.levels[a].count * nb)
                    for c in 0..<grid.cellCount { pair[grid.level(c, a) * nb + grid.level(c, b)] += v[c] }
                    #expect(grid.levelSums(v, outer: a, inner: b) == pair, "\(sides), \(a) × \(b)")
                }
            }
        }
    }

    /// Binary search finds what a dictionary keyed by the values finds: present values, 0 for −0,
    /// nothing for absent values or NaN.
    @Test func positionMatchesDictionaryLookUp() {
        let sorted: [Double] = [-2, 0, 0.5, 1, 3, 10]
        let byValue = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
        for v in sorted + [-0.0, -3, 0.25, 11, .nan, .infinity] {
            #expect(SweepViews.position(of: v, in: sorted) == byValue[v], "\(v)")
        }
        #expect(SweepViews.position(of: 1, in: []) == nil)
    }

    /// A chart's axes come from the least and greatest finite values of its points, bands and
    /// domain, as min()/max() over those values gives them.
    @Test func layoutTakesTheFiniteExtremes() {
        var chart = LineChart(title: "t", xLabel: "x", yLabel: "y", legendTitle: "", series: [
            LineSeries(name: "a", color: "#000", points: [LinePoint(x: 2, y: 5, lo: -3, hi: 9), LinePoint(x: .nan, y: .infinity),
                                                          LinePoint(x: 7, y: 1)]),
        ])
        chart.frame = ChartFrame(width: 300, height: 200, left: 40, right: 10, top: 20, bottom: 30)
        let (xa, ya, _, _) = chart.layout()
        let (x, y) = (NiceAxis(min: 2, max: 7), NiceAxis(min: -3, max: 9))
        #expect(xa.lo == x.lo && xa.hi == x.hi && xa.ticks == x.ticks)
        #expect(ya.lo == y.lo && ya.hi == y.hi && ya.ticks == y.ticks)
        // Without the band, the least y is 0 (the axis always holds 0) and the greatest 5.
        chart.series[0].points = [LinePoint(x: 2, y: 5), LinePoint(x: 7, y: 1)]
        let plain = chart.layout().y, expected = NiceAxis(min: 0, max: 5)
        #expect(plain.lo == expected.lo && plain.hi == expected.hi)
    }

    /// One factoring for many right-hand sides gives each the bits dgels gives it: tall matrices
    /// of several shapes, right-hand sides of every size (one so small dgels scales it, which goes
    /// to dgels itself), a matrix of two parallel columns and a zero one (whatever dgels answers).
    @Test func factoredLeastSquaresMatchesDgels() {
        var state: UInt64 = 11
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
        for (m, n) in [(3, 1), (12, 3), (200, 10), (1_000, 28), (70, 40)] {
            let columns = (0..<n).map { _ in (0..<m).map { _ in next() * 3 } }
            let matrix = LeastSquaresMatrix(columns: columns)
            #expect(matrix.isFactored, "\(m)×\(n)")
            for scale in [1.0, 1e-3, 1e6, 1e-300] {
                let rhs = (0..<m).map { _ in next() * scale }
                let factored = matrix.solve(rhs), whole = LeastSquaresMatrix.dgels(columns: columns, rhs: rhs)
                #expect(factored != nil && factored?.map(\.bitPattern) == whole?.map(\.bitPattern), "\(m)×\(n) at \(scale)")
            }
        }
        let twice = [[1.0, 2, 3, 4], [2.0, 4, 6, 8]]
        #expect(LeastSquaresMatrix(columns: twice).solve([1, 0, 2, 5])?.map(\.bitPattern)
                == LeastSquaresMatrix.dgels(columns: twice, rhs: [1, 0, 2, 5])?.map(\.bitPattern))
        let zero = [[0.0, 0, 0]]
        #expect(LeastSquaresMatrix(columns: zero).solve([1, 2, 3]) == LeastSquaresMatrix.dgels(columns: zero, rhs: [1, 2, 3]))
    }

    /// The surrogate's counts of distinct values give what a Set gives (−0 and 0 one value).
    @Test func distinctValueCountsMatchSets() {
        var state: UInt64 = 3
        for n in [0, 1, 2, 3, 5, 40] {
            for spread in [1, 2, 3, 7] {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                let values = (0..<n).map { i -> Double in
                    let k = Int((state >> 33) % 1000 + UInt64(i)) % spread
                    return k == 0 ? (i % 2 == 0 ? 0.0 : -0.0) : Double(k) * 0.25
                }
                #expect(SurrogateDesign.distinctCount(sorted: values.sorted()) == Set(values).count, "\(values)")
                let points = values.map { PointValue(parameters: [1, $0], mean: 0) }
                #expect(SurrogateDesign.hasThreeValues(points, 1) == (Set(values).count >= 3), "\(values)")
            }
        }
    }

    /// Solves of one matrix on several threads at once (as the report's metrics run) give dgels'
    /// bits each: each works on factors no other solve is writing (dormqr writes A's diagonal
    /// while it works), and the factors it hands back are as dgeqrf left them.
    @Test func concurrentSolvesOfOneMatrixMatchDgels() {
        let m = 500, n = 12
        func entry(_ i: Int, _ j: Int) -> Double { sin(Double(i * (j + 3)) * 0.37) + (j == 0 ? 1 : 0) }
        func rightSide(_ i: Int, _ r: Int) -> Double { cos(Double(i) * 0.11 + Double(r)) * Double(r + 1) }
        let columns: [[Double]] = (0..<n).map { j in (0..<m).map { i in entry(i, j) } }
        let matrix = LeastSquaresMatrix(columns: columns)
        #expect(matrix.isFactored)
        let rhss: [[Double]] = (0..<64).map { r in (0..<m).map { i in rightSide(i, r) } }
        let expected: [[UInt64]?] = rhss.map { rhs in LeastSquaresMatrix.dgels(columns: columns, rhs: rhs)?.map { $0.bitPattern } }
        let results: [[UInt64]?] = ParallelMap.map(rhss.count, threads: 4) { r in matrix.solve(rhss[r])?.map { $0.bitPattern } }
        #expect(expected.allSatisfy { $0 != nil })
        #expect(results == expected)
    }
}
