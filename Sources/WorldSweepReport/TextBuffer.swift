// Chart text built as bytes: a chart of a big sweep writes thousands of dots, and each one as an
// interpolated String appended to the page cost several thousand instructions (temporaries,
// growth, checks) where the bytes themselves take a few hundred.
import WorldSweepResults

struct TextBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Text written in the source.
    mutating func raw(_ s: StaticString) { s.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    /// Text as it is (escape it first where it is content).
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Content text, escaped (`HTML.escape`).
    mutating func escaped(_ s: String) { text(HTML.escape(s)) }

    /// `String(n)`.
    mutating func integer(_ n: Int) { text(String(n)) }

    /// `Text.px(x)`.
    mutating func px(_ x: Double) { PrintfNumber.appendFixedTrimmed(x, decimals: 2, noNegativeZero: true, to: &bytes) }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
