import Yams

/// Reads the `sweep:` section against an already parsed scene, so parameter paths can be checked
/// for naming a real item or behavior and a numeric key it has.
struct SweepParser {
    let reader: NodeReader
    let scene: SceneFile

    static let sweepKeys = ["kind", "parameters", "samples", "seed", "replicas", "jitter"]
    static let rangeKinds = ["values", "linspace", "logspace", "range", "uniform", "loguniform"]
    /// Far beyond any run, but small enough that counts and world indices stay exact.
    static let maxWorlds = 1 << 40

    func parse(_ node: Node, key: Node) throws(SceneError) -> SweepSpec {
        let fields = try reader.mapping(node, owner: "'sweep'", ownerLocation: key.location,
                                        expected: "a mapping with 'parameters'",
                                        allowed: Self.sweepKeys)
        var sweep = SweepSpec()
        if let kind = fields["kind"] {
            sweep.kind = try reader.choice(kind, "'kind' of 'sweep'", SweepSpec.Kind.self)
        }
        if let parameters = fields["parameters"] {
            let entries = try reader.namedEntries(parameters, what: "'parameters'",
                                                  expected: "a mapping of NAME.KEY to a range such as {linspace: [0, 1, 11]}")
            for entry in entries {
                sweep.parameters.append(try parseParameter(entry, kind: sweep.kind))
            }
        }
        // Grid and zip sweeps ignore `samples` (the contract's example gives it with kind grid),
        // but it must still be a valid count.
        if let samples = fields["samples"] {
            sweep.samples = try reader.integer(samples, "'samples'", minimum: 1)
        } else if sweep.kind == .random {
            throw reader.error(at: fields.ownerLocation, "missing required key 'samples' in 'sweep' (a random sweep needs "
                               + "the number of draws)")
        }
        if let seed = fields["seed"] {
            sweep.seed = UInt64(try reader.integer(seed, "'seed'", minimum: 0))
        }
        if let replicas = fields["replicas"] {
            sweep.replicas = try reader.integer(replicas, "'replicas'", minimum: 1)
        }
        if sweep.kind == .zip { try checkZipCounts(sweep.parameters, fields: fields) }
        try checkWorldCount(sweep, key: key)
        if let jitter = fields["jitter"] {
            sweep.jitter = try parseJitter(jitter, sweep: sweep)
        }
        try checkAttachmentRules(sweep)
        return sweep
    }

    // MARK: parameters

    private func parseParameter(_ entry: MappingEntry, kind: SweepSpec.Kind) throws(SceneError) -> SweepParameter {
        let path = entry.key
        let parameter: ResolvedParameter
        switch scene.resolve(path) {
        case .success(let resolved): parameter = resolved
        case .failure(let error): throw reader.error(entry.keyNode, error.message)
        }
        let range = try parseRange(entry.value, path: path, kind: kind)
        // Every value the sweep can produce must be one the key accepts: all of them when there
        // are few enough to list (the formulas round), else the extremes of a monotonic range.
        let (low, high) = range.bounds
        var produced = [low, high]
        if let count = range.count, count <= 10_000 { produced += (0..<count).map(range.value(at:)) }
        // A distribution's support, or a range too long to list, is every value between its ends.
        if range.count.map({ $0 > 10_000 }) ?? true, let inside = parameter.rule.refused(from: low, to: high) { produced.append(inside) }
        for extreme in produced where !parameter.rule.accepts(extreme) {
            let expected = parameter.rule.acceptsSign(extreme) ? parameter.rule.rangeText : parameter.rule.expectation
            throw reader.error(entry.value, "expected \(expected) for '\(path)', but the sweep reaches \(formatNumber(extreme))")
        }
        return SweepParameter(path: path, range: range, location: entry.keyNode.location)
    }

