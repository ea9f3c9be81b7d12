import Foundation
import Yams

/// Where a file writes the value of a parameter path (`NAME.KEY`), found in the composed YAML tree:
/// the node, and where its text is. Aliases resolve to the anchored node (its mark is the anchor's),
/// so an occurrence written as `*name` is recognised by its mark lying before its own key.
struct WrittenValue {
    /// The scalar node the value is read from (for an alias, the anchored node).
    let node: Node
    /// Where the text that gives this key its value starts: the scalar (after any anchor and tag),
    /// or the `*name` of an alias.
    let start: Int
    /// Where that text ends (exclusive).
    let end: Int
    /// Whether the key's text is an alias of a value anchored elsewhere.
    let isAlias: Bool
}

/// A YAML text as an array of Unicode scalars, with libyaml's line and column marks turned into
/// offsets. libyaml counts a line break as `\n`, `\r\n` or a lone `\r`, and columns in characters.
struct YAMLText {
    let scalars: [Unicode.Scalar]
    private let lineStarts: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\r" {
                if i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                starts.append(i + 1)
            } else if scalars[i] == "\n" {
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    func offset(of mark: Mark?) -> Int? {
        guard let mark, mark.line >= 1, mark.line <= lineStarts.count else { return nil }
        let offset = lineStarts[mark.line - 1] + mark.column - 1
        return offset <= scalars.count ? offset : nil
    }

    /// The offset where line `line` (1-based) starts; the end of the text past the last line.
    func lineStart(_ line: Int) -> Int { line - 1 < lineStarts.count ? lineStarts[line - 1] : scalars.count }

    func isSpace(_ i: Int) -> Bool { i < scalars.count && (scalars[i] == " " || scalars[i] == "\t") }
    func isBreak(_ i: Int) -> Bool { i < scalars.count && (scalars[i] == "\n" || scalars[i] == "\r") }

    /// The end of the token at `i`: a quoted scalar to its closing quote, anything else to the next
    /// space, line break, flow indicator or comment (a plain number, an alias, an anchor or a tag).
    func tokenEnd(_ i: Int) -> Int {
        guard i < scalars.count else { return i }
        var j = i
        if scalars[i] == "\"" || scalars[i] == "'" {
            let quote = scalars[i]
            j += 1
            while j < scalars.count {
                if quote == "\"", scalars[j] == "\\" { j += 2; continue }
                if scalars[j] == quote {
                    if quote == "'", j + 1 < scalars.count, scalars[j + 1] == "'" { j += 2; continue }
                    return j + 1
                }
                j += 1
            }
            return j
        }
        while j < scalars.count, !isSpace(j), !isBreak(j), !",[]{}".unicodeScalars.contains(scalars[j]) {
            if scalars[j] == "#", j > i, isSpace(j - 1) { break }
            j += 1
        }
        return j
    }

    /// The scalar's own text at a node's mark: past its anchor (`&a`) and tag (`!!float`, `!t`).
    func scalarStart(_ i: Int) -> Int {
        var j = i
        while j < scalars.count, scalars[j] == "&" || scalars[j] == "!" {
            j = tokenEnd(j)
            while isSpace(j) || isBreak(j) { j += 1 }
        }
        return j
    }

    /// The next token after `i`, skipping spaces, line breaks, comments and the indicators that
    /// separate a value from what comes before it (`:`, `,`, `[`, `-`, `?`).
    func nextToken(after i: Int) -> Int {
        var j = i
        while j < scalars.count {
            let s = scalars[j]
            if s == " " || s == "\t" || s == "\n" || s == "\r" || s == ":" || s == "," || s == "[" || s == "?" {
                j += 1
            } else if s == "-", j + 1 < scalars.count, isSpace(j + 1) || isBreak(j + 1) {
                j += 1
            } else if s == "#" {
                while j < scalars.count, !isBreak(j) { j += 1 }
            } else {
                break
            }
        }
        return j
    }

    func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
    }
}

