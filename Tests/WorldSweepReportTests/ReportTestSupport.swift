import Foundation
import TestScratch
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WorldSweep
import WorldSweepResults
import WorldSweepRun
import WorldSweepScene
@testable import WorldSweepReport


/// Every `<svg …>…</svg>` block of a page.
func svgBlocks(_ html: String) -> [String] {
    var out: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
        out.append(String(rest[start.lowerBound..<end.upperBound]))
        rest = rest[end.upperBound...]
    }
    return out
}

/// Attribute values of every element with the given tag and class in an SVG block.
func elements(_ svg: String, tag: String, cls: String) throws -> [[String: String]] {
    let doc = try XMLDocument(xmlString: svg)
    let nodes = try doc.nodes(forXPath: "//\(tag)[@class='\(cls)']")
    return nodes.compactMap { $0 as? XMLElement }.map { e in
        Dictionary(uniqueKeysWithValues: (e.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") })
    }
}

/// The charts of a page whose aria-label starts with `prefix`.
func charts(_ html: String, titled prefix: String) throws -> [String] {
    try svgBlocks(html).filter { svg in
        let root = try XMLDocument(xmlString: svg).rootElement()
        return root?.attribute(forName: "aria-label")?.stringValue?.hasPrefix(prefix) ?? false
    }
}

/// The text of every axis label (class `lbl`, its hover title included) in a chart.
func axisLabels(_ svg: String) throws -> [String] {
    try XMLDocument(xmlString: svg).nodes(forXPath: "//text[@class='lbl']").map { $0.stringValue ?? "" }
}

/// Every y pixel coordinate a chart draws data at: dots, line and band vertices, bar ends.
func dataYs(_ svg: String) throws -> [Double] {
    let doc = try XMLDocument(xmlString: svg)
    var ys: [Double] = []
    for n in try doc.nodes(forXPath: "//circle[@class='pt']") {
        if let v = (n as? XMLElement)?.attribute(forName: "cy")?.stringValue.flatMap(Double.init) { ys.append(v) }
    }
    for n in try doc.nodes(forXPath: "//polyline[@class='line'] | //polygon[@class='band']") {
        let pts = (n as? XMLElement)?.attribute(forName: "points")?.stringValue ?? ""
        for pair in pts.split(separator: " ") { if let y = pair.split(separator: ",").last.flatMap({ Double($0) }) { ys.append(y) } }
    }
    for n in try doc.nodes(forXPath: "//line[@class='err']") {
        for a in ["y1", "y2"] { if let v = (n as? XMLElement)?.attribute(forName: a)?.stringValue.flatMap(Double.init) { ys.append(v) } }
    }
    return ys
}

/// The pixel row of y = 0 a chart declares.
func zeroRow(_ svg: String) throws -> Double? {
    try XMLDocument(xmlString: svg).rootElement()?.attribute(forName: "data-y0")?.stringValue.flatMap(Double.init)
}

func checkPage(_ html: String) throws {
    #expect(!html.contains("http://") && !html.contains("https://"))
    // The one script a page may hold is the parallel-coordinates brushing (inline, no source).
    let scripts = html.lowercased().components(separatedBy: "<script").count - 1
    #expect(scripts == html.components(separatedBy: ParallelBrush.element).count - 1 && scripts <= 1)
    // Links only within the page (the table of contents).
    #expect(!html.contains("src=") && !html.replacingOccurrences(of: "href=\"#", with: "").contains("href="))
    for svg in svgBlocks(html) {
        let root = try #require(try XMLDocument(xmlString: svg).rootElement())
        // Every chart scales with its column: a viewBox and the CSS width rule.
        #expect(root.attribute(forName: "viewBox") != nil)
    }
    // On the page shell: its one stylesheet (which scales every chart) in the head, once.
    let shell = try PageShell(html)
    #expect(shell.styles == [HTML.style] && shell.stylesInPage == 1 && shell.doctypes == 1)
    #expect(html.components(separatedBy: "<svg").count == html.components(separatedBy: "</svg>").count)
}

/// The targets of the Markdown links `[text](target)` on the line of `markdown` that starts with
/// `prefix`, in order (none when no line does).
func markdownLinks(_ markdown: String, line prefix: String) -> [String] {
    guard let line = markdown.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return [] }
    return line.components(separatedBy: "](").dropFirst().map { String($0.prefix { $0 != ")" }) }
}

/// The texts of Markdown's inline code spans (`…`, each within a line), in order.
func codeSpans(_ markdown: String) -> [String] {
    markdown.split(separator: "\n").filter { !$0.hasPrefix("```") }.flatMap { line in
        line.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}

/// The grid most report tests draw: 16 elasticities × 3 densities × 3 push magnitudes, 5 replicas.
enum ReportGrid {
    static let axes: [(String, [Double])] = [("bouncy.elasticity", Fixture.linspace(0, 1, 16)), ("bouncy.density", [0.5, 1, 2]),
                                             ("shove.magnitude", [0, 0.5, 1])]
    static let grid = Fixture.sweep(axes: axes, replicas: 5)
}
