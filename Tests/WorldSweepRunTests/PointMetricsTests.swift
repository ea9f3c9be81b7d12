import Foundation
import Testing
@testable import WorldSweepRun

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
        #expect(layout.touchable == nil && layout.partnerSlots.allSatisfy(\.isEmpty))
        #expect(layout.pointMetricNames.names == layout.metricColumns)
        var parts = items.map { _ in ItemResult() }
        parts[3] = ItemResult(contacts: 2, contactsByPartner: ["b4": 1, "floor": 1])
        let p = SummaryBuilder.summarize([WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: parts)], layout: layout)
        #expect(p.metrics["b3.contacts.b4"]?.mean == 1 && p.metrics["b3.contacts.floor"]?.mean == 1 && p.metrics["b4.contacts.b3"] == nil)
        // partners.csv still checks each row against the rule.
        #expect(layout.partnersRows(WorldResult(world: 0, point: 0, replica: 0, parameters: [], items: parts)) == "0,b3,b4,1\n0,b3,floor,1\n")
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
