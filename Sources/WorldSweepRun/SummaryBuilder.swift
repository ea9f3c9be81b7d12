import Foundation

/// Aggregates world results, fed strictly in world order, into per-point statistics on the fly
/// (a point's worlds are contiguous; each folds into the point's running statistics as it
/// arrives, so memory does not grow with the replicas), and keeps a
/// bounded, deterministic sample of worlds and points for the report.
public struct SummaryBuilder {
    public let layout: CSVLayout
    public let replicas: Int
    /// Worlds with `world % sampleStride == 0` are kept in `sample`.
    public let sampleStride: Int
    /// Points with `point % pointStride == 0` are kept in `keptPoints`.
    public let pointStride: Int
    public static let maxSample = 20_000

    /// Every how many of `total` (points or worlds) the report keeps one, to keep at most
    /// `maxSample`: the smallest stride that does so and shares no factor with `total`. A
    /// grid's points are numbered axis by axis (the last axis fastest), so a stride sharing a
    /// factor with the grid's size can keep one level of an axis only: every 4th point of an
    /// 80 000-point grid whose last axis has 4 values kept only its first value, and the report
    /// called every metric of that axis constant. A stride prime to the total keeps every level
    /// of every axis, and every replica of a point's worlds, in even shares.
    public static func keepStride(total: Int, most: Int = maxSample) -> Int {
        var stride = max(1, (total + most - 1) / most)
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        while stride > 1 && gcd(stride, total) != 1 { stride += 1 }
        return stride
    }
    /// Makes each finished point's rows (shared with the workers, so the bytes are the same).
    let formatter: PointFormatter

    /// What the report reads of the worlds with `world % sampleStride == 0`.
    public private(set) var sample = WorldSample()
    public private(set) var keptPoints: [PointSummary] = []
    public private(set) var pointsDone = 0
    public private(set) var worldsSeen = 0
    /// Worlds that failed, of every world seen (kept for the report or not).
    public private(set) var failedWorlds = 0
    /// Points in the whole sweep.
    public let totalPoints: Int
    /// Partners seen per item over every world so far.
    public private(set) var partners: [String: Set<String>] = [:]
    /// The point in progress (a point whose replicas fell in more than one chunk), folded as its
    /// replicas arrive: memory flat in replicas.
    private var current: PointAccumulator?
    /// Rows of the points finished here, not yet taken by `takeRecords`.
    private var records = PointRecords()

    /// `writesTables`: whether the per-point files are made (a whole run; a shard leaves them to
    /// merge); they are with more than one replica per point only.
    public init(layout: CSVLayout, replicas: Int, totalWorlds: Int, totalPoints: Int, writesTables: Bool = false) {
        self.layout = layout
        self.replicas = replicas
        sampleStride = Self.keepStride(total: totalWorlds)
        pointStride = Self.keepStride(total: totalPoints)
        self.totalPoints = totalPoints
        formatter = PointFormatter(layout: layout, replicas: replicas, writesTables: writesTables, keepStride: pointStride)
    }

    /// Whether the per-point files are written (more than one replica per point, a whole run).
    var writesTables: Bool { formatter.writesTables }

    public mutating func add(_ r: WorldResult) throws {
        if let point = current?.point, point != r.point { finishPoint() }
        if current == nil { current = PointAccumulator(layout: layout, point: r.point, parameters: r.parameters) }
        current!.add(r)
        worldsSeen += 1
        if r.failed { failedWorlds += 1 }
        if r.world % sampleStride == 0 { sample.add(r) }
        Self.notePartners(of: r, layout: layout, in: &partners)
        if current!.replicas == replicas { finishPoint() }
    }

    /// Closes the point in progress (at the end of a run whose last point is complete).
    public mutating func finish() throws {
        if current != nil { finishPoint() }
    }

    /// The rows of the points finished so far, in order, since the last call.
    mutating func takeRecords() -> PointRecords {
        defer { records = PointRecords() }
        return records
    }

    private mutating func finishPoint() {
        guard let point = current else { return }
        current = nil
        if formatter.needsSummary(ofPoint: point.point) { formatter.add(point.summary, to: &records) }
        keptPoints += records.kept
        records.kept = []
        pointsDone += 1
    }

    fileprivate static func notePartners(of r: WorldResult, layout: CSVLayout, in partners: inout [String: Set<String>]) {
        guard !r.failed else { return }
        for (i, item) in r.items.enumerated() where !item.contactsByPartner.isEmpty {
            partners[layout.items[i], default: []].formUnion(item.contactsByPartner.keys)
        }
    }

    /// The partners a chunk's worlds touched, per item, gathered as `notePartners` gathers them.
    /// A world's partners are nearly always ones an earlier world of the chunk touched: a short
    /// list per item compared by equality finds them without hashing every name of every world
    /// (a set's inserts would be a visible share of making a chunk's rows and points).
    struct SeenPartners {
        private var names: [[String]]
        /// Past this many names an item's list gives way to a set (a big world's items).
        private static let listMost = 16
        private var sets: [Set<String>?]

        init(items: Int) {
            names = Array(repeating: [], count: items)
            sets = Array(repeating: nil, count: items)
        }

        mutating func note(_ r: WorldResult) {
            guard !r.failed else { return }
            for (i, item) in r.items.enumerated() where !item.contactsByPartner.isEmpty {
                if sets[i] != nil { sets[i]!.formUnion(item.contactsByPartner.keys); continue }
                for name in item.contactsByPartner.keys where !names[i].contains(name) { names[i].append(name) }
                if names[i].count > Self.listMost { sets[i] = Set(names[i]) }
            }
        }

