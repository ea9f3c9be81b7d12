import WorldSweepScene

/// worlds.csv (the contract's columns): formatting rows, and reading them back exactly for resume
/// and merge. partners.csv, its per-partner counts, is PartnersCSV.swift.
public struct CSVLayout: Sendable, Hashable {
    /// Every item's metric columns (the contract's), from the declarations.
    public static let itemColumns = MetricDeclaration.everyItem.map(\.name)

    public let parameters: [String]
    public let items: [String]
    /// Who each item can touch (to check partners.csv's rows as they are read back).
    public let partners: PartnerRule
    /// Each item's index by name.
    public let itemIndex: [String: Int]
    /// Per item, whether it has a rest target (a snap, a spring, a pendulum): only such items get
    /// the spring columns, so files without one keep the contract's columns exactly.
    public let springItems: [Bool]
    /// The spring metrics the file asks for (`overshoot`, `settle_time`, `oscillations`, in that
    /// order): the columns each item with a rest target adds after its contract columns.
    public let springColumns: [String]
    /// Per item, the declarations of its metric columns, in column order.
    public let itemMetrics: [[MetricDeclaration]]
    /// Per item, its metric columns' cells (`itemMetrics`' fields), what each row is written from.
    public let itemCells: [[MetricCell]]
    /// Per item, its metric columns' names (`ITEM.contacts`, …, in `columns(ofItem:)` order):
    /// made once, as every point's statistics are filed under them.
    public let itemMetricKeys: [[String]]
    /// The names every point's statistics are filed under, shared by the run's points: the items'
    /// metric columns in order, then `ITEM.contacts.PARTNER` for each partner an item can touch
    /// (unless there are more than `maxPartnerSlots`: a big world's partners are filed per point).
    let pointMetricNames: MetricNames
    /// Per item, the slot in `pointMetricNames` of each partner it can touch (empty past the cap).
    let partnerSlots: [PartnerSlots]
    /// Whether `partnerSlots` lists every partner each item can touch (`partners.canTouch`, asked
    /// once per pair here rather than once per partners.csv row): false past `maxPartnerSlots` pairs.
    let listsPartners: Bool
    static let maxPartnerSlots = 512

