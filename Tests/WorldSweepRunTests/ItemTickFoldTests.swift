import Testing
import TestScratch
@testable import WorldSweepRun

/// ItemTickFold over eight lanes (SIMD8<Double>) against the same fold on each lane alone
/// (Double): every track number and every outcome the same, bit for bit, over random ticks that
/// hit the edges — NaN and infinite states, speeds at the limit, centres on the loop's limits,
/// unmoved centres, heights tied with the apex (+0 against −0), flights that bounce, leave and climb.
@Suite struct ItemTickFoldTests {
    typealias D = SIMD8<Double>

    struct Lane {
        var track: ItemTickFold.Track<Double>
        var state: ItemTickFold.State<Double>
        var contacts: ItemTickFold.Contacts<Double>
        var bounds: ItemTickFold.Bounds<Double>
    }

    static func lane(_ g: inout SeededNumbers) -> Lane {
        func pick(_ values: [Double]) -> Double { values[Int.random(in: 0..<values.count, using: &g)] }
        func flag() -> Bool { Bool.random(using: &g) }
        let edges: [Double] = [0, -0.0, 1, -1, 0.5, 99.5, 100.5, .nan, .infinity, -.infinity, 1e-300, 23_976]
        func number() -> Double { flag() ? pick(edges) : Double.random(in: -200...200, using: &g) }
        let last = (x: number(), y: number())
        // Often the centre is last tick's to the bit, so the still test runs.
        let x = flag() ? last.x : number(), y = flag() ? last.y : number()
        let apex = number(), loop = flag()
        let speedLimit = pick([24_000, 1, 0, .infinity, 1e200])
        return Lane(track: .init(lastX: last.x, lastY: last.y, flying: flag(), flightStart: number(), flightApex: apex),
                    state: .init(x: x, y: y, vx: pick([0, 1, -1, 2, 23_976, 24_000, 24_001, .nan, 0.5, 1e-3]),
                                 vy: pick([0, 1, -1, 0.5, 3, -24_000, .infinity, 1e160]),
                                 turnFinite: Int.random(in: 0..<8, using: &g) != 0, asleep: flag()),
                    contacts: .init(touched: flag(), openZero: flag(), begun: flag()),
                    bounds: .init(loopLowX: loop ? -100.5 : -.infinity, loopLowY: loop ? -100.5 : -.infinity,
                                  loopHighX: loop ? 100.5 : .infinity, loopHighY: loop ? 100.5 : .infinity,
                                  upX: pick([0, -0.0, 1, -1, 0.6]), upY: pick([0, -1, 1, 0.8, -0.0]),
                                  speedLimit: speedLimit, surelyWithin: ItemTickFold.surelyWithin(speedLimit)))
    }

    static func flags(_ lanes: [Lane], _ f: (Lane) -> Bool) -> SIMD8<Int64> {
        SIMD8(lanes.map { f($0) ? -1 : 0 })
    }
    static func vector(_ lanes: [Lane], _ f: (Lane) -> Double) -> D { D(lanes.map(f)) }

