/// What a number from a file or a `--set` must satisfy besides being finite: a sign, and the
/// physical range of its key. The ranges keep every product the engine forms (areas, masses,
/// inertias, forces, impulses, their inverses) far inside Float's range after the conversion to
/// metres (÷ 100), so no value that validates can saturate or vanish in the engine's arithmetic:
/// 1e6 pt is 10 km, and a 1e-3 pt item of density 1e-6 still has an inverse inertia near 1e26.
struct ValueRule: Sendable, Hashable {
    enum Sign: Sendable, Hashable { case any, nonNegative, positive }

    var sign: Sign
    /// The largest magnitude accepted.
    var limit: Double
    /// The smallest non-zero magnitude accepted (0: any).
    var smallest: Double

    /// Positions, angles, offsets, velocities, force magnitudes and directions, charges.
    static let any = ValueRule(sign: .any, limit: 1e6, smallest: 0)
    /// Elasticity, friction, resistances, jitter amplitudes.
    static let nonNegative = ValueRule(sign: .nonNegative, limit: 1e6, smallest: 0)
    /// Durations and other positive amounts without a finer physical floor.
    static let positive = ValueRule(sign: .positive, limit: 1e6, smallest: 0)
    /// Item sizes and the reference bounds (points): below 1e-3 pt an item's area leaves Float.
    static let length = ValueRule(sign: .positive, limit: 1e6, smallest: 1e-3)
    /// Density (UIKit's: 1 gives a 100 × 100 pt item a mass of 1).
    static let density = ValueRule(sign: .positive, limit: 1e6, smallest: 1e-6)
    /// A spring's frequency (Hz): 10 kHz is far past what a 1/120 s sub-step resolves, and under
    /// 1e-6 Hz (a period of 12 days) 2πf would leave Float as a denormal or 0, a spring with no
    /// stiffness that is not rigid either.
    static let frequency = ValueRule(sign: .nonNegative, limit: 1e4, smallest: 1e-6)
    /// A sliding attachment's axis component: it is normalized in Float, so each non-zero part
    /// stays well above Float's smallest numbers.
    static let axis = ValueRule(sign: .any, limit: 1e6, smallest: 1e-6)

    func acceptsSign(_ value: Double) -> Bool {
        switch sign {
        case .any: true
        case .nonNegative: value >= 0
        case .positive: value > 0
        }
    }

    func accepts(_ value: Double) -> Bool {
        value.isFinite && acceptsSign(value) && abs(value) <= limit && (value == 0 || abs(value) >= smallest)
    }

    /// "a positive number", ...: what the sign asks for.
    var expectation: String {
        switch sign {
        case .any: "a finite number"
        case .nonNegative: "a non-negative number"
        case .positive: "a positive number"
        }
    }

    /// "a positive number in [0.001, 1000000] (the engine's range)": what the range asks for.
    /// A key with a floor under which only 0 is allowed says so ("0, or a number of size 0.000001
    /// to 1000000"): naming only the outer range would blame 1e-7 for being too large.
    var rangeText: String {
        if smallest > 0 && sign != .positive {
            let signed = sign == .any ? "a number of size" : "a number from"
            return "0, or \(signed) \(formatNumber(smallest)) to \(formatNumber(limit)) (the engine's range: smaller non-zero "
                + "values leave Float)"
        }
        let low = sign == .any ? formatNumber(-limit) : formatNumber(smallest)
        let noun = sign == .any ? "a number" : expectation
        return "\(noun) in [\(low), \(formatNumber(limit))] (the engine's range)"
    }

    /// A value of [low, high] the rule refuses (an end, else one in the gap between 0 and
    /// `smallest`), or nil when it accepts every value there: a distribution's support or a jitter
    /// span must hold only accepted values, not just its ends.
    func refused(from low: Double, to high: Double) -> Double? {
        if !accepts(low) { return low }
        if !accepts(high) { return high }
        // Both ends are accepted: 0 or at least `smallest` in size. The span crosses the gap when
        // it runs through 0 without being 0 alone.
        guard smallest > 0, low < high, low <= 0, high >= 0 else { return nil }
        return high > 0 ? smallest / 2 : -smallest / 2
    }

    /// Why `value` is refused ("expected ... for WHAT, got ..."), or nil when it is accepted.
    /// (`what` is worked out only for a refusal: sweeps check every value of every world.)
    func problem(_ value: Double, for what: @autoclosure () -> String) -> String? {
        guard !accepts(value) else { return nil }
        if !value.isFinite || !acceptsSign(value) { return "expected \(expectation) for \(what()), got \(formatNumber(value))" }
        return "expected \(rangeText) for \(what()), got \(formatNumber(value))"
    }
}
