import Foundation
import Yams

// Values given on the command line over a scene or sweep file (`run`, `validate`, `trace`,
// `bench`, `tune`): `--set KEY=VALUE` fixes a value, `--sweep KEY=RANGE` replaces or adds a sweep
// axis. They go through the file's own parser and rules, so they are checked like file values;
// a refusal names the flag, never a line of the file.

/// The `--set` and `--sweep` arguments of one command line, as typed.
public struct SceneOverrides: Sendable, Hashable, Codable {
    /// `NAME.KEY=NUMBER` (an item's or behavior's number, as sweeps name them), or a section key:
    /// `world.tick`, `world.duration`, `world.ticks`, `sweep.kind`, `sweep.samples`, `sweep.seed`,
    /// `sweep.replicas` (values as the file writes them: `world.tick=1/120`, `sweep.kind=zip`).
    public var sets: [String]
    /// `NAME.KEY=a,b,c`, `NAME.KEY=linspace:0,1,11` (any range kind of the file format, written
    /// `KIND:ARGS`), or the file's own flow form, `NAME.KEY={linspace: [0, 1, 11]}`.
    public var sweeps: [String]

    public init(sets: [String] = [], sweeps: [String] = []) {
        self.sets = sets
        self.sweeps = sweeps
    }

    public var isEmpty: Bool { sets.isEmpty && sweeps.isEmpty }

    /// As command-line arguments (`--set X --sweep Y`), the form run folders record.
    public var arguments: [String] {
        sets.flatMap { ["--set", $0] } + sweeps.flatMap { ["--sweep", $0] }
    }

    /// Keys of the `world:` and `sweep:` sections `--set` may give (the parser checks the values).
    public static let sectionKeys: [String: [String]] = [
        "world": ["tick", "duration", "ticks"],
        "sweep": ["kind", "samples", "seed", "replicas"],
    ]

    /// What is wrong with the form of one argument (no file needed), or nil.
    public static func formProblem(flag: String, _ text: String) -> OverrideError? {
        func refuse(_ message: String) -> OverrideError { OverrideError(flag: flag, text: text, message: message) }
        let example = flag == "--set" ? "bouncy.elasticity=0.5" : "bouncy.elasticity=0,0.5,1"
        guard !text.contains(where: \.isNewline) else { return refuse("expected one line") }
        guard let (key, value) = split(text) else {
            return refuse("expected KEY=VALUE (e.g. \(example))")
        }
        guard key.contains("."), !key.hasPrefix("."), !key.hasSuffix(".") else {
            return refuse("expected NAME.KEY before '=' (e.g. \(example)), got '\(TextPosition.shown(key))'")
        }
        guard !value.isEmpty else { return refuse("expected a value after '='") }
        if flag == "--sweep", isSectionKey(key) {
            return refuse("'\(key)' is a setting, not a parameter: give it with --set")
        }
        return nil
    }

    /// `KEY` and `VALUE` of `KEY=VALUE`, both trimmed; nil without an `=`.
    static func split(_ text: String) -> (key: String, value: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        return (text[..<equals].trimmingCharacters(in: .whitespaces),
                text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }

    static func isSectionKey(_ key: String) -> Bool {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 && (sectionKeys[parts[0]]?.contains(parts[1]) ?? false)
    }
}

/// A refused override: `--set TEXT: what was expected`.
public struct OverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    public var flag: String
    public var text: String
    public var message: String

    public init(flag: String, text: String, message: String) {
        self.flag = flag; self.text = text; self.message = message
    }

    public var description: String { TextPosition.oneLine("\(flag) \(TextPosition.shown(text)): \(message)") }
}

extension SceneFile {
    /// Loads `path` with the overrides applied: a bad file throws `SceneError`, a bad override
    /// `OverrideError`.
    public static func load(path: String, overrides: SceneOverrides) throws -> SceneFile {
        if overrides.isEmpty { return try load(path: path) }
        return try parse(yaml: try readText(path: path), path: path, overrides: overrides)
    }

