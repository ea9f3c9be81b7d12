import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun

/// The hand-written point JSON must be JSONEncoder's bytes: summary.json files written before it
/// existed are read back by `--resume` and `merge`, and runs must not change their output.
struct PointJSONTests {
    /// Doubles whose text is awkward: integral (JSONEncoder drops ".0"), −0, exponent forms both
    /// ways, the extremes, and the first integer a Double cannot hold.
    static let awkwardNumbers: [Double] = [
        0, -0.0, 1, -1, 1.5, 0.1, 100, -25_000_000_000, 1e15, 1e16, 4e15, 1.2345678901234568e17, 1e21,
        1e-7, 2.5e-5, 3e-4, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.30000000000000004,
        9_007_199_254_740_994,
    ]

    /// Keys with the characters JSON must escape, slashes, non-ASCII, and orderings where plain
    /// byte order and String order could disagree.
    static let awkwardKeys: [String] = [
        "top.contacts", "top.contacts.bounds", "top.contacts.Bottom", "a10", "a2", "A", "_x", "é", "e\u{301}",
        "q\"uote", "back\\slash", "a/b", "tab\there", "new\nline", "\u{1}\u{1f}\u{7f}", "\u{8}\u{c}\r", "😀", "\u{2028}",
    ]


    static func value(_ g: inout SeededNumbers) -> Double {
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return awkwardNumbers.randomElement(using: &g)!
        case 1: return Double(Float(Double.random(in: -1000...1000, using: &g)))   // engine values are Floats
        case 2: return Double(Int.random(in: -5...600, using: &g))
        default:   // any finite bit pattern
            while true {
                let d = Double(bitPattern: g.next())
                if d.isFinite { return d }
            }
        }
    }

    static func expected(_ p: PointSummary) throws -> String { String(decoding: try JSONText.encode(p), as: UTF8.self) }

    @Test func awkwardValuesAndKeysGiveJSONEncodersBytes() throws {
        var metrics: [String: MetricStats] = [:]
        for (i, key) in Self.awkwardKeys.enumerated() {
            let x = Self.awkwardNumbers[i % Self.awkwardNumbers.count]
            metrics[key] = MetricStats(count: i, mean: x, std: -x, min: Self.awkwardNumbers[(i + 3) % Self.awkwardNumbers.count], max: 1 / 3)
        }
        let p = PointSummary(point: 12, parameters: Self.awkwardNumbers, replicas: 1000, failedReplicas: 3, metrics: metrics)
        #expect(try p.jsonText() == Self.expected(p))
        // And the text is JSON that decodes to the same point.
        #expect(try JSONDecoder().decode(PointSummary.self, from: Data(p.jsonText().utf8)) == p)
    }

    @Test func randomPointsGiveJSONEncodersBytes() throws {
        var g = SeededNumbers(2026)
        for _ in 0..<400 {
            var metrics: [String: MetricStats] = [:]
            for _ in 0..<Int.random(in: 0...30, using: &g) {
                let key = (0..<Int.random(in: 1...3, using: &g)).map { _ in Self.awkwardKeys.randomElement(using: &g)! }.joined(separator: ".")
                metrics[key] = MetricStats(count: Int.random(in: 0...100_000, using: &g), mean: Self.value(&g), std: Self.value(&g),
                                           min: Self.value(&g), max: Self.value(&g))
            }
            let p = PointSummary(point: Int.random(in: 0...1_000_000, using: &g),
                                 parameters: (0..<Int.random(in: 0...4, using: &g)).map { _ in Self.value(&g) },
                                 replicas: Int.random(in: 1...1000, using: &g), failedReplicas: Int.random(in: 0...5, using: &g),
                                 metrics: metrics)
            let text = try p.jsonText()
            let expected = try Self.expected(p)
            #expect(text == expected)
            if text != expected { return }   // one failure says enough
        }
    }

    /// Points written one after another take their key order from every key seen before: the
    /// text must not depend on it (the same keys, a key more, a key less, other keys).
    @Test func consecutivePointsGiveJSONEncodersBytesWhateverTheirKeys() throws {
        var g = SeededNumbers(77)
        var keyOrder = JSONKeyOrder()
        var keys = Array(Self.awkwardKeys.prefix(6))
        for round in 0..<200 {
            switch round % 5 {
            case 1: keys.append(Self.awkwardKeys.randomElement(using: &g)! + "\(round)")
            case 2: if keys.count > 1 { keys.remove(at: Int.random(in: 0..<keys.count, using: &g)) }
            case 3: keys = (0..<Int.random(in: 0...8, using: &g)).map { _ in Self.awkwardKeys.randomElement(using: &g)! }
            default: break   // the same keys again
            }
            var metrics: [String: MetricStats] = [:]
            for key in keys { metrics[key] = MetricStats(count: 1, mean: Self.value(&g), std: 0, min: Self.value(&g), max: Self.value(&g)) }
            let p = PointSummary(point: round, parameters: [Self.value(&g)], replicas: 1, failedReplicas: 0, metrics: metrics)
            let text = try p.jsonText(keyOrder: &keyOrder)
            #expect(text == (try Self.expected(p)))
            if text != (try Self.expected(p)) { return }
        }
    }

    /// One replica (max = mean = min, whose text is written once and copied), signed zeros
    /// beside each other (equal, not the same text), and whole numbers up to 2⁵³ and beyond
    /// (written from the integer below 2⁵³).
    @Test func oneReplicaStatisticsAndWholeNumbersGiveJSONEncodersBytes() throws {
        let wholes: [Double] = [1, -1, 7, 600, -600, 1e6, 123_456_789, 1e15, 4_503_599_627_370_496, 9_007_199_254_740_991,
                                -9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e16, 1e17, -1e20]
        var metrics: [String: MetricStats] = [:]
        for (i, x) in (wholes + [0, -0.0, 0.5, -2.5e-7, 1e300]).enumerated() {
            metrics["same\(i)"] = MetricStats(count: 1, mean: x, std: 0, min: x, max: x)
            metrics["zeros\(i)"] = MetricStats(count: 2, mean: -0.0, std: -0.0, min: 0, max: i % 2 == 0 ? -0.0 : 0)
            metrics["whole\(i)"] = MetricStats(count: 3, mean: x, std: x, min: -x, max: x + 1)
        }
        let p = PointSummary(point: 3, parameters: wholes, replicas: 1, failedReplicas: 0, metrics: metrics)
        #expect(try p.jsonText() == Self.expected(p))
    }

    /// JSONEncoder refuses non-finite numbers; the point's text must fail the same way, not
    /// write something JSON readers reject.
    @Test func nonFiniteNumbersAreRefusedAsJSONEncoderRefusesThem() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let inParameters = PointSummary(point: 0, parameters: [bad], replicas: 1, failedReplicas: 0, metrics: [:])
            let inMetrics = PointSummary(point: 0, parameters: [], replicas: 1, failedReplicas: 0,
                                         metrics: ["x": MetricStats(count: 1, mean: bad, std: 0, min: 0, max: 0)])
            #expect(throws: EncodingError.self) { try inParameters.jsonText() }
            #expect(throws: EncodingError.self) { try inMetrics.jsonText() }
        }
    }
}
