import Foundation
import Testing
import TestScratch
@testable import WorldSweepScene

/// A small valid scene; tests that need an error write their own file around the broken line.
let minimalScene = """
    name: t
    world:
      bounds: [320, 568]
      duration: 1
    items:
      top: {center: [100, 0], size: [50, 50]}
      bottom: {center: [100, 50], size: [50, 50]}
    behaviors:
      fall: {type: gravity, items: [top, bottom]}
    """

func parse(_ yaml: String) throws -> SceneFile {
    try SceneFile.parse(yaml: yaml, path: "test.yaml")
}

/// The error a file gives, or nil (recorded as a failure) when it parses.
func parseError(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SceneError? {
    do {
        _ = try SceneFile.parse(yaml: yaml, path: "test.yaml")
        Issue.record("expected the file to be rejected", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Checks that `yaml` is rejected at `line:column` with a message containing every fragment.
func expectError(_ yaml: String, at line: Int, _ column: Int, _ fragments: String...,
                 sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    expectError(yaml, at: line, column, fragments: fragments, sourceLocation: sourceLocation)
}

func expectError(_ yaml: String, at line: Int, _ column: Int, fragments: [String],
                 sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard let error = parseError(yaml, sourceLocation: sourceLocation) else { return }
    #expect(error.path == "test.yaml", sourceLocation: sourceLocation)
    #expect(error.line == line && error.column == column, "at \(error.line):\(error.column): \(error.message)",
            sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(error.message.contains(fragment), "message: \(error.message)", sourceLocation: sourceLocation)
    }
    #expect(error.description == "test.yaml:\(error.line):\(error.column): error: \(error.message)",
            sourceLocation: sourceLocation)
}

/// One row of a refusal table: a file, where it must be refused, and what the message must say.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var line: Int
    var column: Int
    var fragments: [String]

    init(_ name: String, _ yaml: String, at line: Int, _ column: Int, _ fragments: String...) {
        self.name = name; self.yaml = yaml; self.line = line; self.column = column; self.fragments = fragments
    }

    var testDescription: String { name }

    func check(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        expectError(yaml, at: line, column, fragments: fragments, sourceLocation: sourceLocation)
    }
}

/// The package root, found from this file's path (tests run with various working directories).
let packageRoot = Repository.root

/// `minimalScene` with line `number` (1-based) replaced; its line numbers stay as they are.
func minimalScene(line number: Int, _ replacement: String) -> String {
    var lines = minimalScene.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[number - 1] = replacement
    return lines.joined(separator: "\n")
}

/// `minimalScene` with lines appended from line 10 on (inside `behaviors:` unless they are not indented).
func minimalScene(adding extra: String...) -> String { minimalScene(adding: extra) }

func minimalScene(adding extra: [String]) -> String {
    ([minimalScene] + extra).joined(separator: "\n")
}
