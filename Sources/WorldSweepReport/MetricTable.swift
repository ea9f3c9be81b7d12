// Every point's statistics of every metric, read by metric: each metric's job reads its own
// column of the points. Looked up by name per point and metric, each look-up hashed the name.
// Read a column at a time straight from the points, each point cost three dependent cache misses
// per metric. So the metrics the report reads are laid out by metric first, in one pass over the
// points in order, a range of points per thread (a serial copy would hold up the start of a big
// sweep's report, mostly in page faults).
import WorldSweepResults
import WorldSweepRun

struct MetricTable: Sendable {
    let points: [PointSummary]
    /// Every metric some point has.
    let names: Set<String>

    /// The metrics laid out by `init(_:columns:threads:)`, and where each starts in `laidOut`:
    /// their statistics, or, when every point holds one world, each point's value (NaN where it
    /// has none; 8 bytes an entry instead of 48, the most of a one-replica table's page faults).
    private let start: [String: Int]
    private let laidOut: MetricColumn.Storage

    /// Every metric some point of `points` has.
    static func names(of points: [PointSummary]) -> Set<String> {
        var names = Set<String>()
        // Per run of points sharing a table of names, which of its slots some point fills.
        var table: MetricNames?
        var filled: [Bool] = []
        // Slots no point of the run has filled yet: once none is left, a point's slots are not
        // read (this runs serially at the report's start).
        var unfilled = 0
        func collect() {
            guard let table else { return }
            // Room made once (grown insert by insert, a big world's set was rehashed a dozen times).
            names.reserveCapacity(names.count + table.names.count)
            for (s, isFilled) in filled.enumerated() where isFilled { names.insert(table.names[s]) }
        }
        for point in points {
            let metrics = point.metrics
            if metrics.names !== table {
                collect()
                table = metrics.names
                filled = Array(repeating: false, count: metrics.names.names.count)
                unfilled = filled.count
            }
            if unfilled > 0 {
                for s in filled.indices where !filled[s] && metrics.hasStats(inSlot: s) { filled[s] = true; unfilled -= 1 }
            }
            for key in metrics.unslotted.keys { names.insert(key) }
        }
        collect()
        return names
    }

    /// Below this many points the metrics are read from the points as asked: laying out a big
    /// world's one point (thousands of partner metrics) cost more than it saved.
    static let layOutFrom = 64

    /// `columns`: the metrics to lay out by metric (those some point has), read from the points
    /// on up to `threads` threads, each a range of points.
    init(_ points: [PointSummary], columns: [String] = [], threads: Int = 1) {
        self.init(points, names: Self.names(of: points), columns: { columns }, threads: threads)
    }

    /// `names`: `names(of: points)`, had already; `columns`, asked for only when there are
    /// `layOutFrom` points or more.
    init(_ points: [PointSummary], names: Set<String>, columns: () -> [String], threads: Int) {
        self.points = points
        self.names = names
        var wanted: [String] = [], seen = Set<String>()
        if points.count >= Self.layOutFrom {
            for c in columns() where names.contains(c) && seen.insert(c).inserted { wanted.append(c) }
        }
        start = Dictionary(uniqueKeysWithValues: wanted.enumerated().map { ($1, $0 * points.count) })
        let n = points.count
        // Ranges of at least 512 points (a page-sized share of each column per job).
        let ranges = Swift.min(Swift.max(1, threads) * 4, Swift.max(1, n / 512))
        func layOut<T>(_ write: @escaping (Range<Int>, UnsafeMutablePointer<T>) -> Void) -> [T] {
            [T](unsafeUninitializedCapacity: n * wanted.count) { buffer, initialized in
                guard let base = buffer.baseAddress, n > 0, !wanted.isEmpty else { initialized = 0; return }
                let columns = SendablePointer(base)
                _ = ParallelMap.map(ranges, threads: threads) { r -> Bool in
                    write((n * r / ranges)..<(n * (r + 1) / ranges), columns.pointer)
                    return true
                }
                initialized = n * wanted.count
            }
        }
        if !wanted.isEmpty && points.allSatisfy(\.metrics.holdsOneWorld) {
            laidOut = .oneWorldValues(layOut { range, columns in points.writeMetricValues(wanted, points: range, into: columns, stride: n) })
        } else {
            laidOut = .stats(layOut { range, columns in points.writeMetricColumns(wanted, points: range, into: columns, stride: n) })
        }
    }

    /// The metric's statistics per point; nil for a metric no point has. A metric laid out by
    /// `init` is read from there, any other from the points.
    func column(_ name: String) -> MetricColumn? {
        guard names.contains(name) else { return nil }
        if !start.isEmpty, let at = start[name] { return MetricColumn(laidOut, start: at, count: points.count) }
        var one = [MetricStats?](repeating: nil, count: points.count)
        one.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.deinitialize(count: points.count)
            points.writeMetricColumns([name], points: points.indices, into: buffer.baseAddress!, stride: points.count)
        }
        return MetricColumn(.stats(one), start: 0, count: points.count)
    }
}

/// One metric's statistics per point, in the points' order (a view of the table's storage: the
/// statistics, or the values of points that each hold one world).
struct MetricColumn: Sendable {
    enum Storage: Sendable { case stats([MetricStats?]), oneWorldValues([Double]) }
    private let storage: Storage
    private let start: Int
    let count: Int
    init(_ storage: Storage, start: Int, count: Int) {
        self.storage = storage; self.start = start; self.count = count
    }
    subscript(i: Int) -> MetricStats? {
        switch storage {
        case .stats(let stats): return stats[start + i]
        case .oneWorldValues(let values):
            let v = values[start + i]
            return v.isNaN ? nil : MetricStats(oneValue: v)
        }
    }
    var values: [MetricStats?] { (0..<count).map { self[$0] } }
}

/// A buffer's address handed to the threads that fill it (each its own part).
private struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
