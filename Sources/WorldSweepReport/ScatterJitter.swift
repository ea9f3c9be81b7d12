// A grid sweep's scatter stands in columns: every point of a parameter value sits on one x, and
// hundreds of dots print over each other (twin-drop: 728 in 16 columns). The dots of such a
// series are spread sideways by a jitter narrower than the gap between columns, so a column reads
// as the cloud it is and never runs into the next, and their opacity falls as the columns fill.
// The jitter is a fixed function of the dot's place in its series (no random state): the same
// data give the same page, byte for byte.

struct ScatterJitter: Sendable {
    /// Widest jitter, in pixels, either side of the column.
    static let maxWidth = 8.0
    /// Half-width of the jitter in pixels (0: the dots do not stand in columns).
    let width: Double
    /// Most dots in one column.
    let fullestColumn: Int

    /// `pixels`: each dot's x in pixels. Dots stand in columns when, on average, two or more share
    /// an x (to a hundredth of a pixel); the jitter is then 30 % of the narrowest gap between
    /// neighbouring columns, at most `maxWidth`.
    init(pixels: [Double]) {
        var columns: [Int: Int] = [:]
        for x in pixels where x.isFinite { columns[Int((x * 100).rounded()), default: 0] += 1 }
        fullestColumn = columns.values.max() ?? 0
        guard columns.count > 0, pixels.count >= 2 * columns.count else { width = 0; return }
        let keys = columns.keys.sorted()
        let gap = zip(keys.dropFirst(), keys).map { Double($0 - $1) / 100 }.min() ?? 2 * Self.maxWidth / 0.3
        width = min(Self.maxWidth, 0.3 * gap)
    }

    /// The sideways offset of dot `i`, in [−width, width): a hash of i (SplitMix64's finaliser).
    func offset(_ i: Int) -> Double {
        guard width > 0 else { return 0 }
        return (2 * Self.unit(UInt64(i)) - 1) * width
    }

    /// A dot's opacity: `base` for a few dots a column, falling with the fullest column's count
    /// (20 dots: base; 80: a quarter of it), never under 0.2 so a single dot stays visible.
    func opacity(base: Double) -> Double {
        guard width > 0, fullestColumn > 20 else { return base }
        return max(0.2, base * 20 / Double(fullestColumn))
    }

    /// A number in [0, 1) fixed by `n`.
    static func unit(_ n: UInt64) -> Double {
        var z = n &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
