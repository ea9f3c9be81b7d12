import Testing
@testable import WorldSweepRun

private func stats(_ mean: Double) -> MetricStats { MetricStats(count: 1, mean: mean, std: 0, min: mean, max: mean) }

private func summary(_ parameters: [String], _ points: [([Double], [String: Double])]) -> SweepSummary {
    SweepSummary(name: "s", description: "", parameters: parameters, items: ["box"], partners: [:], sweepKind: "grid",
                 replicas: 1,
                 points: points.enumerated().map { i, p in
                     PointSummary(point: i, parameters: p.0, replicas: 1, failedReplicas: 0, metrics: p.1.mapValues(stats))
                 },
                 run: RunInfo(engine: "batched-simd", threads: 1, worlds: points.count, ticksPerWorld: 1, wallSeconds: 0,
                              worldTicksPerSecond: 0))
}

@Suite struct ComparisonTests {
    @Test func aRunComparedWithItselfHasNoDifference() {
        let s = summary(["e"], [([0.1], ["box.y": 500, "box.bounce1": 12]), ([0.2], ["box.y": 501])])
        let c = Comparison(a: .init(label: "A", summary: s), b: .init(label: "B", summary: s))
        #expect(c.identical && c.matched.count == 2 && c.differing.isEmpty)
        #expect(c.onlyInA.isEmpty && c.onlyInB.isEmpty)
        #expect(c.metricSummaries.allSatisfy { $0.differing == 0 })
    }

    @Test func differencesAreBMinusAAndRelativeToA() throws {
        let a = summary(["e"], [([0.1], ["box.y": 400, "box.bounce1": 10, "box.contacts": 0]), ([0.2], ["box.y": 500])])
        let b = summary(["e"], [([0.2], ["box.y": 450]), ([0.1], ["box.y": 400, "box.bounce2": 3, "box.contacts": 2])])
        let c = Comparison(a: .init(label: "A", summary: a), b: .init(label: "B", summary: b))
        #expect(!c.identical)
        // Matched by value, not by index: A's point 0 (e = 0.1) is B's point 1.
        #expect(c.matched.map { [$0.pointA, $0.pointB] } == [[0, 1], [1, 0]])
        let first = try #require(c.matched.first)
        let y = try #require(first.differences.first { $0.metric == "box.y" })
        #expect(y.delta == 0 && y.relative == 0 && !y.differs)
        let second = try #require(c.matched.last?.differences.first { $0.metric == "box.y" })
        // 450 − 500 = −50; −50 / 500 = −0.1.
        #expect(second.delta == -50 && second.relative == -0.1)
        // A metric only one side has: a difference with no delta.
        let bounce1 = try #require(first.differences.first { $0.metric == "box.bounce1" })
        #expect(bounce1.a == 10 && bounce1.b == nil && bounce1.delta == nil && bounce1.differs)
        // From 0 to 2: no relative difference (A is zero), but B − A = 2 is the whole spread of
        // contacts (0 … 2), while y's −50 is half of its spread (400 … 500): contacts rank first.
        let contacts = try #require(first.differences.first { $0.metric == "box.contacts" })
        #expect(contacts.delta == 2 && contacts.relative == nil)
        #expect(c.spreads["box.contacts"] == 2 && c.spreads["box.y"] == 100)
        #expect(c.scaled(contacts) == 1 && c.scaled(second) == 0.5)
        #expect(c.differing.map(\.difference.metric) == ["box.contacts", "box.y", "box.bounce1", "box.bounce2"])
        let ySummary = try #require(c.metricSummaries.first { $0.metric == "box.y" })
        #expect(ySummary.points == 2 && ySummary.differing == 1 && ySummary.largestDelta == 50 && ySummary.largestRelative == 0.1)
        #expect(ySummary.largestScaled == 0.5)
        #expect(c.metricSummaries.first?.metric == "box.contacts")
        let bounce = try #require(c.metricSummaries.first { $0.metric == "box.bounce1" })
        #expect(bounce.differing == 1 && bounce.oneSided == 1 && bounce.largestDelta == nil && bounce.largestRelative == nil)
        let contactSummary = try #require(c.metricSummaries.first { $0.metric == "box.contacts" })
        #expect(contactSummary.largestDelta == 2 && contactSummary.largestRelative == nil)
    }

