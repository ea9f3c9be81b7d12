import Testing
@testable import WorldSweepRun

/// Issue 30, item 9: a point's statistics fold replica by replica, with the answers the list of
/// every replica's values gave.
@Suite struct PointAccumulatorTests {
    @Test func runningStatisticsMatchTheListsFigures() throws {
        var running = RunningStats()
        for v in [1.0, 2, 3, 4, .nan, .infinity] { running.add(v) }
        let s = try #require(running.stats)
        // 1…4: mean 2.5, sample variance ((1.5² + 0.5²) · 2) / 3 = 5/3; non-finite values left out.
        #expect(s.count == 4 && s.mean == 2.5 && s.min == 1 && s.max == 4)
        #expect(abs(s.std - (5.0 / 3).squareRoot()) < 1e-15)
        #expect(RunningStats().stats == nil)
        // Large offset, small spread: Welford keeps the spread (a sum of squares would lose it).
        var offset = RunningStats()
        for v in [1e9 + 1, 1e9 + 2, 1e9 + 3] { offset.add(v) }
        #expect(abs(try #require(offset.stats).std - 1) < 1e-6)
    }

    @Test func aPartnerMetLateCountsZeroForTheReplicasBefore() throws {
        let layout = CSVLayout(parameters: [], items: ["box"])
        func world(_ replica: Int, _ partners: [String: Int], failed: Bool = false) -> WorldResult {
            WorldResult(world: replica, point: 0, replica: replica, parameters: [],
                        items: [ItemResult(contacts: partners.values.reduce(0, +), contactsByPartner: partners, x: Double(replica))],
                        failed: failed)
        }
        let worlds = [world(0, [:]), world(1, [:], failed: true), world(2, ["wall": 2]), world(3, ["wall": 4, "floor": 1])]
        let p = SummaryBuilder.summarize(worlds, layout: layout)
        #expect(p.replicas == 4 && p.failedReplicas == 1)
        // Over the three that ran: wall 0, 2, 4; floor 0, 0, 1; x 0, 2, 3.
        let wall = try #require(p.metrics["box.contacts.wall"]), floor = try #require(p.metrics["box.contacts.floor"])
        #expect(wall.count == 3 && wall.mean == 2 && wall.min == 0 && wall.max == 4 && abs(wall.std - 2) < 1e-15)
        #expect(floor.count == 3 && floor.mean == 1.0 / 3 && floor.min == 0 && floor.max == 1)
        #expect(p.metrics["box.x"]?.mean == 5.0 / 3 && p.metrics["box.contacts"]?.max == 5)
    }
}