    /// `parse(yaml:path:)` with the overrides applied. Section keys and sweep axes are written into
    /// the composed document, at lines past the file's end, and the whole goes through the parser:
    /// an error at such a line is the override's. `NAME.KEY` values are then set as `trace --set`
    /// always did (the key's rule checks them) — after removing any sweep axis over the same key.
    public static func parse(yaml text: String, path: String, overrides: SceneOverrides) throws -> SceneFile {
        var origins: [(flag: String, text: String)] = []
        for s in overrides.sets { origins.append(("--set", s)) }
        for s in overrides.sweeps { origins.append(("--sweep", s)) }
        for o in origins {
            if let problem = SceneOverrides.formProblem(flag: o.flag, o.text) { throw problem }
        }
        let fileLines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        var document: OverrideDocument
        do {
            guard let root = try YAMLComposer.compose(yaml: text) else { return try parse(yaml: text, path: path) }
            document = OverrideDocument(root: root)
        } catch {
            return try parse(yaml: text, path: path)   // the file's own syntax error, as load reports it
        }
        var numericSets: [(origin: Int, path: String, value: Double)] = []
        var fixedKeys: [String: Int] = [:]
        for (index, origin) in origins.enumerated() {
            let (key, value) = SceneOverrides.split(origin.text)!
            let line = fileLines + 1 + index
            func node(_ yaml: String) throws(OverrideError) -> Node {
                do {
                    if let n = try Yams.compose(yaml: String(repeating: "\n", count: line - 1) + yaml) { return n }
                } catch {}
                throw OverrideError(flag: origin.flag, text: origin.text, message: "expected a value as the file writes it, got '\(TextPosition.shown(value))'")
            }
            if origin.flag == "--sweep" {
                if let other = fixedKeys[key] {
                    throw OverrideError(flag: "--sweep", text: origin.text, message: "'\(key)' is fixed by \(origins[other].flag) \(origins[other].text)")
                }
                document.setAxis(key: try node(key), range: try node(Self.rangeYAML(value)),
                                 newSection: (try node("sweep"), try node("{}")))
            } else if SceneOverrides.isSectionKey(key) {
                let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
                document.setSetting(section: parts[0], key: try node(parts[1]), value: try node(value),
                                    newSection: (try node(parts[0]), try node("{}")))
            } else {
                guard let number = Double(value), number.isFinite else {
                    throw OverrideError(flag: "--set", text: origin.text, message: "expected a finite number after '=', got '\(TextPosition.shown(value))'")
                }
                document.removeAxis(key)
                fixedKeys[key] = index
                numericSets.append((index, key, number))
            }
        }
        var scene: SceneFile
        do {
            var parser = SceneParser(reader: NodeReader(path: path), text: text)
            scene = try parser.parseScene(document.root)
        } catch let error {
            guard error.line > fileLines, origins.indices.contains(error.line - fileLines - 1) else { throw error }
            let origin = origins[error.line - fileLines - 1]
            throw OverrideError(flag: origin.flag, text: origin.text, message: error.message)
        }
        for set in numericSets {
            if scene.tune?.parameters.contains(where: { $0.path == set.path }) == true {
                throw OverrideError(flag: "--set", text: origins[set.origin].text, message: "'\(set.path)' is tuned ('tune: "
                                    + "parameters'): the search gives it its values; leave out --set, or the parameter")
            }
            do { try scene.setValue(set.value, at: set.path) } catch {
                var message = error.message
                if let section = set.path.split(separator: ".").first.map(String.init),
                   let keys = SceneOverrides.sectionKeys[section], scene.numericKeys(of: section) == nil {
                    message += " (the \(section) settings --set takes: " + keys.map { "\(section).\($0)" }.joined(separator: ", ") + ")"
                }
                throw OverrideError(flag: "--set", text: origins[set.origin].text, message: message)
            }
        }
        return scene
    }

    /// A `--sweep` value as the file's YAML: `a,b,c` is a list, `KIND:ARGS` is `{KIND: [ARGS]}`,
    /// `{...}` and `[...]` are the file's own forms.
    static func rangeYAML(_ value: String) -> String {
        if value.hasPrefix("{") || value.hasPrefix("[") { return value }
        if let colon = value.firstIndex(of: ":"), SweepParser.rangeKinds.contains(String(value[..<colon])) {
            return "{\(value[..<colon]): [\(value[value.index(after: colon)...])]}"
        }
        return "[\(value)]"
    }

