import WorldSweepRun

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

    /// A JSON string by the package's one writer, `<` escaped: a reply may be held in a page's script.
    static func quoted(_ s: String) -> String { JSONOutput.quoted(s, escapesLessThan: true) }
}
