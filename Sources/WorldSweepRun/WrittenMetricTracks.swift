// The metrics written in a sweep file (`measure:`), folded tick by tick from the item states both
// engines hand MetricTracks: no trajectory is kept. Each quantity is computed from the state as
// `trace` prints it (each component rounded to Float), so a metric can be recomputed from a
// world's trace bit for bit. After a world stops early (it paused: nothing moves again) its last
// state stands for the ticks left, as the trace of a paused animator shows it.

import WorldSweep
import WorldSweepScene

/// One world's written metrics while it runs.
struct WrittenMetricTracks {
    /// One metric's running values.
    struct Track {
        let metric: WrittenMetric
        /// The item's mass (kg) and inertia about its centre of mass (kg·m²): kinetic energy only.
        let mass: Double, inertia: Double
        /// The window's first and last ticks where a time sets them (an event's are found as it happens).
        let fromTick: Int, untilTick: Int
        /// The tick `at` reads.
        let atTick: Int
        /// The ticks the window's event edges happened at (the item's k-th contact began), once they have.
        var fromEvent: Int?, untilEvent: Int?
        /// The quantity at the previous tick in the window (crossings compare tick to tick).
        var previous: Double?
        var extreme: Double?
        var sum = 0.0
        var ticks = 0
        var value: Double?
        var firstTick: Int?
        var crossings = 0
        var inside = 0
    }
    var tracks: [Track] = []
    let tickLength: Double
    /// Ticks the run lasts (a world that stops early is extended to it by its last state).
    let runTicks: Int
    /// Where the file put each item (Float-rounded centre and angle): the state of an item no
    /// behavior acts on.
    let placed: [(x: Double, y: Double, angle: Double)]
    /// The last quantity of each track, for the ticks after a world stopped early.
    private var last: [Double?]
    private var ticksFolded = 0

    /// `mass`: an item's mass and rotational inertia as its world's engine sets them.
    init(_ metrics: [WrittenMetric], scene: SceneFile, mass massOf: (Int) -> (mass: Double, inertia: Double)) {
        tickLength = scene.world.tick
        runTicks = scene.world.ticks
        placed = scene.items.map { (Self.engine($0.center.x), Self.engine($0.center.y), Self.engine($0.angle)) }
        let tick = scene.world.tick, ticks = scene.world.ticks
        // Tick k ends at k × tick; a time names the first tick that ends at or after it (a
        // millionth of a tick of slack, so 1/60 × 60 is 1).
        func tickAtOrAfter(_ t: Double) -> Int { max(1, Int((t / tick - 1e-6).rounded(.up))) }
        func tickAtOrBefore(_ t: Double) -> Int { Int((t / tick + 1e-6).rounded(.down)) }
        tracks = metrics.map { m in
            let (mass, inertia) = m.quantity == .kineticEnergy ? massOf(m.item) : (0, 0)
            var from = 1, until = ticks
            if case .time(let t)? = m.from { from = tickAtOrAfter(t) }
            if case .time(let t)? = m.until { until = tickAtOrBefore(t) }
            var at = ticks
            if case .at(let t) = m.measure { at = min(ticks, max(1, Int((t / tick).rounded()))) }
            return Track(metric: m, mass: mass, inertia: inertia, fromTick: from, untilTick: until, atTick: at)
        }
        last = Array(repeating: nil, count: metrics.count)
    }

    /// A state component as the engine's Float carries it (and trace prints it).
    @inline(__always) static func engine(_ x: Double) -> Double { Double(Float(x)) }

    /// Folds tick `tick`: `contacts(i)` is item i's contacts begun so far (this tick's included),
    /// `state(i)` its state (nil: no behavior acts on it, it stays where the file put it).
    mutating func fold(tick: Int, contacts: (Int) -> Int, state: (Int) -> ItemState?) {
        ticksFolded = tick
        for k in tracks.indices {
            let q = quantity(tracks[k], state: state)
            last[k] = q
            Self.update(&tracks[k], q, tick: tick, contacts: contacts(tracks[k].metric.item))
        }
    }

