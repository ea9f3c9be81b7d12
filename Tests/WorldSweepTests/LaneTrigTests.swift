import Foundation
import Testing
@testable import WorldSweep

/// The shared sine and cosine: close to the exact values, and bitwise the same on eight lanes as
/// on each lane alone (the single world and the batched engine must rotate bodies identically).
@Suite struct LaneTrigTests {
    @Test func exactAtZeroAndSignedQuadrants() {
        #expect(sinCos(Float(0)) == (0, 1))
        let quarter = sinCos(Float.pi / 2)
        #expect(abs(quarter.sin - 1) <= Float.ulpOfOne && abs(quarter.cos) < 1e-7)
        let half = sinCos(Float.pi)
        #expect(abs(half.sin) < 1e-6 && abs(half.cos + 1) <= Float.ulpOfOne)
        let minusQuarter = sinCos(-Float.pi / 2)
        #expect(abs(minusQuarter.sin + 1) <= Float.ulpOfOne)
    }

    @Test func withinTwoUlpsOfTheExactValue() {
        // 200 001 angles over ±200 rad, checked against Double's sin/cos rounded to Float.
        var worst: Float = 0
        for k in -100_000...100_000 {
            let x = Float(k) * 0.002 + 0.000_37
            let (s, c) = sinCos(x)
            let es = Float(sin(Double(x))), ec = Float(cos(Double(x)))
            worst = max(worst, abs(s - es) / max(es.ulp, Float.ulpOfOne / 2), abs(c - ec) / max(ec.ulp, Float.ulpOfOne / 2))
        }
        #expect(worst <= 2, "worst error \(worst) ulp")
    }

    @Test func eightLanesEqualEightScalars() {
        var state: UInt64 = 7
        for _ in 0..<2_000 {
            var lanes = SIMD8<Float>()
            for i in 0..<8 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                lanes[i] = (Float(state >> 40) / Float(1 << 24) * 2 - 1) * 60
            }
            let (s, c) = sinCos(lanes)
            for i in 0..<8 {
                let (ss, cc) = sinCos(lanes[i])
                #expect(s[i].bitPattern == ss.bitPattern && c[i].bitPattern == cc.bitPattern)
            }
        }
    }
}
