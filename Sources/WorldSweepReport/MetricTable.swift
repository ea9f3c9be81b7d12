// Every point's statistics of every metric, laid out by metric: each point's dictionary is walked
// once. Looked up by name per point and metric instead, each look-up missed the cache (a point's
// dictionary is kilobytes, visited once per metric column), about a quarter of a grid sweep's
// report (issue 29).
import WorldSweepRun

struct MetricTable: Sendable {
    /// Each metric's column in `columns`.
    private(set) var index: [String: Int] = [:]
    /// Per metric, per point (in the points' order): its statistics, nil where it has none.
    private(set) var columns: [[MetricStats?]] = []

    init(_ points: [PointSummary]) {
        // A run's points share their metric names' strings (one per metric, made once for the
        // sweep), so most keys are found by the string's identity, without hashing its text: the
        // hashing was 0.7 of the 0.9 instructions per key (issue 29). Keys not seen before by
        // identity (summary.json read back, names made per point) are hashed as before.
        var seen = KeyIdentities()
        for (i, p) in points.enumerated() {
            for (key, stats) in p.metrics {
                let c: Int
                if let same = seen[key] {
                    c = same
                } else if let known = index[key] {
                    c = known
                } else {
                    c = columns.count
                    index[key] = c
                    seen.insert(key, c)
                    columns.append([MetricStats?](repeating: nil, count: points.count))
                }
                columns[c][i] = stats
            }
        }
    }

    /// Every metric some point has.
    var names: Set<String> { Set(index.keys) }

    /// The metric's statistics per point; nil for a metric no point has.
    func column(_ name: String) -> [MetricStats?]? { index[name].map { columns[$0] } }
}

/// Column numbers of strings by their identity: the string's two words, which name its text for
/// a short string and its (immutable, shared) storage for a long one. Equal words are the same
/// text; equal text in other storage is simply not found here. Open addressing, never full: at
/// most `capacity / 2` strings are kept, the rest not remembered.
private struct KeyIdentities {
    private var words: [(UInt64, UInt64)]
    private var values: [Int]
    private var count = 0
    private let mask: Int

    init(capacity: Int = 256) {
        words = Array(repeating: (0, 0), count: capacity)
        values = Array(repeating: -1, count: capacity)
        mask = capacity - 1
    }

    private static func words(_ s: String) -> (UInt64, UInt64) { unsafeBitCast(s, to: (UInt64, UInt64).self) }

    private func slot(_ w: (UInt64, UInt64)) -> Int { Int(truncatingIfNeeded: ((w.0 ^ w.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 40) & mask }

    subscript(_ s: String) -> Int? {
        let w = Self.words(s)
        var k = slot(w)
        while values[k] >= 0 {
            if words[k] == w { return values[k] }
            k = (k + 1) & mask
        }
        return nil
    }

    mutating func insert(_ s: String, _ value: Int) {
        guard 2 * (count + 1) <= values.count else { return }
        let w = Self.words(s)
        var k = slot(w)
        while values[k] >= 0 {
            if words[k] == w { return }
            k = (k + 1) & mask
        }
        words[k] = w; values[k] = value; count += 1
    }
}