    /// The file's text, or why it cannot be read; whole-file problems point at 1:1, so every
    /// refusal keeps the FILE:LINE:COLUMN form. Read through a handle, so /dev/null and pipes
    /// read as what they hold.
    static func readText(path: String) throws(SceneError) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw SceneError(path: path, line: 1, column: 1, message: "no such file")
        }
        guard !isFolder.boolValue else {
            throw SceneError(path: path, line: 1, column: 1, message: "expected a scene file, got a folder")
        }
        // Read through a handle, so /dev/null and pipes read as what they hold; bounded, and
        // decoded as UTF-8 (a BOM allowed) by SceneFileBytes.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SceneError(path: path, line: 1, column: 1, message: "cannot read the file (no permission?)")
        }
        defer { try? handle.close() }
        let data = try SceneFileBytes.read(handle, path: path)
        return try SceneFileBytes.text(data, path: path)
    }
}

/// The composed file, edited where the overrides say: top-level sections and sweep axes.
struct OverrideDocument {
    var root: Node

    /// A section the file lacks is made with `newSection`'s key and mapping nodes (marked at the
    /// override's line, so errors about the section are the override's).
    typealias NewSection = (key: Node, mapping: Node)

    /// Sets `sweep.parameters.KEY` (in place when the file sweeps KEY, else last).
    mutating func setAxis(key: Node, range: Node, newSection: NewSection) {
        var sweep = section("sweep", new: newSection)
        var parameters = Self.pairs(of: sweep["parameters"]) ?? []
        Self.put(key, range, in: &parameters)
        Self.put(Node("parameters"), Self.mapping(parameters, like: sweep["parameters"] ?? newSection.mapping), in: &sweep.pairs)
        setSection("sweep", sweep)
    }

    /// Drops the sweep axis over KEY, if the file has one (a `--set` fixes its value instead).
    mutating func removeAxis(_ key: String) {
        guard var sweep = existingSection("sweep"), var parameters = Self.pairs(of: sweep["parameters"]) else { return }
        parameters.removeAll { $0.0.string == key }
        Self.put(Node("parameters"), Self.mapping(parameters, like: sweep["parameters"]!), in: &sweep.pairs)
        setSection("sweep", sweep)
    }

    /// Sets `SECTION.KEY`; `world.duration` and `world.ticks` replace each other (exactly one is given).
    mutating func setSetting(section name: String, key: Node, value: Node, newSection: NewSection) {
        var section = section(name, new: newSection)
        if name == "world", let k = key.string, k == "duration" || k == "ticks" {
            section.pairs.removeAll { $0.0.string == (k == "duration" ? "ticks" : "duration") }
        }
        Self.put(key, value, in: &section.pairs)
        setSection(name, section)
    }

    struct Section {
        var pairs: [(Node, Node)]
        var like: Node
        /// The key node for a section the file lacks (nil: keep the file's).
        var newKey: Node?
        subscript(key: String) -> Node? { pairs.first { $0.0.string == key }?.1 }
    }

    private func existingSection(_ name: String) -> Section? {
        guard case .mapping(let top) = root, let node = top[name], let pairs = Self.pairs(of: node) else { return nil }
        return Section(pairs: pairs, like: node)
    }

    /// The section as pairs; a missing (or non-mapping) one starts empty, marked at the override.
    private func section(_ name: String, new: NewSection) -> Section {
        existingSection(name) ?? Section(pairs: [], like: new.mapping, newKey: new.key)
    }

    private mutating func setSection(_ name: String, _ section: Section) {
        guard case .mapping(let top) = root else { return }
        var pairs = top.map { ($0.key, $0.value) }
        Self.put(section.newKey ?? Node(name), Self.mapping(section.pairs, like: section.like), in: &pairs)
        root = Self.mapping(pairs, like: root)
    }

    static func pairs(of node: Node?) -> [(Node, Node)]? {
        guard case .mapping(let m) = node else { return nil }
        return m.map { ($0.key, $0.value) }
    }

    /// Replaces the value of an equal key in place (keeping the file's key node), else appends.
    static func put(_ key: Node, _ value: Node, in pairs: inout [(Node, Node)]) {
        if let i = pairs.firstIndex(where: { $0.0.string == key.string }) {
            pairs[i].1 = value
        } else {
            pairs.append((key, value))
        }
    }

    /// A mapping of `pairs` keeping `node`'s mark (where errors about the whole mapping point).
    static func mapping(_ pairs: [(Node, Node)], like node: Node) -> Node {
        .mapping(Node.Mapping(pairs, .implicit, .any, node.mark))
    }
}
