// The spring metrics of an item with a rest target (a snap, a spring, a pendulum), folded tick by
// tick from its states: how far it overshoots its rest, when it settles, how often it swings
// through. What a person tuning a spring's feel asks of it; docs/data.md defines each column.

import WorldSweep

/// One item's spring metrics while its world runs.
struct SpringTrack {
    /// Within this distance of rest (pt) an item is at rest, and crossings count only from
    /// beyond it on one side to beyond it on the other (so the last sub-point wobbles around rest,
    /// and the engine's rounding, do not count as swings).
    static let restBand = 1.0
    /// Under this speed (pt/s) a settled item is still: the engine's sleep speed.
    static let restSpeed = 1.0

    let target: RestTarget
    /// The side of rest the item first left to beyond the band (+1 or −1; 0 until it does).
    private var firstSide = 0
    /// The side it was last seen on beyond the band.
    private var side = 0
    /// A point target's axis: the direction in which the item first left the band (until then nil).
    private var axis: Vector?
    private var overshoot = 0.0
    private var crossings = 0
    /// The last tick at which the item was out of the band or moving (0: not yet).
    private var lastUnsettledTick = 0

    init(_ target: RestTarget) { self.target = target }

    /// Folds the item's state after tick `tick` (1, 2, …); `other` is the other item's state for an
    /// item–item spring.
    mutating func fold(tick: Int, state s: ItemState, other: ItemState?) {
        var d = target.displacement(s, other: other, axis: axis)
        if firstSide == 0 && d.away > Self.restBand {
            if case .point(let p) = target {
                // The first excursion defines the axis along which a snap's overshoot is measured.
                let dx = s.center.x - p.x, dy = s.center.y - p.y
                axis = Vector(dx: dx / d.away, dy: dy / d.away)
                d = target.displacement(s, other: other, axis: axis)
            }
            firstSide = d.signed > 0 ? 1 : -1
        }
        if firstSide != 0 {
            overshoot = max(overshoot, -Double(firstSide) * d.signed)
            if abs(d.signed) > Self.restBand {
                let now = d.signed > 0 ? 1 : -1
                if side != 0 && now != side { crossings += 1 }
                side = now
            }
        }
        let speed = (s.velocity.dx * s.velocity.dx + s.velocity.dy * s.velocity.dy).squareRoot()
        if d.away > Self.restBand || speed >= Self.restSpeed { lastUnsettledTick = tick }
    }

    /// The metrics after `ticksRun` ticks of `tickLength` s; engine (Float) precision, so
    /// worlds.csv reads back exactly.
    func result(ticksRun: Int, tickLength: Double) -> SpringResult {
        let settled = ticksRun == 0 || lastUnsettledTick < ticksRun
        return SpringResult(overshoot: Double(Float(overshoot)),
                            settleTime: settled ? Double(Float(Double(lastUnsettledTick) * tickLength)) : nil,
                            oscillations: crossings)
    }
}
