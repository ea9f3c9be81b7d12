import Foundation

/// Grid values as a person writes them: `{range: [0, 1.5, 0.1]}` makes 0.3, not the
/// 0.30000000000000004 that `0 + 3 × 0.1` gives in binary. A computed value is replaced by the
/// decimal its range's precision implies (the step's decimals, and the start's), when that decimal
/// lies within rounding error of it; the engine then runs exactly that value and worlds.csv prints
/// it as written. A step with no short decimal (linspace 0 to 1 in 16 values: 1/15) leaves the
/// computed values as they are.
enum WrittenDecimals {
    /// Rounding errors of `from + i × step` are ~1e-16 of the magnitudes; a step's or value's
    /// decimal is accepted this close (relative), far above those errors and far below any step.
    static let tolerance = 1e-9
    /// A computed step (linspace) counts as "written" when it has this many significant digits or fewer.
    static let stepDigits = 6

    /// How many decimals a typed number has: 0.25 → 2, 1e-05 → 5, 40 → 0 (the fewest `k` whose
    /// `k`-decimal rounding gives the number back; up to 22).
    static func places(_ x: Double) -> Int? {
        guard x.isFinite else { return nil }
        for k in 0...22 where rounded(x, places: k) == x { return k }
        return nil
    }

    /// The fewest decimals (0 … ) within `tolerance × |x|` of `x` with at most `digits` significant
    /// digits; nil when there is none (1/15).
    static func places(ofComputed x: Double, digits: Int) -> Int? {
        guard x.isFinite else { return nil }
        if x == 0 { return 0 }
        let magnitude = Int(log10(abs(x)).rounded(.down))
        let most = max(0, digits - 1 - magnitude)
        for k in 0...min(most, 22) where abs(rounded(x, places: k) - x) <= tolerance * abs(x) {
            return k
        }
        return nil
    }

    /// The double nearest to `x` rounded to `k` decimals (k ≤ 22, where 10^k is exact).
    static func rounded(_ x: Double, places k: Int) -> Double {
        let scale = powersOfTen[k]
        let scaled = x * scale
        // Already an integer at this scale (no fraction bits left): nothing to round.
        guard abs(scaled) < 0x1p52 else { return x }
        return scaled.rounded() / scale
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// `value` replaced by its `k`-decimal when that lies within `tolerance × scale` of it.
    static func snap(_ value: Double, places k: Int?, scale: Double) -> Double {
        guard let k, k <= 22 else { return value }
        let r = rounded(value, places: k)
        let snapped = abs(r - value) <= tolerance * abs(scale) ? r : value
        return snapped == 0 ? 0 : snapped   // no −0 from rounding
    }

    /// The decimals of an arithmetic grid `from + i × step`: those of the start and of the step
    /// (the step typed, for range, or computed, for linspace); nil when the step has no short decimal.
    static func places(from: Double, step: Double, stepTyped: Bool) -> Int? {
        guard let start = places(from),
              let stepPlaces = stepTyped ? places(step) : places(ofComputed: step, digits: stepDigits) else { return nil }
        return max(start, stepPlaces)
    }
}
