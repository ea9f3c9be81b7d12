import Foundation

/// The search's own draws: SplitMix64 from the tune seed, normals by Box–Muller. Sequential and
/// platform-independent, so a search replays exactly from its seed (resume depends on it).
struct SearchRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed ^ 0x2545_F491_4F6C_DD1D }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func normal() -> Double {
        let u1 = max(unit(), 0x1p-60), u2 = unit()
        return sqrt(-2 * log(u1)) * cos(2 * Double.pi * u2)
    }
}