        /// Per item name, the partners noted (items without any left out).
        func byItem(_ layout: CSVLayout) -> [String: Set<String>] {
            var out: [String: Set<String>] = [:]
            for i in names.indices where !names[i].isEmpty { out[layout.items[i]] = sets[i] ?? Set(names[i]) }
            return out
        }
    }

    /// What a worker makes of its chunk's results: the rows of the points whose replicas all ran
    /// in it, and the worlds of the points cut by its edges for the collecting thread to finish.
    struct ChunkPoints: Sendable {
        /// Worlds of a point begun in an earlier chunk (or, when one point spans the whole chunk, all of them).
        var leading: [WorldResult] = []
        var records = PointRecords()
        var points = 0
        var worlds = 0
        var failedWorlds = 0
        var sample = WorldSample()
        var partners: [String: Set<String>] = [:]
        /// Worlds of a point that ends in a later chunk.
        var trailing: [WorldResult] = []
    }

    /// What a worker needs to fold its chunk (Sendable, unlike the builder and its growing lists).
    var chunkFolder: ChunkFolder { ChunkFolder(layout: layout, replicas: replicas, sampleStride: sampleStride, formatter: formatter) }

    struct ChunkFolder: Sendable {
        let layout: CSVLayout
        let replicas: Int
        let sampleStride: Int
        let formatter: PointFormatter

    /// Folds a chunk's results, in world order (on the worker that ran them, or beside it: SweepRun).
    func fold(chunk results: [WorldResult]) -> ChunkPoints {
        var out = ChunkPoints()
        var seen = SeenPartners(items: layout.items.count)
        var start = 0
        while start < results.count {
            let point = results[start].point
            var end = start + 1
            while end < results.count && results[end].point == point { end += 1 }
            let worlds = results[start..<end]
            if worlds.count < replicas {
                // Cut by the chunk's edge: finished (or begun) on the collecting thread, in order.
                if start == 0 { out.leading = Array(worlds) } else { out.trailing = Array(worlds) }
            } else {
                // Summarized from the chunk's slice, with no array made of the point's worlds.
                if formatter.needsSummary(ofPoint: point) { formatter.add(SummaryBuilder.summarize(worlds, layout: layout), to: &out.records) }
                for r in worlds {
                    if r.failed { out.failedWorlds += 1 }
                    if r.world % sampleStride == 0 { out.sample.add(r) }
                    seen.note(r)
                }
                out.points += 1
                out.worlds += worlds.count
            }
            start = end
        }
        out.partners = seen.byItem(layout)
        return out
    }
    }

    /// Takes a worker's fold of the next chunk: its leading worlds finish the point in progress,
    /// its whole points follow, its trailing worlds begin the next. `copyingKept`: the chunk was
    /// folded on another thread, and the points kept for the report are kept as copies made here.
    /// Kept as the worker made them, they stayed among the memory its engine allocates from, to
    /// the end of the run, and the engine ran slower for it.
    mutating func add(_ chunk: ChunkPoints, copyingKept: Bool = false) throws {
        for r in chunk.leading { try add(r) }
        if !chunk.records.pointsCSV.isEmpty || !chunk.records.pointsJSON.isEmpty || !chunk.records.partnerPointsCSV.isEmpty {
            records.pointsCSV += chunk.records.pointsCSV
            records.partnerPointsCSV += chunk.records.partnerPointsCSV
            records.pointsJSON += chunk.records.pointsJSON
            records.partnerPointsJSON += chunk.records.partnerPointsJSON
        }
        keptPoints += copyingKept ? chunk.records.kept.map(\.ownCopy) : chunk.records.kept
        pointsDone += chunk.points
        worldsSeen += chunk.worlds
        failedWorlds += chunk.failedWorlds
        sample.append(chunk.sample)
        for (item, names) in chunk.partners { partners[item, default: []].formUnion(names) }
        for r in chunk.trailing { try add(r) }
    }

    /// The statistics of one point's worlds (failed ones counted, not used).
    public static func summarize(_ worlds: some Collection<WorldResult>, layout: CSVLayout) -> PointSummary {
        let first = worlds.first!
        if worlds.count == 1 { return PointAccumulator.summary(ofOneWorld: first, layout: layout) }
        var point = PointAccumulator(layout: layout, point: first.point, parameters: first.parameters)
        for w in worlds { point.add(w) }
        return point.summary
    }

    /// Partners per item, sorted, as summary.json lists them.
    public var sortedPartners: [String: [String]] { partners.mapValues { $0.sorted() } }
}

/// JSON text with sorted keys (stable across runs and machines).
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Where `needle` (ASCII) first is in `text`, found on the bytes (Foundation's search of a big
    /// summary's text cost about a fifth of writing it).
    static func firstRange(of needle: String, in text: String) -> Range<String.Index>? {
        let bytes = Array(needle.utf8), utf8 = text.utf8
        guard let first = bytes.first else { return nil }
        var from = utf8.startIndex
        while let at = utf8[from...].firstIndex(of: first) {
            if utf8[at...].starts(with: bytes) { return at..<utf8.index(at, offsetBy: bytes.count) }
            from = utf8.index(after: at)
        }
        return nil
    }
}
