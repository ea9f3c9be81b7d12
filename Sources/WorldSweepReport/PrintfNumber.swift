// printf's number text (`%.Nf`, `%+.Nf`, `%.Ne`, `%02x`) without Foundation: String(format:) was
// the largest single cost of writing a report (about half of it). The digits are worked out
// exactly from the binary value with 128-bit integers and rounded half to even, as glibc's printf
// rounds the exact value; whatever does not fit those integers (or is not finite) goes to
// String(format:) itself, so the text is the same for every input. Tests compare the two.
import Foundation

enum PrintfNumber {
    /// `String(format: "%.\(decimals)f", x)`, or `"%+.\(decimals)f"` with `plus` (0 ≤ decimals ≤ 9).
    static func fixed(_ x: Double, decimals: Int, plus: Bool = false) -> String {
        exactFixed(x, decimals: decimals, plus: plus) ?? String(format: plus ? "%+.\(decimals)f" : "%.\(decimals)f", x)
    }

    /// `fixed` without falling back: nil where String(format:) would be asked (not finite, or
    /// |x| · 10^decimals of 2⁶⁴ or more).
    static func exactFixed(_ x: Double, decimals: Int, plus: Bool = false) -> String? {
        withBuffer { fixed(x, decimals: decimals, plus: plus, into: $0) }
    }

    /// `fixed(x, decimals:)` less trailing zeros of the fraction and then a bare point
    /// (`1.50` → `1.5`, `2.00` → `2`); with `noNegativeZero`, a result `-0` becomes `0`.
    static func fixedTrimmed(_ x: Double, decimals: Int, noNegativeZero: Bool) -> String {
        withBuffer { trimmedFixed(x, decimals: decimals, noNegativeZero: noNegativeZero, into: $0) }
            ?? foundationTrimmed(x, decimals: decimals, noNegativeZero: noNegativeZero)
    }

