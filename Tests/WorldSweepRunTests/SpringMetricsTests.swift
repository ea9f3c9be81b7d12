import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepRun
import WorldSweepScene

/// The spring metrics on trajectories written by hand: a damped spring released from rest,
/// x(t) = A e^(−ζωt) (cos ω_d t + ζω/ω_d · sin ω_d t), ω_d = ω √(1 − ζ²), whose velocity is
/// v(t) = −A ω²/ω_d · e^(−ζωt) sin ω_d t. Its extremes fall exactly at ω_d t = nπ with
/// |x| = A rⁿ, r = e^(−πζ/√(1−ζ²)): the first one past rest is the overshoot A r.
@Suite struct SpringMetricsTests {
    static let tick = 1.0 / 60

    struct Spring {
        var amplitude: Double, zeta: Double, dampedHz: Double
        var omegaD: Double { 2 * Double.pi * dampedHz }
        var omega: Double { omegaD / (1 - zeta * zeta).squareRoot() }
        func x(_ t: Double) -> Double {
            amplitude * exp(-zeta * omega * t) * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
        }
        func v(_ t: Double) -> Double { -amplitude * omega * omega / omegaD * exp(-zeta * omega * t) * sin(omegaD * t) }
    }

    static func state(x: Double, y: Double, vx: Double = 0, vy: Double = 0, angle: Double = 0) -> ItemState {
        ItemState(center: Point(x: x, y: y), angle: angle, velocity: Vector(dx: vx, dy: vy), angularVelocity: 0, isAsleep: false)
    }

