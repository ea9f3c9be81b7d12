import Foundation

/// The `tune:` section: which parameters `worldsweep tune` searches, within which ranges, and what
/// is wanted of the metrics (over the mean of a point's replicas). The file's `sweep:` section, if
/// any, gives the replicas, jitter and jitter seed each candidate point runs with.
public struct TuneSpec: Sendable, Hashable {
    public var parameters: [TuneParameter]
    public var wants: [TuneWant]
    /// A curve an item's trajectory should follow, in least squares.
    public var curve: TuneCurve?
    /// The most worlds the search may run (replicas included; the confirmation run is extra).
    public var budget: Int
    /// Candidate points per generation; nil: the method's default for the dimension.
    public var population: Int?
    /// Seeds the search's own draws (not the jitter, which the sweep's seed gives).
    public var seed: UInt64
    public var method: TuneMethod
    /// Where `tune:` is written.
    public var location: SceneLocation

    public init(parameters: [TuneParameter] = [], wants: [TuneWant] = [], curve: TuneCurve? = nil, budget: Int = 4000,
                population: Int? = nil, seed: UInt64 = 0, method: TuneMethod = .auto, location: SceneLocation = .none) {
        self.parameters = parameters; self.wants = wants; self.curve = curve; self.budget = budget
        self.population = population; self.seed = seed; self.method = method; self.location = location
    }

    /// Objectives to minimize or maximize (a curve counts as one): two or more make a Pareto front.
    public var objectiveCount: Int {
        wants.filter { if case .minimize = $0.kind { true } else if case .maximize = $0.kind { true } else { false } }.count
            + (curve == nil ? 0 : 1)
    }
}

public enum TuneMethod: String, Sendable, Hashable, CaseIterable {
    /// `bracket` for one continuous parameter, else `cmaes`.
    case auto
    /// CMA-ES with bound handling and restarts with a growing population.
    case cmaes
    /// One parameter: each generation evaluates evenly spaced points in the current bracket and
    /// keeps the two intervals around the best one.
    case bracket
}

public struct TuneParameter: Sendable, Hashable {
    public enum Domain: Sendable, Hashable {
        /// `low ... high`, searched in the value or (log) in its logarithm; integer rounds.
        case range(low: Double, high: Double, log: Bool, integer: Bool)
        /// One of these values.
        case choice([Double])
    }

    /// `NAME.KEY`, a numeric key a sweep could vary.
    public var path: String
    public var domain: Domain
    public var location: SceneLocation

    public init(path: String, domain: Domain, location: SceneLocation = .none) {
        self.path = path; self.domain = domain; self.location = location
    }

    /// The value at `u` in [0, 1] of the search's unit coordinate.
    public func value(atUnit u: Double) -> Double {
        let u = min(1, max(0, u))
        switch domain {
        case let .range(low, high, log, integer):
            let v = log ? _exp(_log(low) + (_log(high) - _log(low)) * u) : low + (high - low) * u
            return integer ? min(high, max(low, v.rounded())) : min(high, max(low, v))
        case .choice(let values):
            return values[min(values.count - 1, Int(u * Double(values.count)))]
        }
    }

    /// The unit coordinate of `value` (the middle of a choice's or integer's cell).
    public func unit(of value: Double) -> Double {
        switch domain {
        case let .range(low, high, log, _):
            guard high > low else { return 0.5 }
            return log ? (_log(value) - _log(low)) / (_log(high) - _log(low)) : (value - low) / (high - low)
        case .choice(let values):
            let i = values.firstIndex(of: value) ?? 0
            return (Double(i) + 0.5) / Double(values.count)
        }
    }

    /// Whether the search may treat this parameter as continuous (bracketing needs that).
    public var isContinuous: Bool {
        if case let .range(_, _, _, integer) = domain { return !integer }
        return false
    }
}

/// One wish on one metric column (`ITEM.COLUMN`, as in worlds.csv) over a point's replica mean.
public struct TuneWant: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case target(Double, within: Double)
        /// A constraint: the mean must stay within these bounds.
        case bounds(min: Double?, max: Double?)
        case minimize
        case maximize
    }

    public var metric: String
    public var kind: Kind
    public var location: SceneLocation

    public init(metric: String, kind: Kind, location: SceneLocation = .none) {
        self.metric = metric; self.kind = kind; self.location = location
    }
}

/// A trajectory an item should follow: samples of time and its centre (and angle), matched to the
/// item's state after the tick nearest each time.
public struct TuneCurve: Sendable, Hashable {
    public struct Sample: Sendable, Hashable {
        public var time: Double, x: Double, y: Double, angle: Double?
        public init(time: Double, x: Double, y: Double, angle: Double? = nil) {
            self.time = time; self.x = x; self.y = y; self.angle = angle
        }
    }

    public var item: String
    /// As written in the file (relative to the sweep file's folder).
    public var file: String
    public var samples: [Sample]
    /// The CSV file's bytes as read: part of a search's resume fingerprint, like the sweep file's.
    public var bytes: Data
    public var location: SceneLocation

    public init(item: String, file: String, samples: [Sample], bytes: Data = Data(), location: SceneLocation = .none) {
        self.item = item; self.file = file; self.samples = samples; self.bytes = bytes; self.location = location
    }
}

@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _exp(_ x: Double) -> Double { exp(x) }
