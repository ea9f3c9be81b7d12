import Foundation
import Testing
@testable import WorldSweepRun
@testable import WorldSweepResults

/// Issue 29: a point's statistics are an array over names the run's points share, read as the
/// dictionary they replaced. Each property is checked against a plain `[String: MetricStats]` fed
/// the same operations.
@Suite struct PointMetricsTests {
    static func stats(_ v: Double) -> MetricStats { MetricStats(count: 1, mean: v, std: 0, min: v, max: v) }
    static let names = MetricNames(["a.x", "a.y", "a.contacts.b"])

    @Test func readsAsTheDictionaryItWasMadeFrom() {
        let d = ["a.x": Self.stats(1), "a.y": Self.stats(2), "b.x": Self.stats(3)]
        let m = PointMetrics(d)
        #expect(m.count == 3 && m.dictionary == d && Set(m.keys) == Set(d.keys))
        for (key, value) in d { #expect(m[key] == value) }
        #expect(m["a.z"] == nil)
        // Iteration gives each entry once.
        #expect(Dictionary(uniqueKeysWithValues: m.map { ($0.key, $0.value) }) == d)
    }

    @Test func emptySlotsAreAbsentNotZero() {
        let m = PointMetrics(names: Self.names, slots: [Self.stats(1), nil, nil])
        #expect(m.count == 1 && m.keys == ["a.x"] && m["a.y"] == nil)
        #expect(PointMetrics(names: Self.names, slots: [nil, nil, nil]).count == 0)
    }

    @Test func settingAndRemovingFollowTheDictionary() {
        var m = PointMetrics(names: Self.names, slots: [Self.stats(1), nil, nil])
        var d = ["a.x": Self.stats(1)]
        // A shared slot, a name outside the table, an overwrite, and removals of both kinds.
        let steps: [(String, MetricStats?)] = [("a.y", Self.stats(2)), ("c.contacts.wall", Self.stats(5)), ("c.contacts.wall", Self.stats(6)),
                                               ("a.x", nil), ("c.contacts.wall", nil), ("nothing", nil)]
        for (key, value) in steps {
            m[key] = value; d[key] = value
            #expect(m.dictionary == d && m.count == d.count)
        }
        // The shared table is not changed by a point's own names.
        #expect(Self.names.names == ["a.x", "a.y", "a.contacts.b"])
    }

    @Test func equalWhateverTheLayout() {
        let shared = PointMetrics(names: Self.names, slots: [Self.stats(1), nil, Self.stats(4)])
        let sorted = PointMetrics(["a.contacts.b": Self.stats(4), "a.x": Self.stats(1)])
        var extra = PointMetrics(names: MetricNames(["a.x"]), slots: [Self.stats(1)])
        extra["a.contacts.b"] = Self.stats(4)
        #expect(shared == sorted && sorted == extra && shared == extra)
        #expect(shared.hashValue == sorted.hashValue && sorted.hashValue == extra.hashValue)
        var other = shared
        other["a.x"] = Self.stats(2)
        #expect(other != shared)
    }

    /// A point of one world holds its values alone: it reads, iterates, counts, compares, lays
    /// out and takes writes as the same statistics held in full.
    @Test func oneWorldValuesReadAsTheirStatistics() {
        let values: [Double] = [-0.0, .nan, 3.25]
        let compact = PointMetrics(names: Self.names, oneWorldValues: values, extra: [("c.contacts.wall", Self.stats(2))])
        let full = PointMetrics(names: Self.names, slots: [MetricStats(count: 1, mean: 0, std: 0, min: -0.0, max: -0.0), nil, Self.stats(3.25)],
                                extra: [("c.contacts.wall", Self.stats(2))])
        #expect(compact.storage.oneWorld && !full.storage.oneWorld)
        #expect(compact == full && compact.dictionary == full.dictionary && compact.count == 3 && compact.keys == full.keys)
        // The mean of −0 reads +0 (the fold's running sum), the min and max keep its sign.
        #expect(compact["a.x"]?.mean.sign == .plus && compact["a.x"]?.min.sign == .minus && compact["a.x"]?.max.sign == .minus)
        #expect(compact["a.y"] == nil && !compact.hasStats(inSlot: 1) && compact.hasStats(inSlot: 2))
        #expect(compact.slots == full.slots)
        // Laid out by metric, the same statistics.
        let points = [compact, full].enumerated().map { PointSummary(point: $0, parameters: [], replicas: 1, failedReplicas: 0, metrics: $1) }
        let wanted = ["a.contacts.b", "c.contacts.wall", "a.x", "a.y"]
        let columns = [MetricStats?](unsafeUninitializedCapacity: wanted.count * 2) { buffer, n in
            points.writeMetricColumns(wanted, points: 0..<2, into: buffer.baseAddress!, stride: 2)
            n = wanted.count * 2
        }
        for c in wanted.indices { #expect(columns[c * 2] == columns[c * 2 + 1] && columns[c * 2] == full[wanted[c]]) }
        // A write makes the slots statistics (any statistics, not one world's).
        var written = compact
        written["a.y"] = MetricStats(count: 3, mean: 1, std: 0.5, min: 0.5, max: 1.5)
        var expected = full.dictionary
        expected["a.y"] = MetricStats(count: 3, mean: 1, std: 0.5, min: 0.5, max: 1.5)
        #expect(written.dictionary == expected && !written.storage.oneWorld && compact.dictionary == full.dictionary)
    }

    @Test func encodesAsTheDictionary() throws {
        let m = PointMetrics(names: Self.names, slots: [Self.stats(1), nil, Self.stats(4)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(m)
        #expect(data == (try encoder.encode(m.dictionary)))
        #expect(try JSONDecoder().decode(PointMetrics.self, from: data) == m)
    }

    /// The fold files partners an item can touch in the layout's shared slots, others by name;
    /// both read back alike.
    @Test func theFoldFilesPartnersInTheSharedTable() throws {
        let rule = PartnerRule(groups: [(PartnerRule.Group(items: ["box", "ball"], boundaries: ["floor"]), ["box", "ball"])])
        let layout = CSVLayout(parameters: [], items: ["box", "ball"], partners: rule)
        #expect(layout.pointMetricNames.names.suffix(4) == ["box.contacts.ball", "box.contacts.floor", "ball.contacts.box", "ball.contacts.floor"])
        let world = WorldResult(world: 0, point: 0, replica: 0, parameters: [],
                                items: [ItemResult(contacts: 3, contactsByPartner: ["floor": 2, "ball": 1]),
                                        ItemResult(contacts: 1, contactsByPartner: ["box": 1])])
        let p = SummaryBuilder.summarize([world], layout: layout)
        #expect(p.metrics.names === layout.pointMetricNames)
        #expect(p.metrics["box.contacts.floor"]?.mean == 2 && p.metrics["box.contacts.ball"]?.mean == 1)
        #expect(p.metrics["ball.contacts.box"]?.mean == 1 && p.metrics["ball.contacts.floor"] == nil)
        // A layout without the rule has no partner slots: the same statistics, filed by name.
        let bare = SummaryBuilder.summarize([world], layout: CSVLayout(parameters: [], items: ["box", "ball"]))
        #expect(bare.metrics == p.metrics)
    }

    /// A pile of items in one behavior has more pairs than the table takes: no partner slots, no
    /// per-item lists (a thousand items made a million before), and the same statistics by name.
    @Test func aBigWorldsPartnersAreFiledByName() throws {
        let items = (0..<40).map { "b\($0)" }
        let rule = PartnerRule(groups: [(PartnerRule.Group(items: items, boundaries: ["floor"]), items)])
        let layout = CSVLayout(parameters: [], items: items, partners: rule)
        #expect(!layout.listsPartners && layout.partnerSlots.allSatisfy(\.isEmpty))
        #expect(layout.pointMetricNames.names == layout.metricColumns)
        var parts = items.map { _ in ItemResult() }
        parts[3] = ItemResult(contacts: 2, contactsByPartner: ["b4": 1, "floor": 1])
        let p = SummaryBuilder.summarize([WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: parts)], layout: layout)
        #expect(p.metrics["b3.contacts.b4"]?.mean == 1 && p.metrics["b3.contacts.floor"]?.mean == 1 && p.metrics["b4.contacts.b3"] == nil)
        // partners.csv still checks each row against the rule.
        #expect(layout.partnersRows(WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: parts)) == "0,b3,b4,1\n0,b3,floor,1\n")
    }

    /// A one-world point's statistics made directly are the fold's, bit for bit (−0 means, NaN
    /// and infinite values left out, missing rest times, eight bounces and more, partners in and
    /// out of the shared table, spring items, failed worlds).
    @Test func oneWorldSummariesAreTheFoldsBitForBit() {
        let rule = PartnerRule(groups: [(PartnerRule.Group(items: ["box", "ball"], boundaries: ["floor"]), ["box", "ball"])])
        let layouts = [CSVLayout(parameters: ["p"], items: ["box", "ball"], partners: rule, springItems: [false, true]),
                       CSVLayout(parameters: ["p"], items: ["box", "ball"])]
        var state: UInt64 = 41
        func next(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        let specials: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e-30, -3.5, 7]
        func value() -> Double { next(4) == 0 ? specials[next(UInt64(specials.count))] : Double(next(20_000)) / 64 - 100 }
        func item() -> ItemResult {
            let partners = ["floor", "ball", "box", "bounds", "ledge"].filter { _ in next(3) == 0 }
            return ItemResult(contacts: next(12), contactsByPartner: Dictionary(uniqueKeysWithValues: partners.map { ($0, next(5)) }),
                              bounceHeights: (0..<next(11)).map { _ in value() }, restTime: next(2) == 0 ? nil : value(),
                              x: value(), y: value(), angle: value(), vx: value(), vy: value(), angularVelocity: value(),
                              spring: next(3) == 0 ? nil : SpringResult(overshoot: value(), settleTime: next(2) == 0 ? nil : value(), oscillations: next(4)))
        }
        func bits(_ p: PointSummary) -> [String] {
            p.metrics.sorted { $0.key < $1.key }.map { k, s in
                "\(k) \(s.count) \(s.mean.bitPattern) \(s.std.bitPattern) \(s.min.bitPattern) \(s.max.bitPattern)"
            } + ["\(p.point) \(p.parameters.map(\.bitPattern)) \(p.replicas) \(p.failedReplicas)"]
        }
        var differ = 0
        for w in 0..<3_000 {
            let world = WorldResult(world: w, point: w, replica: 0, parameters: [value()], items: [item(), item()], failed: next(25) == 0)
            for layout in layouts {
                var folded = PointAccumulator(layout: layout, point: world.point, parameters: world.parameters)
                folded.add(world)
                let direct = PointAccumulator.summary(ofOneWorld: world, layout: layout)
                if bits(direct) != bits(folded.summary) || direct.metrics.names !== layout.pointMetricNames { differ += 1 }
            }
        }
        #expect(differ == 0)
        // −0 is the case where the value is not the mean as it stands.
        let zero = WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: [ItemResult(x: -0.0)])
        let stats = PointAccumulator.summary(ofOneWorld: zero, layout: CSVLayout(parameters: [], items: ["box"])).metrics["box.x"]
        #expect(stats?.mean.sign == .plus && stats?.min.sign == .minus)
    }

    /// The listed partners are exactly those the rule lets touch.
    @Test func listedPartnersAreTheRulesPairs() throws {
        let rule = PartnerRule(groups: [(PartnerRule.Group(items: ["a", "b"], boundaries: ["floor"]), ["a", "b", "c"]),
                                        (PartnerRule.Group(items: ["c", "d"], boundaries: []), ["c", "d"])])
        for item in ["a", "b", "c", "d", "e"] {
            let listed = try #require(rule.partners(of: item, most: 100))
            #expect(listed == Set(["a", "b", "c", "d", "e", "floor"].filter { rule.canTouch(item, $0) }))
        }
        #expect(rule.partners(of: "a", most: 2) == nil)
    }
}
