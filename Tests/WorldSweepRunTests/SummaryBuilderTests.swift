import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// worlds.csv and partners.csv rows written and read back exactly.
@Suite struct CSVRowTests {
    @Test func csvRowsReadBackExactly() throws {
        let layout = CSVLayout(parameters: ["a.b"], items: ["x"],
                               partners: PartnerRule(groups: [(PartnerRule.Group(items: [], boundaries: ["b", "bounds"]), ["x"])]))
        let r = WorldResult(world: 3, point: 1, replica: 1, parameters: [0.1 + 0.2],
                            items: [ItemResult(contacts: 2, contactsByPartner: ["bounds": 2], bounceHeights: [Double(Float(12.345))],
                                               restTime: Double(Float(1.5)), x: Double(Float(160.1)), y: -0.0, angle: Double(Float(1e-7)),
                                               vx: 0, vy: 0, angularVelocity: 0)])
        let line = layout.row(r)
        #expect(line == "3,1,1,0.30000000000000004,2,1,12.345,,,,,,,,1.5,160.1,0,1e-07,0,0,0\n")
        var back = try #require(layout.parseRow(line.dropLast()))
        back.items[0].contactsByPartner = ["bounds": 2]
        var expected = r; expected.items[0].y = 0
        #expect(back == expected)
        // One row per partner touched (none for a partner not touched), read back exactly.
        #expect(layout.partnersHeader == "world,item,partner,contacts")
        var two = r; two.items[0].contactsByPartner = ["bounds": 2, "b": 1]
        #expect(layout.partnersRows(two) == "3,x,b,1\n3,x,bounds,2\n")
        // In name order whatever the count, a zero count skipped (one, two and three partners).
        let rule3 = PartnerRule(groups: [(PartnerRule.Group(items: [], boundaries: ["a", "b", "bounds"]), ["x"])])
        let layout3 = CSVLayout(parameters: ["a.b"], items: ["x"], partners: rule3)
        for (touched, rows) in [(["b": 4], "3,x,b,4\n"), (["b": 0], ""), (["bounds": 2, "a": 0], "3,x,bounds,2\n"),
                                (["a": 1, "bounds": 2], "3,x,a,1\n3,x,bounds,2\n"),
                                (["bounds": 3, "b": 2, "a": 1], "3,x,a,1\n3,x,b,2\n3,x,bounds,3\n")] {
            var w = r; w.items[0].contactsByPartner = touched
            #expect(layout3.partnersRows(w) == rows, "\(touched)")
        }
        let partnersBack = try #require(layout.parsePartnersRow("3,x,bounds,2"))
        #expect(partnersBack.world == 3 && partnersBack.item == 0 && partnersBack.partner == "bounds" && partnersBack.contacts == 2)
        var failed = r; failed.failed = true
        #expect(layout.partnersRows(failed) == "")
        // A chunk's rows go into one buffer, after what it holds, in order.
        var chunk = Array("header\n".utf8), partnerChunk = Array("p\n".utf8)
        for world in [r, failed, two] { layout.appendRow(world, to: &chunk); layout.appendPartnersRows(world, to: &partnerChunk) }
        #expect(String(decoding: chunk, as: UTF8.self) == "header\n" + line + "3,1,1,0.30000000000000004" + String(repeating: ",", count: 17) + "\n" + line)
        #expect(String(decoding: partnerChunk, as: UTF8.self) == "p\n3,x,bounds,2\n3,x,b,1\n3,x,bounds,2\n")
        // Not a row: no count, a zero count, an unknown item, a partner x cannot touch, itself.
        for bad in ["3,x,bounds", "3,x,bounds,0", "3,y,bounds,1", "3,x,floor,1", "3,x,x,1", "-1,x,b,1", "3,x,b,1,1"] {
            #expect(layout.parsePartnersRow(bad[...]) == nil, "\(bad)")
        }
        #expect(layout.row(failed) == "3,1,1,0.30000000000000004" + String(repeating: ",", count: 17) + "\n")
        #expect(layout.parseRow(layout.row(failed).dropLast())?.failed == true)
    }
}