    @Test func eightLanesFoldAsEachLaneAlone() {
        var g = SeededNumbers(46)
        var outcomes = (failed: 0, still: 0, bounced: 0, flying: 0)
        for _ in 0..<4_000 {
            let lanes = (0..<8).map { _ in Self.lane(&g) }
            var track = ItemTickFold.Track<D>(lastX: Self.vector(lanes) { $0.track.lastX }, lastY: Self.vector(lanes) { $0.track.lastY },
                                              flying: Self.flags(lanes) { $0.track.flying },
                                              flightStart: Self.vector(lanes) { $0.track.flightStart },
                                              flightApex: Self.vector(lanes) { $0.track.flightApex })
            let o = ItemTickFold.fold(&track,
                                      .init(x: Self.vector(lanes) { $0.state.x }, y: Self.vector(lanes) { $0.state.y },
                                            vx: Self.vector(lanes) { $0.state.vx }, vy: Self.vector(lanes) { $0.state.vy },
                                            turnFinite: Self.flags(lanes) { $0.state.turnFinite }, asleep: Self.flags(lanes) { $0.state.asleep }),
                                      .init(touched: Self.flags(lanes) { $0.contacts.touched }, openZero: Self.flags(lanes) { $0.contacts.openZero },
                                            begun: Self.flags(lanes) { $0.contacts.begun }),
                                      .init(loopLowX: Self.vector(lanes) { $0.bounds.loopLowX }, loopLowY: Self.vector(lanes) { $0.bounds.loopLowY },
                                            loopHighX: Self.vector(lanes) { $0.bounds.loopHighX }, loopHighY: Self.vector(lanes) { $0.bounds.loopHighY },
                                            upX: Self.vector(lanes) { $0.bounds.upX }, upY: Self.vector(lanes) { $0.bounds.upY },
                                            speedLimit: Self.vector(lanes) { $0.bounds.speedLimit },
                                            surelyWithin: Self.vector(lanes) { $0.bounds.surelyWithin }))
            for (j, lane) in lanes.enumerated() {
                var one = lane.track
                let e = ItemTickFold.fold(&one, lane.state, lane.contacts, lane.bounds)
                #expect((o.failed[j] != 0) == e.failed && (o.stillCandidate[j] != 0) == e.stillCandidate)
                #expect((o.awake[j] != 0) == e.awake && (o.bounced[j] != 0) == e.bounced)
                #expect((track.flying[j] != 0) == one.flying)
                #expect(track.lastX[j].bitPattern == one.lastX.bitPattern && track.lastY[j].bitPattern == one.lastY.bitPattern)
                // What is read only where the item flies or bounced.
                if one.flying {
                    #expect(track.flightStart[j].bitPattern == one.flightStart.bitPattern
                            && track.flightApex[j].bitPattern == one.flightApex.bitPattern)
                }
                if e.bounced { #expect(o.rise[j].bitPattern == e.rise.bitPattern) }
                outcomes.failed += e.failed ? 1 : 0; outcomes.still += e.stillCandidate ? 1 : 0
                outcomes.bounced += e.bounced ? 1 : 0; outcomes.flying += one.flying ? 1 : 0
            }
        }
        // The cases compared are not all of one kind.
        #expect(outcomes.failed > 1_000 && outcomes.still > 100 && outcomes.bounced > 1_000 && outcomes.flying > 1_000, "\(outcomes)")
    }

    /// The fold's rules by hand on one world: a flight climbs to its apex, a contact beginning
    /// ends it with the rise as a bounce, and the last contact ending starts the next.
    @Test func aFlightRisesBouncesAndLeavesAgain() {
        let bounds = ItemTickFold.Bounds<Double>(loopLowX: -.infinity, loopLowY: -.infinity, loopHighX: .infinity, loopHighY: .infinity,
                                                 upX: 0, upY: -1, speedLimit: 24_000, surelyWithin: ItemTickFold.surelyWithin(24_000))
        func state(_ y: Double) -> ItemTickFold.State<Double> { .init(x: 10, y: y, vx: 0, vy: 5, turnFinite: true, asleep: false) }
        let quiet = ItemTickFold.Contacts<Double>(touched: false, openZero: true, begun: false)
        var track = ItemTickFold.Track<Double>(lastX: 10, lastY: 100, flying: false, flightStart: 0, flightApex: 0)
        // The contact ends at y = 100 (height −100): the flight starts there.
        _ = ItemTickFold.fold(&track, state(100), .init(touched: true, openZero: true, begun: false), bounds)
        #expect(track.flying && track.flightStart == -100 && track.flightApex == -100)
        _ = ItemTickFold.fold(&track, state(60), quiet, bounds)      // up to height −60
        _ = ItemTickFold.fold(&track, state(80), quiet, bounds)      // coming down: the apex stays
        #expect(track.flightApex == -60)
        let o = ItemTickFold.fold(&track, state(100), .init(touched: true, openZero: false, begun: true), bounds)
        #expect(o.bounced && o.rise == 40 && !track.flying)
        #expect(!o.failed && o.awake && !o.stillCandidate)
        // Past the speed limit: failed.
        let fast = ItemTickFold.fold(&track, .init(x: 10, y: 100, vx: 24_001, vy: 0, turnFinite: true, asleep: false), quiet, bounds)
        #expect(fast.failed)
    }
}
