import Foundation
import WorldSweepResults
import Yams

/// Reads the `tune:` section against the parsed scene (and its sweep), so every parameter path,
/// metric and curve is checked where it is written.
struct TuneParser {
    let reader: NodeReader
    let scene: SceneFile
    /// The whole file's top mapping: tuned values are found where they are written, so best.yaml
    /// can carry the found value in their place.
    let top: CheckedMapping
    /// The file's text, to check that each tuned value's text can be rewritten in place.
    let text: YAMLText?

    static let keys = ["parameters", "want", "curve", "budget", "population", "seed", "method"]
    /// The metric columns a want can name (`ITEM.COLUMN`): the declared metrics `tune` may aim at.
    public static let metricColumns = MetricDeclaration.tunableNames

    func parse(_ node: Node, key: Node) throws(SceneError) -> TuneSpec {
        let fields = try reader.mapping(node, owner: "'tune'", ownerLocation: key.location,
                                        expected: "a mapping with 'parameters' and 'want' or 'curve'", allowed: Self.keys)
        var tune = TuneSpec(location: key.location)
        let entries = try reader.namedEntries(try reader.required("parameters", in: fields), what: "'parameters' of 'tune'",
                                              expected: "a mapping of NAME.KEY to a range such as {min: 0, max: 1}")
        guard !entries.isEmpty else { throw reader.error(fields["parameters"]!, "expected at least one parameter to tune") }
        for entry in entries { tune.parameters.append(try parseParameter(entry)) }
        if let want = fields["want"] {
            let wants = try reader.namedEntries(want, what: "'want'", expected: "a mapping of ITEM.METRIC to a wish such as "
                                                + "{target: 100, within: 0.5}, {max: 1}, minimize or maximize")
            for entry in wants { tune.wants.append(try parseWant(entry)) }
        }
        if let curve = fields["curve"] { tune.curve = try parseCurve(curve) }
        guard !tune.wants.isEmpty || tune.curve != nil else {
            throw reader.error(at: key.location, "'tune' needs something to aim for: 'want' (a target, a bound, minimize or "
                               + "maximize) or 'curve'")
        }
        guard tune.wants.contains(where: { if case .bounds = $0.kind { false } else { true } }) || tune.curve != nil else {
            throw reader.error(fields["want"]!, "expected a target, minimize or maximize (or a 'curve') beside the bounds: "
                               + "bounds alone say what is allowed, not what is best")
        }
        if let budget = fields["budget"] {
            tune.budget = try reader.integer(budget, "'budget'", minimum: 1)
            guard tune.budget <= SweepParser.maxWorlds else { throw reader.error(budget, "expected a 'budget' of at most 2⁴⁰ worlds") }
        }
        if let population = fields["population"] {
            tune.population = try reader.integer(population, "'population'", minimum: 2)
            guard tune.population! <= 100_000 else { throw reader.error(population, "expected a 'population' of at most 100000") }
        }
        if let seed = fields["seed"] { tune.seed = UInt64(try reader.integer(seed, "'seed' of 'tune'", minimum: 0)) }
        if let method = fields["method"] {
            tune.method = try reader.choice(method, "'method'", TuneMethod.self)
            if tune.method == .bracket && (tune.parameters.count != 1 || !tune.parameters[0].isContinuous) {
                throw reader.error(method, "'method: bracket' searches one continuous parameter; this tune has "
                                   + "\(tune.parameters.count == 1 ? "a discrete one" : "\(tune.parameters.count)")")
            }
        }
        return tune
    }

    // MARK: parameters