@Suite struct SummaryBuilderTests {
    @Test func failedWorldsAreCountedButNotAveraged() throws {
        let layout = CSVLayout(parameters: ["p"], items: ["a"])
        let ok1 = WorldResult(world: 0, point: 0, replica: 0, parameters: [1],
                              items: [ItemResult(contacts: 2, contactsByPartner: ["bounds": 2], bounceHeights: [10, 4], restTime: 1.5, x: 1, y: 2)])
        let ok2 = WorldResult(world: 1, point: 0, replica: 1, parameters: [1],
                              items: [ItemResult(contacts: 4, contactsByPartner: ["bounds": 3, "b": 1], bounceHeights: [20], x: 3, y: 2)])
        let bad = WorldResult(world: 2, point: 0, replica: 2, parameters: [1], items: [ItemResult()], failed: true)
        let p = SummaryBuilder.summarize([ok1, ok2, bad], layout: layout)
        #expect(p.replicas == 3 && p.failedReplicas == 1 && p.parameters == [1])
        #expect(p.metrics["a.contacts"] == MetricStats(count: 2, mean: 3, std: 2.0.squareRoot(), min: 2, max: 4))
        #expect(p.metrics["a.bounce1"] == MetricStats(count: 2, mean: 15, std: 50.0.squareRoot(), min: 10, max: 20))
        #expect(p.metrics["a.bounce2"] == MetricStats(count: 1, mean: 4, std: 0, min: 4, max: 4))
        #expect(p.metrics["a.bounce3"] == nil)
        #expect(p.metrics["a.rest_time"]?.count == 1)
        // A partner one replica never touched counts 0 there.
        #expect(p.metrics["a.contacts.b"] == MetricStats(count: 2, mean: 0.5, std: 0.5.squareRoot(), min: 0, max: 1))
        #expect(p.metrics["a.y"] == MetricStats(count: 2, mean: 2, std: 0, min: 2, max: 2))

        // Fed world by world, points close when their replicas are in; samples are every k-th world
        // (k = 7: the smallest from ⌈60 000 / 20 000⌉ = 3 prime to 60 000 = 2⁵·3·5⁴).
        var builder = SummaryBuilder(layout: layout, replicas: 3, totalWorlds: 60_000, totalPoints: 20_000, writesTables: true)
        #expect(builder.sampleStride == 7 && builder.pointStride == 1)
        var worlds: [WorldResult] = []
        for w in 0..<6 {
            var r = ok1; r.world = w; r.point = w / 3; r.replica = w % 3
            worlds.append(r)
            try builder.add(r)
        }
        #expect(builder.keptPoints.map(\.point) == [0, 1])
        #expect(builder.sample == WorldSample([worlds[0]]) && builder.sample.worlds == 1)
        let worldByWorld = builder.takeRecords()

        // Folded by workers chunk by chunk (a point cut by a chunk's edge finished by the builder),
        // the rows are the same bytes, whatever the cuts.
        for cuts in [[0, 6], [0, 2, 6], [0, 1, 2, 4, 5, 6], [0, 3, 6]] {
            var chunked = SummaryBuilder(layout: layout, replicas: 3, totalWorlds: 60_000, totalPoints: 20_000, writesTables: true)
            for k in 0..<(cuts.count - 1) {
                // Kept as made or as copies (a worker's fold): the same points.
                try chunked.add(chunked.chunkFolder.fold(chunk: Array(worlds[cuts[k]..<cuts[k + 1]])), copyingKept: k % 2 == 1)
            }
            let records = chunked.takeRecords()
            #expect(records.pointsCSV == worldByWorld.pointsCSV && records.pointsJSON == worldByWorld.pointsJSON, "cuts \(cuts)")
            #expect(records.partnerPointsCSV == worldByWorld.partnerPointsCSV && !records.partnerPointsCSV.isEmpty, "cuts \(cuts)")
            #expect(chunked.keptPoints == builder.keptPoints && chunked.sample == builder.sample, "cuts \(cuts)")
            #expect(chunked.pointsDone == 2 && chunked.worldsSeen == 6 && chunked.partners == builder.partners, "cuts \(cuts)")
        }
    }
}
