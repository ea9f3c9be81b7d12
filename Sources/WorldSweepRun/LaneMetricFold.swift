// The metrics of a lanes batch folded eight worlds per instruction: ItemTickFold over SIMD8<Double>,
// each item's track kept in columns (index item × lanes + lane), read straight from the lanes
// (`PlanBatch.itemStates(ofGroup:body:)`). What happens to few worlds in a tick — contact changes,
// a bounce, a still item, springs and written metrics, a stop — is done lane by lane, on the
// worlds' own MetricTracks, as the world-at-a-time fold does it.

import WorldSweep

/// What ItemTickFold keeps of each item of each world of a lanes batch between ticks, and what
/// its contacts say this tick. Flags are −1 / 0 per lane.
final class LaneItemTracks {
    /// Lanes (worlds, padded to whole groups of eight) and items per world.
    let lanes: Int, itemCount: Int
    let lastX, lastY, flightStart, flightApex, stillTime: UnsafeMutablePointer<Double>
    let flying, touched, openZero, begun, lastAwakeTick: UnsafeMutablePointer<Int64>
    /// Each item's loop limits (ItemTickFold.Bounds), by item and lane.
    let loopLowX, loopLowY, loopHighX, loopHighY: UnsafeMutablePointer<Double>
    /// Per lane: up, the world's ticks, and −1 where the world folds springs or written metrics.
    let upX, upY: UnsafeMutablePointer<Double>
    let ticks, extras: UnsafeMutablePointer<Int64>
    private let columns = Columns()

    /// The columns of `worlds` (lane k = world k) as their tracks stand before the first tick.
    init(_ worlds: [PlanMetricsRecorder.World], lanes: Int, itemCount n: Int) {
        self.lanes = lanes; itemCount = n
        let cells = n * lanes
        lastX = columns.make(cells, 0); lastY = columns.make(cells, 0)
        flightStart = columns.make(cells, 0); flightApex = columns.make(cells, 0); stillTime = columns.make(cells, 0)
        flying = columns.make(cells, 0); touched = columns.make(cells, 0); openZero = columns.make(cells, -1)
        begun = columns.make(cells, 0); lastAwakeTick = columns.make(cells, 0)
        loopLowX = columns.make(cells, 0); loopLowY = columns.make(cells, 0); loopHighX = columns.make(cells, 0); loopHighY = columns.make(cells, 0)
        upX = columns.make(lanes, 0); upY = columns.make(lanes, 0)
        ticks = columns.make(lanes, 0); extras = columns.make(lanes, 0)
        for (k, world) in worlds.enumerated() {
            upX[k] = world.up.x; upY[k] = world.up.y
            ticks[k] = Int64(world.ticks)
            extras[k] = world.tracks.hasExtras ? -1 : 0
            for (i, item) in world.tracks.perItem.enumerated() {
                let c = i * lanes + k
                lastX[c] = item.lastCenter.x; lastY[c] = item.lastCenter.y
                stillTime[c] = item.stillTime
                flying[c] = item.flight == nil ? 0 : -1
                if let f = item.flight { flightStart[c] = f.start; flightApex[c] = f.apex }
                openZero[c] = item.open == 0 ? -1 : 0
                lastAwakeTick[c] = Int64(item.lastAwakeTick)
                let loop = MetricTracks.Loop.limits(item.loop)
                loopLowX[c] = loop.lowX; loopLowY[c] = loop.lowY; loopHighX[c] = loop.highX; loopHighY[c] = loop.highY
            }
        }
    }

    /// World `k`'s item `i` tracks as the world-at-a-time fold keeps them (for its results).
    func writeBack(into tracks: inout MetricTracks, world k: Int) {
        for i in 0..<itemCount {
            let c = i * lanes + k
            tracks.perItem[i].lastCenter = (lastX[c], lastY[c])
            tracks.perItem[i].stillTime = stillTime[c]
            tracks.perItem[i].flight = flying[c] != 0 ? (flightStart[c], flightApex[c]) : nil
            tracks.perItem[i].lastAwakeTick = Int(lastAwakeTick[c])
        }
    }

    /// World `k`'s contacts of this tick (its tracks' events just taken) into the columns; its
    /// items' `touched` cleared there, as the fold does.
    func takeContacts(from tracks: inout MetricTracks, world k: Int) {
        for i in 0..<itemCount {
            let c = i * lanes + k
            touched[c] = tracks.perItem[i].touched ? -1 : 0
            openZero[c] = tracks.perItem[i].open == 0 ? -1 : 0
            begun[c] = tracks.perItem[i].begun > 0 ? -1 : 0
            tracks.perItem[i].touched = false
        }
    }

    /// Group `g`'s contacts of this tick cleared (after its fold).
    func clearContacts(group g: Int) {
        for i in 0..<itemCount {
            let c = i * lanes + g * 8
            storeLanes(SIMD8<Int64>(repeating: 0), touched, c); storeLanes(SIMD8<Int64>(repeating: 0), begun, c)
        }
    }
}

/// Lanes `i ..< i + 8` of a column.
@inline(__always) private func loadLanes<T: SIMDScalar>(_ p: UnsafeMutablePointer<T>, _ i: Int) -> SIMD8<T> {
    UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<T>.self)
}
@inline(__always) private func storeLanes<T: SIMDScalar>(_ v: SIMD8<T>, _ p: UnsafeMutablePointer<T>, _ i: Int) {
    UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<T>.self)
}
/// `mask ? a : b` per lane, for −1 / 0 masks over integers.
@inline(__always) private func blend(_ mask: SIMD8<Int64>, _ a: SIMD8<Int64>, _ b: SIMD8<Int64>) -> SIMD8<Int64> { b ^ ((b ^ a) & mask) }

