// A replayed world of a spring, a snap or a pendulum, drawn as what its metrics measure: each
// held item's distance from its rest over time. The boxes of such worlds barely move on the scale
// of the reference bounds, so four pictures of them look alike; their curves do not: how far the
// item starts from rest, how far it swings past (overshoot), how often (oscillations) and when it
// stays within 1 pt (settle time) read off the curve.
import WorldSweepRun

struct RestReplayChart: Sendable {
    var title: String
    var trajectory: Trajectory
    /// The ranges to cover (shared by the replayed worlds of one page, so they compare): the
    /// distances, and the times in seconds.
    var yDomain: (Double, Double)?
    var xDomain: (Double, Double)?
    var frame = ChartFrame(width: 360, height: 270, left: 56, right: 14, top: 30, bottom: 46)

    /// What the distance is for each kind of rest, as the y axis says it.
    static func measure(_ target: RestTarget) -> String {
        switch target {
        case .point: "distance from the snap point"
        case .distance: "spring length − rest length"
        case .swing: "arc from the lowest point"
        }
    }

    /// The y axis label: the one measure every held item shares, or a general one.
    var yLabel: String {
        let kinds = Set(trajectory.restTargets.compactMap { $0.map(Self.measure) })
        return Units.label(kinds.count == 1 ? kinds.first! : "distance from rest", unit: "pt")
    }

    /// The lowest and highest distance of the world's held items, and the time its replay
    /// lasted (for shared ranges).
    var extent: (lo: Double, hi: Double, seconds: Double)? {
        let all = trajectory.restDistances.flatMap { $0 }.filter(\.isFinite)
        guard let lo = all.min(), let hi = all.max() else { return nil }
        return (lo, hi, Double((trajectory.restDistances.map(\.count).max() ?? 1) - 1) * trajectory.tick)
    }

    /// One scale for several replayed worlds: the union of their extents (nil: none has a rest).
    static func sharedDomains(_ worlds: [Trajectory]) -> (x: (Double, Double), y: (Double, Double))? {
        let e = worlds.compactMap { RestReplayChart(title: "", trajectory: $0).extent }
        guard !e.isEmpty else { return nil }
        return ((0, e.map(\.seconds).max()!), (e.map(\.lo).min()!, e.map(\.hi).max()!))
    }

    func chart() -> LineChart {
        let t = trajectory
        let series = t.restDistances.enumerated().filter { $0.element.count >= 2 }.map { k, d in
            LineSeries(name: t.items[k].name, color: Palette.color(k),
                       points: d.enumerated().map { i, v in LinePoint(x: Double(i) * t.tick, y: v) }, style: .trace)
        }
        var c = LineChart(title: title, xLabel: "time (s)", yLabel: yLabel, legendTitle: "", series: series)
        c.yDomain = yDomain
        c.xDomain = xDomain
        c.frame = frame
        return c
    }

    func svg() -> String { chart().svg() }
}

extension RestReplayChart {
    /// What the still pictures of such worlds show, said once above them.
    static let note = "The worlds with a snap, a spring or a pendulum are drawn as what their metrics measure: each held item's distance from its rest against time (0: at rest; for a spring, its length less the length at which it holds still (its sag under gravity included), stretched above 0; for a pendulum, the arc from its lowest point; for a snap, the distance from its point), all on one scale. A curve that stops early stops where every item fell asleep and the world paused: at rest from there on."
}
