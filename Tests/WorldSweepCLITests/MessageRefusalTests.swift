import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

// The shared tiny sweep (TestScratch), two points.
private let sweep = tinySweep(name: "messages", boxY: 400, elasticity: "[0, 0.5]")

/// Exit 2 and one line in our words: no decoder type names, coding keys, error domains or usage blocks.
private func expectOurRefusal(_ arguments: [String], _ fragments: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let (code, message) = WorldSweepCommand.outcome(arguments)
    #expect(code == ExitStatus.badInput, "\(arguments): exit \(code), \(message ?? "no message")", sourceLocation: sourceLocation)
    let text = message ?? ""
    for raw in ["DecodingError", "CodingKeys", "dataCorrupted", "keyNotFound", "Debug description", "Error Domain=", "UserInfo",
                "NSCocoaErrorDomain", "Missing value", "Usage:"] {
        #expect(!text.contains(raw), "\(text)", sourceLocation: sourceLocation)
    }
    for fragment in fragments { #expect(text.contains(fragment), "\(text)", sourceLocation: sourceLocation) }
}

/// Issue 30, items 4, 5 and 8: compare, bench and trace refusals that leaked raw text or misled.
@Suite struct MessageRefusalTests {
    private func finishedRun(_ yaml: String = sweep) throws -> String {
        let file = try temporaryFile(yaml, name: "s\(UUID().uuidString.prefix(6)).yaml")
        let out = Scratch.directory("msg-run", create: false)
        let (code, message) = WorldSweepCommand.outcome(["run", file, "--out", out, "--quiet"])
        #expect(code == 0, "\(message ?? "")")
        return out
    }

    @Test func compareRefusalsAreOurs() throws {
        let a = try finishedRun(), b = try finishedRun()
        // A damaged summary: not JSON, then a key missing.
        let damaged = Scratch.directory("msg-damaged")
        try Data("{\"points\": [".utf8).write(to: URL(fileURLWithPath: "\(damaged)/summary.json"))
        expectOurRefusal(["compare", a, damaged, "--out", Scratch.directory("msg-c1", create: false)], "not a worldsweep summary (not valid JSON)")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(damaged)/summary.json"))
        expectOurRefusal(["compare", a, damaged, "--out", Scratch.directory("msg-c2", create: false)], "missing the key")
        // --out naming a file.
        let file = try temporaryFile("x", name: "not-a-folder")
        expectOurRefusal(["compare", a, b, "--out", file], "exists and is not a folder")
        // An existing comparison is kept unless --force.
        let out = Scratch.directory("msg-compare", create: false)
        #expect(WorldSweepCommand.outcome(["compare", a, b, "--out", out]).0 == 0)
        let before = FileManager.default.contents(atPath: "\(out)/compare.md")
        expectOurRefusal(["compare", a, b, "--out", out], "already holds compare.md", "--force")
        #expect(FileManager.default.contents(atPath: "\(out)/compare.md") == before)
        #expect(WorldSweepCommand.outcome(["compare", a, b, "--out", out, "--force"]).0 == 0)
        // Two runs with no common point: said, and not exit 0.
        let other = try finishedRun(sweep.replacingOccurrences(of: "[0, 0.5]", with: "[0.2, 0.7]"))
        expectOurRefusal(["compare", a, other, "--out", Scratch.directory("msg-c3", create: false)], "no point in common")
    }

    @Test func benchRefusalsAreOurs() throws {
        let out = Scratch.directory("msg-bench")
        try FileManager.default.createDirectory(atPath: "\(out)/baselines", withIntermediateDirectories: true)
        try Data("{\"sweep\": 3".utf8).write(to: URL(fileURLWithPath: "\(out)/baselines/old.json"))
        expectOurRefusal(["bench", "--baseline", "old", "--out", out, "--worlds", "1"], "not a bench result (not valid JSON)")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(out)/baselines/old.json"))
        expectOurRefusal(["bench", "--baseline", "old", "--out", out, "--worlds", "1"], "not a bench result (missing the key")
        // Counts too large for a count, and counts past --max-worlds, as run refuses them.
        expectOurRefusal(["bench", "--worlds", "2000000000", "--out", out], "--worlds must be from 1 to 1073741824, got 2000000000")
        expectOurRefusal(["bench", "--worlds", "99999999999999999999999", "--out", out], "--worlds must be from 1")
        expectOurRefusal(["bench", "--worlds", "1000000000", "--out", out], "more than the limit of 10000000 (--max-worlds)", "--force")
        expectOurRefusal(["bench", "--worlds", "65", "--max-worlds", "64", "--out", out], "more than the limit of 64")
    }

    @Test func traceNamesANegativeWorld() throws {
        let file = try temporaryFile(sweep)
        expectOurRefusal(["trace", file, "--world", "-1"], "--world must be ≥ 0, got -1")
        expectOurRefusal(["trace", file, "--point", "-2"], "--point must be ≥ 0, got -2")
    }

    @Test func aCountTooLargeSaysSo() throws {
        let file = try temporaryFile(sweep + "\n  replicas: 9223372036854775807\n")
        expectOurRefusal(["validate", file], "too large")
    }
}