    public init(parameters: [String], items: [String], partners: PartnerRule? = nil,
                springItems: [Bool]? = nil, springColumns: [String] = MetricDeclaration.restTargetOnly.map(\.name),
                written: [[MetricDeclaration]]? = nil) {
        self.parameters = parameters
        self.items = items
        self.partners = partners ?? PartnerRule(groups: [])
        itemIndex = Dictionary(items.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        self.springItems = springItems ?? items.map { _ in false }
        self.springColumns = springColumns
        precondition(self.springItems.count == items.count, "one rest-target flag per item")
        let springMetrics = springColumns.map { name in
            guard let d = MetricDeclaration.named(name), d.needsRestTarget else { preconditionFailure("spring columns are spring metrics") }
            return d
        }
        let springItems = self.springItems
        precondition(written.map { $0.count == items.count } ?? true, "written metrics per item")
        // An item with neither a rest target nor written metrics shares the built-in list (a copy
        // per item of a big world was most of this).
        let withSprings = MetricDeclaration.everyItem + springMetrics
        let itemMetrics = items.indices.map { i in
            let base = springItems[i] ? withSprings : MetricDeclaration.everyItem
            guard let own = written?[i], !own.isEmpty else { return base }
            return base + own
        }
        self.itemMetrics = itemMetrics
        itemCells = itemMetrics.map { $0.map(\.cell) }
        let itemMetricKeys = items.indices.map { i in itemMetrics[i].map { "\(items[i]).\($0.name)" } }
        self.itemMetricKeys = itemMetricKeys
        // Each item's partners, listed while the pairs stay few (the count is bounded before any
        // set is made: a big world's pairs are checked by the rule as they come).
        var left = Self.maxPartnerSlots
        var lists: [Set<String>] = []
        for item in items {
            guard let found = self.partners.partners(of: item, most: left) else { break }
            lists.append(found)
            left -= found.count
        }
        listsPartners = lists.count == items.count
        var names = itemMetricKeys.flatMap { $0 }
        var slots = items.map { _ in [(String, Int)]() }
        if listsPartners {
            for (i, item) in items.enumerated() {
                for partner in lists[i].sorted() {
                    slots[i].append((partner, names.count))
                    names.append("\(item).contacts.\(partner)")
                }
            }
        }
        pointMetricNames = MetricNames(names)
        partnerSlots = zip(items, slots).map { PartnerSlots(item: $0, $1) }
    }

    /// The columns of a file's worlds: its swept parameters, items, the spring metrics of items
    /// with a rest target and the metrics the file writes; and who can touch whom.
    public init(scene: SceneFile) {
        self.init(parameters: scene.sweep?.parameters.map(\.path) ?? [], items: scene.items.map(\.name),
                  partners: PartnerRule(scene: scene), springItems: RestTarget.targets(of: scene).map { $0 != nil },
                  springColumns: MetricDeclaration.restTargetOnly.filter { scene.metrics.contains($0.group) }.map(\.name),
                  written: scene.writtenDeclarations)
    }

    /// Item `i`'s metric names (`contacts`, …, then its spring metrics if it has a rest target,
    /// then the metrics the file writes for it).
    public func columns(ofItem i: Int) -> [String] { itemMetrics[i].map(\.name) }

    /// Metric column names, as in worlds.csv and summary.json (`ITEM.contacts`, …).
    public var metricColumns: [String] { itemMetricKeys.flatMap { $0 } }

    public var header: String {
        // Appended in place (a big world's columns gathered in an array first, then joined, cost
        // twice as much).
        var line = "world,point,replica"
        line.reserveCapacity(24 * (parameters.count + metricCount) + 32)
        for name in parameters { line += ","; line += name }
        for keys in itemMetricKeys { for name in keys { line += ","; line += name } }
        return line
    }

    /// How many metric columns the rows have.
    private var metricCount: Int { itemMetricKeys.reduce(0) { $0 + $1.count } }

    /// One worlds.csv line, newline included. A failed world leaves every metric cell empty.
    public func row(_ r: WorldResult) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowBytesEstimate)
        appendRow(r, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// About how many bytes a worlds.csv line of this layout takes (room reserved ahead).
    var rowBytesEstimate: Int { 32 + 24 * parameters.count + 160 * items.count }

    /// `row(r)`'s bytes appended to `bytes`: a chunk's rows go into one buffer, written and
    /// hashed as bytes (a String per row, appended and converted again, would be most of the
    /// workers' time outside the engine).
    public func appendRow(_ r: WorldResult, to bytes: inout [UInt8]) {
        var s = RowText(bytes: [])
        swap(&s.bytes, &bytes)
        defer { swap(&s.bytes, &bytes) }
        s.integer(r.world); s.comma(); s.integer(r.point); s.comma(); s.integer(r.replica)
        for p in r.parameters { s.comma(); s.double(p) }
        for (i, item) in r.items.enumerated() {
            let cells = itemCells[i]
            if r.failed {
                for _ in cells.indices { s.comma() }
                continue
            }
            for cell in cells {
                s.comma()
                // A spring item's results always carry its spring metrics; a missing one reads as
                // no swing (0) and no settling (empty).
                if case .oscillations = cell.field { s.integer(item.spring?.oscillations ?? 0); continue }
                if case .overshoot = cell.field { s.float(item.spring?.overshoot ?? 0); continue }
                guard let v = cell.field.value(of: item) else { continue }
                if cell.isInteger { s.integer(Int(v)) } else { s.float(v) }
            }
        }
        s.newline()
    }

    /// Reads a worlds.csv line (no newline) back into a result; nil if it is not a complete row.
    public func parseRow(_ line: Substring) -> WorldResult? {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 3 + parameters.count + itemMetrics.reduce(0, { $0 + $1.count }),
              let world = Int(cells[0]), let point = Int(cells[1]), let replica = Int(cells[2]) else { return nil }
        var parameters: [Double] = []
        // Every number finite: a `nan` or `inf` typed into a file is not a result.
        for c in cells[3..<(3 + self.parameters.count)] {
            guard let v = Double(c), v.isFinite else { return nil }
            parameters.append(v)
        }
        var results: [ItemResult] = []
        var failed = false
        var base = 3 + self.parameters.count
        for i in items.indices {
            let metrics = itemMetrics[i]
            let c = cells[base..<(base + metrics.count)]
            base += metrics.count
            if c.allSatisfy(\.isEmpty) { failed = true; results.append(ItemResult()); continue }
            guard let item = Self.parseItem(c, metrics: metrics, hasRestTarget: springItems[i]) else { return nil }
            results.append(item)
        }
        if failed { results = Array(repeating: ItemResult(), count: items.count) }
        return WorldResult(world: world, point: point, replica: replica, parameters: parameters, items: results, failed: failed)
    }

    /// One item's cells read back by its declarations: a whole number where the metric is one, an
    /// engine Float otherwise, never negative where the kind cannot be, empty only where the metric
    /// is censored (a k-th bounce's cell is read only when `bounces` says it has one).
    private static func parseItem(_ cells: ArraySlice<Substring>, metrics: [MetricDeclaration], hasRestTarget: Bool) -> ItemResult? {
        var item = ItemResult()
        if hasRestTarget { item.spring = SpringResult() }
        var bounces = 0
        for (cell, metric) in zip(cells, metrics) {
            if case .bounce(let k) = metric.field, k > bounces { continue }
            if case .written = metric.field, cell.isEmpty {
                guard metric.isCounted else { return nil }
                item.written.append(nil)
                continue
            }
            let value: Double
            if cell.isEmpty {
                guard metric.isCounted else { return nil }
                if case .bounce = metric.field { return nil }
                continue
            } else if metric.isInteger {
                guard let n = Int(cell) else { return nil }
                value = Double(n)
            } else {
                guard let f = Float(cell), f.isFinite else { return nil }
                value = Double(f)
            }
            if metric.isNonNegative && value < 0 && metric.field != .contacts { return nil }
            switch metric.field {
            case .contacts: item.contacts = Int(value)
            case .bounces:
                guard (0...8).contains(value) else { return nil }
                bounces = Int(value)
            case .bounce: item.bounceHeights.append(value)
            case .restTime: item.restTime = value
            case .x: item.x = value
            case .y: item.y = value
            case .angle: item.angle = value
            case .vx: item.vx = value
            case .vy: item.vy = value
            case .angularVelocity: item.angularVelocity = value
            case .overshoot: item.spring?.overshoot = value
            case .settleTime: item.spring?.settleTime = value
            case .oscillations: item.spring?.oscillations = Int(value)
            case .written: item.written.append(value)
            }
        }
        return item
    }
}

/// A CSV row built as bytes: appended to a String, each cell cost several hundred instructions
/// (uniqueness and capacity checks, temporaries), more than formatting its number.
struct RowText {
    var bytes: [UInt8] = []