extension PlanMetricsRecorder {
    /// `afterTick` of a lanes batch: each lane group's worlds folded together. Returns how many
    /// worlds it stopped.
    func afterLaneTick(_ tick: Int, batch: PlanBatch, groups: Int, bodies: [Int?], lanes: LaneItemTracks) -> Int {
        typealias D = SIMD8<Double>
        var stopped = 0
        let width = 8, n = lanes.itemCount, stride = lanes.lanes
        let speedLimit = D(repeating: self.speedLimit), surelyWithin = D(repeating: ItemTickFold.surelyWithin(self.speedLimit))
        let tickLanes = SIMD8<Int64>(repeating: Int64(tick)), zero = SIMD8<Int64>(repeating: 0)
        for g in 0..<groups {
            let reading = batch.readings(ofGroup: g)
            let running = reading.running
            guard laneMaskAny(running) else { continue }
            let base = g * width
            let changes = running & reading.contactChanges
            if laneMaskAny(changes) {
                for j in 0..<width where changes[j] != 0 {
                    let k = base + j
                    takeContactChanges(&worlds[k], batch: batch, world: k)
                    worlds[k].tracks.takeTickEvents()
                    lanes.takeContacts(from: &worlds[k].tracks, world: k)
                }
            }
            var failed = zero
            let up = (x: loadLanes(lanes.upX, base), y: loadLanes(lanes.upY, base))
            for i in 0..<n {
                guard let b = bodies[i] else { continue }
                let c = i * stride + base
                let s = batch.itemStates(ofGroup: g, body: b)
                var track = ItemTickFold.Track<D>(lastX: loadLanes(lanes.lastX, c), lastY: loadLanes(lanes.lastY, c), flying: loadLanes(lanes.flying, c),
                                                  flightStart: loadLanes(lanes.flightStart, c), flightApex: loadLanes(lanes.flightApex, c))
                let turnFinite = D.isFinite(s.angle) & D.isFinite(s.angularVelocity)
                let o = ItemTickFold.fold(&track, .init(x: s.x, y: s.y, vx: s.vx, vy: s.vy, turnFinite: turnFinite, asleep: ~s.awake),
                                          .init(touched: loadLanes(lanes.touched, c), openZero: loadLanes(lanes.openZero, c), begun: loadLanes(lanes.begun, c)),
                                          .init(loopLowX: loadLanes(lanes.loopLowX, c), loopLowY: loadLanes(lanes.loopLowY, c),
                                                loopHighX: loadLanes(lanes.loopHighX, c), loopHighY: loadLanes(lanes.loopHighY, c),
                                                upX: up.x, upY: up.y, speedLimit: speedLimit, surelyWithin: surelyWithin))
                // Only running worlds take the tick: a stopped one keeps its last tick's tracks.
                storeLanes(D.select(running, track.lastX, loadLanes(lanes.lastX, c)), lanes.lastX, c)
                storeLanes(D.select(running, track.lastY, loadLanes(lanes.lastY, c)), lanes.lastY, c)
                storeLanes(D.select(running, track.flightStart, loadLanes(lanes.flightStart, c)), lanes.flightStart, c)
                storeLanes(D.select(running, track.flightApex, loadLanes(lanes.flightApex, c)), lanes.flightApex, c)
                storeLanes(blend(running, track.flying, loadLanes(lanes.flying, c)), lanes.flying, c)
                storeLanes(blend(running & o.awake, tickLanes, loadLanes(lanes.lastAwakeTick, c)), lanes.lastAwakeTick, c)
                let still = running & o.stillCandidate
                storeLanes(D.select(running & ~still, D(repeating: 0), loadLanes(lanes.stillTime, c)), lanes.stillTime, c)
                failed |= running & o.failed
                let rare = running & (still | o.bounced)
                guard laneMaskAny(rare) else { continue }
                for j in 0..<width where rare[j] != 0 {
                    if o.bounced[j] != 0 { MetricTracks.recordBounce(&worlds[base + j].tracks.items[i], rise: o.rise[j]) }
                    if still[j] != 0 && !ItemTickFold.stillStep(&lanes.stillTime[c + j], x: s.x[j], y: s.y[j], vx: s.vx[j], vy: s.vy[j],
                                                                 tickLength: worlds[base + j].tracks.tickLength) {
                        failed[j] = -1
                    }
                }
            }
            if laneMaskAny(changes) { lanes.clearContacts(group: g) }
            let lastTick = unsafeBitCast(loadLanes(lanes.ticks, base) .<= tickLanes, to: SIMD8<Int64>.self)
            let ended = running & (failed | reading.asleep | lastTick)
            let extras = running & ~failed & loadLanes(lanes.extras, base)
            guard laneMaskAny(ended | extras) else { continue }
            for j in 0..<width where (ended[j] | extras[j]) != 0 {
                let k = base + j
                if extras[j] != 0 {
                    worlds[k].tracks.foldExtras(tick: tick, bodies: worlds[k].bodies) { batch.itemState(k, body: $1) }
                }
                guard ended[j] != 0 else { continue }
                worlds[k].ticksRun = tick
                if failed[j] != 0 { worlds[k].failed = true }
                batch.stop(k)
                stopped += 1
            }
        }
        return stopped
    }
}
