// Which points and worlds a big sweep's report reads (SummaryBuilder.keepStride), and the counts
// the report states over the whole sweep. Every k-th point of a grid whose size shares a factor
// with k can miss values of an axis: the report then called a varying metric constant.
import Testing
@testable import WorldSweepRun

@Suite struct KeptPointsTests {
    /// The grid's point index → its level on each axis (the last axis fastest, as sweeps number them).
    static func levels(_ index: Int, _ shape: [Int]) -> [Int] {
        var rest = index, out = [Int](repeating: 0, count: shape.count)
        for k in shape.indices.reversed() { out[k] = rest % shape[k]; rest /= shape[k] }
        return out
    }

    /// Up to 20 000 every point is read; past it the stride is the smallest from ⌈total / 20 000⌉
    /// that shares no factor with the total, and keeps 20 000 or fewer.
    @Test func strideIsTheSmallestPrimeToTheTotal() {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        for total in [1, 2, 19_999, 20_000] { #expect(SummaryBuilder.keepStride(total: total) == 1, "\(total)") }
        // By hand: 20 001 → 2 (odd); 50 000 → 3; 60 000 = 2⁵·3·5⁴ → 7; 80 000 = 2⁷·5⁴ → 7 (not 4, 5
        // or 6); 1 000 000 → 51 (50 shares 2 and 5); 40 000 → 3.
        for (total, stride) in [(20_001, 2), (50_000, 3), (60_000, 7), (80_000, 7), (1_000_000, 51), (40_000, 3)] {
            #expect(SummaryBuilder.keepStride(total: total) == stride, "\(total)")
        }
        var state: UInt64 = 5
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let total = 20_001 + Int(state >> 40) % 5_000_000
            let s = SummaryBuilder.keepStride(total: total), least = (total + 19_999) / 20_000
            #expect(s >= least && gcd(s, total) == 1, "\(total)")
            #expect((least..<s).allSatisfy { gcd($0, total) != 1 }, "\(total): a smaller stride was prime to it")
            #expect((total + s - 1) / s <= SummaryBuilder.maxSample, "\(total)")
        }
    }

    /// Every value of every axis of a big grid is among the points read, in near-even shares; the plain ⌈total / 20 000⌉ stride kept one value of the 4-value axis only.
    @Test func everyLevelOfEveryGridAxisIsRead() {
        for shape in [[100, 200, 4], [50, 30, 20], [25, 25, 64], [7, 11, 13, 31], [400, 60]] {
            let total = shape.reduce(1, *), s = SummaryBuilder.keepStride(total: total)
            var counts = shape.map { [Int](repeating: 0, count: $0) }
            for index in Swift.stride(from: 0, to: total, by: s) {
                for (k, level) in Self.levels(index, shape).enumerated() { counts[k][level] += 1 }
            }
            for (k, c) in counts.enumerated() {
                // A value's count may differ from another's by one pass over the faster axes.
                let faster = shape[(k + 1)...].reduce(1, *)
                #expect(c.allSatisfy { $0 > 0 }, "shape \(shape), axis \(k): a value never read")
                #expect(c.max()! - c.min()! <= faster, "shape \(shape), axis \(k): shares \(c.min()!)…\(c.max()!)")
            }
        }
        // The rule before: every 4th point of 100 × 200 × 4 read the last axis's first value only.
        let plain = (80_000 + 19_999) / 20_000
        let lastAxis = Set(Swift.stride(from: 0, to: 80_000, by: plain).map { Self.levels($0, [100, 200, 4])[2] })
        #expect(plain == 4 && lastAxis == [0])
    }

    /// Replicas of a point are consecutive worlds: the sampled worlds hold every replica.
    @Test func everyReplicaIsSampled() {
        let replicas = 4, points = 30_000
        let s = SummaryBuilder.keepStride(total: points * replicas)
        #expect(Set(Swift.stride(from: 0, to: points * replicas, by: s).map { $0 % replicas }) == [0, 1, 2, 3])
    }

    /// The failed-world count is over every world, read world by world or chunk by chunk, where
    /// the kept points hold only their own.
    @Test func failedWorldsAreCountedOverTheWholeSweep() throws {
        let layout = CSVLayout(parameters: ["p"], items: ["a"])
        func world(_ w: Int, failed: Bool) -> WorldResult {
            WorldResult(world: w, point: w, replica: 0, parameters: [Double(w)],
                        items: [ItemResult(contacts: 1, contactsByPartner: ["bounds": 1], bounceHeights: [Double(w)], x: 1, y: 2)], failed: failed)
        }
        // 60 000 one-replica points: every 7th is kept; worlds 3 and 5 fail, neither kept.
        let worlds = (0..<20).map { world($0, failed: $0 == 3 || $0 == 5) }
        var byWorld = SummaryBuilder(layout: layout, replicas: 1, totalWorlds: 60_000, totalPoints: 60_000)
        for r in worlds { try byWorld.add(r) }
        #expect(byWorld.pointStride == 7 && byWorld.keptPoints.map(\.point) == [0, 7, 14])
        #expect(byWorld.keptPoints.allSatisfy { $0.failedReplicas == 0 })
        #expect(byWorld.failedWorlds == 2)
        var byChunk = SummaryBuilder(layout: layout, replicas: 1, totalWorlds: 60_000, totalPoints: 60_000)
        for cut in [0..<4, 4..<13, 13..<20] { try byChunk.add(byChunk.chunkFolder.fold(chunk: Array(worlds[cut]))) }
        #expect(byChunk.failedWorlds == 2 && byChunk.keptPoints == byWorld.keptPoints)
    }
}