    /// The metric's quantity this tick.
    private func quantity(_ track: Track, state: (Int) -> ItemState?) -> Double {
        let m = track.metric
        let s = state(m.item)
        let x = s.map { Self.engine($0.center.x) } ?? placed[m.item].x
        let y = s.map { Self.engine($0.center.y) } ?? placed[m.item].y
        switch m.quantity {
        case .x: return x
        case .y: return y
        case .angle: return s.map { Self.engine($0.angle) } ?? placed[m.item].angle
        case .vx: return s.map { Self.engine($0.velocity.dx) } ?? 0
        case .vy: return s.map { Self.engine($0.velocity.dy) } ?? 0
        case .angularVelocity: return s.map { Self.engine($0.angularVelocity) } ?? 0
        case .speed:
            guard let s else { return 0 }
            let vx = Self.engine(s.velocity.dx), vy = Self.engine(s.velocity.dy)
            return (vx * vx + vy * vy).squareRoot()
        case .distance:
            let (px, py): (Double, Double)
            if let other = m.other {
                let o = state(other)
                px = o.map { Self.engine($0.center.x) } ?? placed[other].x
                py = o.map { Self.engine($0.center.y) } ?? placed[other].y
            } else {
                px = m.point!.x; py = m.point!.y
            }
            let dx = x - px, dy = y - py
            return (dx * dx + dy * dy).squareRoot()
        case .kineticEnergy:
            guard let s else { return 0 }
            let vx = Self.engine(s.velocity.dx) / 100, vy = Self.engine(s.velocity.dy) / 100
            let w = Self.engine(s.angularVelocity)
            return 0.5 * track.mass * (vx * vx + vy * vy) + 0.5 * track.inertia * w * w
        }
    }

    /// One tick of one track: the window first (its first and last ticks both in it; empty when
    /// it would close before it opens), then the measure.
    private static func update(_ t: inout Track, _ q: Double, tick: Int, contacts: Int) {
        if case .contact(let k)? = t.metric.from, t.fromEvent == nil, contacts >= k { t.fromEvent = tick }
        if case .contact(let k)? = t.metric.until, t.untilEvent == nil, contacts >= k { t.untilEvent = tick }
        let from: Int, until: Int
        if case .contact? = t.metric.from {
            guard let event = t.fromEvent else { return }
            from = event
        } else {
            from = t.fromTick
        }
        if case .contact? = t.metric.until { until = t.untilEvent ?? Int.max } else { until = t.untilTick }
        guard tick >= from && tick <= until else { return }
        switch t.metric.measure {
        case .max: t.extreme = Swift.max(t.extreme ?? q, q)
        case .min: t.extreme = Swift.min(t.extreme ?? q, q)
        case .mean: t.sum += q; t.ticks += 1
        case .final: t.value = q
        case .at: if tick == t.atTick { t.value = q }
        case .first(let value, let direction):
            if t.firstTick == nil, let p = t.previous, crossed(p, q, value, direction) { t.firstTick = tick }
        case .crossings(let value, let direction):
            if let p = t.previous, crossed(p, q, value, direction) { t.crossings += 1 }
        case .timeWithin(let low, let high): if q >= low && q <= high { t.inside += 1 }
        }
        t.previous = q
    }

    /// Whether going from `p` to `q` crosses `value`: up from below it to at or above it, down
    /// from at or above it to below it.
    @inline(__always) static func crossed(_ p: Double, _ q: Double, _ value: Double, _ direction: WrittenMetric.Direction) -> Bool {
        let up = p < value && q >= value, down = p >= value && q < value
        switch direction {
        case .up: return up
        case .down: return down
        case .both: return up || down
        }
    }

    /// Each metric's value (nil: none), in `tracks` order, after the ticks left of the run are
    /// folded from the last state (`contacts(i)`: item i's contacts in the end).
    mutating func finish(contacts: (Int) -> Int) -> [Double?] {
        if ticksFolded < runTicks {
            for k in tracks.indices {
                guard let q = last[k] else { continue }
                let n = contacts(tracks[k].metric.item)
                for tick in (ticksFolded + 1)...runTicks { Self.update(&tracks[k], q, tick: tick, contacts: n) }
            }
        }
        return tracks.map { t in
            func stored(_ x: Double?) -> Double? {
                guard let x else { return nil }
                let f = Double(Float(x))
                return f == 0 ? 0 : f
            }
            switch t.metric.measure {
            case .max, .min: return stored(t.extreme)
            case .mean: return stored(t.ticks > 0 ? t.sum / Double(t.ticks) : nil)
            case .final, .at: return stored(t.value)
            case .first: return stored(t.firstTick.map { Double($0) * tickLength })
            case .crossings: return Double(t.crossings)
            case .timeWithin: return stored(Double(t.inside) * tickLength)
            }
        }
    }
}
