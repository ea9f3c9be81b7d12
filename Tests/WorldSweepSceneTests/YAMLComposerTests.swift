import Foundation
import Testing
import Yams
@testable import WorldSweepScene

/// The composer must give what `Yams.compose(yaml:)` gives: the same tree (texts, resolved tags,
/// styles, marks, aliases as their anchored nodes), or the same error at the same position.
@Suite struct YAMLComposerTests {
    /// Both composers' answers for `text`, compared node by node, or error by error.
    static func expectSameAnswer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = Result { try YAMLComposer.compose(yaml: text) }
        let yams = Result { try Yams.compose(yaml: text) }
        switch (ours, yams) {
        case let (.success(a), .success(b)):
            #expect(describe(a) == describe(b), "\(text.prefix(80))", sourceLocation: sourceLocation)
            #expect(a == b, sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            // Keys of one text but different tags (`1` and `'1'`) both repeated: Yams lists them,
            // and points at the first, in its dictionary's order, which differs between two of its
            // own calls. There the duplicates are compared as a set; everywhere else, the whole error.
            if case let .duplicatedKeysInMapping(ours, _)? = a as? YamlError, case let .duplicatedKeysInMapping(theirs, _)? = b as? YamlError,
               Set(ours).count < ours.count {
                #expect(ours.sorted() == theirs.sorted(), "\(text.prefix(80))", sourceLocation: sourceLocation)
            } else {
                #expect(String(describing: a) == String(describing: b), "\(text.prefix(80))", sourceLocation: sourceLocation)
            }
        default:
            Issue.record("one composed and the other did not: \(ours) against \(yams) for \(text.prefix(80))", sourceLocation: sourceLocation)
        }
    }

    /// Every observable part of a tree, as text: kind, resolved tag, style, mark, scalar text.
    static func describe(_ node: Node?) -> String {
        guard let node else { return "nil" }
        let mark = node.mark.map { "\($0.line):\($0.column)" } ?? "-"
        switch node {
        case .scalar(let s):
            return "scalar(\(s.string.debugDescription) \(node.tag.rawValue) \(s.style) \(mark))"
        case .sequence(let s):
            return "seq(\(node.tag.rawValue) \(s.style) \(mark) [" + s.map { describe($0) }.joined(separator: ", ") + "])"
        case .mapping(let m):
            return "map(\(node.tag.rawValue) \(m.style) \(mark) {" + m.map { "\(describe($0.key)): \(describe($0.value))" }.joined(separator: ", ") + "})"
        case .alias(let a):
            return "alias(\(a.anchor.rawValue))"
        }
    }

    @Test func theRepositorysSweepFilesComposeAlike() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sweeps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 10)
        for file in files {
            Self.expectSameAnswer(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
        }
    }

    @Test func tagsStylesAnchorsAndAliasesComposeAlike() {
        for text in [
            "", "# only a comment\n", "~", "plain", "'single'", "\"double\\0with a NUL\"", "|\n  literal\n", ">\n  folded\n",
            "a: 1\nb: 1.5\nc: true\nd: ~\ne: 2001-12-14\nf: .inf\ng: 0x1F\nh: '1'\ni: \"true\"\n",
            "!!str 1: a\n!!int 2: b\n! 3: c\n!custom x: d\n",
            "list: !!seq [1, 2]\nmap: !!map {a: 1}\nflow: {a: [1, {b: 2}], c: []}\nblock:\n  - 1\n  - - 2\n    - 3\n",
            "base: &b {x: 1, y: 2}\nuse: *b\nmore: [*b, &n 5, *n]\nagain: &b 7\nlast: *b\n",
            "\u{FEFF}name: bom\n", "k: \"\u{FEFF}starts with a BOM\"\n", "a: 1\r\nb: [2, 3]\r\n", "ключ: значение\n名前: 値\n",
            "? [complex, key]\n: value\n? {a: 1}\n: other\n",
            "<<: {a: 1}\n=: 2\n",
        ] {
            Self.expectSameAnswer(text)
        }
    }

    @Test func duplicateKeysAreRefusedAlikeWithTheirPosition() {
        for text in [
            "a: 1\na: 2\n", "a: 1\nb: {c: 1, c: 2}\n", "'a': 1\na: 2\n", "1: a\n'1': b\n", "1: a\n01: b\n", "true: a\nTrue: b\n",
            "!!int 1: a\n1: b\n", "!!str 1: a\n'1': b\n", "~: a\nnull: b\n", "z: 1\nz: 2\ny: 3\ny: 4\n",
            "? [1, 2]\n: a\n? [1, 2]\n: b\n", "? {a: 1}\n: x\n? {a: 1}\n: y\n", "&x k: 1\n*x : 2\n",
            (0..<40).map { "k\($0): \($0)\n" }.joined() + "k7: again\n",
            (0..<40).map { "k\($0): \($0)\n" }.joined() + "'k40': 40\n",
            (0..<40).map { "\($0): \($0)\n" }.joined() + "'3': text three\n",
            (0..<40).map { "\($0): \($0)\n" }.joined() + "!!int 3: three again\n",
        ] {
            Self.expectSameAnswer(text)
        }
    }

    @Test func syntaxErrorsAreYamsOwn() {
        for text in ["a: [1, 2\n", "a: b: c\n", "a:\n\t- 1\n", "- a\nb: c\n", "*undefined\n", "a: *nope\n", "--- 1\n--- 2\n",
                     "a: 'open\n", "{a: 1", "a: &x [*x]\n", "%YAML 9.9\n--- a\n"] {
            Self.expectSameAnswer(text)
        }
    }

    /// Pseudo-random mappings of repeated and quoted keys, nested, in flow and block style.
    @Test func randomDocumentsComposeAlike() {
        var state: UInt64 = 46
        func next(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        let words = ["a", "b", "1", "'1'", "true", "\"b\"", "~", "1.5", "x-y", "!!str a", "b0", "center", "size"]
        for _ in 0..<300 {
            let count = 1 + next(30)
            var lines: [String] = []
            for _ in 0..<count {
                let key = words[next(UInt64(words.count))]
                switch next(3) {
                case 0: lines.append("\(key): \(words[next(UInt64(words.count))])")
                case 1: lines.append("\(key): {\(words[next(4)]): 1, \(words[next(4)]): [2, 3]}")
                default: lines.append("\(key):\n  \(words[next(5)]): 1\n  \(words[next(5)]): 2")
                }
            }
            Self.expectSameAnswer(lines.joined(separator: "\n") + "\n")
        }
    }

    /// The errors a scene file gets keep their file, line and column through the new composer.
    @Test func sceneErrorsKeepTheirPositions() {
        let cases: [(String, Int, Int, String)] = [
            ("name: s\nworld: {bounds: [100, 100], ticks: 10}\nitems:\n  top: {center: [1, 1], size: [2, 2]}\n  top: {center: [3, 3], size: [2, 2]}\n",
             4, 3, "key 'top' appears more than once"),
            ("name: s\nname: t\n", 1, 1, "key 'name' appears more than once"),
            ("name: s\nworld: {bounds: [100, 100\n", 3, 1, ""),
        ]
        for (text, line, column, words) in cases {
            do {
                _ = try SceneFile.parse(yaml: text, path: "scene.yaml")
                Issue.record("no error for \(text)")
            } catch {
                #expect(error.line == line && error.column == column, "\(error)")
                #expect(error.path == "scene.yaml")
                #expect(words.isEmpty || "\(error)".contains(words), "\(error)")
            }
        }
    }

    @Test func aMarkIsALineThenAColumn() throws {
        #expect(MemoryLayout<Mark>.size == MemoryLayout<(Int, Int)>.size)
        let made = YAMLComposer.mark(line: 12, column: 34)
        #expect(made.line == 12 && made.column == 34)
        let yams = try #require(try Yams.compose(yaml: "\n\n   x: 1\n")?.mapping?.keys.first?.mark)
        #expect(yams.line == 3 && yams.column == 4)
    }

    /// Keys of distinct texts never count as a duplicate; repeated texts are Yams' to judge.
    @Test func theDuplicateCheckIsYamsOnRepeatedTexts() throws {
        func keys(_ text: String) throws -> [Node] { try #require(try Yams.compose(yaml: text)?.mapping?.keys.map { $0 }) }
        #expect(!YAMLComposer.hasDuplicate(try keys("a: 1\nb: 2\n")))
        #expect(!YAMLComposer.hasDuplicate(try keys((0..<50).map { "k\($0): 1\n" }.joined())))
        #expect(!YAMLComposer.hasDuplicate([Node("1"), Node("1", Tag(.str))]))
        #expect(YAMLComposer.hasDuplicate([Node("1"), Node("1", Tag(.int))]))
        #expect(YAMLComposer.hasDuplicate([Node("a"), Node("b"), Node("a", Tag(.str))]))
        #expect(YAMLComposer.hasDuplicate((0..<50).map { Node("k\($0 % 49)") }))
        #expect(!YAMLComposer.hasDuplicate((0..<49).map { Node("k\($0)") } + [Node("k0", Tag(.int))]))
    }
}
