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

/// The extreme worlds, their replay commands and pictures, names escaped, and the files written.
@Suite struct ReportFileTests {
    @Test func extremesPrintTheCommandThatReplaysTheWorld() throws {
        var (summary, _) = ReportGrid.grid
        summary.run.commandLine = ["run", "Sweeps/twin-drop.yaml", "--out", "runs/x"]
        let model = ReportModel(summary: summary, sample: WorldSample())
        let ex = try #require(model.extremes().first { $0.column == "bottom.bounce1" })
        let world = model.summary.points[ex.high.0].point * 5
        let html = ReportWriter.html(summary: summary)
        let commands = try XMLDocument(xmlString: "<r>" + html.components(separatedBy: "<code>").dropFirst().map { "<code>" + $0.components(separatedBy: "</code>")[0] + "</code>" }.joined() + "</r>")
            .nodes(forXPath: "//code").map { code in (code.children ?? []).map { $0.stringValue ?? "" }.filter { !$0.isEmpty && $0 != " " }.joined(separator: " ") }
        #expect(commands.contains("worldsweep trace Sweeps/twin-drop.yaml --world \(world)"))
        #expect(html.contains("<span class=\"w\">Sweeps/<wbr/>twin-drop.yaml</span>"))   // a path wraps at its folders
        #expect(codeSpans(ReportWriter.markdown(summary: summary)).contains("worldsweep trace Sweeps/twin-drop.yaml --world \(world)"))
        // Without a replay the page says where the pictures come from.
        #expect(html.contains("drawn when `worldsweep run` writes the report"))
    }

