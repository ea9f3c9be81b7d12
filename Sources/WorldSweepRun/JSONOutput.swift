// JSON text written directly, byte for byte as JSONEncoder spells numbers and strings: summary.json's
// point tables are made by the workers beside the engine (PointRecords), where Foundation's
// JSONEncoder took about a million instructions per point. The one JSON string writer: the
// server's replies use it too, with `<` escaped.

/// JSON text built by appending bytes, with JSONEncoder's spelling of numbers and strings.
public struct JSONOutput {
    public var bytes: [UInt8]
    /// Writes `<` as \u003c in strings, so the text can sit inside an HTML `<script>` (no
    /// `</script>` can close it early). Off for files, whose bytes are JSONEncoder's.
    public let escapesLessThan: Bool
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public init(bytes: [UInt8] = [], escapesLessThan: Bool = false) {
        self.bytes = bytes
        self.escapesLessThan = escapesLessThan
    }

    /// `s` as one quoted JSON string.
    public static func quoted(_ s: String, escapesLessThan: Bool = false) -> String {
        var out = JSONOutput(escapesLessThan: escapesLessThan)
        out.string(utf8: s.utf8)
        return out.text
    }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text already in JSON's spelling (a number from NumberText).
    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
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
    /// `<` as \u003c when `escapesLessThan`, everything else (slashes and non-ASCII included) as is.
    public mutating func string(utf8: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Most keys have nothing to escape: copied whole.
        let lessThan: UInt8 = escapesLessThan ? 0x3C : 0x22
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == lessThan }) {
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
            case 0x3C where escapesLessThan: raw("\\u003c")
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
