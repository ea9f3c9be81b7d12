import Foundation
import Yams

/// best.yaml: the sweep file with the values a search found written where the file writes the tuned
/// keys, and without its `tune:` section. Every place is found in the composed YAML tree (block or
/// flow, nested, anchored, tagged, through an alias; `\n`, `\r\n`; a byte-order mark kept), the
/// edits are made from the end of the text backwards so none moves another, and the result is read
/// back: each tuned key must give its value and nothing else may change.
public enum TunedFile {
    /// One replacement of the text's scalars `start..<end`.
    struct Edit {
        let start: Int, end: Int, text: String
    }

    /// Why a tuned key's written value cannot carry the found value, or nil when it can.
    static func problem(_ path: String, root: Node, text: YAMLText) -> String? {
        guard let written = WrittenValue.locate(path, in: root, text: text) else {
            return "give '\(path)' a value in the file (a starting value, written as a number under its own key): "
                + "best.yaml writes the found value in its place"
        }
        if !written.isAlias, let shared = AliasUses.collect(root, text: text).first(where: { use in
            !AliasUses.same(use.target.mark, written.node.mark) && AliasUses.contains(use.target, mark: written.node.mark)
        }) {
            return "'\(path)' is written inside a node that is also used through an alias at \(shared.location): "
                + "best.yaml could not change one without the other; write that node out"
        }
        return nil
    }

    /// The edits that write `values` at the tuned paths; aliases of a tuned anchored value are
    /// written out as the value they had, so they keep it.
    static func edits(paths: [String], values: [Double], root: Node, text: YAMLText) -> [Edit]? {
        var edits: [Edit] = []
        var tuned: [(WrittenValue, Double)] = []
        for (path, value) in zip(paths, values) {
            guard problem(path, root: root, text: text) == nil,
                  let written = WrittenValue.locate(path, in: root, text: text) else { return nil }
            tuned.append((written, value))
            edits.append(Edit(start: written.start, end: written.end, text: "\(value)"))
        }
        for use in AliasUses.collect(root, text: text) where !tuned.contains(where: { $0.0.isAlias && $0.0.start == use.start }) {
            guard let (definition, _) = tuned.first(where: { !$0.0.isAlias && AliasUses.same($0.0.node.mark, use.target.mark) }) else { continue }
            guard let start = use.start else { return nil }
            edits.append(Edit(start: start, end: text.tokenEnd(start), text: text.text(definition.start..<definition.end)))
        }
        return edits
    }

    /// best.yaml's text. Nil when the file's text does not let the values be written faithfully
    /// (which the parser refuses before a search starts).
    public static func best(_ fileText: String, tune: TuneSpec, values: [Double]) -> String? {
        let bom = fileText.unicodeScalars.first == "\u{FEFF}"
        let body = bom ? String(fileText.unicodeScalars.dropFirst()) : fileText
        let text = YAMLText(body)
        guard let root = try? Yams.compose(yaml: body), case .mapping(let top) = root else { return nil }
        let paths = tune.parameters.map(\.path)
        guard var edits = edits(paths: paths, values: values, root: root, text: text) else { return nil }
        // The tune section: from the start of its key's line to the next top-level key (block
        // style) or up to that key (flow style, the comma after the section included).
        let keys = Array(top.keys)
        guard let t = keys.firstIndex(where: { $0.scalar?.string == "tune" }), let key = text.offset(of: keys[t].mark) else { return nil }
        let block = top.style != .flow
        let start = block ? text.lineStart(keys[t].mark!.line) : key
        let end: Int
        if t + 1 < keys.count {
            guard let next = text.offset(of: keys[t + 1].mark) else { return nil }
            end = block ? text.lineStart(keys[t + 1].mark!.line) : next
        } else if block {
            end = text.scalars.count
        } else {
            guard let close = text.scalars.lastIndex(of: "}") else { return nil }
            end = close
        }
        edits.append(Edit(start: start, end: end, text: block || t + 1 < keys.count ? "" : "}"))
        edits.sort { $0.start > $1.start }
        var scalars = text.scalars
        var lastStart = Int.max
        for edit in edits {
            guard edit.end <= lastStart else { return nil }   // overlapping edits: not a faithful text
            scalars.replaceSubrange(edit.start..<edit.end, with: edit.text.unicodeScalars)
            lastStart = edit.start
        }
        var view = String.UnicodeScalarView()
        if bom { view.append("\u{FEFF}") }
        view.append(contentsOf: scalars)
        let result = String(view)
        return check(result, original: root, paths: paths, values: values) ? result : nil
    }

    /// Whether `result` reads back as the original with the tuned paths at their values and no tune section.
    private static func check(_ result: String, original: Node, paths: [String], values: [Double]) -> Bool {
        let body = result.unicodeScalars.first == "\u{FEFF}" ? String(result.unicodeScalars.dropFirst()) : result
        guard let root = try? Yams.compose(yaml: body), WrittenValue.entry("tune", in: root) == nil else { return false }
        let text = YAMLText(body)
        for (path, value) in zip(paths, values) {
            guard let written = WrittenValue.locate(path, in: root, text: text),
                  let number = written.node.scalar.flatMap({ NodeReader(path: "").numericValue(.scalar($0)) }),
                  number == value else { return false }
        }
        // Every other scalar reads as it did: the trees differ only at the tuned values.
        guard let differences = AliasUses.differences(original, root, skippingTopKey: "tune") else { return false }
        let written = Set(values.map { "\($0)" })
        return differences.count <= paths.count && differences.allSatisfy { written.contains($0) }
    }
}