    private func parseParameter(_ entry: MappingEntry) throws(SceneError) -> TuneParameter {
        let path = entry.key
        let resolved: ResolvedParameter
        switch scene.resolve(path) {
        case .success(let r): resolved = r
        case .failure(let error): throw reader.error(entry.keyNode, error.message)
        }
        if scene.sweep?.parameters.contains(where: { $0.path == path }) == true {
            throw reader.error(entry.keyNode, "'\(path)' is also swept in 'sweep': a tuned parameter takes the search's values")
        }
        // A candidate is one point over the sweep's replicas and jitter: an axis would make it many.
        if let axis = scene.sweep?.parameters.first {
            throw reader.error(at: axis.location, "'\(axis.path)' is swept in 'sweep', which a tune does not do: each candidate is "
                               + "one point over the sweep's replicas and jitter; fix its value, or tune it in 'tune: parameters'")
        }
        if let text, let problem = TunedFile.problem(path, root: top.node, text: text) {
            throw reader.error(entry.keyNode, problem)
        }
        let domain: TuneParameter.Domain
        let node = entry.value
        if case .sequence = node {
            let v = try reader.numbers(node, "the range of '\(path)'", labels: ["min", "max"])
            guard v[0] < v[1] else {
                throw reader.error(node, "expected min < max for '\(path)', got \(formatNumber(v[0])) and \(formatNumber(v[1]))")
            }
            domain = .range(low: v[0], high: v[1], log: false, integer: false)
        } else {
            let fields = try reader.mapping(node, owner: "parameter '\(path)'", expected: "{min: A, max: B} (with log: true or "
                                            + "integer: true) or {choice: [...]}", allowed: ["min", "max", "log", "integer", "choice"])
            if let choice = fields["choice"] {
                if let other = fields.entries.first(where: { $0.key != "choice" }) {
                    throw reader.error(other.keyNode, "'choice' lists the values itself: leave out '\(other.key)'")
                }
                let elements = try reader.list(choice, "'choice' of '\(path)'", expected: "a list of numbers")
                var values: [Double] = []
                for element in elements { values.append(try reader.number(element, "a choice of '\(path)'")) }
                guard Set(values).count >= 2 else {
                    throw reader.error(choice, "expected at least two different values in 'choice' of '\(path)': one leaves "
                                       + "nothing to search (write it in the file instead)")
                }
                domain = .choice(values)
            } else {
                let low = try reader.number(try reader.required("min", in: fields), "'min' of '\(path)'")
                let high = try reader.number(try reader.required("max", in: fields), "'max' of '\(path)'")
                let log = try fields["log"].map { n throws(SceneError) in try reader.bool(n, "'log' of '\(path)'") } ?? false
                let integer = try fields["integer"].map { n throws(SceneError) in try reader.bool(n, "'integer' of '\(path)'") } ?? false
                guard low < high else {
                    throw reader.error(node, "expected min < max for '\(path)', got \(formatNumber(low)) and \(formatNumber(high))")
                }
                if log && low <= 0 {
                    throw reader.error(fields["min"]!, "expected a positive 'min' for '\(path)' with log: true, got \(formatNumber(low))")
                }
                if integer && (low != low.rounded() || high != high.rounded()) {
                    throw reader.error(node, "expected whole 'min' and 'max' for '\(path)' with integer: true")
                }
                domain = .range(low: low, high: high, log: log, integer: integer)
            }
        }
        let extremes: [Double]
        switch domain {
        case let .range(low, high, _, _): extremes = [low, high]
        case .choice(let values): extremes = values
        }
        for value in extremes where !resolved.rule.accepts(value) {
            let expected = resolved.rule.acceptsSign(value) ? resolved.rule.rangeText : resolved.rule.expectation
            throw reader.error(node, "expected \(expected) for '\(path)', but the range reaches \(formatNumber(value))")
        }
        return TuneParameter(path: path, domain: domain, location: entry.keyNode.location)
    }

    // MARK: wants

    private func parseWant(_ entry: MappingEntry) throws(SceneError) -> TuneWant {
        let parts = entry.key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, scene.item(named: parts[0]) != nil else {
            throw reader.error(entry.keyNode, "expected ITEM.METRIC naming an item of the file (e.g. 'card.bounce1'), got "
                               + "'\(TextPosition.shown(entry.key))'")
        }
        let item = scene.items.firstIndex { $0.name == parts[0] }!
        let written = scene.writtenDeclarations[item].map(\.name)
        guard Self.metricColumns.contains(parts[1]) || written.contains(parts[1]) else {
            throw reader.error(entry.keyNode, "unknown metric '\(TextPosition.shown(parts[1]))' (expected one of: "
                               + (Self.metricColumns + written).joined(separator: ", ") + ")")
        }
        let node = entry.value
        let metric = entry.key
        if case .scalar(let scalar) = node {
            switch scalar.string {
            case "minimize": return TuneWant(metric: metric, kind: .minimize, location: entry.keyNode.location)
            case "maximize": return TuneWant(metric: metric, kind: .maximize, location: entry.keyNode.location)
            default:
                throw reader.error(node, "expected minimize, maximize, {target: T, within: E} or {min: A, max: B} for "
                                   + "'\(metric)', got \(node.shortDescription)")
            }
        }
        let fields = try reader.mapping(node, owner: "want '\(metric)'", expected: "{target: T, within: E} or {min: A, max: B}",
                                        allowed: ["target", "within", "min", "max"])
        if let target = fields["target"] {
            if let bound = fields.entry("min") ?? fields.entry("max") {
                throw reader.error(bound.keyNode, "a target already says what is wanted of '\(metric)': leave out '\(bound.key)'")
            }
            let value = try reader.number(target, "'target' of '\(metric)'")
            let within = try reader.number(try reader.required("within", in: fields, hint: " (the tolerance, e.g. within: 0.5)"),
                                           "'within' of '\(metric)'", .positive)
            return TuneWant(metric: metric, kind: .target(value, within: within), location: entry.keyNode.location)
        }
        if let within = fields.entry("within") {
            throw reader.error(within.keyNode, "'within' is the tolerance of a 'target': give 'target' too")
        }
        let low = try fields["min"].map { n throws(SceneError) in try reader.number(n, "'min' of '\(metric)'") }
        let high = try fields["max"].map { n throws(SceneError) in try reader.number(n, "'max' of '\(metric)'") }
        guard low != nil || high != nil else {
            throw reader.error(node, "expected 'target', 'min' or 'max' for '\(metric)'")
        }
        if let low, let high, low > high {
            throw reader.error(node, "'min' \(formatNumber(low)) and 'max' \(formatNumber(high)) of '\(metric)' conflict: no "
                               + "value can meet both")
        }
        return TuneWant(metric: metric, kind: .bounds(min: low, max: high), location: entry.keyNode.location)
    }

