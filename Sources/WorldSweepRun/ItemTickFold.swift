import WorldSweep

// One item's metrics over one tick, written once over `MetricLane`: Double for one world
// (MetricTracks, both engines' world-at-a-time path), SIMD8<Double> for eight worlds of a lane
// group (PlanMetricsRecorder's lane fold). What is rare comes back as masks for the caller to
// finish lane by lane: a failed world, a bounce to record, an item still to the bit at speed.

/// What the item fold needs of a number: comparisons give masks, `select` picks per lane.
protocol MetricLane {
    associatedtype Mask
    init(_ value: Double)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    func squareRoot() -> Self
    /// Neither infinite nor NaN, per lane.
    static func isFinite(_ a: Self) -> Mask
    static func isLessOrEqual(_ a: Self, _ b: Self) -> Mask
    static func isGreaterOrEqual(_ a: Self, _ b: Self) -> Mask
    static func isEqual(_ a: Self, _ b: Self) -> Mask
    /// `mask ? a : b` per lane.
    static func select(_ mask: Mask, _ a: Self, _ b: Self) -> Self
    static func and(_ a: Mask, _ b: Mask) -> Mask
    static func or(_ a: Mask, _ b: Mask) -> Mask
    static func not(_ a: Mask) -> Mask
    /// Whether every lane of the mask is set (one world: the flag itself).
    static func all(_ a: Mask) -> Bool
}

extension Double: MetricLane {
    @inline(__always) static func isFinite(_ a: Double) -> Bool { a.isFinite }
    @inline(__always) static func isLessOrEqual(_ a: Double, _ b: Double) -> Bool { a <= b }
    @inline(__always) static func isGreaterOrEqual(_ a: Double, _ b: Double) -> Bool { a >= b }
    @inline(__always) static func isEqual(_ a: Double, _ b: Double) -> Bool { a == b }
    @inline(__always) static func select(_ mask: Bool, _ a: Double, _ b: Double) -> Double { mask ? a : b }
    @inline(__always) static func and(_ a: Bool, _ b: Bool) -> Bool { a && b }
    @inline(__always) static func or(_ a: Bool, _ b: Bool) -> Bool { a || b }
    @inline(__always) static func not(_ a: Bool) -> Bool { !a }
    @inline(__always) static func all(_ a: Bool) -> Bool { a }
}

/// Eight lanes; a mask is −1 (set) or 0 per lane, as an integer vector of the same width.
extension SIMD8: MetricLane where Scalar == Double {
    typealias Mask = SIMD8<Int64>
    @inline(__always) init(_ value: Double) { self.init(repeating: value) }
    /// x − x is 0 exactly when x is finite (NaN for an infinity or a NaN).
    @inline(__always) static func isFinite(_ a: Self) -> Mask { isEqual(a - a, Self(repeating: 0)) }
    @inline(__always) static func isLessOrEqual(_ a: Self, _ b: Self) -> Mask { flags(a .<= b) }
    @inline(__always) static func isGreaterOrEqual(_ a: Self, _ b: Self) -> Mask { flags(a .>= b) }
    @inline(__always) static func isEqual(_ a: Self, _ b: Self) -> Mask { flags(a .== b) }
    @inline(__always) static func select(_ mask: Mask, _ a: Self, _ b: Self) -> Self {
        let x = unsafeBitCast(b, to: SIMD8<Int64>.self), y = unsafeBitCast(a, to: SIMD8<Int64>.self)
        return unsafeBitCast(x ^ ((x ^ y) & mask), to: Self.self)
    }
    @inline(__always) static func and(_ a: Mask, _ b: Mask) -> Mask { a & b }
    @inline(__always) static func or(_ a: Mask, _ b: Mask) -> Mask { a | b }
    @inline(__always) static func not(_ a: Mask) -> Mask { ~a }
    @inline(__always) static func all(_ a: Mask) -> Bool { laneMaskAll(a) }
    @inline(__always) private static func flags(_ m: SIMDMask<SIMD8<Int64>>) -> Mask { unsafeBitCast(m, to: Mask.self) }
}

/// Whether any / every lane of a −1 / 0 vector is set (the halves folded, not lane by lane).
@inline(__always) func laneMaskAny(_ m: SIMD8<Int64>) -> Bool {
    let q = m.lowHalf | m.highHalf, h = q.lowHalf | q.highHalf
    return (h[0] | h[1]) != 0
}
@inline(__always) func laneMaskAll(_ m: SIMD8<Int64>) -> Bool {
    let q = m.lowHalf & m.highHalf, h = q.lowHalf & q.highHalf
    return (h[0] & h[1]) == -1
}

/// One item's tick of the metrics that every item folds (MetricTracks.foldItems' rules).
enum ItemTickFold {
    /// What the fold keeps of an item between ticks: the centre after the previous tick, and the
    /// flight (airborne after a contact: where the centre left, on `up`, and the highest since).
    struct Track<R: MetricLane> {
        var lastX, lastY: R
        var flying: R.Mask
        var flightStart, flightApex: R
    }

    /// The item's state after the tick (points), and whether its angle and angular velocity are finite.
    struct State<R: MetricLane> {
        var x, y, vx, vy: R
        var turnFinite: R.Mask
        var asleep: R.Mask
    }

