import Foundation
import Yams

/// The places a composed YAML tree uses a node through an alias (`*a`). Yams gives an alias the
/// anchored node itself, mark included, so a use is a value whose mark lies before its own key
/// (or before its sequence's opening): anchors come before their aliases.
enum AliasUses {
    struct Use {
        /// The anchored node.
        let target: Node
        /// Where `*a` is written, when the text around it lets it be found.
        let start: Int?
        /// The key or sequence the alias is written under, for messages.
        let location: SceneLocation
    }

    static func collect(_ root: Node, text: YAMLText) -> [Use] {
        var uses: [Use] = []
        func walk(_ node: Node) {
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    if let k = text.offset(of: key.mark), let v = text.offset(of: value.mark), v < k {
                        let at = text.nextToken(after: text.tokenEnd(k))
                        uses.append(Use(target: value, start: at < text.scalars.count && text.scalars[at] == "*" ? at : nil,
                                        location: key.location))
                    } else {
                        walk(value)
                    }
                }
            case .sequence(let sequence):
                guard let s = text.offset(of: sequence.mark) else { return }
                var previousEnd: Int? = text.scalars[s] == "[" ? s + 1 : s
                var previousStart = s - 1
                for element in sequence {
                    // An alias repeats an earlier mark: one before the sequence, or not after the element before.
                    if let e = text.offset(of: element.mark), e < s || e <= previousStart {
                        let at = previousEnd.map { text.nextToken(after: $0) }
                        let found = at.flatMap { $0 < text.scalars.count && text.scalars[$0] == "*" ? $0 : nil }
                        uses.append(Use(target: element, start: found, location: node.location))
                        previousEnd = found.map { text.tokenEnd($0) }
                    } else {
                        walk(element)
                        previousStart = text.offset(of: element.mark) ?? previousStart
                        previousEnd = element.scalar != nil ? text.offset(of: element.mark).map { text.tokenEnd(text.scalarStart($0)) } : nil
                    }
                }
            case .scalar, .alias:
                return
            }
        }
        walk(root)
        return uses
    }

    static func same(_ a: Mark?, _ b: Mark?) -> Bool {
        guard let a, let b else { return false }
        return a.line == b.line && a.column == b.column
    }

    /// Whether `node`'s subtree holds a node marked `mark`.
    static func contains(_ node: Node, mark: Mark?) -> Bool {
        if same(node.mark, mark) { return true }
        switch node {
        case .mapping(let mapping): return mapping.contains { contains($0.key, mark: mark) || contains($0.value, mark: mark) }
        case .sequence(let sequence): return sequence.contains { contains($0, mark: mark) }
        case .scalar, .alias: return false
        }
    }

    /// The new texts of the scalars where two trees of the same shape differ (tags and styles
    /// aside); nil when their shapes differ. At the top, `skippingTopKey` of the first is left out.
    static func differences(_ a: Node, _ b: Node, skippingTopKey: String? = nil) -> [String]? {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)):
            return x.string == y.string ? [] : [y.string]
        case let (.sequence(x), .sequence(y)):
            guard x.count == y.count else { return nil }
            var out: [String] = []
            for (p, q) in zip(x, y) {
                guard let d = differences(p, q) else { return nil }
                out += d
            }
            return out
        case let (.mapping(x), .mapping(y)):
            let xs = Array(x).filter { skippingTopKey == nil || $0.key.scalar?.string != skippingTopKey }
            let ys = Array(y)
            guard xs.count == ys.count else { return nil }
            var out: [String] = []
            for (p, q) in zip(xs, ys) {
                guard p.key.scalar?.string == q.key.scalar?.string, let d = differences(p.value, q.value) else { return nil }
                out += d
            }
            return out
        default:
            return nil
        }
    }
}