    @Test func nearZeroValuesDoNotLeadTheList() throws {
        // A resting body's velocity going from 4e-17 to -6e-7 is a relative change of −1.5e12:
        // it led the list when differences were ranked relative to A (issue 31). Next to y's 10
        // over a spread of 100 (0.1) it is 6e-7 over the near-zero floor 1e-4 (0.006).
        let a = summary(["e"], [([0.1], ["box.y": 100, "box.vx": 4e-17]), ([0.2], ["box.y": 200, "box.vx": 0])])
        let b = summary(["e"], [([0.1], ["box.y": 110, "box.vx": -6e-7]), ([0.2], ["box.y": 200, "box.vx": 0])])
        let c = Comparison(a: .init(label: "A", summary: a), b: .init(label: "B", summary: b))
        #expect(c.differing.map(\.difference.metric) == ["box.y", "box.vx"])
        let vx = try #require(c.matched.first?.differences.first { $0.metric == "box.vx" })
        #expect(vx.relative == nil)
        #expect(abs(c.scaled(vx)! - 6e-3) < 1e-12)
        #expect(c.metricSummaries.map(\.metric).prefix(2) == ["box.y", "box.vx"])
    }

    @Test func sweepFilesDifferAsLines() {
        #expect(LineDiff.lines("a\nb\nc", "a\nb\nc") == nil)
        #expect(LineDiff.lines("a\nb\nc", "a\nB\nc\nd") == ["@@ A line 2, B line 2", "-b", "+B", "@@ A line 4, B line 4", "+d"])
        #expect(LineDiff.lines("x: 1\n", "") == ["@@ A line 1, B line 1", "-x: 1"])
    }

    @Test func aPartnerNotTouchedCountsZeroNotMissing() throws {
        // summary.json leaves out box.contacts.ledge where no replica touched the ledge.
        let a = summary(["e"], [([0.1], ["box.contacts.ledge": 2, "box.bounce3": 4])])
        let b = summary(["e"], [([0.1], [:])])
        let c = Comparison(a: .init(label: "A", summary: a), b: .init(label: "B", summary: b))
        let d = try #require(c.matched.first?.differences)
        let ledge = try #require(d.first { $0.metric == "box.contacts.ledge" })
        #expect(ledge.a == 2 && ledge.b == 0 && ledge.delta == -2 && ledge.relative == -1)
        // Other metrics stay missing: no third bounce is not a bounce of 0.
        #expect(d.first { $0.metric == "box.bounce3" }?.b == nil)
    }

    @Test func pointsOfDifferentSweepsMatchOnTheirValues() {
        // A sweeps e over 0.1, 0.2, 0.3 with g fixed at 1 in its file; B sweeps e over 0.2, 0.3,
        // 0.5 and g over 1 and 2. A's 0.2 and 0.3 match B's (0.2, 1) and (0.3, 1); A's 0.1 and
        // B's 0.5 and g = 2 points do not.
        let a = summary(["e"], [([0.1], ["box.y": 1]), ([0.2], ["box.y": 2]), ([0.3], ["box.y": 3])])
        let grid: [(e: Double, g: Double)] = [(0.2, 1), (0.2, 2), (0.3, 1), (0.3, 2), (0.5, 1), (0.5, 2)]
        let b = summary(["e", "g"], grid.map { p -> ([Double], [String: Double]) in ([p.e, p.g], ["box.y": p.e * 10]) })
        let c = Comparison(a: .init(label: "A", summary: a, fixedValues: ["g": 1]), b: .init(label: "B", summary: b))
        #expect(c.parameters == ["e", "g"])
        #expect(c.matched.map { [$0.pointA, $0.pointB] } == [[1, 0], [2, 2]])
        #expect(c.matched.map(\.values) == [[0.2, 1], [0.3, 1]])
        #expect(c.onlyInA.map(\.point) == [0])
        #expect(c.onlyInB.map(\.point) == [1, 3, 4, 5])
        // Without A's value of g nothing can match: no guessing.
        let blind = Comparison(a: .init(label: "A", summary: a), b: .init(label: "B", summary: b))
        #expect(blind.matched.isEmpty && blind.onlyInA.count == 3 && blind.onlyInB.count == 6)
    }
}
