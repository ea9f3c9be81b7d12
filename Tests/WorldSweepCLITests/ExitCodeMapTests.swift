import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

/// One refusal of one command: its arguments (with `@NAME` placeholders for the files each case
/// gets fresh), the exit code of the map in docs/cli.md and a fragment of its one line.
struct RefusalCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var code: Int32
    var fragment: String
    init(_ arguments: String, _ code: Int32, _ fragment: String) {
        self.arguments = arguments.split(separator: " ").map(String.init)
        self.code = code
        self.fragment = fragment
    }
    var testDescription: String { arguments.joined(separator: " ") }
}

// The shared tiny sweep (TestScratch), two points.
private let scene = tinySweep(name: "exitmap", boxY: 400, elasticity: "[0, 0.5]")

/// The files a case may name: written fresh for each case, so cases run side by side.
private func placeholders() throws -> [String: String] {
    let tag = UUID().uuidString.prefix(8)
    let dir = Scratch.directory("exitmap-dir-\(tag)")
    return [
        "@SCENE": try temporaryFile(scene, name: "exitmap-\(tag).yaml"),
        // 1 200 nested flow lists: past libyaml's nesting limit of 1 000.
        "@DEEP": try temporaryFile("name: deep\nworld: " + String(repeating: "[", count: 1200) + String(repeating: "]", count: 1200) + "\n",
                                   name: "deep-\(tag).yaml"),
        "@HUGE": try temporaryFile(scene + "\n  replicas: 9223372036854775807\n", name: "huge-\(tag).yaml"),
        "@AXIS": try temporaryFile(scene.replacingOccurrences(
            of: "  stuff: {type: item, items: [box], elasticity: 0.5}",
            with: "  stuff: {type: item, items: [box], elasticity: 0.5}\n  rail: {type: attachment, kind: sliding, items: [box], anchor: [0, 0], axis: [1, 1e-7]}"),
            name: "axis-\(tag).yaml"),
        "@FILE": try temporaryFile("not a folder", name: "plain-\(tag)"),
        "@DIR": dir,
        "@NEW": Scratch.directory("exitmap-new-\(tag)", create: false),
        "@NOFILE": "\(dir)/no-such.yaml",
        "@NODIR": "\(dir)/no-such-folder",
    ]
}

