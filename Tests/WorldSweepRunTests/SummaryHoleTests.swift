import Foundation
import Testing
@testable import WorldSweepRun

/// summary.json is written around the place its points go, found in the encoded summary by a byte
/// search: it must find what Foundation's search of the text found (the first place, or none).
@Suite struct SummaryHoleTests {
    static let needle = "\"points\":null"

    /// A range as byte offsets into `text`.
    static func offsets(_ range: Range<String.Index>?, in text: String) -> [Int]? {
        range.map { [text.utf8.distance(from: text.startIndex, to: $0.lowerBound), text.utf8.distance(from: text.startIndex, to: $0.upperBound)] }
    }

    @Test func theByteSearchFindsWhatTheTextSearchFound() {
        var state: UInt64 = 13
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let pieces = ["\"points\":null", "\"points\":nul", "\"point\":null", "\"points\": null", "{\"a\":1,", "é", "🙂", "\\\"points\\\":null",
                      "\"", "points", ":null", "\"items\":[\"b0\"]", ",", "}", "\n", "null"]
        var texts = ["", Self.needle, "x" + Self.needle, Self.needle + Self.needle, "\"points\":nul"]
        for _ in 0..<2_000 { texts.append((0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()) }
        var found = 0
        for text in texts {
            let bytes = JSONText.firstRange(of: Self.needle, in: text), foundation = text.range(of: Self.needle)
            #expect(Self.offsets(bytes, in: text) == Self.offsets(foundation, in: text), "\(text)")
            if let bytes {
                found += 1
                #expect(String(text[..<bytes.lowerBound]) + String(text[bytes]) + String(text[bytes.upperBound...]) == text)
                #expect(String(text[bytes]) == Self.needle)
            }
        }
        #expect(found > 500 && found < texts.count - 500)
    }

    @Test func aRealSummaryHasItsHoleWhereTheTextSearchPutsIt() throws {
        let encoded = String(decoding: try JSONText.encode(["name": "box", "points": nil, "zz": "\"points\":null"] as [String: String?]),
                             as: UTF8.self)
        #expect(Self.offsets(JSONText.firstRange(of: Self.needle, in: encoded), in: encoded)
                == Self.offsets(encoded.range(of: Self.needle), in: encoded))
        #expect(JSONText.firstRange(of: Self.needle, in: encoded) != nil)
    }
}