    private func parseRange(_ node: Node, path: String, kind: SweepSpec.Kind) throws(SceneError) -> ParameterRange {
        let what = "'\(path)'"
        // A bare list is shorthand for {values: [...]}.
        if case .sequence = node {
            return try parseValues(node, what: what)
        }
        let expected = "a range such as {values: [...]}, {linspace: [from, to, count]} or {range: [start, stop, step]}"
        let fields = try reader.mapping(node, owner: "parameter \(what)", expected: expected, allowed: Self.rangeKinds)
        guard fields.entries.count == 1, let entry = fields.entries.first else {
            throw reader.error(node, "expected exactly one of \(Self.rangeKinds.joined(separator: ", ")) for parameter "
                               + "\(what), got \(fields.entries.count)")
        }
        let value = entry.value
        switch entry.key {
        case "values":
            return try parseValues(value, what: what)
        case "linspace":
            let (from, to, count) = try triple(value, "'linspace' of \(what)", labels: ["from", "to", "count"])
            return .linspace(from: from, to: to, count: count)
        case "logspace":
            let (from, to, count) = try triple(value, "'logspace' of \(what)", labels: ["from", "to", "count"])
            guard from > 0, to > 0 else {
                throw reader.error(value, "expected positive end points for 'logspace' of \(what) (they are values, not "
                                   + "exponents: [0.01, 1, 3] gives 0.01, 0.1, 1), got \(formatNumber(from)) and \(formatNumber(to))")
            }
            // The values are from · (to/from)^t: the ratio must be a finite Double (5e-324 to 1 is not).
            guard (to / from).isFinite else {
                throw reader.error(value, "expected end points for 'logspace' of \(what) whose ratio is a finite number, "
                                   + "got \(formatNumber(from)) and \(formatNumber(to))")
            }
            return .logspace(from: from, to: to, count: count)
        case "range":
            let v = try reader.numbers(value, "'range' of \(what)", labels: ["start", "stop", "step"])
            let (start, stop, step) = (v[0], v[1], v[2])
            guard step != 0, (stop - start) / step >= 0 else {
                throw reader.error(value, "expected a 'step' that leads from \(formatNumber(start)) to \(formatNumber(stop)) "
                                   + "for 'range' of \(what), got \(formatNumber(step))")
            }
            // Counted in Double before any conversion to Int: a tiny step makes more values than Int holds.
            let span = (stop - start) / step
            guard span.isFinite, span < Double(Self.maxWorlds),
                  ParameterRange.rangeCount(start: start, stop: stop, step: step) <= Self.maxWorlds else {
                throw reader.error(value, "expected a 'range' of \(what) with fewer values, got more than 2⁴⁰")
            }
            return .range(start: start, stop: stop, step: step)
        default:
            let distribution = entry.key
            guard kind == .random else {
                throw reader.error(entry.keyNode, "'\(distribution)' draws random values, so it needs 'kind: random' "
                                   + "(this sweep is \(kind.rawValue))")
            }
            let v = try reader.numbers(value, "'\(distribution)' of \(what)", labels: ["low", "high"])
            guard v[0] <= v[1] else {
                throw reader.error(value, "expected low ≤ high for '\(distribution)' of \(what), got "
                                   + "\(formatNumber(v[0])) and \(formatNumber(v[1]))")
            }
            if distribution == "uniform" { return .uniform(v[0], v[1]) }
            guard v[0] > 0 else {
                throw reader.error(value, "expected positive bounds for 'loguniform' of \(what), got \(formatNumber(v[0]))")
            }
            return .loguniform(v[0], v[1])
        }
    }

    private func parseValues(_ node: Node, what: String) throws(SceneError) -> ParameterRange {
        let elements = try reader.list(node, "'values' of \(what)", expected: "a list of numbers")
        guard !elements.isEmpty else { throw reader.error(node, "expected at least one value for \(what)") }
        var values: [Double] = []
        for element in elements {
            values.append(try reader.number(element, "a value of \(what)"))
        }
        return .values(values)
    }