/// Issue 30, item 5: every command's refusals, one table. Usage and bad input exit 2, the rest as
/// docs/cli.md's map says; every message is one line in our words.
@Suite struct ExitCodeMapTests {
    static let cases: [RefusalCase] = [
        // run
        .init("run", 2, "Missing expected argument"),
        .init("run @NOFILE --out @NEW", 2, "no such file"),
        .init("run @SCENE --bogus", 2, "Unknown option '--bogus'"),
        .init("run @SCENE --out /proc --quiet", 2, "cannot write in the output folder /proc"),
        .init("run @SCENE --out /proc/self/x --quiet", 2, "cannot create the output folder /proc/self/x"),
        .init("run @SCENE --out @FILE --quiet", 2, "exists and is not a folder"),
        .init("run @SCENE --out @NEW --threads 0", 2, "--threads must be from 1 to 4096, got 0"),
        .init("run @SCENE --out @NEW --shard 1", 2, "--shard needs --of N"),
        .init("run @SCENE --out @NEW --shard 3 --of 2", 2, "shard 3 is outside 0..<2"),
        .init("run @SCENE --out @NEW --set stuff.elasticity=abc", 2, "expected a finite number"),
        .init("run @SCENE --out @NEW --max-worlds 1", 2, "more than the limit of 1 (--max-worlds)"),
        .init("run @DEEP --out @NEW", 2, "nested more than 1000 levels deep"),
        // validate
        .init("validate @NOFILE", 2, "no such file"),
        .init("validate @DEEP", 2, ":2:"),
        .init("validate @HUGE", 2, "too large"),
        .init("validate @AXIS", 2, "expected 0, or a number of size 1e-06 to 1000000"),
        .init("validate @SCENE --set nope=1", 2, "nope"),
        // trace
        .init("trace @SCENE --world -1", 2, "--world must be ≥ 0, got -1"),
        .init("trace @SCENE --world 5", 2, "--world 5 is outside 0..<2"),
        .init("trace @SCENE --replica 1", 2, "--replica needs --point P"),
        .init("trace @SCENE --ticks 9223372036854775807", 2, "--ticks must be from 0 to 10000000"),
        .init("trace @DEEP", 2, "nested more than 1000 levels deep"),
        // bench: the output folder is checked before anything is measured
        .init("bench --worlds 1 --out @FILE", 2, "exists and is not a folder"),
        .init("bench --worlds 1 --out /proc/self/x", 2, "cannot create the output folder /proc/self/x"),
        .init("bench --worlds 0 --out @NEW", 2, "--worlds must be from 1"),
        .init("bench --worlds 1 --baseline nothing --out @NEW", 2, "--baseline nothing: no "),
        .init("bench --worlds 1 --kernel-work 0 --out @NEW", 2, "--kernel-work must be 1 or more"),
        .init("bench --worlds 1 --whole-run-report --out @NEW", 2, "--whole-run-report needs --whole-run"),
        .init("bench @DEEP --worlds 1 --out @NEW", 2, "nested more than 1000 levels deep"),
        // compare
        .init("compare @NODIR @DIR --out @NEW", 2, "no such file (compare needs two finished run folders)"),
        .init("compare @DIR @DIR --limit 0 --out @NEW", 2, "--limit must be 1 or more"),
        // merge
        .init("merge @NODIR", 2, "no such folder"),
        .init("merge @DIR", 2, "no shards to merge"),
        // missing: unfinished shards are exit 1, as documented; a bad folder or count is bad input
        .init("missing @NODIR", 2, "no such folder"),
        .init("missing @DIR", 2, "no shards found"),
        .init("missing @DIR --of 0", 2, "--of must be from 1"),
        .init("missing @DIR --of 3", 1, "3 of 3 shards not finished"),
        // completion
        .init("completion powershell", 2, "no script for 'powershell'"),
        // tune
        .init("tune @NOFILE", 2, "no such file"),
        .init("tune @SCENE", 2, "no 'tune' section"),
        .init("tune @DEEP", 2, "nested more than 1000 levels deep"),
        // no command
        .init("frobnicate", 2, "frobnicate"),
    ]

    /// Type names, error domains and library internals that a message must never show.
    static let raw = ["DecodingError", "EncodingError", "CodingKeys", "keyNotFound", "dataCorrupted", "Error Domain=", "UserInfo",
                      "NSCocoaErrorDomain", "CocoaError", "POSIXError", "Swift.", "Foundation.", "Optional(", "YamlError", "Yams.",
                      "yaml_set_max_nest_level", "libyaml", "Maximum nesting level", "ArgumentParser", "Usage:", "Missing value"]

    @Test(arguments: cases) func refusal(_ refusal: RefusalCase) throws {
        let names = try placeholders()
        let arguments = refusal.arguments.map { names[$0] ?? $0 }
        let (code, message) = WorldSweepCommand.outcome(arguments)
        #expect(code == refusal.code, "exit \(code): \(message ?? "no message")")
        let text = try #require(message)
        #expect(text.contains(refusal.fragment), "\(text)")
        #expect(text.contains(": error: ") && !text.contains("\n"), "\(text)")
        for word in Self.raw { #expect(!text.contains(word), "\(text)") }
        // Nothing left behind by a refusal: a folder it was to create stays absent.
        #expect(!FileManager.default.fileExists(atPath: names["@NEW"]!), "\(text)")
    }

    /// Every command appears in the table.
    @Test func everyCommandIsWalked() {
        let walked = Set(Self.cases.compactMap(\.arguments.first))
        for name in ["run", "validate", "trace", "bench", "compare", "merge", "missing", "completion", "tune"] {
            #expect(walked.contains(name), "\(name)")
        }
    }
}
