// One point's statistics per metric name, as a dictionary reads them, stored as an array over a
// table of names that every point of a run shares. A dictionary of its own per point hashed each
// of its names when it was filled and again when the report laid the points out by metric, most
// of a sweep's point fold and of the report's table. Here a point built by
// the run is its shared names plus one array; a name it has no statistics for holds nil. A point
// of one world holds only that world's values: its statistics follow from each value alone.

/// Metric names in a fixed order, shared by the points of one run (a class, so points share one
/// copy and can tell by identity that their arrays line up).
public final class MetricNames: Sendable, Hashable {
    public let names: [String]
    @usableFromInline let index: [String: Int]

    /// `names` must be distinct.
    public init(_ names: [String]) {
        self.names = names
        index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        precondition(index.count == names.count, "metric names are distinct")
    }

    /// The slot of `name`, if the table has it.
    @inlinable public func slot(of name: String) -> Int? { index[name] }

    public static func == (a: MetricNames, b: MetricNames) -> Bool { a === b || a.names == b.names }
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }
}

/// A point's statistics by metric name: what `[String: MetricStats]` held, with the same reading
/// (a name without statistics is absent from `keys`, iteration and `count`). One reference, like
/// the dictionary it replaced: the report copies points often, and each reference costs a retain.
public struct PointMetrics: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    /// The shared names, this point's slots and its own names (copied on write).
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline let names: MetricNames
        // Unchecked: written only through a uniquely held storage (the setter copies first), and
        // read for every point of every metric column by the report; the dynamic exclusivity
        // check on each read costs more than the read (and a retain of the storage per point).
        /// Per slot of `names`, the statistics, nil where the point has none (empty when
        /// `oneWorld`: `values` holds them).
        @exclusivity(unchecked) @usableFromInline var slots: [MetricStats?]
        /// A point of one world: per slot of `names`, the world's value, NaN where it has none
        /// (statistics are of finite values only). Its statistics are `MetricStats(oneValue:)`.
        /// An eighth of the bytes of `slots`: a sweep of one world per point keeps every point,
        /// made by the workers and copied by the collecting thread, and page faults on full
        /// statistics would be most of that.
        @exclusivity(unchecked) @usableFromInline var values: [Double]
        @usableFromInline let oneWorld: Bool
        /// Names outside `names` (the partners of a big world's items: thousands in a pile).
        @exclusivity(unchecked) @usableFromInline var extra: [String: MetricStats]
        init(names: MetricNames, slots: [MetricStats?], extra: [String: MetricStats]) {
            self.names = names; self.slots = slots; self.values = []; self.oneWorld = false; self.extra = extra
        }
        init(names: MetricNames, values: [Double], extra: [String: MetricStats]) {
            self.names = names; self.slots = []; self.values = values; self.oneWorld = true; self.extra = extra
        }

        /// The statistics in slot `s` of `names`.
        @inlinable func stats(inSlot s: Int) -> MetricStats? {
            guard oneWorld else { return slots[s] }
            let v = values[s]
            return v.isNaN ? nil : MetricStats(oneValue: v)
        }

        /// Every slot's statistics.
        var allSlots: [MetricStats?] { oneWorld ? values.map { $0.isNaN ? nil : MetricStats(oneValue: $0) } : slots }

        /// Equal contents in storage of its own.
        var copy: Storage {
            let extra = self.extra.isEmpty ? [:] : self.extra.mapValues { $0 }
            return oneWorld ? Storage(names: names, values: values.map { $0 }, extra: extra)
                : Storage(names: names, slots: slots.map { $0 }, extra: extra)
        }
    }
    @usableFromInline var storage: Storage

    /// The names of the shared slots.
    public var names: MetricNames { storage.names }
    /// Per slot of `names`, the statistics (nil where the point has none).
    public var slots: [MetricStats?] { storage.allSlots }

    /// Statistics in `names`' slot order (`slots.count == names.names.count`), and any others.
    public init(names: MetricNames, slots: [MetricStats?], extra: [(key: String, value: MetricStats)] = []) {
        precondition(slots.count == names.names.count, "one slot per name")
        storage = Storage(names: names, slots: slots, extra: [:])
        for (key, value) in extra { self[key] = value }
    }

    /// A point of one world: per slot of `names`, its value (NaN where it has none; only finite
    /// values have statistics), each read as `MetricStats(oneValue:)`, and any others.
    /// `extra`: statistics of one value each, as `MetricStats(oneValue:)` makes them.
    public init(names: MetricNames, oneWorldValues values: [Double], extra: [(key: String, value: MetricStats)] = []) {
        precondition(values.count == names.names.count, "one value per name")
        assert(extra.allSatisfy { $0.value == MetricStats(oneValue: $0.value.min) }, "the extra statistics are one value's")
        storage = Storage(names: names, values: values, extra: [:])
        for (key, value) in extra { storage.extra[key] = value }
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
        // Inlinable: the report reads a metric of every point many times over.
        @inlinable get {
            if let s = storage.names.slot(of: name) { return storage.stats(inSlot: s) }
            return storage.extra.isEmpty ? nil : storage.extra[name]
        }
        set {
            // Written statistics need not be one world's: the slots become statistics.
            if !isKnownUniquelyReferenced(&storage) || storage.oneWorld {
                storage = Storage(names: storage.names, slots: storage.allSlots, extra: storage.extra)
            }
            if let s = storage.names.slot(of: name) { storage.slots[s] = newValue; return }
            storage.extra[name] = newValue
        }
    }

    /// Whether the point holds one world's values (`init(names:oneWorldValues:extra:)`).
    public var holdsOneWorld: Bool { storage.oneWorld }

    /// Whether slot `s` of `names` holds statistics.
    @inlinable public func hasStats(inSlot s: Int) -> Bool { storage.oneWorld ? !storage.values[s].isNaN : storage.slots[s] != nil }

    /// Equal statistics in storage of their own (`PointSummary.ownCopy`).
    public var ownCopy: PointMetrics {
        var copy = self
        copy.storage = storage.copy
        return copy
    }

    /// The statistics filed under names outside `names`.
    public var unslotted: [String: MetricStats] { storage.extra }

    /// The names that have statistics.
    public var keys: [String] { map(\.key) }
    public var count: Int {
        (storage.oneWorld ? storage.values.reduce(0) { $0 + ($1.isNaN ? 0 : 1) } : storage.slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) })
            + storage.extra.count
    }

    /// The entries as a dictionary.
    public var dictionary: [String: MetricStats] {
        var d = [String: MetricStats](minimumCapacity: count)
        for (key, value) in self { d[key] = value }
        return d
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let storage: Storage
        @usableFromInline var slot = 0
        @usableFromInline var extra: Dictionary<String, MetricStats>.Iterator
        @inlinable init(storage: Storage) { self.storage = storage; extra = storage.extra.makeIterator() }
        @inlinable public mutating func next() -> (key: String, value: MetricStats)? {
            while slot < storage.names.names.count {
                defer { slot += 1 }
                if let value = storage.stats(inSlot: slot) { return (storage.names.names[slot], value) }
            }
            return extra.next()
        }
    }
    @inlinable public func makeIterator() -> Iterator { Iterator(storage: storage) }

    // Equal as dictionaries are, whatever the layout.
    public static func == (a: PointMetrics, b: PointMetrics) -> Bool {
        if a.storage === b.storage { return true }
        if a.names === b.names && a.storage.extra.isEmpty && b.storage.extra.isEmpty {
            return (0..<a.names.names.count).allSatisfy { a.storage.stats(inSlot: $0) == b.storage.stats(inSlot: $0) }
        }
        return a.dictionary == b.dictionary
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }

    public init(from decoder: Decoder) throws { self.init(try [String: MetricStats](from: decoder)) }
    public func encode(to encoder: Encoder) throws { try dictionary.encode(to: encoder) }
}

