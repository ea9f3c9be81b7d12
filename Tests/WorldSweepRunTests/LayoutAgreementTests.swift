import Foundation
import Testing
import WorldSweepResults
@testable import WorldSweepRun

/// worlds.csv's layout is made without copying the built-in declarations per item, and its header
/// is appended in place: the columns and the header must be those the per-item lists and the
/// joined array gave, for items with and without a rest target and written metrics.
@Suite struct LayoutAgreementTests {
    static let written = MetricDeclaration(name: "reach_time", unit: "s", kind: .time, field: .restTime, group: "reach",
                                           needsRestTarget: false, censoring: .runLength(never: "never_reach", lacking: "never reached"),
                                           isInteger: false, isTunable: false, view: nil, accumulation: "test", meaning: "test")

    @Test func theColumnsAndHeaderAreThePerItemLists() {
        let springs = MetricDeclaration.restTargetOnly
        for (items, parameters) in [(1, 0), (3, 1), (12, 3), (200, 2)] {
            for withWritten in [false, true] {
                let names = (0..<items).map { "item\($0)" }
                let springItems = (0..<items).map { $0 % 3 == 1 }
                let written: [[MetricDeclaration]]? = withWritten ? (0..<items).map { $0 % 2 == 0 ? [Self.written] : [] } : nil
                let layout = CSVLayout(parameters: (0..<parameters).map { "p\($0).x" }, items: names, springItems: springItems,
                                       springColumns: springs.map(\.name), written: written)
                // The lists as each item's own concatenation gave them.
                let lists = names.indices.map { i in
                    (springItems[i] ? MetricDeclaration.everyItem + springs : MetricDeclaration.everyItem) + (written?[i] ?? [])
                }
                #expect(layout.itemMetrics.map { $0.map(\.name) } == lists.map { $0.map(\.name) })
                #expect(layout.itemMetricKeys == names.indices.map { i in lists[i].map { "\(names[i]).\($0.name)" } })
                let joined = (["world", "point", "replica"] + layout.parameters + layout.metricColumns).joined(separator: ",")
                #expect(layout.header == joined)
            }
        }
    }

    @Test func aMapOfNoJobsOrOneThreadKeepsEachJobsValue() {
        final class Box { let k: Int; init(_ k: Int) { self.k = k } }
        #expect(ParallelMap.map(0, threads: 1) { Box($0) }.isEmpty)
        #expect(ParallelMap.map(0, threads: 4) { Box($0) }.isEmpty)
        for threads in [1, 3] {
            let boxes = ParallelMap.map(50, threads: threads) { k, worker in (Box(k), worker) }
            #expect(boxes.map(\.0.k) == Array(0..<50))
            #expect(threads > 1 || boxes.allSatisfy { $0.1 == 0 })
        }
    }
}