    /// `[from, to, count]` with a whole, positive count.
    private func triple(_ node: Node, _ what: String, labels: [String]) throws(SceneError) -> (Double, Double, Int) {
        let elements = try reader.list(node, what, expected: "[\(labels.joined(separator: ", "))]")
        guard elements.count == 3 else {
            throw reader.error(node, "expected [\(labels.joined(separator: ", "))] for \(what), got a list of "
                               + "\(elements.count) values")
        }
        let from = try reader.number(elements[0], "\(what) \(labels[0])")
        let to = try reader.number(elements[1], "\(what) \(labels[1])")
        let count = try reader.integer(elements[2], "\(what) \(labels[2])", minimum: 1)
        guard count <= Self.maxWorlds else {
            throw reader.error(elements[2], "expected a count up to 2⁴⁰ for \(what), got \(elements[2].shortDescription)")
        }
        return (from, to, count)
    }

    private func checkZipCounts(_ parameters: [SweepParameter], fields: CheckedMapping) throws(SceneError) {
        guard let first = parameters.first else { return }
        for parameter in parameters.dropFirst() where parameter.range.count != first.range.count {
            throw reader.error(at: parameter.location, "'kind: zip' needs the same number of values for every "
                               + "parameter: '\(parameter.path)' has \(parameter.range.count!), '\(first.path)' has "
                               + "\(first.range.count!)")
        }
    }

    private func checkWorldCount(_ sweep: SweepSpec, key: Node) throws(SceneError) {
        var total = sweep.replicas
        var factors: [Int] = []
        switch sweep.kind {
        case .grid: factors = sweep.parameters.map { $0.range.count! }
        case .zip: factors = [sweep.parameters.first?.range.count ?? 1]
        case .random: factors = [sweep.samples ?? 1]
        }
        for factor in factors {
            let (product, overflow) = total.multipliedReportingOverflow(by: factor)
            guard !overflow, product <= Self.maxWorlds else {
                throw reader.error(key, "expected a sweep of at most 2⁴⁰ worlds, this one makes more")
            }
            total = product
        }
    }

    // MARK: jitter

    private func parseJitter(_ node: Node, sweep: SweepSpec) throws(SceneError) -> [JitterSpec] {
        let entries = try reader.namedEntries(node, what: "'jitter'",
                                              expected: "a mapping of NAME.KEY to an amplitude (or [a, b] for a pair)")
        var specs: [JitterSpec] = []
        for entry in entries {
            for spec in try parseJitterEntry(entry) {
                if specs.contains(where: { $0.path == spec.path }) {
                    throw reader.error(entry.keyNode, "jitter for '\(spec.path)' is given more than once")
                }
                try checkJitterRange(spec, sweep: sweep, node: entry.value)
                specs.append(spec)
            }
        }
        return specs
    }

    /// `top.center: [2, 2]` (a pair key) or `top.angle: 0.1` (a scalar key); a single number on a
    /// pair key jitters both components by it.
    private func parseJitterEntry(_ entry: MappingEntry) throws(SceneError) -> [JitterSpec] {
        let path = entry.key
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        let location = entry.keyNode.location
        if parts.count == 2, let (first, second) = SceneFile.pairKeys(parts[1]),
           let keys = scene.numericKeys(of: parts[0]), keys.contains(first) {
            let paths = ["\(parts[0]).\(first)", "\(parts[0]).\(second)"]
            let amplitudes: [Double]
            if case .sequence = entry.value {
                amplitudes = try reader.numbers(entry.value, "the jitter of '\(path)'",
                                                labels: [String(first.split(separator: ".").last!),
                                                         String(second.split(separator: ".").last!)], .nonNegative)
            } else {
                let amplitude = try reader.number(entry.value, "the jitter of '\(path)'", .nonNegative)
                amplitudes = [amplitude, amplitude]
            }
            return zip(paths, amplitudes).map { JitterSpec(path: $0, amplitude: $1, location: location) }
        }
        if case .failure(let error) = scene.resolve(path) {
            throw reader.error(entry.keyNode, error.message)
        }
        let amplitude = try reader.number(entry.value, "the jitter of '\(path)'", .nonNegative)
        return [JitterSpec(path: path, amplitude: amplitude, location: location)]
    }
}
