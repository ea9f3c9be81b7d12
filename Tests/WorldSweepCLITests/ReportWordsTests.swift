import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepScene

// The report's words (issue 31): counts agree with their nouns, "What matters" says what a zip
// sweep can and cannot tell where it is, and a swept elasticity the boundaries make idle is pointed out.

@Suite struct ReportWordsTests {
    @Test func aThreePointZipSweepExplainsItselfInPlace() throws {
        let file = try temporaryFile("""
            name: zip3
            world: {bounds: [320, 568], ticks: 120}
            items:
              box: {center: [160, 300], size: [40, 40]}
            behaviors:
              fall: {type: gravity, items: [box]}
              walls: {type: collision, items: [box], reference_bounds: true}
              stuff: {type: item, items: [box], elasticity: 0.5}
            sweep:
              kind: zip
              parameters:
                stuff.elasticity: [0.1, 0.5, 0.9]
                stuff.friction: [0.1, 0.2, 0.3]
            """, name: "zip3.yaml")
        let out = Scratch.directory("zip3", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"]) == 0)
        let md = try String(contentsOfFile: "\(out)/report.md", encoding: .utf8)
        let section = try #require(md.components(separatedBy: "## What matters").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        // A zip sweep's parameters move together: the decomposition keeps the first and the page
        // says the sweep cannot tell them apart, in place (the section is never left empty).
        #expect(section.contains("| box.bounce1 (pt) | 100 % | — |"))
        #expect(md.contains("stuff.friction, which moves in lockstep with it: the sweep cannot tell them apart"))
        #expect(section.contains("Note: stuff.elasticity: values up to 0.2 change no contact: "))
        let html = try String(contentsOfFile: "\(out)/report.html", encoding: .utf8)
        #expect(html.contains("the sweep cannot tell them apart"))
        // One point per value of a zip sweep's parameter: "over 1 point", never "1 points".
        #expect(html.contains("over 1 point (min"))
        for text in [md, html] {
            #expect(text.range(of: "\\b1 (points|items|behaviors|parameters|replicas)\\b", options: .regularExpression) == nil)
        }
        // validate's line too.
        let scene = try SceneFile.load(path: file)
        #expect(ValidateCommand.summary(scene).hasSuffix("ok, 3 worlds (zip: 3 points × 1 replica), 1 item, 3 behaviors, 120 ticks of 0.016666668 s"))
    }
}
