import Foundation
import TestScratch
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WorldSweepResults

/// The page shell every HTML page is written on: its head, its escaper and its components, each
/// read back as XML.
@Suite struct PageShellTests {
    /// Text with every character the escaper rewrites, and a control character XML forbids.
    static let awkward = "a < b & \"c\" 'd' > e\u{1}f"

    @Test func theHeadDeclaresLanguageCharsetViewportTitleAndOneStylesheet() throws {
        let shell = try PageShell(HTML.page(title: Self.awkward, body: "<p>x</p>\n"))
        #expect(shell.lang == "en" && shell.charset == "utf-8")
        #expect(shell.viewport == "width=device-width, initial-scale=1")
        // The title reads back as given, the control character a space.
        #expect(shell.title == "a < b & \"c\" 'd' > e f")
        #expect(shell.styles == [HTML.style] && shell.stylesInPage == 1 && shell.doctypes == 1)
    }

    @Test func aPagesOwnRulesJoinTheOneStylesheet() throws {
        let rule = "p.x{color:red}"
        let shell = try PageShell(HTML.page(title: "t", extraStyle: rule, body: ""))
        #expect(shell.styles.count == 1 && shell.stylesInPage == 1)
        let lines = try #require(shell.styles.first).split(separator: "\n").map(String.init)
        #expect(lines.last == rule && lines.dropLast() == HTML.style.split(separator: "\n").map(String.init))
    }

    @Test func thePageIsItsHeadItsBodyAndItsTail() {
        let body = "<h1>x</h1>\n"
        let page = HTML.page(title: "t", body: body)
        #expect(page == HTML.head(title: "t") + body + HTML.tail)
        #expect(HTML.head(title: "t").hasSuffix("<body>\n<main>\n") && HTML.tail.hasPrefix("</main>"))
    }

    @Test func escapedTextReadsBackAsWrittenInContentAndAttributes() throws {
        let text = "x & y <script>alert('1')</script> \"q\"\ttab"
        let root = try #require(try XMLDocument(xmlString: "<p title=\"\(HTML.escape(text))\">\(HTML.escape(text))</p>").rootElement())
        #expect(root.stringValue == text)
        // An attribute value's tab is normalised to a space by XML itself.
        #expect(root.attribute(forName: "title")?.stringValue == text.replacingOccurrences(of: "\t", with: " "))
        // Text with nothing to escape comes back as it is.
        #expect(HTML.escape("plain é.ü 1.5") == "plain é.ü 1.5")
    }

    @Test func aBreakableNameWrapsAfterEachDotAndReadsBackWhole() throws {
        for name in ["top.contacts.ledge", "a<b.bounce1", "é.ü", "plain"] {
            let xml = "<span>" + HTML.breakable(name).replacingOccurrences(of: "<wbr>", with: "<wbr/>") + "</span>"
            let root = try #require(try XMLDocument(xmlString: xml).rootElement())
            #expect(root.stringValue == name)
            #expect(root.elements(forName: "wbr").count == name.filter { $0 == "." }.count)
        }
    }

    @Test func theTableOfContentsLinksEachSectionAndItsSubsections() throws {
        let toc = HTML.toc([.init(id: "a", title: "A & B"), .init(id: "views", title: "Views", links: [("v-x.y", "x.y"), ("v-z", "z")])])
        let root = try #require(try XMLDocument(xmlString: toc.replacingOccurrences(of: "<wbr>", with: "<wbr/>")).rootElement())
        #expect(root.name == "nav" && root.attribute(forName: "class")?.stringValue == "toc")
        let items = root.elements(forName: "ul").first?.elements(forName: "li") ?? []
        #expect(items.count == 2)
        let links = items.map { $0.elements(forName: "a").map { ($0.attribute(forName: "href")?.stringValue ?? "", $0.stringValue ?? "") } }
        #expect(links[0].map(\.0) == ["#a"] && links[0].map(\.1) == ["A & B"])
        #expect(links[1].map(\.0) == ["#views", "#v-x.y", "#v-z"] && links[1].map(\.1) == ["Views", "x.y", "z"])
    }

    @Test func aFigureHoldsItsPictureAndItsCaption() throws {
        let svg = "<svg class=\"chart\" viewBox=\"0 0 10 10\"></svg>"
        let root = try #require(try XMLDocument(xmlString: HTML.figure(svg, caption: "x < y", class: "wide")).rootElement())
        #expect(root.name == "figure" && root.attribute(forName: "class")?.stringValue == "wide")
        #expect(root.children?.compactMap(\.name) == ["svg", "figcaption"])
        #expect(root.elements(forName: "figcaption").first?.stringValue == "x < y")
        let plain = try #require(try XMLDocument(xmlString: HTML.figure(svg, captionHTML: "<code>c</code>")).rootElement())
        #expect(plain.attribute(forName: "class") == nil)
        #expect(plain.elements(forName: "figcaption").first?.elements(forName: "code").first?.stringValue == "c")
    }

    @Test func aTableHasItsHeaderAndItsRowsWithNumbersMarked() throws {
        let html = HTML.table(["name", "a.b"], [HTML.row(["x & y", "1.5"], numeric: [1])], class: "stack")
        let root = try #require(try XMLDocument(xmlString: html.replacingOccurrences(of: "<wbr>", with: "<wbr/>")).rootElement())
        #expect(root.attribute(forName: "class")?.stringValue == "tw")
        let table = try #require(root.elements(forName: "table").first)
        #expect(table.attribute(forName: "class")?.stringValue == "stack")
        let rows = table.elements(forName: "tr")
        #expect(rows.count == 2 && rows[0].elements(forName: "th").map { $0.stringValue ?? "" } == ["name", "a.b"])
        let cells = rows[1].elements(forName: "td")
        #expect(cells.map { $0.stringValue ?? "" } == ["x & y", "1.5"])
        #expect(cells.map { $0.attribute(forName: "class")?.stringValue } == [nil, "n"])
        let kv = try #require(try XMLDocument(xmlString: HTML.keyValues([("k", "v < w")])).rootElement())
        let pair = kv.elements(forName: "table").first?.elements(forName: "tr").first
        #expect(pair?.elements(forName: "th").first?.stringValue == "k" && pair?.elements(forName: "td").first?.stringValue == "v < w")
    }

    @Test func aNoteIsAParagraphAndNothingWhenEmpty() throws {
        #expect(HTML.note("").isEmpty)
        let root = try #require(try XMLDocument(xmlString: HTML.note("a & b")).rootElement())
        #expect(root.name == "p" && root.attribute(forName: "class")?.stringValue == "note" && root.stringValue == "a & b")
    }
}