    @Test func snapOvershootSettleAndCrossingsOfAnUnderdampedSpring() throws {
        // ζ = 0.2 and a damped frequency of 1.5 Hz: a half period of 1/3 s, 20 ticks, so the
        // extremes land on ticks. Released 100 pt to the right of a snap point at (160, 300).
        let s = Spring(amplitude: 100, zeta: 0.2, dampedHz: 1.5)
        var track = SpringTrack(.point(Point(x: 160, y: 300)))
        let ticks = 600
        for k in 1...ticks {
            let t = Double(k) * Self.tick
            track.fold(tick: k, state: Self.state(x: 160 + s.x(t), y: 300, vx: s.v(t)), other: nil)
        }
        let result = track.result(ticksRun: ticks, tickLength: Self.tick)
        // r = e^(−0.2π/√0.96) = e^(−0.64127) = 0.52662: the overshoot is 52.662 pt.
        let r = exp(-Double.pi * 0.2 / (1 - 0.04).squareRoot())
        #expect(abs(result.overshoot - 100 * r) < 1e-4 * 100 * r)
        #expect(abs(result.overshoot - 52.662) < 0.001)
        // Swings through rest counted once past 1 pt on the other side: peaks 100 rⁿ are
        // 52.7, 27.7, 14.6, 7.69, 4.05, 2.13, 1.12 (n = 1 … 7) and then 0.59: seven crossings.
        #expect(result.oscillations == 7)
        // Settling: |x| stays under 1 pt after t ≈ 2.4 s (amplitude 102 e^(−1.9238 t)); the speed
        // is the later test. Its peaks, env(t) √(1 − ζ²) with env = 981.7 e^(−1.9238 t), fall at
        // t_n = 0.14530 + n/3 s: peak 10 (t = 3.4786 s) is 1.19 pt/s, peak 11 is 0.63 pt/s. So the
        // last moment at 1 pt/s is t* between t_10 and the zero at 11π/ω_d = 11/3 s, where
        // 981.7 e^(−1.9238 t) |sin ω_d t| = 1; the last unsettled tick is the last one before t*.
        var lo = 3.4786, hi = 11 * Double.pi / s.omegaD
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if abs(s.v(mid)) >= 1 { lo = mid } else { hi = mid }
        }
        let expected = Double(Float(floor(lo * 60) / 60))
        let settle = try #require(result.settleTime)
        #expect(settle == expected)
        #expect(settle > 3.4786 && settle < 11.0 / 3)
    }

    @Test func criticallyDampedSpringNeverOvershoots() throws {
        // A spring from an anchor at (0, 0), rest length 100 pt, released 80 pt stretched along
        // the diagonal, critically damped: e(t) = A (1 + ωt) e^(−ωt) never crosses 0.
        let a = 80.0, w = 2 * Double.pi
        let diagonal = 1 / 2.0.squareRoot()
        var track = SpringTrack(.distance(anchor: .point(Point(x: 0, y: 0)), offset: .zero, length: 100))
        for k in 1...600 {
            let t = Double(k) * Self.tick
            let e = a * (1 + w * t) * exp(-w * t), v = -a * w * w * t * exp(-w * t)
            let d = 100 + e
            track.fold(tick: k, state: Self.state(x: d * diagonal, y: d * diagonal, vx: v * diagonal, vy: v * diagonal), other: nil)
        }
        let result = track.result(ticksRun: 600, tickLength: Self.tick)
        // Rounding alone puts it past rest (the square root of the diagonal's length): by far less than a nanopoint.
        #expect(result.overshoot < 1e-9 && result.oscillations == 0)
        // Under 1 pt once (1 + ωt) e^(−ωt) < 1/80: ωt > 6.4 (7.4 e^(−6.4) = 0.0123 < 0.0125 and
        // 7.3 e^(−6.3) = 0.0134 > 0.0125), t ≈ 1.01 s; the speed, 80 ω² t e^(−ωt) = 3158 t e^(−6.283 t),
        // is under 1 pt/s later, from between 1.3 s (1.16 pt/s) and 1.35 s (0.88 pt/s).
        let settle = try #require(result.settleTime)
        #expect(settle > 1.3 && settle < 1.35)
    }

    @Test func pendulumArcAndCrossings() {
        // A pendulum 200 pt below a pivot at (160, 100), swinging without damping, θ(t) = 0.3 cos(ωt)
        // with ω = 2π · 1.5: the arc past the lowest point on the far side is 200 · 0.3 = 60 pt.
        // In 2 s it passes the bottom at t = 1/6 + n/3 (n = 0 … 5): six crossings; never settles.
        let w = 2 * Double.pi * 1.5
        var track = SpringTrack(.swing(pivot: Point(x: 160, y: 100), down: Vector(dx: 0, dy: 1)))
        for k in 1...120 {
            let t = Double(k) * Self.tick, theta = 0.3 * cos(w * t), omega = -0.3 * w * sin(w * t)
            track.fold(tick: k, state: Self.state(x: 160 + 200 * sin(theta), y: 100 + 200 * cos(theta),
                                                  vx: 200 * omega * cos(theta), vy: -200 * omega * sin(theta)), other: nil)
        }
        let result = track.result(ticksRun: 120, tickLength: Self.tick)
        #expect(abs(result.overshoot - 60) < 1e-4)
        #expect(result.oscillations == 6)
        #expect(result.settleTime == nil)
    }

    @Test func itemToItemLengthIsBetweenTurnedAttachmentPoints() {
        // Item a at (0, 0) turned a quarter turn clockwise (y down): its offset (10, 0) points
        // down, to (0, 10). Item b at (0, 110), unturned, offset (0, −5): (0, 105). Distance 95;
        // with a rest length of 90 the spring is 5 pt stretched.
        let target = RestTarget.distance(anchor: .item(1, offset: Offset(horizontal: 0, vertical: -5)),
                                         offset: Offset(horizontal: 10, vertical: 0), length: 90)
        let d = target.displacement(Self.state(x: 0, y: 0, angle: Double.pi / 2), other: Self.state(x: 0, y: 110), axis: nil)
        #expect(abs(d.signed - 5) < 1e-9 && abs(d.away - 5) < 1e-9)
        #expect(target.otherItem == 1)
    }

    @Test func aRestFirstReachedOnTheRunsLastTickIsNoRest() throws {
        // One item, awake on ticks 1 and 2, asleep from tick 3 on. In a run of 4 ticks it rests
        // at the time of tick 3, the first tick of its last sleep: 3/60 s. In a run of 3 ticks it
        // fell asleep on the last tick: the run cannot confirm that rest, and 3/60 s would read
        // as the run's length, what a rest never reached counts as. No rest.
        func run(ticks: Int) -> Double? {
            var tracks = MetricTracks(itemCount: 1)
            var last = Self.state(x: 0, y: 0)
            for tick in 1...ticks {
                var s = Self.state(x: 0, y: 0)
                s.isAsleep = tick >= 3
                last = s
                let current = s
                let ok = tracks.fold(tick: tick, bodies: [0], up: (0, -1), speedLimit: 1e4, state: { _, _ in current })
                #expect(ok)
            }
            let final = last
            return tracks.finish(ticksRun: ticks, ticks: ticks, tickLength: Self.tick, up: (0, -1),
                                 state: { _ in final }, placed: { _ in (Point(x: 0, y: 0), 0) })[0].restTime
        }
        #expect(run(ticks: 4) == Double(Float(3 * Self.tick)))
        #expect(run(ticks: 3) == nil)
    }

    @Test func tracksFoldSpringsByBodyAndLeaveOtherItemsOut() throws {
        // Three items; the first springs towards the third (bodies in another order than items),
        // the second has no target. The first is 30 pt stretched, then 10 pt compressed, then at rest.
        let file = try scene("""
            name: three
            world: {bounds: [320, 568], ticks: 3}
            items:
              a: {center: [0, 0], size: [10, 10]}
              b: {center: [50, 0], size: [10, 10]}
              c: {center: [0, 100], size: [10, 10]}
            """)
        var tracks = MetricTracks(itemCount: 3)
        tracks.watchForSaturation(file)
        tracks.watchRest([.distance(anchor: .item(2, offset: .zero), offset: .zero, length: 100), nil, nil])
        let bodies: [Int?] = [2, 0, 1]   // item → body
        let gaps = [130.0, 90, 100]
        var states: [ItemState] = []
        for (k, gap) in gaps.enumerated() {
            // Body 2 is item a, body 1 item c (fixed at (0, 200)), body 0 item b (still).
            states = [Self.state(x: 50, y: 0), Self.state(x: 0, y: 200), Self.state(x: 0, y: 200 - gap)]
            let current = states
            let ok = tracks.fold(tick: k + 1, bodies: bodies, up: (0, -1), speedLimit: 1e4, state: { _, body in current[body] })
            #expect(ok)
        }
        let out = tracks.finish(ticksRun: 3, ticks: 3, tickLength: Self.tick, up: (0, -1),
                                state: { i in bodies[i].map { states[$0] } }, placed: { _ in (Point(x: 0, y: 0), 0) })
        #expect(out[0].spring == SpringResult(overshoot: 10, settleTime: Double(Float(2 * Self.tick)), oscillations: 1))
        #expect(out[1].spring == nil && out[2].spring == nil)
        // No target anywhere: nothing is tracked.
        var none = MetricTracks(itemCount: 3)
        none.watchRest([nil, nil, nil])
        #expect(none.springs.isEmpty)
    }

    @Test func springColumnsOnlyForItemsWithATarget() throws {
        let plain = CSVLayout(parameters: ["p"], items: ["x", "y"])
        let springy = CSVLayout(parameters: ["p"], items: ["x", "y"], springItems: [false, true])
        // Without a target the contract's columns alone, as every existing file has them.
        #expect(!plain.header.contains("overshoot"))
        #expect(springy.header == plain.header + ",y.overshoot,y.settle_time,y.oscillations")
        let settled = ItemResult(contacts: 0, x: 1, y: 2, spring: SpringResult(overshoot: Double(Float(12.3)), settleTime: 1.5, oscillations: 3))
        let never = ItemResult(x: 1, y: 2, spring: SpringResult(overshoot: 4, settleTime: nil, oscillations: 0))
        let a = WorldResult(world: 0, point: 0, replica: 0, parameters: [1], items: [ItemResult(x: 5), settled])
        let b = WorldResult(world: 1, point: 0, replica: 1, parameters: [1], items: [ItemResult(x: 5), never])
        let line = springy.row(a)
        #expect(line.hasSuffix(",12.3,1.5,3\n"))
        #expect(springy.row(b).hasSuffix(",4,,0\n"))
        #expect(springy.parseRow(line.dropLast()) == a)
        #expect(springy.parseRow(springy.row(b).dropLast()) == b)
        var failed = a; failed.failed = true
        #expect(springy.row(failed) == "0,0,0,1" + String(repeating: ",", count: 17 + 20) + "\n")
        #expect(springy.parseRow(springy.row(failed).dropLast())?.failed == true)
        // Statistics: settle time over the replicas that settled; overshoot and oscillations over all.
        let p = SummaryBuilder.summarize([a, b], layout: springy)
        #expect(p.metrics["y.overshoot"]?.mean == (Double(Float(12.3)) + 4) / 2)
        #expect(p.metrics["y.settle_time"] == MetricStats(count: 1, mean: 1.5, std: 0, min: 1.5, max: 1.5))
        #expect(p.metrics["y.oscillations"] == MetricStats(count: 2, mean: 1.5, std: 4.5.squareRoot(), min: 0, max: 3))
        #expect(p.metrics["x.overshoot"] == nil)
        #expect(PointsCSV(layout: springy).metrics.suffix(3) == ["y.overshoot", "y.settle_time", "y.oscillations"])
        // A file's `metrics:` list picks which spring columns there are.
        let one = CSVLayout(parameters: [], items: ["y"], springItems: [true], springColumns: ["settle_time"])
        #expect(one.metricColumns.last == "y.settle_time" && one.metricColumns.count == 18)
    }
}
