import Yams

/// What a sweep can give a key in some world, checked at `validate` by the same rules as a value
/// written in the file: a jitter span is every value around each base value it jitters, and the
/// rules between an attachment's keys (range min ≤ max, a non-zero axis) hold in every world. So
/// building a world of a file that validated never fails at run time.
extension SweepParser {
    /// The values a swept path takes at its points: each listed value as a one-value span, or the
    /// whole span between its ends (a distribution, a range too long to list).
    static func baseSpans(of range: ParameterRange) -> [(low: Double, high: Double)] {
        if let values = range.count.flatMap({ $0 <= 10_000 ? range.allValues : nil }) { return values.map { ($0, $0) } }
        let (low, high) = range.bounds
        return [(low, high)]
    }

    /// Jitter must not carry a value outside what its key accepts (a size below zero, an axis
    /// part inside the 1e-6 floor), around any base value of the sweep.
    func checkJitterRange(_ spec: JitterSpec, sweep: SweepSpec, node: Node) throws(SceneError) {
        guard case .success(let parameter) = scene.resolve(spec.path) else { return }
        let bases: [(low: Double, high: Double)]
        if let swept = sweep.parameters.first(where: { $0.path == spec.path }) {
            bases = Self.baseSpans(of: swept.range)
        } else {
            guard let value = try? scene.value(at: spec.path) else { return }
            bases = [(value, value)]
        }
        let rule = parameter.rule
        for base in bases {
            guard let reach = rule.refused(from: base.low - spec.amplitude, to: base.high + spec.amplitude) else { continue }
            let stay = rule.acceptsSign(reach) ? rule.rangeText : (rule.sign == .positive ? "positive" : "non-negative")
            throw reader.error(node, "jitter of ±\(formatNumber(spec.amplitude)) can take '\(spec.path)' to "
                               + "\(formatNumber(reach)); it must stay \(stay)")
        }
    }

    /// The rules between an attachment's keys, for every world the sweep and its jitter make:
    /// point by point when the points can be listed, else over each key's whole span.
    func checkAttachmentRules(_ sweep: SweepSpec) throws(SceneError) {
        let swept = sweep.parameters.map { scene.resolve($0.path) }
        let jittered = sweep.jitter.map { scene.resolve($0.path) }
        for (index, behavior) in scene.behaviors.enumerated() {
            guard case .attachment(let a) = behavior.kind, a.kind == .pin || a.kind == .sliding else { continue }
            func involves(_ r: Result<ResolvedParameter, SceneError>) -> Bool {
                guard case .success(let p) = r, case .behavior(let b) = p.target else { return false }
                return b == index && (p.key.hasPrefix("range.") || p.key.hasPrefix("axis."))
            }
            let parameters = swept.indices.filter { involves(swept[$0]) }
            let jitters = jittered.indices.filter { involves(jittered[$0]) }
            guard let location = parameters.first.map({ sweep.parameters[$0].location })
                    ?? jitters.first.map({ sweep.jitter[$0].location }) else { continue }
            func key(_ r: Result<ResolvedParameter, SceneError>) -> String { (try? r.get().key) ?? "" }
            // Each key's span in one world: its base (the point's value or the file's) ± its jitter.
            func spans(base: (Int) -> (low: Double, high: Double)?) -> [String: (low: Double, high: Double)] {
                var out: [String: (low: Double, high: Double)] = [:]
                for name in ["range.min", "range.max", "axis.x", "axis.y"] {
                    guard let v = try? scene.value(at: "\(behavior.name).\(name)") else { continue }
                    out[name] = (v, v)
                }
                for k in parameters { if let b = base(k) { out[key(swept[k])] = b } }
                for k in jitters {
                    let amplitude = sweep.jitter[k].amplitude, name = key(jittered[k])
                    if let s = out[name] { out[name] = (s.low - amplitude, s.high + amplitude) }
                }
                return out
            }
            func check(_ s: [String: (low: Double, high: Double)]) throws(SceneError) {
                if let low = s["range.min"], let high = s["range.max"], low.high > high.low {
                    throw reader.error(at: location, "expected 'range' min ≤ max for attachment '\(behavior.name)' in every world, "
                                       + "but the sweep can make min \(formatNumber(low.high)) and max \(formatNumber(high.low))")
                }
                if let x = s["axis.x"], let y = s["axis.y"], x.low <= 0, x.high >= 0, y.low <= 0, y.high >= 0 {
                    throw reader.error(at: location, "expected a non-zero 'axis' of translation for attachment '\(behavior.name)' "
                                       + "in every world, but the sweep can make it [0, 0]")
                }
            }
            let listable = sweep.kind != .random && sweep.pointCount <= 10_000
                && parameters.allSatisfy { sweep.parameters[$0].range.count != nil }
            if listable {
                for point in 0..<sweep.pointCount {
                    let values = sweep.values(atPoint: point)
                    try check(spans { k in (values[k].value, values[k].value) })
                }
            } else {
                try check(spans { k in let b = sweep.parameters[k].range.bounds; return (b.min, b.max) })
            }
        }
    }
}
