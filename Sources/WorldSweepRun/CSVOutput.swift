import WorldSweepScene

/// worlds.csv (the contract's columns): formatting rows, and reading them back exactly for resume
/// and merge. partners.csv, its per-partner counts, is PartnersCSV.swift.
public struct CSVLayout: Sendable, Hashable {
    public static let itemColumns = ["contacts", "bounces"] + (1...8).map { "bounce\($0)" }
        + ["rest_time", "x", "y", "angle", "vx", "vy", "angular_velocity"]

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
                springItems: [Bool]? = nil, springColumns: [String] = SpringResult.metricNames) {
        self.parameters = parameters
        self.items = items
        self.partners = partners ?? PartnerRule(groups: [])
        itemIndex = Dictionary(items.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        self.springItems = springItems ?? items.map { _ in false }
        self.springColumns = springColumns
        precondition(self.springItems.count == items.count, "one rest-target flag per item")
        precondition(springColumns.allSatisfy(SpringResult.metricNames.contains), "spring columns are spring metrics")
        let springItems = self.springItems
        let itemMetricKeys = items.indices.map { i in
            (springItems[i] ? Self.itemColumns + springColumns : Self.itemColumns).map { "\(items[i]).\($0)" }
        }
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

    /// The columns of a file's worlds: its swept parameters, items, and the spring metrics of items
    /// with a rest target; and who can touch whom.
    public init(scene: SceneFile) {
        self.init(parameters: scene.sweep?.parameters.map(\.path) ?? [], items: scene.items.map(\.name),
                  partners: PartnerRule(scene: scene), springItems: RestTarget.targets(of: scene).map { $0 != nil },
                  springColumns: SpringResult.metricNames.filter(scene.metrics.contains))
    }

    /// Item `i`'s metric names (`contacts`, …, then its spring metrics if it has a rest target).
    public func columns(ofItem i: Int) -> [String] { springItems[i] ? Self.itemColumns + springColumns : Self.itemColumns }

    /// Metric column names, as in worlds.csv and summary.json (`ITEM.contacts`, …).
    public var metricColumns: [String] { itemMetricKeys.flatMap { $0 } }

    public var header: String { (["world", "point", "replica"] + parameters + metricColumns).joined(separator: ",") }

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
    /// hashed as bytes (issue 29: a String per row, appended and converted again, was a third of
    /// the workers' time outside the engine).
    public func appendRow(_ r: WorldResult, to bytes: inout [UInt8]) {
        var s = RowText(bytes: [])
        swap(&s.bytes, &bytes)
        defer { swap(&s.bytes, &bytes) }
        s.integer(r.world); s.comma(); s.integer(r.point); s.comma(); s.integer(r.replica)
        for p in r.parameters { s.comma(); s.double(p) }
        for (i, item) in r.items.enumerated() {
            let springWidth = springItems[i] ? springColumns.count : 0
            if r.failed {
                for _ in 0..<(Self.itemColumns.count + springWidth) { s.comma() }
                continue
            }
            s.comma(); s.integer(item.contacts); s.comma(); s.integer(item.bounceHeights.count)
            for k in 0..<8 { s.comma(); if k < item.bounceHeights.count { s.float(item.bounceHeights[k]) } }
            s.comma(); if let t = item.restTime { s.float(t) }
            s.comma(); s.float(item.x); s.comma(); s.float(item.y); s.comma(); s.float(item.angle)
            s.comma(); s.float(item.vx); s.comma(); s.float(item.vy); s.comma(); s.float(item.angularVelocity)
            if springWidth > 0 {
                let spring = item.spring ?? SpringResult()
                for column in springColumns {
                    s.comma()
                    switch column {
                    case "overshoot": s.float(spring.overshoot)
                    case "settle_time": if let t = spring.settleTime { s.float(t) }
                    default: s.integer(spring.oscillations)
                    }
                }
            }
        }
        s.newline()
    }

    /// Reads a worlds.csv line (no newline) back into a result; nil if it is not a complete row.
    public func parseRow(_ line: Substring) -> WorldResult? {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        let width = Self.itemColumns.count
        let springCount = springItems.filter { $0 }.count * springColumns.count
        guard cells.count == 3 + parameters.count + items.count * width + springCount,
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
            let itemWidth = width + (springItems[i] ? springColumns.count : 0)
            let c = Array(cells[base..<(base + itemWidth)])
            base += itemWidth
            if c.allSatisfy(\.isEmpty) { failed = true; results.append(ItemResult()); continue }
            guard let contacts = Int(c[0]), let bounces = Int(c[1]), (0...8).contains(bounces) else { return nil }
            var heights: [Double] = []
            for k in 0..<bounces {
                guard let h = Float(c[2 + k]), h.isFinite else { return nil }
                heights.append(Double(h))
            }
            let rest: Double?
            if c[10].isEmpty { rest = nil } else { guard let t = Float(c[10]), t.isFinite else { return nil }; rest = Double(t) }
            var state: [Double] = []
            for k in 11..<17 {
                guard let v = Float(c[k]), v.isFinite else { return nil }
                state.append(Double(v))
            }
            var spring: SpringResult?
            if springItems[i] {
                var result = SpringResult()
                for (k, column) in springColumns.enumerated() {
                    let cell = c[width + k]
                    switch column {
                    case "overshoot":
                        guard let v = Float(cell), v.isFinite, v >= 0 else { return nil }
                        result.overshoot = Double(v)
                    case "settle_time":
                        if !cell.isEmpty { guard let v = Float(cell), v.isFinite, v >= 0 else { return nil }; result.settleTime = Double(v) }
                    default:
                        guard let n = Int(cell), n >= 0 else { return nil }
                        result.oscillations = n
                    }
                }
                spring = result
            }
            results.append(ItemResult(contacts: contacts, bounceHeights: heights, restTime: rest, x: state[0], y: state[1],
                                      angle: state[2], vx: state[3], vy: state[4], angularVelocity: state[5], spring: spring))
        }
        if failed { results = Array(repeating: ItemResult(), count: items.count) }
        return WorldResult(world: world, point: point, replica: replica, parameters: parameters, items: results, failed: failed)
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
    /// them, a third of the time `description` took (43 against 61 ns a Float here; a
    /// 50 000-world sweep writes 1.6 million).
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
/// buffer and appended once: a byte at a time, each append checked the array's uniqueness and
/// capacity (about 500 instructions per number).
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
/// the name each time, a sixth of making a partners.csv row; issue 29), past that by a dictionary.
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