    /// `fixedTrimmed`'s text appended to `bytes`.
    static func appendFixedTrimmed(_ x: Double, decimals: Int, noNegativeZero: Bool, to bytes: inout [UInt8]) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bufferSize) { buffer -> Bool in
            guard let n = trimmedFixed(x, decimals: decimals, noNegativeZero: noNegativeZero, into: buffer) else { return false }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
            return true
        }
        if !written { bytes.append(contentsOf: foundationTrimmed(x, decimals: decimals, noNegativeZero: noNegativeZero).utf8) }
    }

    private static func trimmedFixed(_ x: Double, decimals: Int, noNegativeZero: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard var n = fixed(x, decimals: decimals, plus: false, into: buffer) else { return nil }
        if decimals > 0 {
            while buffer[n - 1] == UInt8(ascii: "0") { n -= 1 }
            if buffer[n - 1] == UInt8(ascii: ".") { n -= 1 }
        }
        if noNegativeZero && n == 2 && buffer[0] == UInt8(ascii: "-") && buffer[1] == UInt8(ascii: "0") {
            buffer[0] = UInt8(ascii: "0"); n = 1
        }
        return n
    }

    private static func foundationTrimmed(_ x: Double, decimals: Int, noNegativeZero: Bool) -> String {
        var s = String(format: "%.\(decimals)f", x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return noNegativeZero && s == "-0" ? "0" : s
    }

    /// `String(format: "%.\(decimals)e", x)` (0 ≤ decimals ≤ 9).
    static func exponent(_ x: Double, decimals: Int) -> String {
        exactExponent(x, decimals: decimals) ?? String(format: "%.\(decimals)e", x)
    }

    /// `exponent` without falling back: nil where String(format:) would be asked (not finite, or
    /// digits beyond 128-bit arithmetic: about |x| < 1e-19 or |x| ≥ 1e22).
    static func exactExponent(_ x: Double, decimals: Int) -> String? {
        withBuffer { exponent(x, decimals: decimals, into: $0) }
    }

    /// `String(format: "#%02x%02x%02x", r, g, b)`.
    static func hexColor(_ r: Int, _ g: Int, _ b: Int) -> String {
        guard (0...255).contains(r), (0...255).contains(g), (0...255).contains(b) else {
            return String(format: "#%02x%02x%02x", r, g, b)
        }
        return withBuffer { buffer -> Int? in
            buffer[0] = UInt8(ascii: "#")
            for (k, v) in [r, g, b].enumerated() {
                buffer[1 + 2 * k] = hexDigit(v >> 4)
                buffer[2 + 2 * k] = hexDigit(v & 15)
            }
            return 7
        }!
    }

    // MARK: the digits

    private static let bufferSize = 48

    /// Runs `body` on a stack buffer; the bytes it wrote (its count) become the string.
    private static func withBuffer(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Int?) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bufferSize) { buffer in
            body(buffer).map { String(decoding: UnsafeBufferPointer(rebasing: buffer[..<$0]), as: UTF8.self) }
        }
    }

    private static func hexDigit(_ v: Int) -> UInt8 { v < 10 ? UInt8(ascii: "0") + UInt8(v) : UInt8(ascii: "a") + UInt8(v - 10) }

    /// 10⁰ … 10³⁸, every power of ten a UInt128 holds.
    private static let powersOfTen: [UInt128] = {
        var p: [UInt128] = [1]
        for _ in 1...38 { p.append(p[p.count - 1] * 10) }
        return p
    }()

    /// |x| = m · 2^e with m < 2⁵³ (finite x).
    private static func decompose(_ x: Double) -> (m: UInt128, e: Int) {
        let bits = x.bitPattern
        let field = Int((bits >> 52) & 0x7FF)
        let fraction = bits & ((1 << 52) - 1)
        return field == 0 ? (UInt128(fraction), -1074) : (UInt128(fraction | (1 << 52)), field - 1075)
    }

    /// num / den (den > 0) rounded half to even.
    private static func roundedQuotient(_ num: UInt128, _ den: UInt128) -> UInt128 {
        let (q, r) = num.quotientAndRemainder(dividingBy: den)
        // r > den / 2, or exactly half and q odd (r compared with den − r: no overflow).
        return r > den - r || (r == den - r && q & 1 == 1) ? q + 1 : q
    }

    /// Writes `%.Nf` (`%+.Nf`) of x; nil (nothing usable written) when x is not finite or too large.
    private static func fixed(_ x: Double, decimals: Int, plus: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard x.isFinite, (0...9).contains(decimals) else { return nil }
        let (m, e) = decompose(x)
        // |x| · 10^N = m · 10^N · 2^e, m · 10^N < 2⁵³ · 10⁹ < 2⁸³.
        let scaled = m * powersOfTen[decimals]
        let q: UInt128
        if e >= 0 {
            guard e <= 40 else { return nil }
            q = scaled << e
        } else if -e >= 100 {
            q = 0   // below 2⁸³ / 2¹⁰⁰: rounds to 0
        } else {
            q = roundedQuotient(scaled, UInt128(1) << -e)
        }
        guard q <= UInt128(UInt64.max) else { return nil }
        var n = 0
        if x.sign == .minus { buffer[0] = UInt8(ascii: "-"); n = 1 } else if plus { buffer[0] = UInt8(ascii: "+"); n = 1 }
        // The digits of q, at least decimals + 1 of them, a point before the last `decimals`.
        var digits = writeDigits(UInt64(q), minimum: decimals + 1, into: UnsafeMutableBufferPointer(rebasing: buffer[n...]))
        if decimals > 0 {
            let point = n + digits - decimals
            var i = n + digits
            while i > point { buffer[i] = buffer[i - 1]; i -= 1 }
            buffer[point] = UInt8(ascii: ".")
            digits += 1
        }
        return n + digits
    }

    /// Writes `%.Ne` of x; nil when x is not finite or its digits do not fit 128-bit arithmetic.
    private static func exponent(_ x: Double, decimals: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard x.isFinite, (0...9).contains(decimals) else { return nil }
        var n = 0
        if x.sign == .minus { buffer[0] = UInt8(ascii: "-"); n = 1 }
        var q: UInt128 = 0
        var power = 0
        if x != 0 {
            let (m, e) = decompose(x)
            // The decimal exponent E with 10^N ≤ |x| · 10^(N−E) < 10^(N+1): estimated, then corrected.
            power = Int((log10(abs(x))).rounded(.down))
            var settled = false
            for _ in 0..<4 {
                let shift = decimals - power
                var num = m, den: UInt128 = 1
                if e >= 0 { guard e <= 74 else { return nil }; num <<= e } else { guard -e <= 126 else { return nil }; den <<= -e }
                guard abs(shift) <= 38 else { return nil }
                let overflow: Bool
                if shift >= 0 { (num, overflow) = num.multipliedReportingOverflow(by: powersOfTen[shift]) } else { (den, overflow) = den.multipliedReportingOverflow(by: powersOfTen[-shift]) }
                guard !overflow else { return nil }
                let truncated = num / den
                if truncated >= powersOfTen[decimals + 1] { power += 1; continue }
                if truncated < powersOfTen[decimals] { power -= 1; continue }
                q = roundedQuotient(num, den)
                if q == powersOfTen[decimals + 1] { q = powersOfTen[decimals]; power += 1 }
                settled = true
                break
            }
            guard settled else { return nil }
        }
        // d.ddd: the digits of q, the point moved in after the first.
        let digits = writeDigits(UInt64(q), minimum: decimals + 1, into: UnsafeMutableBufferPointer(rebasing: buffer[n...]))
        if decimals > 0 {
            var i = n + digits
            while i > n + 1 { buffer[i] = buffer[i - 1]; i -= 1 }
            buffer[n + 1] = UInt8(ascii: ".")
        }
        n += digits + (decimals > 0 ? 1 : 0)
        // e±XX: at least two exponent digits.
        buffer[n] = UInt8(ascii: "e"); n += 1
        buffer[n] = power < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"); n += 1
        n += writeDigits(UInt64(abs(power)), minimum: 2, into: UnsafeMutableBufferPointer(rebasing: buffer[n...]))
        return n
    }

    /// Writes v in decimal, left-padded with zeros to `minimum` digits; returns the count.
    private static func writeDigits(_ v: UInt64, minimum: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 1
        var t = v
        while t >= 10 { t /= 10; count += 1 }
        count = max(count, minimum)
        var rest = v
        for i in stride(from: count - 1, through: 0, by: -1) {
            buffer[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return count
    }
}