    @Test func extremeWorldsAreReplayedAndDrawn() throws {
        let root = Repository.root
        let file = root.appendingPathComponent("Sweeps/twin-drop.yaml").path
        let scene = try SceneFile.load(path: file)
        // A summary over the first 36 worlds of the real sweep (replicas 1: world = point).
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 4)), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 0.5, 1])], replicas: 1)
        let model = ReportModel(summary: summary, sample: WorldSample(), replay: WorldReplay(scene: scene, file: "Sweeps/twin-drop.yaml"))
        let drawn = model.trajectories()
        #expect(drawn.count == ReportModel.maxTrajectories)
        // World 0 of the sweep: elasticity 0, no push; the two views fall side by side.
        let t = try #require(Trajectory.replay(WorldReplay(scene: scene, file: file), world: 0))
        let bottom = try #require(t.items.first { $0.name == "bottom" })
        // The bottom view starts where the file puts it (no jitter on it) and never sinks through
        // the ledge at y = 468: its centre stays above 468 − 25 (half its side), give or take the slop.
        #expect(bottom.states[0].x == 220 && bottom.states[0].y == 50)
        #expect(bottom.states.map(\.y).max()! < 443.5 && bottom.states.map(\.y).max()! > 440)
        // Its first contact is with the ledge, on the ledge's line.
        let first = try #require(t.contacts.first { $0.item == "bottom" })
        #expect(first.other == "ledge" && abs(first.y - 468) < 1)
        let html = ReportWriter.html(summary: summary, replay: WorldReplay(scene: scene, file: "Sweeps/twin-drop.yaml"))
        try checkPage(html)
        let pictures = try charts(html, titled: "world ")
        #expect(pictures.count == ReportModel.maxTrajectories + 1)   // + the animated one
        #expect(try elements(pictures[1], tag: "polyline", cls: "path").count == 2)
        #expect(try elements(pictures[1], tag: "circle", cls: "contact").count == drawn[0].0.contacts.count)
        #expect(pictures[0].components(separatedBy: "<animateMotion").count - 1 == 2)
    }

    @Test func snapPointsAndAnchorsAreDrawn() throws {
        let root = Repository.root
        for (name, point, item) in [("snap", Point(x: 100, y: 284), "view"), ("spring-card", Point(x: 160, y: 140), "card")] {
            let file = root.appendingPathComponent("Sweeps/\(name).yaml").path
            let t = try #require(Trajectory.replay(WorldReplay(scene: try SceneFile.load(path: file), file: file), world: 0))
            #expect(t.anchors.count == 1 && t.anchors[0].point == point && t.items[t.anchors[0].item].name == item)
            let svg = TrajectoryChart(title: "world 0", trajectory: t).svg()
            #expect(svg.contains("class=\"anchor\"") && svg.contains("class=\"tether\""))
        }
    }

    @Test func namesAreEscaped() throws {
        let (s0, _) = Fixture.sweep(axes: [("bouncy.elasticity", [0, 0.5, 1]), ("bouncy.density", [1, 2])], replicas: 2,
                                    items: ["a<b", "c&d"])
        var summary = s0
        summary.name = "<b>evil</b>"
        summary.description = "x & y <script>alert(1)</script>"
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        #expect(!html.contains("<b>evil") && html.contains("&lt;b&gt;evil&lt;/b&gt;"))
        #expect(html.contains("x &amp; y &lt;script&gt;"))
        #expect(html.contains("a&lt;b.bounce1 vs") && !html.contains("a<b"))
        let md = ReportWriter.markdown(summary: summary)
        #expect(!md.contains("<script>") && !md.contains("<b>"))
    }

    /// Column names break after each dot, escaped; Markdown cells escape what tables and pages
    /// read (names without any of it pass as they are).
    @Test func namesBreakAfterDotsAndCellsEscape() {
        #expect(HTML.breakable("top.contacts.ledge") == "top.<wbr>contacts.<wbr>ledge")
        #expect(HTML.breakable("a<b.bounce1") == "a&lt;b.<wbr>bounce1")
        #expect(HTML.breakable("é.ü") == "é.<wbr>ü" && HTML.breakable("plain") == "plain")
        #expect(Text.markdownCell("top.bounce1") == "top.bounce1")
        #expect(Text.markdownCell("a|b <c> & d\ne") == "a\\|b &lt;c&gt; &amp; d e")
    }

    @Test func writerWritesBothFilesAtomically() throws {
        let dir = ProcessInfo.processInfo.environment["WSR_REPORT_DIR"]
            ?? Scratch.directory("report", create: false)
        let (summary, worlds) = ReportGrid.grid
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(400))), to: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.contains("report.md") && files.contains("report.html"))
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        // The page as `html` renders it, with the link to importance.csv, written beside it.
        let links = "<p class=\"files\">Data: <a href=\"importance.csv\">importance.csv</a></p>\n"
        #expect(html.contains(links))
        #expect(html.replacingOccurrences(of: links, with: "") == ReportWriter.html(summary: summary, sample: WorldSample(Array(worlds.prefix(400)))))
    }

    @Test func theReportLinksTheDataFilesBesideIt() throws {
        let dir = Scratch.directory("report-links")
        let (summary, worlds) = ReportGrid.grid
        // The files that are there are linked, worlds.csv and sweep.yaml, not points.csv; and
        // importance.csv, which the writer writes beside the pages.
        for name in ["worlds.csv", "sweep.yaml"] { try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(10))), to: dir)
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        let line = try #require(html.split(separator: "\n").first { $0.hasPrefix("<p class=\"files\">") })
        let para = try XMLDocument(xmlString: String(line)).rootElement()
        let hrefs = (para?.elements(forName: "a") ?? []).compactMap { $0.attribute(forName: "href")?.stringValue }
        #expect(hrefs == ["worlds.csv", "importance.csv", "sweep.yaml"])
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(markdownLinks(md, line: "Data: ") == ["worlds.csv", "importance.csv", "sweep.yaml"])
        // Files the run is still putting in place (`run` writes the report beside them) are
        // linked too, in the page's order, though not there yet.
        try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(10))), to: dir,
                               comingFiles: ["summary.json", "points.csv"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/summary.json"))
        let coming = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(markdownLinks(coming, line: "Data: ") == ["worlds.csv", "points.csv", "summary.json", "importance.csv", "sweep.yaml"])
    }
}
