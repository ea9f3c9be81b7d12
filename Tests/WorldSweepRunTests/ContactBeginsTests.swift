import Testing
@testable import WorldSweep
@testable import WorldSweepRun

// The contact counts of a tick with many began events: per item and partner, the most any one
// collision behavior heard (an item pair's event goes to every behavior holding both), summed over
// the ticks. Checked by hand on a tick whose items' events are interleaved, and against the rule
// worked out with dictionaries on a seeded stream of events.
@Suite struct ContactBeginsTests {
    /// Folds a tick of `events` (item a, item b, behavior) and `walls` (item, boundary) into `tracks`.
    static func tick(_ tracks: inout MetricTracks, _ t: Int, names: [String], events: [(Int, Int, Int)], walls: [(Int, String)] = []) {
        for (a, b, behavior) in events { tracks.itemPairBegan(a, b, names: (names[a], names[b]), behavior: behavior) }
        for (item, wall) in walls { tracks.boundaryBegan(item, partner: wall) }
        // No item has a body: the tick folds the contacts alone.
        let ok = tracks.fold(tick: t, bodies: Array(repeating: nil, count: names.count), up: (0, 1), speedLimit: 1e4,
                             state: { _, _ in fatalError("no body") })
        #expect(ok)
    }

    static func results(_ tracks: inout MetricTracks) -> [ItemResult] {
        tracks.finish(ticksRun: 2, ticks: 2, tickLength: 1.0 / 60, up: (0, 1), state: { _ in nil },
                      placed: { _ in (Point(x: 0, y: 0), 0) })
    }

    @Test func interleavedEventsOfManyItemsCountTheMostOneBehaviorHeard() {
        // 40 items; pairs (i, i + 20). Behavior 1 hears each pair begin once, behavior 2 twice (it
        // began, ended and began again within the tick), the events of all pairs interleaved.
        // Item 0 also begins with item 39 under behavior 1 only, and item 5 touches the wall.
        let names = (0..<40).map { "b\($0)" }
        var events: [(Int, Int, Int)] = []
        for i in 0..<20 { events.append((i, i + 20, 2)) }
        for i in 0..<20 { events.append((i + 20, i, 1)) }
        events.append((0, 39, 1))
        for i in 0..<20 { events.append((i, i + 20, 2)) }
        var tracks = MetricTracks(itemCount: 40)
        Self.tick(&tracks, 1, names: names, events: events, walls: [(5, "wall")])
        // Tick 1: each pair's items 2 (behavior 2's two); item 0 1 more (b39), item 39 1 more
        // (b0), item 5 1 more (the wall).
        var expected = Array(repeating: 2, count: 40)
        expected[0] += 1; expected[39] += 1; expected[5] += 1
        #expect(tracks.items.map(\.contacts) == expected)
        // Tick 2: each pair once under behavior 1 alone: 1 more each, whatever tick 1 held.
        Self.tick(&tracks, 2, names: names, events: (0..<20).map { ($0, $0 + 20, 1) })
        #expect(tracks.items.map(\.contacts) == expected.map { $0 + 1 })
        let out = Self.results(&tracks)
        #expect(out[0].contactsByPartner == ["b20": 3, "b39": 1])
        #expect(out[39].contactsByPartner == ["b19": 3, "b0": 1])
        #expect(out[5].contactsByPartner == ["b25": 3, "wall": 1])
        #expect(out[25].contactsByPartner == ["b5": 3])
    }

    @Test func aSeededStreamAgreesWithTheRuleByDictionary() {
        // 30 items, 3 behaviors, 5 ticks of 400 events each, drawn by a fixed LCG.
        let n = 30
        let names = (0..<n).map { "i\($0)" }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func draw(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var tracks = MetricTracks(itemCount: n)
        var contacts = Array(repeating: 0, count: n)
        var byPartner = Array(repeating: [String: Int](), count: n)
        for t in 1...5 {
            var events: [(Int, Int, Int)] = []
            for _ in 0..<400 {
                let a = draw(n), b = (a + 1 + draw(n - 1)) % n
                events.append((a, b, draw(3)))
            }
            Self.tick(&tracks, t, names: names, events: events)
            // The rule: per item and partner, the most began events any one behavior heard.
            var heard: [Int: [String: [Int: Int]]] = [:]
            for (a, b, behavior) in events {
                heard[a, default: [:]][names[b], default: [:]][behavior, default: 0] += 1
                heard[b, default: [:]][names[a], default: [:]][behavior, default: 0] += 1
            }
            for (item, partners) in heard {
                for (partner, counts) in partners {
                    let most = counts.values.max()!
                    contacts[item] += most
                    byPartner[item][partner, default: 0] += most
                }
            }
            #expect(tracks.items.map(\.contacts) == contacts)
        }
        let out = Self.results(&tracks)
        #expect(out.map(\.contactsByPartner) == byPartner)
    }
}
