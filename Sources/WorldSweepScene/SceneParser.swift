import Foundation
import WorldSweep
import WorldSweepResults
import Yams

extension SceneFile {
    /// Reads and validates a scene file. Every failure, unreadable file included, is one
    /// `SceneError` naming the file, line and column.
    public static func load(path: String) throws(SceneError) -> SceneFile {
        try parse(yaml: try readText(path: path), path: path)
    }

    /// Validates scene YAML (or JSON) text; `path` only labels errors and `sourcePath`.
    public static func parse(yaml text: String, path: String = "<scene>") throws(SceneError) -> SceneFile {
        try parse(yaml: text, composed: try compose(yaml: text, path: path), path: path)
    }

    /// The file at `path` read and composed, not yet parsed: what `load(path:)` parses, for a
    /// caller that parses it again elsewhere (`parse(_:path:)`).
    public static func compose(path: String) throws(SceneError) -> ComposedFile {
        let text = try readText(path: path)
        return ComposedFile(text: text, root: try compose(yaml: text, path: path) as Any)
    }

    /// `load(path:)` of a file composed already (by this compilation or the other).
    public static func parse(_ file: ComposedFile, path: String) throws(SceneError) -> SceneFile {
        try parse(yaml: file.text, composed: file.root as? Node, path: path)
    }

    /// The YAML document of `text`; nil for an empty one.
    static func compose(yaml text: String, path: String) throws(SceneError) -> Node? {
        do {
            return try YAMLComposer.compose(yaml: text)
        } catch {
            throw syntaxError(error, in: text, path: path)
        }
    }

    /// `parse(yaml:path:)` of `text` composed already as `root`.
    static func parse(yaml text: String, composed root: Node?, path: String) throws(SceneError) -> SceneFile {
        guard let root else {
            throw SceneError(path: path, line: 1, column: 1,
                             message: "expected a mapping with 'name', 'world' and 'items', got an empty file")
        }
        var parser = SceneParser(reader: NodeReader(path: path), text: text)
        return try parser.parseScene(root)
    }

    /// The longest sweep name: `runs/NAME-tune` within the 255 bytes of a file name.
    static let longestName = 250
    static let topLevelKeys = ["name", "description", "world", "items", "behaviors", "sweep", "metrics", "measure", "tune"]
    static let worldKeys = ["bounds", "tick", "duration", "ticks"]
    static let itemFileKeys = ["center", "size", "angle", "shape", "path"]

