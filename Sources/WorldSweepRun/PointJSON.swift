// A sweep point's summary as JSON text, written directly. summary.json gets one such object per
// point, made on the thread that collects results while the workers simulate; Foundation's
// JSONEncoder took about a million instructions per point (as much as 3 000 world-ticks), which
// made that thread the bottleneck of `worldsweep run` on two cores. The bytes are exactly
// JSONEncoder's with sorted keys and unescaped slashes (a test compares them), so files written
// before and after read and resume alike.

extension PointSummary {
    /// This point as one JSON object, byte for byte what `JSONText.encode(self)` gives.
    func jsonText() throws -> String {
        var keyOrder = JSONKeyOrder()
        return try jsonText(keyOrder: &keyOrder)
    }

    /// `jsonText()`, taking the metric keys' order from `keyOrder` (every key seen so far, in
    /// JSON order) and adding any it lacks: the points of a sweep share most of their keys, and
    /// picking them from the list is cheaper than sorting each point's keys anew.
    func jsonText(keyOrder: inout JSONKeyOrder) throws -> String {
        guard isFinite else {
            // JSONEncoder refuses non-finite numbers; let it say so in its own words.
            return String(decoding: try JSONText.encode(self), as: UTF8.self)
        }
        var out = JSONOutput()
        out.bytes.reserveCapacity(64 + 160 * metrics.count + 24 * parameters.count)
        // Keys in sorted order: failedReplicas, metrics, parameters, point, replicas.
        out.raw("{\"failedReplicas\":")
        out.integer(failedReplicas)
        out.raw(",\"metrics\":{")
        var entries = keyOrder.isSmall(for: metrics) ? keyOrder.entries(of: metrics) : []
        if entries.count != metrics.count {
            keyOrder.add(metrics.keys)
            // Where the sweep's keys far outnumber this point's, sorting its own is cheaper.
            entries = keyOrder.isSmall(for: metrics) ? keyOrder.entries(of: metrics)
                : metrics.map { (key: Array($0.key.utf8), stats: $0.value) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.raw(",") }
            out.string(utf8: entry.key)
            let s = entry.stats
            // count, max, mean, min, std.
            out.raw(":{\"count\":"); out.integer(s.count)
            // One replica: max = mean = min; such a number's text is written once and copied.
            out.raw(",\"max\":"); let maxText = out.number(s.max)
            out.raw(",\"mean\":"); let meanText = out.number(s.mean, sameAs: s.max, text: maxText)
            out.raw(",\"min\":"); out.number(s.min, sameAs: s.mean, text: meanText)
            out.raw(",\"std\":"); out.number(s.std)
            out.raw("}")
        }
        out.raw("},\"parameters\":[")
        for (i, value) in parameters.enumerated() {
            if i > 0 { out.raw(",") }
            out.number(value)
        }
        out.raw("],\"point\":")
        out.integer(point)
        out.raw(",\"replicas\":")
        out.integer(replicas)
        out.raw("}")
        return out.text
    }

    private var isFinite: Bool {
        parameters.allSatisfy(\.isFinite)
            && metrics.values.allSatisfy { $0.mean.isFinite && $0.std.isFinite && $0.min.isFinite && $0.max.isFinite }
    }
}

/// Metric keys in the order JSONEncoder writes them: by their UTF-8 bytes, not by String's `<`
/// (which compares canonical equivalents equal: "é" written as e + U+0301 sorts by its "e" there).
struct JSONKeyOrder {
    private(set) var keys: [(name: String, utf8: [UInt8])] = []

    /// The metrics whose keys are listed, in order, with their keys' bytes.
    func entries(of metrics: [String: MetricStats]) -> [(key: [UInt8], stats: MetricStats)] {
        var out: [(key: [UInt8], stats: MetricStats)] = []
        out.reserveCapacity(metrics.count)
        for key in keys { if let stats = metrics[key.name] { out.append((key.utf8, stats)) } }
        return out
    }

    /// Whether picking `metrics`' keys from the list costs less than sorting them: the list is
    /// not much longer than they are.
    func isSmall(for metrics: [String: MetricStats]) -> Bool { keys.count <= 2 * metrics.count + 8 }

    mutating func add(_ names: some Sequence<String>) {
        let known = Set(keys.map(\.name))
        keys += names.filter { !known.contains($0) }.map { ($0, Array($0.utf8)) }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// summary.json's points as they complete: one JSON object each, comma-separated, in a
/// temporary file that `SweepRun.writeSummary` wraps into the summary.
final class PointListFile {
    let file: AppendFile
    private var isEmpty = true
    /// Every metric key written so far, in JSON order.
    private var keyOrder = JSONKeyOrder()
    init(path: String) throws { file = try AppendFile(path: path, truncate: true) }
    func append(_ point: PointSummary) throws {
        try file.append((isEmpty ? "" : ",") + point.jsonText(keyOrder: &keyOrder))
        isEmpty = false
    }
}

/// JSON text built by appending bytes, with JSONEncoder's spelling of numbers and strings.
struct JSONOutput {
    var bytes: [UInt8] = []
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer(_ value: Int) {
        appendDecimalDigits(of: value, to: &bytes)
    }

    /// `number(value)`, copied from where `previous` was written when `value` is the same
    /// number (the same bits); returns where this one's text lies.
    @discardableResult
    mutating func number(_ value: Double, sameAs previous: Double, text: Range<Int>) -> Range<Int> {
        guard value.bitPattern == previous.bitPattern else { return number(value) }
        let start = bytes.count
        // Byte by byte: appending a slice of `bytes` to itself would copy the whole buffer.
        for i in text { bytes.append(bytes[i]) }
        return start..<bytes.count
    }

    /// A finite Double: its shortest round-trip text, less a trailing ".0" (−0 stays "-0");
    /// returns where in `bytes` the text lies.
    @discardableResult
    mutating func number(_ value: Double) -> Range<Int> {
        let start = bytes.count
        // Whole numbers below 2⁵³ but 0 (counts, grid values): their digits, from the integer.
        if value != 0, abs(value) < 9_007_199_254_740_992, value.rounded(.towardZero) == value {
            integer(Int(value))
            return start..<bytes.count
        }
        var text = value.description
        text.withUTF8 { utf8 in
            let n = utf8.count
            let integral = n >= 2 && utf8[n - 2] == UInt8(ascii: ".") && utf8[n - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: integral ? UnsafeBufferPointer(rebasing: utf8[..<(n - 2)]) : utf8)
        }
        return start..<bytes.count
    }

    /// A quoted string: `"` and `\` escaped, control characters as \b \t \n \f \r or \u00XX,
    /// everything else (slashes and non-ASCII included) as is.
    mutating func string(utf8: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Most keys have nothing to escape: copied whole.
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for unit in utf8 {
            switch unit {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x08: raw("\\b")
            case 0x09: raw("\\t")
            case 0x0A: raw("\\n")
            case 0x0C: raw("\\f")
            case 0x0D: raw("\\r")
            case 0..<0x20:
                let low = unit & 15
                raw(unit < 0x10 ? "\\u000" : "\\u001")
                bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            default: bytes.append(unit)   // UTF-8 bytes ≥ 0x80 are never control characters
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
