// One point's statistics per metric name, as a dictionary reads them, stored as an array over a
// table of names that every point of a run shares. A dictionary of its own per point hashed each
// of its ~30 names when it was filled and again when the report laid the points out by metric:
// a third of a sweep's point fold and most of the report's table (issue 29). Here a point built by
// the run is its shared names plus one array; a name it has no statistics for holds nil.

/// Metric names in a fixed order, shared by the points of one run (a class, so points share one
/// copy and can tell by identity that their arrays line up).
public final class MetricNames: Sendable, Hashable {
    public let names: [String]
    let index: [String: Int]

    /// `names` must be distinct.
    public init(_ names: [String]) {
        self.names = names
        index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        precondition(index.count == names.count, "metric names are distinct")
    }

    /// The slot of `name`, if the table has it.
    public func slot(of name: String) -> Int? { index[name] }

    public static func == (a: MetricNames, b: MetricNames) -> Bool { a === b || a.names == b.names }
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }
}

/// A point's statistics by metric name: what `[String: MetricStats]` held, with the same reading
/// (a name without statistics is absent from `keys`, iteration and `count`).
public struct PointMetrics: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    /// The names of the shared slots.
    public private(set) var names: MetricNames
    /// Per slot of `names`, the statistics, nil where the point has none.
    public private(set) var slots: [MetricStats?]
    /// Names outside `names` (a partner met by a few points only), in the order they were set.
    private var extra: [(key: String, value: MetricStats)]

    /// Statistics in `names`' slot order (`slots.count == names.names.count`), and any others.
    public init(names: MetricNames, slots: [MetricStats?], extra: [(key: String, value: MetricStats)] = []) {
        precondition(slots.count == names.names.count, "one slot per name")
        self.names = names; self.slots = slots
        self.extra = extra.filter { names.slot(of: $0.key) == nil }
        for (key, value) in extra where names.slot(of: key) != nil { self[key] = value }
    }

    /// The dictionary's entries, names in sorted order.
    public init(_ dictionary: [String: MetricStats]) {
        let sorted = dictionary.keys.sorted()
        self.init(names: MetricNames(sorted), slots: sorted.map { dictionary[$0] })
    }

    public init(dictionaryLiteral elements: (String, MetricStats)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(name: String) -> MetricStats? {
        get {
            if let s = names.slot(of: name) { return slots[s] }
            return extra.first { $0.key == name }?.value
        }
        set {
            if let s = names.slot(of: name) { slots[s] = newValue; return }
            if let k = extra.firstIndex(where: { $0.key == name }) {
                if let newValue { extra[k].value = newValue } else { extra.remove(at: k) }
            } else if let newValue {
                extra.append((name, newValue))
            }
        }
    }

    /// The names that have statistics.
    public var keys: [String] { map(\.key) }
    public var count: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } + extra.count }
    public var isEmpty: Bool { count == 0 }

    /// The entries as a dictionary.
    public var dictionary: [String: MetricStats] {
        var d = [String: MetricStats](minimumCapacity: count)
        for (key, value) in self { d[key] = value }
        return d
    }

    public struct Iterator: IteratorProtocol {
        let metrics: PointMetrics
        var slot = 0, extra = 0
        public mutating func next() -> (key: String, value: MetricStats)? {
            while slot < metrics.slots.count {
                defer { slot += 1 }
                if let value = metrics.slots[slot] { return (metrics.names.names[slot], value) }
            }
            guard extra < metrics.extra.count else { return nil }
            defer { extra += 1 }
            return metrics.extra[extra]
        }
    }
    public func makeIterator() -> Iterator { Iterator(metrics: self) }

    // Equal as dictionaries are, whatever the layout.
    public static func == (a: PointMetrics, b: PointMetrics) -> Bool {
        if a.names === b.names && a.extra.isEmpty && b.extra.isEmpty { return a.slots == b.slots }
        return a.dictionary == b.dictionary
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }

    public init(from decoder: Decoder) throws { self.init(try [String: MetricStats](from: decoder)) }
    public func encode(to encoder: Encoder) throws { try dictionary.encode(to: encoder) }
}
