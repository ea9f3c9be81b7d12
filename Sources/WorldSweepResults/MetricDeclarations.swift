// Every per-item metric, declared once: its column, unit and kind, how a world without it is
// counted, how points fold it, whether `tune` may aim at it, how the report charts and words it.
// worlds.csv, points.csv, summary.json, importance.csv, the tune parser, the report and
// docs/data.md's metric table read this table; nothing else lists metrics. A metric written in a
// sweep file (`measure:`) is declared the same way by the file (WrittenMetric.declaration).

/// What kind of outcome a metric is: the report bounds and words each kind alike.
public enum MetricKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A rise or a distance past a reference (pt, never negative).
    case height
    /// A simulated time (s), from the run's start.
    case time
    /// A whole number of events.
    case count
    /// A state of the item (a position, an angle, a velocity): any sign.
    case state
    /// A share of worlds (0 to 1): the never-shares the report derives from time metrics.
    case share

    /// Heights, times, counts and shares cannot be negative (a state's sign depends on what it is).
    public var isNonNegative: Bool { self != .state }
}

/// What a world that never reached a metric's outcome has: an empty worlds.csv cell, and for the
/// report a value of the metric's complete form.
public enum MetricCensoring: Sendable, Hashable, Codable {
    /// Every world that did not fail has a value.
    case none
    /// An event that did not happen: the report counts it as 0 (a bounce never made has height 0).
    /// `lacking` says what a world without it did ("never bounced").
    case zero(lacking: String)
    /// A time not reached within the run: the report counts it as the run's length, and the share
    /// of worlds that never got there is the metric `ITEM.NEVER` (`never`: its key).
    case runLength(never: String, lacking: String)
    /// A value over a window an event opens, in a world where it never opened: left out of the
    /// point's statistics (which count the worlds with a value).
    case empty(lacking: String)

    /// What a world without a value did, in the report's words; nil when every world has one.
    public var lacking: String? {
        switch self {
        case .none: nil
        case .zero(let lacking), .runLength(_, let lacking), .empty(let lacking): lacking
        }
    }

    /// The never-share's key (`never_rest`), for a time that can be missed.
    public var neverKey: String? {
        if case .runLength(let never, _) = self { return never }
        return nil
    }
}

/// Where a metric's value lives in an item's results.
public enum MetricField: Sendable, Hashable, Codable {
    case contacts, bounces
    /// The k-th bounce height (1-based).
    case bounce(Int)
    case restTime, x, y, angle, vx, vy, angularVelocity
    case overshoot, settleTime, oscillations
    /// The k-th metric the file writes for the item (0-based; `ItemResult.written`).
    case written(index: Int)
}

/// How the report shows a metric beyond its place in every table: as a key metric (a whole-sweep
/// view per item, in `rank` order, titled `title`), and whether a page may lead with it.
public struct MetricView: Sendable, Hashable, Codable {
    /// Key metrics' order on the page (and among headline candidates after `headline`).
    public let rank: Int
    public let title: String
    /// Among the metrics a page leads with when they have signal, first choice first; nil: not one.
    public let headline: Int?

    public init(rank: Int, title: String, headline: Int?) {
        self.rank = rank; self.title = title; self.headline = headline
    }
}

/// One per-item metric: everything every output needs to know of it.
public struct MetricDeclaration: Sendable, Hashable, Codable {
    /// worlds.csv's column is `ITEM.name`.
    public let name: String
    /// "pt", "s", "rad", "pt/s", "rad/s", "count" or "share".
    public let unit: String
    public let kind: MetricKind
    public let field: MetricField
    /// The `metrics:` entry that records it (`MetricGroup`).
    public let group: String
    /// Recorded only for an item with a rest target (a snap, a spring, a pendulum).
    public let needsRestTarget: Bool
    public let censoring: MetricCensoring
    /// Written and read back as a whole number.
    public let isInteger: Bool
    /// Whether a `tune:` want may name it.
    public let isTunable: Bool
    /// Whether its values are never negative (charts cut bands at 0).
    public let isNonNegative: Bool
    /// How the report charts it beyond the tables; nil: tables, importance and findings only.
    public let view: MetricView?
    /// How it is accumulated tick by tick over each world's lanes (docs/data.md).
    public let accumulation: String
    /// What it measures (docs/data.md).
    public let meaning: String

