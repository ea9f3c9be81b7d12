import Testing
@testable import WorldSweepRun

/// worlds.csv and points.csv write whole numbers straight from the integer (cheaper than the
/// shortest round-trip text): the bytes must stay what `description` less ".0" gave.
struct NumberTextTests {
    static func described(_ x: Double) -> String {
        if x == 0 { return "0" }
        let s = x.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    static func described(float x: Double) -> String {
        let f = Float(x)
        if f == 0 { return "0" }
        let s = f.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// Whole numbers at every power of two and ten up to where the text turns to exponents, either
    /// side of each, and non-whole values beside them.
    static var values: [Double] {
        var v: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 1e-7, .nan, .infinity, -.infinity, .greatestFiniteMagnitude]
        for k in 0...64 {
            let p = Double(sign: .plus, exponent: k, significand: 1)
            v += [p, p - 1, p + 1, p + 0.5, -p, -p + 1, Double(Float(p)) + 1]
        }
        for k in 0...22 {
            let p = (0..<k).reduce(1.0) { a, _ in a * 10 }
            v += [p, p - 1, p + 1, -p, p * 1.5, p + 0.25]
        }
        var state: UInt64 = 19
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = state >> 11
            v.append(Double(Int64(bitPattern: state) >> Int(r % 60)))            // whole numbers of every size
            v.append(Double(Float(Double(r % 2_000_000) / 64 - 15_000)))         // engine values (Floats)
            v.append(Double(bitPattern: state))                                    // any double: 17 digits, tiny, huge
            v.append(Double(r % 1_000_000_007) / 999_983)                          // a random sweep's parameters
        }
        return v
    }

    @Test func doublesAsTheirDescription() {
        let wrong = Self.values.filter { NumberText.double($0) != Self.described($0) }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5).map { "\($0): \(NumberText.double($0))" })")
    }

    @Test func floatsAsTheirDescription() {
        let wrong = Self.values.filter { NumberText.float($0) != Self.described(float: $0) }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5).map { "\($0): \(NumberText.float($0))" })")
    }

    /// The rows' appended texts are `description` less ".0", for every value, after other text.
    @Test func appendedTextsAreTheStrings() {
        var floats = Array("x,".utf8), doubles = Array("y,".utf8)
        var wrong: [Double] = []
        for v in Self.values {
            let (f, d) = (floats.count, doubles.count)
            NumberText.appendFloat(v, to: &floats)
            NumberText.appendDouble(v, to: &doubles)
            if Array(floats[f...]) != Array(Self.described(float: v).utf8) || Array(doubles[d...]) != Array(Self.described(v).utf8) {
                wrong.append(v)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5))")
        #expect(Array(floats[0..<2]) == Array("x,".utf8) && Array(doubles[0..<2]) == Array("y,".utf8))
    }

    /// Whole numbers appended as bytes read as `String(value)`: the extremes, zero, every digit
    /// count of both signs, and numbers appended after other text.
    @Test func integersAsTheirString() {
        var values = [0, 1, -1, 9, 10, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 { power *= 10; values += [power - 1, power, power + 1, -(power - 1), -power] }
        var state: UInt64 = 7
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int(Int64(bitPattern: state) >> Int(state % 63)))
        }
        var bytes = Array("x,".utf8)
        for v in values {
            let start = bytes.count
            appendDecimalDigits(of: v, to: &bytes)
            #expect(String(decoding: bytes[start...], as: UTF8.self) == String(v))
        }
        #expect(Array(bytes[0..<2]) == Array("x,".utf8))
    }
}