    /// A tab where YAML wants indentation gives libyaml's cryptic "cannot start any token".
    private static func tabHint(at mark: Mark, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return "" }
        let line = lines[mark.line - 1].unicodeScalars
        guard mark.column >= 1, mark.column <= line.count,
              line[line.index(line.startIndex, offsetBy: mark.column - 1)] == "\t" else { return "" }
        return "; indent with spaces, not tabs"
    }

    /// Yams reports syntax errors with a 1-based mark; reader errors only with a character offset.
    private static func syntaxError(_ error: any Error, in text: String, path: String) -> SceneError {
        func located(_ mark: Mark, _ message: String) -> SceneError {
            SceneError(path: path, line: mark.line, column: mark.column, message: message)
        }
        guard let yamlError = error as? YamlError else {
            return SceneError(path: path, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
        switch yamlError {
        case let .scanner(ctx, problem, mark, _), let .parser(ctx, problem, mark, _), let .composer(ctx, problem, mark, _):
            let words = YAMLSyntaxWords.sentence(problem: problem, context: ctx?.text,
                                                 opened: ctx.map { "\($0.mark.line):\($0.mark.column)" })
            return located(mark, words + (words.hasSuffix("spaces") ? "" : tabHint(at: mark, in: text)))
        case let .duplicatedKeysInMapping(duplicates, ctx):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return located(ctx.mark, "key \(keys) appears more than once in the same mapping")
        case let .reader(problem, offset, _, _):
            var line = 1, column = 1
            for character in text.prefix(offset ?? 0) {
                if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
            }
            return SceneError(path: path, line: line, column: column, message: "invalid YAML text: \(problem)")
        default:
            return SceneError(path: path, line: 1, column: 1, message: "invalid YAML: \(yamlError)")
        }
    }
}

/// Walks the composed document in a fixed order (world, items, behaviors, measure, sweep, metrics) so the
/// first problem reported is stable, and names are known before anything refers to them.
struct SceneParser {
    let reader: NodeReader
    /// Every item and behavior name with where it is defined: one namespace for both.
    private(set) var definitions: [String: (noun: String, location: SceneLocation)] = [:]

    /// The file's text, when the tree was composed from it unchanged: tune checks that each tuned
    /// value's text can be rewritten in place (TunedFile.swift).
    let text: String?

    init(reader: NodeReader, text: String? = nil) { self.reader = reader; self.text = text }

    mutating func parseScene(_ root: Node) throws(SceneError) -> SceneFile {
        let top = try reader.mapping(root, owner: "the scene file", expected: "a mapping with 'name', 'world' and 'items'",
                                     allowed: SceneFile.topLevelKeys)
        let name = try reader.name(try reader.required("name", in: top), "'name'")
        // The name is a folder name (runs/NAME, runs/NAME-tune): it must fit the file system's 255 bytes.
        if name.utf8.count > SceneFile.longestName {
            throw reader.error(top["name"]!, "expected a 'name' of at most \(SceneFile.longestName) characters (it names the run "
                               + "folder runs/NAME-tune, and a file name holds at most 255 bytes), got \(name.utf8.count)")
        }
        let description = try top["description"].map { node throws(SceneError) in
            try reader.text(node, "'description'")
        } ?? ""
        let world = try parseWorld(try reader.required("world", in: top), key: top.entry("world")!.keyNode)
        let items = try parseItems(try reader.required("items", in: top))
        let behaviors = try top["behaviors"].map { node throws(SceneError) in try parseBehaviors(node, items: items) } ?? []
        var scene = SceneFile(name: name, description: description, world: world, items: items, behaviors: behaviors,
                              sweep: nil, metrics: SceneFile.allMetrics, sourcePath: reader.path)
        // Written metrics before the sweep: a sweep axis may name their numbers (`NAME.KEY`).
        if let measureNode = top["measure"] {
            scene.measures = try MeasureParser(reader: reader, scene: scene, names: definitions).parse(measureNode)
        }
        if let sweepNode = top["sweep"] {
            scene.sweep = try SweepParser(reader: reader, scene: scene).parse(sweepNode, key: top.entry("sweep")!.keyNode)
        }
        if let metricsNode = top["metrics"] {
            scene.metrics = try parseMetrics(metricsNode)
        }
        if let tuneNode = top["tune"] {
            scene.tune = try TuneParser(reader: reader, scene: scene, top: top, text: text.map(YAMLText.init)).parse(tuneNode, key: top.entry("tune")!.keyNode)
        }
        return scene
    }

    // MARK: names

    /// Items and behaviors share one namespace: a name defined twice is refused where it reappears.
    mutating func define(_ name: String, noun: String, at keyNode: Node) throws(SceneError) {
        if let earlier = definitions[name] {
            throw reader.error(keyNode, "name '\(name)' is already used by the \(earlier.noun) at "
                               + "\(earlier.location); items and behaviors share one namespace")
        }
        definitions[name] = (noun, keyNode.location)
    }

    // MARK: world

    private func parseWorld(_ node: Node, key: Node) throws(SceneError) -> WorldSpec {
        let world = try reader.mapping(node, owner: "'world'", ownerLocation: key.location,
                                       expected: "a mapping with 'bounds' and 'duration' or 'ticks'",
                                       allowed: SceneFile.worldKeys)
        let bounds = try reader.numbers(try reader.required("bounds", in: world), "'bounds'",
                                        labels: ["width", "height"], .length)
        let tick = try world["tick"].map { node throws(SceneError) in try parseTick(node) } ?? 1.0 / 60.0
        let ticks: Int
        switch (world.entry("duration"), world.entry("ticks")) {
        case (nil, nil):
            throw reader.error(at: world.ownerLocation, "missing 'duration' or 'ticks' in 'world' (give exactly one)")
        case let (duration?, ticksEntry?):
            let later = duration.keyNode.location.line > ticksEntry.keyNode.location.line
                || (duration.keyNode.location.line == ticksEntry.keyNode.location.line
                    && duration.keyNode.location.column > ticksEntry.keyNode.location.column) ? duration : ticksEntry
            throw reader.error(later.keyNode, "give either 'duration' or 'ticks' in 'world', not both")
        case let (duration?, nil):
            let seconds = try reader.number(duration.value, "'duration'", .positive)
            let count = (seconds / tick).rounded()
            guard count >= 1 else {
                throw reader.error(duration.value, "expected a 'duration' of at least one tick (\(formatNumber(tick)) s), "
                                   + "got \(duration.value.shortDescription)")
            }
            guard count <= Double(WorldSpec.maxTicks) else {
                throw reader.error(duration.value, "expected a 'duration' of at most \(WorldSpec.maxTicks) ticks, got "
                                   + "\(duration.value.shortDescription) s (\(formatNumber(count)) ticks)")
            }
            ticks = Int(count)
        case let (nil, ticksEntry?):
            ticks = try reader.integer(ticksEntry.value, "'ticks'", minimum: 1)
            guard ticks <= WorldSpec.maxTicks else {
                throw reader.error(ticksEntry.value, "expected at most \(WorldSpec.maxTicks) 'ticks', got \(ticks)")
            }
        }
        return WorldSpec(bounds: Size(width: bounds[0], height: bounds[1]), tick: tick, ticks: ticks)
    }

    /// `tick: 0.02` or `tick: 1/60`: positive, and at most 0.5 s since the engine replaces longer
    /// ticks by 1/60 s.
    private func parseTick(_ node: Node) throws(SceneError) -> Double {
        let expectation = "a positive number of seconds or a fraction \"a/b\" for 'tick'"
        let value: Double
        if let number = reader.numericValue(node) {
            value = number
        } else if case .scalar(let scalar) = node, node.tagName == .str {
            let parts = scalar.string.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 else {
                throw reader.error(node, "expected \(expectation), got \(node.shortDescription)")
            }
            value = a / b
        } else {
            throw reader.error(node, "expected \(expectation), got \(node.shortDescription)")
        }
        guard value.isFinite, value > 0 else {
            throw reader.error(node, "expected \(expectation), got \(node.shortDescription)")
        }
        guard value <= EngineSettings.maxTick else {
            throw reader.error(node, "expected a 'tick' of at most \(formatNumber(EngineSettings.maxTick)) s "
                               + "(the animator treats longer ticks as 1/60 s), got \(node.shortDescription)")
        }
        return value
    }

    // MARK: metrics

    private func parseMetrics(_ node: Node) throws(SceneError) -> [String] {
        let all = SceneFile.allMetrics
        let elements = try reader.list(node, "'metrics'", expected: "a list of metric names")
        guard !elements.isEmpty else {
            throw reader.error(node, "expected at least one metric in 'metrics' (leave the key out for all of them)")
        }
        var metrics: [String] = []
        for element in elements {
            guard case .scalar(let scalar) = element, all.contains(scalar.string) else {
                throw reader.error(element, "unknown metric \(element.shortDescription) (expected one of: "
                                   + "\(all.joined(separator: ", ")))"
                                   + (element.scalar.map { suggestion(for: $0.string, in: all) } ?? ""))
            }
            guard !metrics.contains(scalar.string) else {
                throw reader.error(element, "metric '\(scalar.string)' is listed more than once")
            }
            metrics.append(scalar.string)
        }
        return metrics
    }
}
