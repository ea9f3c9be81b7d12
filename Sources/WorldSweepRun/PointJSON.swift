// A sweep point's summary as JSON text, written directly. summary.json gets one such object per
// point, made on the thread that collects results while the workers simulate; Foundation's
// JSONEncoder took about a million instructions per point (as much as 3 000 world-ticks), which
// made that thread the bottleneck of `worldsweep run` on two cores. The bytes are exactly
// JSONEncoder's with sorted keys and unescaped slashes (a test compares them), so files written
// before and after read and resume alike.

extension PointSummary {
    /// This point as one JSON object, byte for byte what `JSONText.encode(self)` gives.
    func jsonText() throws -> String {
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
        // JSONEncoder orders keys by their UTF-8 bytes, not by String's `<` (which compares
        // canonical equivalents equal: "é" written as e + U+0301 sorts by its "e" here).
        let entries = metrics.map { (key: Array($0.key.utf8), stats: $0.value) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.raw(",") }
            out.string(utf8: entry.key)
            let s = entry.stats
            // count, max, mean, min, std.
            out.raw(":{\"count\":"); out.integer(s.count)
            out.raw(",\"max\":"); out.number(s.max)
            out.raw(",\"mean\":"); out.number(s.mean)
            out.raw(",\"min\":"); out.number(s.min)
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

/// summary.json's points as they complete: one JSON object each, comma-separated, in a
/// temporary file that `SweepRun.writeSummary` wraps into the summary.
final class PointListFile {
    let file: AppendFile
    private var isEmpty = true
    init(path: String) throws { file = try AppendFile(path: path, truncate: true) }
    func append(_ point: PointSummary) throws {
        try file.append((isEmpty ? "" : ",") + point.jsonText())
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

    mutating func integer(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// A finite Double: its shortest round-trip text, less a trailing ".0" (−0 stays "-0").
    mutating func number(_ value: Double) {
        var text = value.description
        text.withUTF8 { utf8 in
            let n = utf8.count
            let integral = n >= 2 && utf8[n - 2] == UInt8(ascii: ".") && utf8[n - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: integral ? UnsafeBufferPointer(rebasing: utf8[..<(n - 2)]) : utf8)
        }
    }

    /// A quoted string: `"` and `\` escaped, control characters as \b \t \n \f \r or \u00XX,
    /// everything else (slashes and non-ASCII included) as is.
    mutating func string(utf8: some Sequence<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
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