    /// Continues `bytes`.
    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ s: Substring) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The integer's digits, as `String(value)` writes them.
    mutating func integer(_ value: Int) {
        appendDecimalDigits(of: value, to: &bytes)
    }

    /// An engine value's text (`NumberText.float`).
    mutating func float(_ x: Double) { NumberText.appendFloat(x, to: &bytes) }

    /// A parameter's text (`NumberText.double`).
    mutating func double(_ x: Double) { NumberText.appendDouble(x, to: &bytes) }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// Number text that reads back exactly: engine values as the shortest text of their Float,
/// parameters as the shortest text of their Double; integers without a fraction, no −0.
public enum NumberText {
    /// An engine value's text appended as UTF-8: the shortest text of its Float, without a
    /// String per number (the rows' numbers: a String's `hasSuffix` and append cost more than
    /// the shortest digits themselves).
    public static func appendFloat(_ x: Double, to bytes: inout [UInt8]) {
        let f = Float(x)
        if f == 0 { bytes.append(UInt8(ascii: "0")); return }
        // Whole numbers below 2²⁴ print as their digits and ".0": written straight from the integer.
        if abs(f) < 16_777_216, f.rounded(.towardZero) == f { appendDecimalDigits(of: Int(Int32(f)), to: &bytes); return }
        appendWithoutPointZero(f, to: &bytes)
    }

