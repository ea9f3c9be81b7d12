import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

/// docs/format.md against the parser: each table marked `<!-- keys: CONTEXT -->` lists, in its first
/// column, exactly the keys the parser accepts there (none missing, none the parser refuses), and
/// each behavior type's table is the one its declaration makes.
@Suite("docs/format.md against the parser")
struct FormatDocTests {
    static let document = try! String(contentsOfFile: packageRoot.appendingPathComponent("docs/format.md").path, encoding: .utf8)

    /// The parser's keys for each marked table.
    static let parserKeys: [String: [String]] = {
        var keys: [String: [String]] = [
            "top": SceneFile.topLevelKeys, "world": SceneFile.worldKeys, "item": SceneFile.itemFileKeys,
            "boundary": SceneParser.boundaryKeys, "region": SceneParser.regionKeys,
            "sweep": SweepParser.sweepKeys, "sweep.parameter": SweepParser.rangeKinds, "measure": MeasureParser.keys,
        ]
        for type in SceneParser.behaviorTypes { keys["behavior." + type] = SceneParser.allowedKeys(forType: type) }
        return keys
    }()

    /// CONTEXT → the backticked first cells of the table after its marker.
    static func documentedTables(_ text: String) -> [String: [String]] {
        var tables: [String: [String]] = [:]
        var context: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- keys: "), line.hasSuffix(" -->") {
                context = String(line.dropFirst(11).dropLast(4))
                tables[context!] = []
            } else if let current = context {
                guard line.hasPrefix("|") else {
                    if !(tables[current]!.isEmpty) { context = nil }   // a blank line ends the table
                    continue
                }
                let cell = line.split(separator: "|", omittingEmptySubsequences: false)[1].trimmingCharacters(in: .whitespaces)
                if cell.hasPrefix("`"), cell.hasSuffix("`"), cell.count > 2 { tables[current]!.append(String(cell.dropFirst().dropLast())) }
            }
        }
        return tables
    }

    @Test("every table the parser has is documented, and each lists exactly the parser's keys",
          arguments: parserKeys.keys.sorted())
    func keyTable(context: String) {
        let documented = Self.documentedTables(Self.document)[context]
        #expect(documented != nil, "docs/format.md has no '<!-- keys: \(context) -->' table")
        guard let documented else { return }
        let accepted = Self.parserKeys[context]!
        #expect(Set(accepted).subtracting(documented).sorted() == [], "accepted by the parser, not documented (\(context))")
        #expect(Set(documented).subtracting(accepted).sorted() == [], "documented, refused by the parser (\(context))")
        #expect(documented.count == Set(documented).count, "a key documented twice (\(context))")
    }

    @Test("no marked table names a context the parser does not have")
    func noStrayTables() {
        #expect(Set(Self.documentedTables(Self.document).keys).subtracting(Self.parserKeys.keys).sorted() == [])
    }

    /// `text` with each behavior type's marked table replaced by the one its declaration makes.
    static func withDeclaredTables(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for type in BehaviorTypes.all {
            guard let marker = lines.firstIndex(of: "<!-- keys: behavior.\(type.name) -->") else { continue }
            var end = marker + 1
            while end < lines.count, lines[end].hasPrefix("|") { end += 1 }
            lines.replaceSubrange((marker + 1)..<end, with: type.documentationTable.split(separator: "\n").map(String.init))
        }
        return lines.joined(separator: "\n")
    }

    /// docs/format.md's behavior tables are made from the declarations: with
    /// WORLDSWEEP_WRITE_FORMAT_TABLES=1 this test writes them, else it checks them.
    @Test("each behavior type's table is its declaration, row for row", arguments: BehaviorTypes.names)
    func behaviorTable(type name: String) throws {
        let type = try #require(BehaviorTypes.named(name))
        if ProcessInfo.processInfo.environment["WORLDSWEEP_WRITE_FORMAT_TABLES"] == "1", name == BehaviorTypes.names[0] {
            let url = packageRoot.appendingPathComponent("docs/format.md")
            try Self.withDeclaredTables(Self.document).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let table = "<!-- keys: behavior.\(name) -->\n" + type.documentationTable + "\n\n"
        #expect(Self.document.contains(table), "docs/format.md's \(name) table differs from its declaration; expected\n\(table)")
    }

    @Test("the table writer replaces a table that drifted, and only it")
    func tableWriter() {
        let drifted = "before\n<!-- keys: behavior.snap -->\n| key | what |\n| `old` | |\n\nafter\n"
        let written = Self.withDeclaredTables(drifted)
        #expect(written == "before\n<!-- keys: behavior.snap -->\n" + SnapType.documentationTable + "\n\nafter\n")
        #expect(Self.documentedTables(written)["behavior.snap"] == SnapType.fileKeys)
    }

    @Test("the checker finds a missing key and a refused one")
    func checkerCatchesDrift() {
        let text = "<!-- keys: world -->\n| key | what |\n|---|---|\n| `bounds` | |\n| `tock` | |\n\nafter\n| `ticks` | |\n"
        #expect(Self.documentedTables(text)["world"] == ["bounds", "tock"])
    }

    @Test("the document's example and attachment block parse")
    func examplesParse() throws {
        let blocks = Self.document.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 2)
        let scene = try SceneFile.parse(yaml: blocks[0], path: "format.md")
        #expect(scene.name == "twin-drop")
        // The attachment examples, as behaviors of a scene with items a, b, card.
        let attachments = """
            name: attachments
            world: {bounds: [320, 568], ticks: 10}
            items:
              a: {center: [100, 50], size: [20, 20]}
              b: {center: [150, 50], size: [20, 20]}
              card: {center: [160, 200], size: [40, 80]}
            behaviors:

            """ + blocks[1].split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let parsed = try SceneFile.parse(yaml: attachments, path: "format.md")
        #expect(parsed.behaviors.count == 6)
    }
}
