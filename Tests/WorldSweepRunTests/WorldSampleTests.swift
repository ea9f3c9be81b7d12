// What a run keeps of its sampled worlds and points for the report (issue 29): the sample's first
// bounce heights by hand, and a kept point's copy equal to it in storage of its own.
import Foundation
import Testing
@testable import WorldSweepResults
import WorldSweepRun

@Suite struct WorldSampleTests {
    static func world(_ w: Int, failed: Bool = false, _ bounces: [[Double]]) -> WorldResult {
        WorldResult(world: w, point: w, replica: 0, parameters: [Double(w)],
                    items: bounces.map { ItemResult(contacts: $0.count, bounceHeights: $0) }, failed: failed)
    }

    /// Per item, the first bounce of each world that did not fail and bounced; a failed world is
    /// not counted at all, a world without a bounce counts as one that never bounced.
    @Test func firstBouncesOfTheWorldsThatDidNotFail() {
        let worlds = [Self.world(0, [[10, 4], []]), Self.world(1, failed: true, [[99], [99]]),
                      Self.world(2, [[], [3, 1]]), Self.world(3, [[7], [2]])]
        let sample = WorldSample(worlds)
        #expect(sample.worlds == 3)
        #expect(sample.bounces(item: 0) == ([10, 7], 1, 3))
        #expect(sample.bounces(item: 1) == ([3, 2], 1, 3))
        // An item no world has: no values, every world never bounced.
        #expect(sample.bounces(item: 2) == ([], 3, 3))
        // Made in two parts and joined, the same sample.
        var joined = WorldSample(Array(worlds[..<2]))
        joined.append(WorldSample(Array(worlds[2...])))
        #expect(joined == sample)
        #expect(WorldSample().bounces(item: 0) == ([], 0, 0))
    }

    /// `ownCopy` is equal to the point and shares none of its arrays or statistics' storage.
    @Test func ownCopySharesNoStorage() {
        let names = MetricNames(["a.x", "a.y"])
        var point = PointSummary(point: 3, parameters: [0.5, 2], replicas: 2, failedReplicas: 1,
                                 metrics: PointMetrics(names: names, slots: [MetricStats(count: 1, mean: 1, std: 0, min: 1, max: 1), nil]))
        point.metrics["a.contacts.wall"] = MetricStats(count: 1, mean: 4, std: 0, min: 4, max: 4)
        let copy = point.ownCopy
        #expect(copy == point && copy.metrics.dictionary == point.metrics.dictionary)
        #expect(copy.metrics.storage !== point.metrics.storage && copy.metrics.names === point.metrics.names)
        let address = { (a: [Double]) in a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        #expect(address(copy.parameters) != address(point.parameters))
        let slotsAddress = { (m: PointMetrics) in m.storage.slots.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        #expect(slotsAddress(copy.metrics) != slotsAddress(point.metrics))
        // A point of one world holds values: copied too, and still held as values.
        let one = PointSummary(point: 4, parameters: [1], replicas: 1, failedReplicas: 0,
                               metrics: PointMetrics(names: names, oneWorldValues: [-0.0, .nan]))
        let oneCopy = one.ownCopy
        #expect(oneCopy == one && oneCopy.metrics.storage.oneWorld && oneCopy.metrics["a.x"]?.min.sign == .minus)
        #expect(address(oneCopy.metrics.storage.values) != address(one.metrics.storage.values))
    }
}