    public init(name: String, unit: String, kind: MetricKind, field: MetricField, group: String, needsRestTarget: Bool,
                censoring: MetricCensoring, isInteger: Bool, isTunable: Bool, isNonNegative: Bool? = nil, view: MetricView?,
                accumulation: String, meaning: String) {
        self.name = name; self.unit = unit; self.kind = kind; self.field = field; self.group = group
        self.needsRestTarget = needsRestTarget; self.censoring = censoring; self.isInteger = isInteger
        self.isTunable = isTunable; self.isNonNegative = isNonNegative ?? kind.isNonNegative; self.view = view
        self.accumulation = accumulation; self.meaning = meaning
    }

    /// How a point folds its replicas: over the worlds with a value (points.csv adds `.count` and
    /// `.never`), which is every world that did not fail unless the metric is censored.
    public var isCounted: Bool { censoring != .none }

    /// The value an item's results hold, nil where the cell is empty (a bounce never made, a rest
    /// never reached; a spring metric of an item without a rest target).
    @inlinable
    public func value(of item: ItemResult) -> Double? { field.value(of: item) }

    /// What writing and folding this metric's cells needs (no strings: a copy costs nothing).
    public var cell: MetricCell { MetricCell(field: field, isInteger: isInteger) }
}

extension MetricField {
    /// The value an item's results hold for this field, nil where the cell is empty.
    @inlinable
    public func value(of item: ItemResult) -> Double? {
        switch self {
        case .contacts: return Double(item.contacts)
        case .bounces: return Double(item.bounceHeights.count)
        case .bounce(let k): return k <= item.bounceHeights.count ? item.bounceHeights[k - 1] : nil
        case .restTime: return item.restTime
        case .x: return item.x
        case .y: return item.y
        case .angle: return item.angle
        case .vx: return item.vx
        case .vy: return item.vy
        case .angularVelocity: return item.angularVelocity
        case .overshoot: return item.spring.map { $0.overshoot }
        case .settleTime: return item.spring?.settleTime
        case .oscillations: return item.spring.map { Double($0.oscillations) }
        case .written(let k): return k < item.written.count ? item.written[k] : nil
        }
    }
}

/// A metric column's cell as the per-world writers read it: the field and whether it is a whole
/// number, without the declaration's words (a declaration copied per cell was most of a row's cost).
public struct MetricCell: Sendable, Hashable {
    public let field: MetricField
    public let isInteger: Bool

    public init(field: MetricField, isInteger: Bool) { self.field = field; self.isInteger = isInteger }
}

/// An entry of the file's `metrics:` list: which metrics it records.
public struct MetricGroup: Sendable, Hashable {
    public let name: String
    /// Listed in the contract (the others extend it).
    public let isContract: Bool

    /// In the order the `metrics:` key lists them.
    public static let all: [MetricGroup] = [
        MetricGroup(name: "bounce_heights", isContract: true), MetricGroup(name: "contact_counts", isContract: true),
        MetricGroup(name: "rest_time", isContract: true), MetricGroup(name: "final_state", isContract: true),
        MetricGroup(name: "overshoot", isContract: false), MetricGroup(name: "settle_time", isContract: false),
        MetricGroup(name: "oscillations", isContract: false),
    ]
}

