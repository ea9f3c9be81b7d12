import Testing
import WorldSweepRun
@testable import WorldSweepReport

/// Which findings the page leads with, on constructed sweeps whose answers are known.
@Suite struct HeadlineTests {
    static let elasticities = (0..<8).map { Double($0) / 7 }
    static let densities = [0.5, 1.0, 2.0]

    /// A 8 × 3 grid, one world per point, 5 s runs: `card.bounce1` a step in density (20 pt below
    /// 1, 120 from 1 on) plus 40·e, always bounced; `card.rest_time` given by `rest(e)` (nil: the
    /// world never came to rest in the run).
    static func sweep(rest: (Double) -> Double?) -> SweepSummary {
        var points: [PointSummary] = []
        for e in elasticities {
            for d in densities {
                var metrics: [String: MetricStats] = ["card.bounce1": MetricStats([(d < 1 ? 20 : 120) + 40 * e])!]
                if let r = rest(e) { metrics["card.rest_time"] = MetricStats([r])! }
                points.append(PointSummary(point: points.count, parameters: [e, d], replicas: 1, failedReplicas: 0, metrics: metrics))
            }
        }
        var run = Fixture.run
        run.worlds = points.count
        run.seconds = 5
        return SweepSummary(name: "constructed", description: "", parameters: ["bouncy.elasticity", "bouncy.density"], items: ["card"],
                            partners: [:], sweepKind: "grid", replicas: 1, points: points, run: run)
    }

    @Test func aClearStepOutranksAMostlyCensoredTime() throws {
        // Rest only for e < 0.3 (3 of 8 values), at 1 + 0.5·e; never otherwise (62.5 % of worlds).
        let m = ReportModel(summary: Self.sweep { e in e < 0.3 ? 1 + 0.5 * e : nil }, sample: WorldSample())
        let bounce = try #require(m.analysis("card.bounce1")), rest = try #require(m.analysis("card.rest_time"))
        // The censored time is a pure function of e: its decomposition gives e all of it, more
        // than density's share of the bounce (the step's 2222 pt² against 40·e's 1600 · 0.1071 = 171: 92.8 %).
        #expect(abs(rest.importance!.mains[0]! - 1) < 1e-9)
        #expect(abs(bounce.importance!.mains[1]! - 2222.2 / (2222.2 + 171.43)) < 0.0005)
        // By hand: 9 worlds rested (times 1, 1 + 0.5/7, 1 + 1/7, three each), 15 never (5 s).
        let times = Self.elasticities.prefix(3).flatMap { e in Array(repeating: 1 + 0.5 * e, count: 3) }
        let all = times + Array(repeating: 5.0, count: 15)
        let mean = all.reduce(0, +) / 24
        let variance = all.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 24
        let reached = times.reduce(0, +) / 9
        let between = (9.0 / 24) * (reached - mean) * (reached - mean) + (15.0 / 24) * (5 - mean) * (5 - mean)
        #expect(abs(m.censoredShare("card.rest_time") - between / variance) < 1e-9)
        #expect(m.censoredShare("card.rest_time") > 0.99)
        #expect(m.censoredShare("card.bounce1") == 0)   // a bounce never made is height 0, a value
        // So the step leads, and the time, whose variation is whether worlds rest at all, does
        // not: its never-share (a pure step in e) speaks for it, after the measured outcome.
        #expect(m.support(rest) == 0)
        #expect(m.headlines.map(\.column) == ["card.bounce1", "card.never_rest"])
        let never = try #require(m.analysis("card.never_rest"))
        #expect(m.finding(never) == "card.never_rest (the share of worlds that never came to rest in the 5 s run) against bouncy.elasticity (100 % of its variation): steps from 0 % to 100 % between 0.286 and 0.429.")
        #expect(m.finding(bounce).hasPrefix("card.bounce1 against bouncy.density (93 % of its variation): steps from "))
        #expect(m.finding(bounce).contains(" between 0.5 and 1"))
        #expect(m.finding(rest).contains("63 % of the worlds never came to rest in the run") && m.finding(rest).contains("whether a world got there at all holds 100 % of its variation"))
    }

    @Test func aMeasuredTimeStillLeads() throws {
        // Every world rests, at 1 + 3·e: a pure function of e, all of its variation measured time.
        let m = ReportModel(summary: Self.sweep { e in 1 + 3 * e }, sample: WorldSample())
        #expect(m.censoredShare("card.rest_time") == 0)
        let rest = try #require(m.analysis("card.rest_time"))
        #expect(abs(m.support(rest) - 1) < 1e-9)
        #expect(m.headlines.map(\.column) == ["card.rest_time", "card.bounce1"])
        #expect(m.finding(rest).hasPrefix("card.rest_time against bouncy.elasticity (100 % of its variation): rises from 1 s to 4 s"))
    }

    @Test func aMetricMostlyNoiseNeverLeads() throws {
        // Four replicas per point: bounce1 is 100 ± 50 pt between them and moves by 10·e between
        // points; its largest term is far under half of the variation.
        var s = Self.sweep { _ in nil }
        s.replicas = 4
        for i in s.points.indices {
            let e = s.points[i].parameters[0]
            s.points[i].replicas = 4
            s.points[i].metrics = ["card.bounce1": MetricStats([50, 150, 50, 150].map { $0 + 10 * e })!]
        }
        let m = ReportModel(summary: s, sample: WorldSample())
        #expect(m.headlines.isEmpty)
        #expect((m.analysis("card.bounce1")?.importance?.noise ?? 0) > 0.9)
    }

    @Test func anotherItemSayingTheSameIsNamedInTheLeadNotLedAgain() throws {
        // Two items whose first bounce is the same step in density (b's twice a's): one headline,
        // which names the other.
        var s = Self.sweep { _ in 1 }
        s.items = ["a", "b"]
        for i in s.points.indices {
            let d = s.points[i].parameters[1]
            s.points[i].metrics = ["a.bounce1": MetricStats([d < 1 ? 20 : 120])!, "b.bounce1": MetricStats([d < 1 ? 40 : 240])!]
        }
        let m = ReportModel(summary: s, sample: WorldSample())
        #expect(m.headlines.map(\.column) == ["a.bounce1"])
        #expect(m.headlineText(m.headlines[0]).hasSuffix(" b.bounce1 follows the same shape."))
    }
}
