// What the report reads of a sweep's sampled worlds: per item, the first bounce heights of those
// that did not fail. A run used to keep the sampled worlds' whole results for this (every third
// world of a 50 000-world sweep): held by the collecting thread to the end, those results, made
// by the workers, scattered long-lived objects through the heaps the engine allocates from and
// slowed the engine. These few numbers are kept instead.

/// The first bounce heights of sampled worlds, per item, and how many sampled worlds did not fail.
public struct WorldSample: Sendable, Hashable {
    /// Sampled worlds that did not fail.
    public private(set) var worlds = 0
    /// Per item (in the scene's order), the first bounce height of each sampled world that did not
    /// fail and bounced, in world order.
    public private(set) var firstBounces: [[Double]] = []

    public init() {}

    /// The sample of these worlds.
    public init(_ results: [WorldResult]) {
        for r in results { add(r) }
    }

    /// Adds a sampled world (a failed one is not counted).
    public mutating func add(_ r: WorldResult) {
        guard !r.failed else { return }
        worlds += 1
        while firstBounces.count < r.items.count { firstBounces.append([]) }
        for (k, item) in r.items.enumerated() {
            if let first = item.bounceHeights.first { firstBounces[k].append(first) }
        }
    }

    /// Adds the worlds of a later sample (copied into this sample's own storage).
    public mutating func append(_ other: WorldSample) {
        worlds += other.worlds
        while firstBounces.count < other.firstBounces.count { firstBounces.append([]) }
        for (k, values) in other.firstBounces.enumerated() { firstBounces[k].append(contentsOf: values) }
    }

    /// Item `k`'s first bounce heights, how many sampled worlds never bounced, and how many there were.
    public func bounces(item k: Int) -> (values: [Double], neverBounced: Int, worlds: Int) {
        let values = firstBounces.indices.contains(k) ? firstBounces[k] : []
        return (values, worlds - values.count, worlds)
    }
}
