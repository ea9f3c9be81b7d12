import Testing
import Yams
@testable import WorldSweepScene

/// Issue 29: plain decimals are read without the YAML resolver. Wherever the shortcut answers,
/// the resolver must give the same tag kind (int or float) and the same value; everything
/// unusual is left to it.
@Suite struct PlainDecimalTests {
    /// What the resolver makes of a plain scalar: its value as `numericValue` read it before.
    static func resolved(_ text: String) throws -> Double? {
        guard let node = try Yams.compose(yaml: text), case .scalar(let scalar) = node else { return nil }
        switch node.tagName {
        case .int: return Int.construct(from: scalar).map(Double.init) ?? Double(scalar.string.replacingOccurrences(of: "_", with: ""))
        case .float: return Double.construct(from: scalar)
        default: return nil
        }
    }

    @Test func theShortcutAgreesWithTheResolver() throws {
        var texts = ["0", "-0", "-0.0", "1", "-1", "10", "0.5", "-0.5", "12.25", "300.0", "1900", "9007199254740993", "123456789012345678901234",
                     "0.1", "3.14159265358979323846", "-2100.000001"]
        // Pseudo-random decimals of every length.
        var state: UInt64 = 3
        for _ in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let whole = String(state >> 40), part = String((state >> 8) % 100_000)
            texts.append(state % 2 == 0 ? whole : "\(state % 3 == 0 ? "-" : "")\(whole).\(part)")
        }
        for text in texts {
            let fast = try #require(NodeReader.plainDecimal(text), "\(text) is a plain decimal")
            // Bit for bit (`-0` and `-0.0` are −0 both ways).
            #expect(try Self.resolved(text)?.bitPattern == fast.bitPattern, "\(text)")
        }
    }

    @Test func anythingElseIsLeftToTheResolver() {
        for text in ["", "-", ".", "1.", ".5", "-.5", "+1", "01", "-01", "00.5", "1e3", "1E3", "1_000", "0x1F", "0o17", "0b101", ".inf",
                     "-.inf", ".nan", "1:30", "1.2.3", "1,5", " 1", "1 ", "abc", "true", "~", "1/60"] {
            #expect(NodeReader.plainDecimal(text) == nil, "\(text)")
        }
    }
}
