import WorldSweep
import WorldSweepResults

/// A metric written in the sweep file's `measure:` section: a reduction or an event of one
/// quantity of an item (or of a pair of items) over the run or a window of it. Its column is
/// `ITEM.NAME` (a pair's: its first item's), after the item's built-in columns.
public struct WrittenMetric: Sendable, Hashable {
    /// What is measured each tick, from the item's state as `trace` prints it (Float values).
    public enum Quantity: String, Sendable, Hashable, CaseIterable {
        case x, y, angle, vx, vy, speed
        case angularVelocity = "angular_velocity"
        /// From `to` (one item), or between the two items' centres (a pair).
        case distance
        /// ½ m v² + ½ I ω², with the engine's mass (kg) and rotational inertia about the centre of
        /// mass (kg·m²), and v in m/s (100 pt = 1 m).
        case kineticEnergy = "kinetic_energy"

        public var unit: String {
            switch self {
            case .x, .y, .distance: "pt"
            case .angle: "rad"
            case .vx, .vy, .speed: "pt/s"
            case .angularVelocity: "rad/s"
            case .kineticEnergy: "J"
            }
        }

        /// Speeds, distances and energies cannot be negative.
        public var isNonNegative: Bool { self == .speed || self == .distance || self == .kineticEnergy }
    }

    /// Which crossings of a value count: upwards (from below the value to at or above it),
    /// downwards (from at or above to below), or both.
    public enum Direction: String, Sendable, Hashable, CaseIterable { case up, down, both }

    /// One end of a window: a time (s) or the tick the item's k-th contact began.
    public enum Edge: Sendable, Hashable {
        case time(Double)
        case contact(Int)
    }

    /// What is made of the quantity.
    public enum Measure: Sendable, Hashable {
        case max, min, mean
        /// The value at the window's last tick (the run's last tick without `until`).
        case final
        /// The value at the tick nearest `time`.
        case at(time: Double)
        /// The time of the first tick at which the quantity crossed `value` in `direction`
        /// (up or down); never: an empty cell (the run's length for the report).
        case first(value: Double, direction: Direction)
        /// How many ticks the quantity crossed `value` at, in `direction`.
        case crossings(value: Double, direction: Direction)
        /// How long (s) the quantity was within `low` … `high`: ticks inside × tick length.
        case timeWithin(low: Double, high: Double)

        /// The key that names it in the file.
        public var key: String {
            switch self {
            case .max: "max"
            case .min: "min"
            case .mean: "mean"
            case .final: "final"
            case .at: "at"
            case .first: "first"
            case .crossings: "crossings"
            case .timeWithin: "time_within"
            }
        }
    }

    public var name: String
    /// The item (its index in the file), and for a pair the other one.
    public var item: Int
    public var other: Int?
    public var quantity: Quantity
    /// The point `distance` is measured from (one item).
    public var point: Point?
    public var measure: Measure
    /// The window (nil ends: the run's start and end).
    public var from: Edge?
    public var until: Edge?
    public var location: SceneLocation

    /// The never-share of a first time never reached: `ITEM.never_NAME`.
    public var neverKey: String { "never_" + name }

    /// Whether a world can lack a value: a first time never reached, or a value over a window with
    /// an event at an end (the event may never come, or close the window before it opens).
    public var canBeMissing: Bool {
        func isEvent(_ edge: Edge?) -> Bool { if case .contact? = edge { true } else { false } }
        switch measure {
        case .first: return true
        case .crossings, .timeWithin, .at: return false
        case .max, .min, .mean, .final: return isEvent(from) || isEvent(until)
        }
    }

    /// Its declaration: what every output needs to know of it. `index`: its place among its
    /// item's written metrics (the item's results keep their values in that order).
    public func declaration(index: Int, rank: Int) -> MetricDeclaration {
        let what = quantity.rawValue.replacingOccurrences(of: "_", with: " ")
        var unit = quantity.unit, kind = MetricKind.state, censoring = MetricCensoring.none
        var isInteger = false, nonNegative = quantity.isNonNegative
        switch measure {
        case .first:
            (unit, kind, nonNegative) = ("s", .time, true)
            censoring = .runLength(never: neverKey, lacking: "never crossed in the run")
        case .timeWithin:
            (unit, kind, nonNegative) = ("s", .time, true)
        case .crossings:
            (unit, kind, isInteger, nonNegative) = ("count", .count, true, true)
        case .max, .min, .mean, .final, .at:
            if canBeMissing { censoring = .empty(lacking: "had no tick in the window") }
        }
        return MetricDeclaration(
            name: name, unit: unit, kind: kind, field: .written(index: index), group: "measure", needsRestTarget: false,
            censoring: censoring, isInteger: isInteger, isTunable: true, isNonNegative: nonNegative,
            view: MetricView(rank: rank, title: name, headline: nil),
            accumulation: "written in the file: folded tick by tick from the item's state", meaning: "\(measure.key) of \(what)")
    }

    // MARK: numbers a sweep, jitter or --set may give (`NAME.KEY`)

    /// The metric's numeric keys and their rules: its value, time, range, point and window times.
    var numericKeys: [(key: String, rule: ValueRule)] {
        var keys: [(key: String, rule: ValueRule)] = []
        switch measure {
        case .at: keys.append(("time", .positive))
        case .first(_, let direction): keys.append((direction == .down ? "below" : "above", .any))
        case .crossings: keys.append(("value", .any))
        case .timeWithin: keys += [("range.min", .any), ("range.max", .any)]
        case .max, .min, .mean, .final: break
        }
        if point != nil { keys += [("to.x", .any), ("to.y", .any)] }
        if case .time? = from { keys.append(("from", .nonNegative)) }
        if case .time? = until { keys.append(("until", .nonNegative)) }
        return keys
    }

    /// The number at `key` (one of `numericKeys`).
    func value(of key: String) -> Double {
        switch (key, measure) {
        case ("time", .at(let t)): return t
        case (_, .first(let v, _)) where key == "below" || key == "above": return v
        case ("value", .crossings(let v, _)): return v
        case ("range.min", .timeWithin(let low, _)): return low
        case ("range.max", .timeWithin(_, let high)): return high
        case ("to.x", _): return point!.x
        case ("to.y", _): return point!.y
        case ("from", _): if case .time(let t)? = from { return t }
        case ("until", _): if case .time(let t)? = until { return t }
        default: break
        }
        preconditionFailure("'\(key)' is not a numeric key of metric '\(name)'")
    }

    /// Sets the number at `key` (one of `numericKeys`, its rule checked by the caller).
    mutating func set(_ key: String, _ value: Double) {
        switch (key, measure) {
        case ("time", .at): measure = .at(time: value)
        case (_, .first(_, let d)) where key == "below" || key == "above": measure = .first(value: value, direction: d)
        case ("value", .crossings(_, let d)): measure = .crossings(value: value, direction: d)
        case ("range.min", .timeWithin(_, let high)): measure = .timeWithin(low: value, high: high)
        case ("range.max", .timeWithin(let low, _)): measure = .timeWithin(low: low, high: value)
        case ("to.x", _): point!.x = value
        case ("to.y", _): point!.y = value
        case ("from", _): from = .time(value)
        case ("until", _): until = .time(value)
        default: preconditionFailure("'\(key)' is not a numeric key of metric '\(name)'")
        }
    }
}