    // MARK: curve

    private func parseCurve(_ node: Node) throws(SceneError) -> TuneCurve {
        let fields = try reader.mapping(node, owner: "'curve'", expected: "{item: NAME, csv: FILE}", allowed: ["item", "csv"])
        let itemNode = try reader.required("item", in: fields)
        let item = try reader.name(itemNode, "'item' of 'curve'")
        guard scene.item(named: item) != nil else { throw reader.error(itemNode, "no item named '\(item)' in the file") }
        let csvNode = try reader.required("csv", in: fields)
        let file = try reader.text(csvNode, "'csv' of 'curve'")
        let base = URL(fileURLWithPath: reader.path).deletingLastPathComponent()
        let path = file.hasPrefix("/") ? file : base.appendingPathComponent(file).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw reader.error(csvNode, "cannot read the curve '\(TextPosition.shown(file))' (looked for \(path))")
        }
        let samples = try Self.readCurve(try SceneFileBytes.text(data, path: path), path: path,
                                         duration: scene.world.duration, tick: scene.world.tick)
        return TuneCurve(item: item, file: file, samples: samples, bytes: data, location: fields.ownerLocation)
    }

    /// `time,x,y` or `time,x,y,angle` with a header row; times ascending within the world's duration.
    static func readCurve(_ text: String, path: String, duration: Double, tick: Double) throws(SceneError) -> [TuneCurve.Sample] {
        // Lines end in \n, \r\n or \r, each made \n here ("\r\n" is one Character); a BOM is dropped.
        var normalized = String.UnicodeScalarView()
        var afterCR = false
        for (i, scalar) in text.unicodeScalars.enumerated() {
            if !(scalar == "\n" && afterCR) && !(i == 0 && scalar == "\u{FEFF}") { normalized.append(scalar == "\r" ? "\n" : scalar) }
            afterCR = scalar == "\r"
        }
        let lines = String(normalized).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.first.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        guard header == ["time", "x", "y"] || header == ["time", "x", "y", "angle"] else {
            throw SceneError(path: path, line: 1, column: 1, message: "expected the header time,x,y or time,x,y,angle")
        }
        var samples: [TuneCurve.Sample] = []
        for (n, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            var column = 1
            var values: [Double] = []
            for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
                guard let v = Double(cell.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                    throw SceneError(path: path, line: n + 1, column: column, message: "expected a finite number, got "
                                     + "\"\(TextPosition.shown(String(cell)))\"")
                }
                values.append(v)
                column += cell.unicodeScalars.count + 1
            }
            guard values.count == header.count else {
                throw SceneError(path: path, line: n + 1, column: 1, message: "expected \(header.count) values, got \(values.count)")
            }
            let time = values[0]
            guard time >= 0, time <= duration + tick / 2 else {
                throw SceneError(path: path, line: n + 1, column: 1, message: "expected a time within the world's 0 to "
                                 + "\(formatNumber(duration)) s, got \(formatNumber(time))")
            }
            if let last = samples.last, time <= last.time {
                throw SceneError(path: path, line: n + 1, column: 1, message: "expected times in increasing order, got "
                                 + "\(formatNumber(time)) after \(formatNumber(last.time))")
            }
            samples.append(TuneCurve.Sample(time: time, x: values[1], y: values[2], angle: values.count > 3 ? values[3] : nil))
        }
        guard samples.count >= 2 else {
            throw SceneError(path: path, line: max(1, lines.count), column: 1, message: "expected at least two samples")
        }
        return samples
    }
}
