/// JSON text written directly, for replies whose numbers must read back exactly: a Float is
/// written as its shortest text (what `trace` prints), which JSONEncoder would widen to a Double's.
struct JSONOut {
    private(set) var text = ""

    mutating func raw(_ s: String) { text += s }

    mutating func string(_ s: String) { text += JSONOut.quoted(s) }

    mutating func number(_ x: Float) { text += x.isFinite ? JSONOut.floatText(x) : "null" }

    mutating func number(_ x: Double) { text += x.isFinite ? JSONOut.doubleText(x) : "null" }

    static func floatText(_ x: Float) -> String {
        if x == 0 { return "0" }
        let s = x.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    static func doubleText(_ x: Double) -> String {
        if x == 0 { return "0" }
        let s = x.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"   // safe inside a page's script too
            default:
                if u.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