extension WrittenValue {
    /// The components of a path's key and how each steps into the tree: a mapping's key, or one of
    /// a pair's two numbers. A field's `region.radius` is its circle's number, `region.width` and
    /// `region.height` its rectangle's (also inside an `inverse`).
    static func locate(_ path: String, in root: Node, text: YAMLText) -> WrittenValue? {
        let parts = path.split(separator: ".").map(String.init)
        guard parts.count >= 2, case .mapping = root else { return nil }
        for section in ["items", "behaviors"] {
            guard let (_, entities) = entry(section, in: root) else { continue }
            guard let (nameKey, entity) = entry(parts[0], in: entities) else { continue }
            // A whole item or behavior written as an alias shares its text with another one.
            if let v = text.offset(of: entity.mark), let k = text.offset(of: nameKey.mark), v < k { return nil }
            return step(Array(parts.dropFirst()), from: entity, text: text)
        }
        return nil
    }

    /// The key and value of `key` in a mapping node.
    static func entry(_ key: String, in node: Node) -> (Node, Node)? {
        guard case .mapping(let mapping) = node else { return nil }
        return mapping.first { $0.key.scalar?.string == key }.map { ($0.key, $0.value) }
    }

    private static let secondOfPair: Set<String> = ["y", "height", "dy", "max"]
    private static let firstOfPair: Set<String> = ["x", "width", "dx", "min"]

    private static func step(_ rest: [String], from node: Node, text: YAMLText) -> WrittenValue? {
        guard let key = rest.first else { return nil }
        if key == "region", rest.count == 2, let (_, region) = entry("region", in: node) {
            var shape = region
            if let (_, inner) = entry("inverse", in: shape) { shape = inner }
            switch rest[1] {
            case "radius":
                guard let (k, v) = entry("circle", in: shape) else { return nil }
                return value(v, after: k, text: text)
            case "width", "height":
                guard let (_, pair) = entry("rectangle", in: shape) else { return nil }
                return element(rest[1] == "height" ? 1 : 0, of: pair, text: text)
            default: return nil
            }
        }
        guard let (k, v) = entry(key, in: node) else { return nil }
        // A pair or mapping written as an alias shares its text with the anchored one.
        if v.scalar == nil, let vo = text.offset(of: v.mark), let ko = text.offset(of: k.mark), vo < ko { return nil }
        if rest.count == 1 { return v.scalar == nil ? nil : value(v, after: k, text: text) }
        if rest.count == 2, case .sequence = v {
            if secondOfPair.contains(rest[1]) { return element(1, of: v, text: text) }
            if firstOfPair.contains(rest[1]) { return element(0, of: v, text: text) }
            return nil
        }
        return step(Array(rest.dropFirst()), from: v, text: text)
    }

    /// The value written after its key: the scalar itself, or an alias `*a` (whose node's mark,
    /// the anchor's, lies before the key).
    static func value(_ v: Node, after key: Node, text: YAMLText) -> WrittenValue? {
        guard v.scalar != nil, let ko = text.offset(of: key.mark), let vo = text.offset(of: v.mark) else { return nil }
        if vo > ko {
            let start = text.scalarStart(vo)
            return WrittenValue(node: v, start: start, end: text.tokenEnd(start), isAlias: false)
        }
        return alias(at: text.nextToken(after: text.tokenEnd(ko)), node: v, text: text)
    }

    /// Element `index` of a pair's sequence `[a, b]` (flow or block).
    static func element(_ index: Int, of sequence: Node, text: YAMLText) -> WrittenValue? {
        guard case .sequence(let seq) = sequence, seq.count == 2, let so = text.offset(of: seq.mark) else { return nil }
        let elements = Array(seq)
        guard elements[index].scalar != nil else { return nil }
        // An alias repeats an earlier mark: before the opening, or (the second) not after the first's.
        let firstOffset = text.offset(of: elements[0].mark) ?? so
        if let eo = text.offset(of: elements[index].mark), eo > so, index == 0 || eo > firstOffset {
            let start = text.scalarStart(eo)
            return WrittenValue(node: elements[index], start: start, end: text.tokenEnd(start), isAlias: false)
        }
        // An alias element: the token after the previous element's text, or after the opening.
        var from = so
        if index == 1 {
            guard let first = element(0, of: sequence, text: text) else { return nil }
            from = first.end
        } else if text.scalars[so] == "[" {
            from = so + 1
        }
        return alias(at: text.nextToken(after: from), node: elements[index], text: text)
    }

    private static func alias(at i: Int, node: Node, text: YAMLText) -> WrittenValue? {
        guard i < text.scalars.count, text.scalars[i] == "*" else { return nil }
        return WrittenValue(node: node, start: i, end: text.tokenEnd(i), isAlias: true)
    }
}