    /// A parameter's text appended as UTF-8: the shortest text of its Double.
    public static func appendDouble(_ x: Double, to bytes: inout [UInt8]) {
        if x == 0 { bytes.append(UInt8(ascii: "0")); return }
        // Whole numbers below 2⁵³ (counts, grid values) print as their digits and ".0".
        if abs(x) < 9_007_199_254_740_992, x.rounded(.towardZero) == x { appendDecimalDigits(of: Int(Int64(x)), to: &bytes); return }
        appendWithoutPointZero(x, to: &bytes)
    }

    /// The number's `description`, less a final ".0", appended as it writes itself to a stream
    /// (TextOutputStreamable): the digits go straight into the bytes with no String made of
    /// them, cheaper than `description` (a big sweep writes millions).
    private static func appendWithoutPointZero<T: BinaryFloatingPoint & TextOutputStreamable>(_ value: T, to bytes: inout [UInt8]) {
        // A NaN writes its sign and payload to a stream ("-snan(0x…)"); `description` says "nan".
        if value.isNaN { bytes.append(contentsOf: "nan".utf8); return }
        var stream = ByteStream()
        swap(&stream.bytes, &bytes)
        let start = stream.bytes.count
        value.write(to: &stream)
        swap(&stream.bytes, &bytes)
        let n = bytes.count
        if n - start >= 2 && bytes[n - 2] == UInt8(ascii: ".") && bytes[n - 1] == UInt8(ascii: "0") { bytes.removeLast(2) }
    }

    /// Bytes a value writes itself into. The standard library's numbers hand their ASCII text to
    /// `_writeASCII` (a customization point of TextOutputStream); anything else comes as a String.
    private struct ByteStream: TextOutputStream {
        var bytes: [UInt8] = []
        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    /// `appendFloat`'s text as a String.
    public static func float(_ x: Double) -> String {
        var bytes: [UInt8] = []
        appendFloat(x, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `appendDouble`'s text as a String.
    public static func double(_ x: Double) -> String {
        var bytes: [UInt8] = []
        appendDouble(x, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The integer's digits as `String(value)` writes them, appended as UTF-8 (the CSV and JSON
/// writers' whole numbers, without making a String per number). Written backwards into a small
/// buffer and appended once: a byte at a time, each append would check the array's uniqueness
/// and capacity.
func appendDecimalDigits(of value: Int, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
        var at = 24
        var rest = value.magnitude
        repeat {
            at &-= 1
            buffer[at] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
            rest /= 10
        } while rest != 0
        if value < 0 { at &-= 1; buffer[at] = UInt8(ascii: "-") }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[at...]))
    }
}

/// One item's partners and their slots among a point's statistics. Looked up per partners.csv row
/// and per point's partner: while they are few, by comparing names (a dictionary's look-up hashed
/// the name each time), past that by a dictionary.
struct PartnerSlots: Sendable, Hashable {
    private let names: [String]
    private let slots: [Int]
    /// Per listed partner, the middle of its partners.csv rows, ",ITEM,PARTNER,": copied whole
    /// into a chunk's rows (appended name by name from the strings, the rows were a quarter of
    /// what formatting a chunk cost beside the engine).
    private let rowMiddles: [[UInt8]]
    private let byName: [String: Int]?
    private static let listMost = 16

    init(item: String, _ entries: [(name: String, slot: Int)]) {
        names = entries.map(\.name)
        slots = entries.map(\.slot)
        rowMiddles = entries.map { Array(",\(item),\($0.name),".utf8) }
        byName = entries.count > Self.listMost ? Dictionary(entries.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a }) : nil
    }

    var isEmpty: Bool { names.isEmpty }

    /// Where `partner` is listed, nil if the item cannot touch it.
    private func index(of partner: String) -> Int? {
        if let byName { return byName[partner] }
        return names.firstIndex(of: partner)
    }

    /// The slot of `partner`, nil if the item cannot touch it.
    func slot(of partner: String) -> Int? { index(of: partner).map { slots[$0] } }

    /// Appends ",ITEM,PARTNER," for `partner` to `bytes`; false (nothing appended) if the item
    /// cannot touch it.
    func appendRowMiddle(of partner: String, to bytes: inout [UInt8]) -> Bool {
        guard let k = index(of: partner) else { return false }
        rowMiddles.withUnsafeBufferPointer { $0[k].withUnsafeBufferPointer { bytes.append(contentsOf: $0) } }
        return true
    }
}
