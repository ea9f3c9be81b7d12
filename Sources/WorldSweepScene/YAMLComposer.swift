import CYaml
import Foundation
import Yams

/// Composes YAML text into the nodes `Yams.compose(yaml:)` gives — the same texts, tags, styles
/// and marks, aliases as their anchored nodes — reading libyaml's events as Yams does. What differs
/// is the duplicate-key check: Yams groups a mapping's keys by node, which resolves every key's tag
/// by regular expressions (most of a big file's composing). Two scalar keys can be the same key only
/// if their texts are equal, so a mapping whose keys are scalars of distinct texts has no duplicate;
/// Yams' own check runs only on a mapping that is not so (a text repeated, a key that is a list or a
/// mapping). Anything else — a syntax error, a duplicate found, an undefined alias, a second
/// document, text without contiguous UTF-8 — is handed to `Yams.compose(yaml:)`, whose answer
/// (its error, with its position) is the one given.
enum YAMLComposer {
    static func compose(yaml text: String) throws -> Node? {
        var text = text
        let composed = text.withUTF8 { bytes in
            EventReader(bytes).flatMap { reader in try? reader.singleRoot() }
        }
        if let composed { return composed.root }
        return try Yams.compose(yaml: text)
    }

    /// Yams declares no initializer for `Mark`, which is a line then a column, both Ints (from 1):
    /// made here with that layout (YAMLComposerTests checks it against marks Yams made).
    static func mark(line: Int, column: Int) -> Mark {
        unsafeBitCast(MarkLayout(line: line, column: column), to: Mark.self)
    }

    private struct MarkLayout {
        let line: Int
        let column: Int
    }

    /// Keys of distinct texts are distinct keys; otherwise Yams' grouping decides (the same
    /// expression as its check: equal nodes, tags resolved).
    static func hasDuplicate(_ keys: [Node]) -> Bool {
        if keys.count <= 16 {
            for (i, key) in keys.enumerated() {
                guard case .scalar(let scalar) = key else { return yamsFindsDuplicate(keys) }
                for other in keys[..<i] {
                    if case .scalar(let earlier) = other, earlier.string == scalar.string { return yamsFindsDuplicate(keys) }
                }
            }
            return false
        }
        var texts = Set<String>(minimumCapacity: keys.count)
        for key in keys {
            guard case .scalar(let scalar) = key, texts.insert(scalar.string).inserted else { return yamsFindsDuplicate(keys) }
        }
        return false
    }

    private static func yamsFindsDuplicate(_ keys: [Node]) -> Bool {
        !Dictionary(grouping: keys) { $0 }.filter { $1.count > 1 }.isEmpty
    }
}

/// The composed document: nil root for an empty stream.
private struct Composed {
    let root: Node?
}

/// Not composed here: `Yams.compose` gives the answer.
private struct HandedToYams: Error {}

/// libyaml's parser over bytes that outlive it, and the anchors seen so far.
private final class EventReader {
    private var parser = yaml_parser_t()
    private var anchors: [String: Node] = [:]
    /// What every node's tag resolves and constructs with: Yams' defaults, made once per document
    /// as Yams makes them (each `Constructor.default` is a new one, costly to make).
    private let resolver = Resolver.default, constructor = Constructor.default

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
    }

    deinit { yaml_parser_delete(&parser) }

    /// One event, handed to `body` and deleted after.
    private func next<T>(_ body: (inout yaml_event_t) throws -> T) throws -> T {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { throw HandedToYams() }
        defer { yaml_event_delete(&event) }
        return try body(&event)
    }

    private func nextType() throws -> yaml_event_type_t { try next { $0.type } }

    /// `Parser.singleRoot()`: the stream's start, one document, the stream's end.
    func singleRoot() throws -> Composed {
        _ = try nextType()   // the stream's start
        if parser.stream_end_produced != 0 { return Composed(root: nil) }
        guard try nextType() != YAML_STREAM_END_EVENT else { return Composed(root: nil) }
        let root = try next { event throws -> Node in try self.composed(from: &event) }
        _ = try nextType()   // the document's end
        guard try nextType() == YAML_STREAM_END_EVENT else { throw HandedToYams() }
        return Composed(root: root)
    }

    private func composed(from event: inout yaml_event_t) throws -> Node {
        switch event.type {
        case YAML_ALIAS_EVENT:
            guard let name = Self.string(event.data.alias.anchor), let node = anchors[name] else { throw HandedToYams() }
            return node
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let tagText = scalar.quoted_implicit == 1 ? Tag.Name.str.rawValue : Self.string(scalar.tag)
            let node = Node.scalar(.init(Self.text(scalar.value, count: scalar.length), tag(tagText),
                                         Node.Scalar.Style(rawValue: numericCast(scalar.style.rawValue))!, Self.mark(event.start_mark)))
            register(Self.string(scalar.anchor), node)
            return node
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start, mark = Self.mark(event.start_mark)
            var nodes: [Node] = []
            var style = Node.Sequence.Style.any
            while true {
                let element = try next { event throws -> Node? in
                    guard event.type != YAML_SEQUENCE_END_EVENT else {
                        style = Node.Sequence.Style(rawValue: numericCast(event.data.sequence_start.style.rawValue))!
                        return nil
                    }
                    return try self.composed(from: &event)
                }
                guard let element else { break }
                nodes.append(element)
            }
            let node = Node.sequence(.init(nodes, tag(start.implicit != 0 ? nil : Self.string(start.tag)), style, mark))
            register(Self.string(start.anchor), node)
            return node
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start, mark = Self.mark(event.start_mark)
            var pairs: [(Node, Node)] = []
            var style = Node.Mapping.Style.any
            while true {
                let key = try next { event throws -> Node? in
                    guard event.type != YAML_MAPPING_END_EVENT else {
                        style = Node.Mapping.Style(rawValue: numericCast(event.data.mapping_start.style.rawValue))!
                        return nil
                    }
                    return try self.composed(from: &event)
                }
                guard let key else { break }
                let value = try next { event throws -> Node in try self.composed(from: &event) }
                pairs.append((key, value))
            }
            if YAMLComposer.hasDuplicate(pairs.map(\.0)) { throw HandedToYams() }
            let node = Node.mapping(.init(pairs, tag(start.implicit != 0 ? nil : Self.string(start.tag)), style, mark))
            register(Self.string(start.anchor), node)
            return node
        default:
            throw HandedToYams()
        }
    }

    /// A later anchor of the same name shadows an earlier one, as in Yams.
    private func register(_ anchor: String?, _ node: Node) {
        if let anchor { anchors[anchor] = node }
    }

    /// Yams' tag for an event's tag text: none is implicit (resolved from the text when asked).
    private func tag(_ name: String?) -> Tag {
        Tag(name.map(Tag.Name.init(rawValue:)) ?? .implicit, resolver, constructor)
    }

    private static func mark(_ mark: yaml_mark_t) -> Mark {
        YAMLComposer.mark(line: mark.line + 1, column: mark.column + 1)
    }

    /// A tag's or anchor's text, as Yams reads it (invalid bytes repaired).
    private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        guard let pointer else { return nil }
        return String.decodeCString(pointer, as: UTF8.self, repairingInvalidCodeUnits: true)?.result
    }

    /// A scalar's text: libyaml hands on UTF-8 it has checked. (A leading byte-order mark is read
    /// by Foundation, as Yams reads every scalar.)
    private static func text(_ value: UnsafeMutablePointer<UInt8>?, count: Int) -> String {
        let bytes = UnsafeBufferPointer(start: value, count: count)
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(bytes: bytes, encoding: .utf8)!
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
