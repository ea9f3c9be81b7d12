import Foundation

/// Where things are in a file's bytes, and how text from a file is shown in a one-line message.
public enum TextPosition {
    /// The first byte that is not part of well-formed UTF-8 (overlong forms, surrogates and code
    /// points past U+10FFFF included), with its line and column (columns count Unicode scalars,
    /// as libyaml's marks do); nil when all of `data` is UTF-8.
    static func firstInvalidUTF8(in data: Data) -> (location: SceneLocation, byte: UInt8)? {
        firstInvalidUTF8(in: [UInt8](data))
    }

    static func firstInvalidUTF8(in bytes: [UInt8]) -> (location: SceneLocation, byte: UInt8)? {
        var i = 0, line = 1, column = 1
        while i < bytes.count {
            let b = bytes[i]
            let length: Int, low: UInt8, high: UInt8   // allowed range of the second byte
            switch b {
            case 0x00...0x7F: length = 1; low = 0x80; high = 0xBF
            case 0xC2...0xDF: length = 2; low = 0x80; high = 0xBF
            case 0xE0: length = 3; low = 0xA0; high = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3; low = 0x80; high = 0xBF
            case 0xED: length = 3; low = 0x80; high = 0x9F
            case 0xF0: length = 4; low = 0x90; high = 0xBF
            case 0xF1...0xF3: length = 4; low = 0x80; high = 0xBF
            case 0xF4: length = 4; low = 0x80; high = 0x8F
            default: return (SceneLocation(line: line, column: column), b)
            }
            for k in 1..<length {
                guard i + k < bytes.count else { return (SceneLocation(line: line, column: column), b) }
                let c = bytes[i + k]
                let ok = k == 1 ? (c >= low && c <= high) : (c >= 0x80 && c <= 0xBF)
                if !ok { return (SceneLocation(line: line, column: column), b) }
            }
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return nil
    }

    /// Text from a file as a message shows it: control characters (newlines, terminal escapes)
    /// written as escapes, so the message stays one line and cannot drive the terminal, and
    /// anything past `limit` characters cut to "…".
    public static func shown(_ text: String, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit { return out + "…" }
            out += escaped(scalar)
            count += 1
        }
        return out
    }

    /// One scalar, escaped when it is a control character or a line or paragraph separator.
    static func escaped(_ s: Unicode.Scalar) -> String {
        switch s.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
            return "\\u{\(String(s.value, radix: 16, uppercase: true))}"
        default: return String(s)
        }
    }

    /// A whole message made safe for one line of a terminal (nothing shortened).
    public static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars { out += escaped(scalar) }
        return out
    }
}