    /// The item's contacts this tick: one began or ended (`touched`), none is open now
    /// (`openZero`), one began (`begun`).
    struct Contacts<R: MetricLane> {
        var touched, openZero, begun: R.Mask
    }

    /// What the world fixes: the reference-bounds loop the centre must stay inside, its half-point
    /// slack added (±infinity where no loop holds the item), the unit vector against gravity, and
    /// the speed limit with the squared speed below which it surely holds (`surelyWithin`).
    struct Bounds<R: MetricLane> {
        var loopLowX, loopLowY, loopHighX, loopHighY: R
        var upX, upY: R
        var speedLimit, surelyWithin: R
    }

    struct Outcome<R: MetricLane> {
        /// A state not finite, too fast, or outside its loop: the world failed.
        var failed: R.Mask
        /// Awake, no contact open, the centre the same to the bit and a speed of at least 1 pt/s:
        /// the caller asks whether the position has lost the velocity (MetricTracks.stillStep).
        var stillCandidate: R.Mask
        var awake: R.Mask
        /// A contact began during a flight: the flight's rise (`rise`) is a bounce.
        var bounced: R.Mask
        var rise: R
    }

    /// Folds the tick into `track`.
    @inline(__always)
    static func fold<R: MetricLane>(_ track: inout Track<R>, _ s: State<R>, _ c: Contacts<R>, _ b: Bounds<R>) -> Outcome<R> {
        let finite = R.and(R.and(R.and(R.isFinite(s.x), R.isFinite(s.y)), R.and(R.isFinite(s.vx), R.isFinite(s.vy))), s.turnFinite)
        let squaredSpeed = s.vx * s.vx + s.vy * s.vy
        // Most ticks need no square root, whose latency was much of a small world's fold.
        var within = R.isLessOrEqual(squaredSpeed, b.surelyWithin)
        if !R.all(within) { within = R.or(within, R.isLessOrEqual(squaredSpeed.squareRoot(), b.speedLimit)) }
        let inLoop = R.and(R.and(R.isGreaterOrEqual(s.x, b.loopLowX), R.isLessOrEqual(s.x, b.loopHighX)),
                           R.and(R.isGreaterOrEqual(s.y, b.loopLowY), R.isLessOrEqual(s.y, b.loopHighY)))
        let failed = R.not(R.and(R.and(finite, within), inLoop))
        let unmoved = R.and(R.isEqual(s.x, track.lastX), R.isEqual(s.y, track.lastY))
        track.lastX = s.x; track.lastY = s.y
        let awake = R.not(s.asleep)
        // (A square root at or above 1 is a square at or above 1: the root rounds correctly.)
        let stillCandidate = R.and(R.and(awake, c.openZero), R.and(unmoved, R.isGreaterOrEqual(squaredSpeed, R(1))))
        let height = s.x * b.upX + s.y * b.upY
        // The flight ends where the next contact begins.
        let bounced = R.and(c.begun, track.flying)
        let rise = track.flightApex - track.flightStart
        let stillFlying = R.and(track.flying, R.not(c.begun))
        // The item's last contact ended this tick: it leaves from here; else a flight climbs on
        // (Swift.max's rule: the later argument where they tie).
        let leaves = R.and(c.openZero, c.touched)
        let climbs = R.and(R.and(c.openZero, stillFlying), R.isGreaterOrEqual(height, track.flightApex))
        track.flightApex = R.select(R.or(leaves, climbs), height, track.flightApex)
        track.flightStart = R.select(leaves, height, track.flightStart)
        track.flying = R.or(stillFlying, leaves)
        return Outcome(failed: failed, stillCandidate: stillCandidate, awake: awake, bounced: bounced, rise: rise)
    }
}

extension ItemTickFold {
    /// A squared speed at or below this is within `speedLimit` whatever the square root rounds
    /// to (−1: ask the root).
    static func surelyWithin(_ speedLimit: Double) -> Double {
        let bound = speedLimit * 0.999
        return bound > 0 && bound < 1e150 ? bound * bound : -1
    }

    /// An item the fold found still to the bit at speed (`stillCandidate`): when its position's
    /// Float cannot carry its velocity on either axis (numbers the engine no longer carries; a
    /// still item, held by a joint or not, is never this), its still time grows, and at two
    /// sub-steps' time (a tick shorter than a sub-step may run none) the world failed: false.
    static func stillStep(_ stillTime: inout Double, x: Double, y: Double, vx: Double, vy: Double, tickLength: Double) -> Bool {
        guard lostBelowPrecision(x, vx) && lostBelowPrecision(y, vy) else {
            stillTime = 0
            return true
        }
        stillTime += tickLength
        return stillTime < 2 * Double(EngineSettings.subStep)
    }

    /// Whether a sub-step at `v` (pt/s) moves a Float coordinate at `x` (pt) by less than its
    /// spacing: the engine's position cannot carry that velocity (an item 1e6 pt out moving at
    /// 1 pt/s). Engine units: metres. An item at rest (v = 0) is never lost, whatever holds it.
    static func lostBelowPrecision(_ x: Double, _ v: Double) -> Bool {
        let metres = Float(x / Double(EngineSettings.pointsPerMetre))
        return abs(v / Double(EngineSettings.pointsPerMetre)) * Double(EngineSettings.subStep) < Double(metres.ulp)
    }
}