extension MetricDeclaration {
    /// Every built-in metric, in worlds.csv's column order within an item.
    public static let builtIn: [MetricDeclaration] = {
        let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
        func bounce(_ k: Int) -> MetricDeclaration {
            MetricDeclaration(
                name: "bounce\(k)", unit: "pt", kind: .height, field: .bounce(k), group: "bounce_heights", needsRestTarget: false,
                censoring: .zero(lacking: k == 1 ? "never bounced" : "never bounced \(k) times"), isInteger: false, isTunable: true,
                view: k == 1 ? MetricView(rank: 0, title: "First bounce height", headline: 0) : nil,
                accumulation: "the flight's apex, tick by tick, from the tick its last contact ended to the tick the next began",
                meaning: "the \(ordinals[k - 1]) rise after a contact ended: how far the centre then rose against gravity before its next contact began (the apex above the point where it left)")
        }
        func state(_ name: String, _ unit: String, _ field: MetricField, _ what: String) -> MetricDeclaration {
            MetricDeclaration(name: name, unit: unit, kind: .state, field: field, group: "final_state", needsRestTarget: false,
                              censoring: .none, isInteger: false, isTunable: true, view: nil,
                              accumulation: "read after the last tick", meaning: "\(what) at the end of the run")
        }
        return [
            MetricDeclaration(
                name: "contacts", unit: "count", kind: .count, field: .contacts, group: "contact_counts", needsRestTarget: false,
                censoring: .none, isInteger: true, isTunable: true, view: MetricView(rank: 1, title: "Contacts", headline: nil),
                accumulation: "the contact records' began events, counted per tick (the most any one collision behavior heard)",
                meaning: "\"began\" contact events in total (per partner: partners.csv)"),
            MetricDeclaration(
                name: "bounces", unit: "count", kind: .count, field: .bounces, group: "bounce_heights", needsRestTarget: false,
                censoring: .none, isInteger: true, isTunable: true, view: nil,
                accumulation: "the bounces recorded", meaning: "how many bounce heights the item has (at most 8)"),
        ] + (1...8).map(bounce) + [
            MetricDeclaration(
                name: "rest_time", unit: "s", kind: .time, field: .restTime, group: "rest_time", needsRestTarget: false,
                censoring: .runLength(never: "never_rest", lacking: "never came to rest in the run"), isInteger: false,
                isTunable: true, view: MetricView(rank: 2, title: "Rest time", headline: nil),
                accumulation: "the last tick the item was awake, kept tick by tick; asleep after the last tick",
                meaning: "simulated time at which the item fell asleep for good"),
            state("x", "pt", .x, "the centre's x"), state("y", "pt", .y, "the centre's y"), state("angle", "rad", .angle, "the angle"),
            state("vx", "pt/s", .vx, "the velocity's x"), state("vy", "pt/s", .vy, "the velocity's y"),
            state("angular_velocity", "rad/s", .angularVelocity, "the angular velocity"),
            MetricDeclaration(
                name: "overshoot", unit: "pt", kind: .height, field: .overshoot, group: "overshoot", needsRestTarget: true,
                censoring: .none, isInteger: false, isTunable: true,
                view: MetricView(rank: 3, title: "Overshoot", headline: 1),
                accumulation: "the distance from rest, tick by tick (SpringTrack)",
                meaning: "the farthest the item went past its rest, on the side opposite to the one it first left to; 0 if it never crossed"),
            MetricDeclaration(
                name: "settle_time", unit: "s", kind: .time, field: .settleTime, group: "settle_time", needsRestTarget: true,
                censoring: .runLength(never: "never_settle", lacking: "never settled in the run"), isInteger: false,
                isTunable: true, view: MetricView(rank: 4, title: "Settle time", headline: nil),
                accumulation: "the last tick the item was more than 1 pt from rest or moving at 1 pt/s or more (SpringTrack)",
                meaning: "the simulated time from which the item stayed within 1 pt of rest and below 1 pt/s to the end"),
            MetricDeclaration(
                name: "oscillations", unit: "count", kind: .count, field: .oscillations, group: "oscillations", needsRestTarget: true,
                censoring: .none, isInteger: true, isTunable: true,
                view: MetricView(rank: 5, title: "Oscillations", headline: nil),
                accumulation: "crossings of the rest, tick by tick (SpringTrack)",
                meaning: "how many times the item swung through its rest, from more than 1 pt on one side to more than 1 pt on the other"),
        ]
    }()

    /// The built-in metrics every item has (the contract's columns), in column order.
    public static let everyItem: [MetricDeclaration] = builtIn.filter { !$0.needsRestTarget }
    /// The built-in metrics of an item with a rest target, after `everyItem`.
    public static let restTargetOnly: [MetricDeclaration] = builtIn.filter(\.needsRestTarget)

    private static let byName: [String: MetricDeclaration] = Dictionary(uniqueKeysWithValues: builtIn.map { ($0.name, $0) })
    private static let byNever: [String: MetricDeclaration] =
        Dictionary(uniqueKeysWithValues: builtIn.compactMap { d in d.censoring.neverKey.map { ($0, d) } })

    /// The built-in metric named `name` (`rest_time`), nil for any other.
    public static func named(_ name: some StringProtocol) -> MetricDeclaration? { byName[String(name)] }

    /// The time metric a never-share key counts (`never_rest` → rest_time), nil for any other.
    public static func counted(byNever key: some StringProtocol) -> MetricDeclaration? { byNever[String(key)] }

    /// Written metrics' view ranks start here: after every built-in key metric.
    public static let writtenRank = 100

    /// The metrics a `tune:` want may name, in column order.
    public static var tunableNames: [String] { builtIn.filter(\.isTunable).map(\.name) }
}