extension Array where Element == PointSummary {
    /// Writes the statistics of metrics `names` of the points in `range` (nil where a point has
    /// none) into `columns`, metric after metric: the statistics of `names[c]` for point `i` go to
    /// `columns[c * stride + i]`. Each point's statistics are read once, in order: read a metric
    /// at a time, each point cost three dependent cache misses per metric (its storage, its slots,
    /// the slot). The ranges of one buffer may be
    /// written from several threads at once.
    public func writeMetricColumns(_ names: [String], points range: Range<Int>,
                                   into columns: UnsafeMutablePointer<MetricStats?>, stride: Int) {
        // The slots of `names` in the last table of names met (points of one run share one).
        var table: MetricNames?
        var slots: [Int?] = []
        for i in range {
            let storage = self[i].metrics.storage
            if storage.names !== table {
                table = storage.names
                slots = names.map { storage.names.index[$0] }
            }
            for c in names.indices {
                let stats: MetricStats?
                if let slot = slots[c] {
                    stats = storage.stats(inSlot: slot)
                } else {
                    stats = storage.extra.isEmpty ? nil : storage.extra[names[c]]
                }
                (columns + c * stride + i).initialize(to: stats)
            }
        }
    }

    /// `writeMetricColumns` for points that each hold one world (`holdsOneWorld`): each point's
    /// value of `names[c]` goes to `columns[c * stride + i]`, NaN where it has none. An eighth of
    /// the bytes of the statistics, each read back as `MetricStats(oneValue:)`.
    public func writeMetricValues(_ names: [String], points range: Range<Int>, into columns: UnsafeMutablePointer<Double>, stride: Int) {
        var table: MetricNames?
        var slots: [Int?] = []
        for i in range {
            let storage = self[i].metrics.storage
            precondition(storage.oneWorld, "a point of one world")
            if storage.names !== table {
                table = storage.names
                slots = names.map { storage.names.index[$0] }
            }
            storage.values.withUnsafeBufferPointer { held in
                for c in names.indices {
                    let value: Double
                    if let slot = slots[c] {
                        value = held[slot]
                    } else {
                        // Extra statistics are one value's: min is the value as it was.
                        value = storage.extra.isEmpty ? .nan : storage.extra[names[c]]?.min ?? .nan
                    }
                    (columns + c * stride + i).initialize(to: value)
                }
            }
        }
    }
}
