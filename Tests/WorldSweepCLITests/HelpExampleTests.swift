import ArgumentParser
import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepScene

// Help that works when pasted (issue 31): no line past 80 columns, and every example of every
// command parses, passes the commands' own validation, and names files and values that load.

private let root = Repository.root

private let commands: [ParsableCommand.Type] = [
    WorldSweepCommand.self, TraceCommand.self, ValidateCommand.self, RunCommand.self, MergeCommand.self,
    MissingCommand.self, BenchCommand.self, CompareCommand.self, CompletionCommand.self, TuneCommand.self, ServeCommand.self,
]

/// The example lines of a help text: the indented lines after "Examples:", a trailing `\`
/// joining a line with the next, as a shell reads them.
func examples(in help: String) -> [String] {
    var found: [String] = [], inExamples = false, pending = ""
    for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line == "Examples:" { inExamples = true; continue }
        guard inExamples else { continue }
        guard line.hasPrefix("  ") else { inExamples = false; continue }
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("\\") { pending += text.dropLast() + " "; continue }
        found.append(pending + text)
        pending = ""
    }
    return found
}

/// A pasted example as the shell would split it: `&&`/`||` separate commands, `#` starts a
/// comment, `> FILE` is a redirection, `NAME=VALUE` alone sets a variable that `$NAME` reads.
func shellCommands(_ example: String, variables: inout [String: String]) -> [[String]] {
    let code = example.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
    var result: [[String]] = []
    for part in code.replacingOccurrences(of: "||", with: "&&").components(separatedBy: "&&") {
        var words = part.split(separator: " ").map(String.init)
        if let redirect = words.firstIndex(of: ">") { words = Array(words[..<redirect]) }
        words = words.map { word in variables.reduce(word) { $0.replacingOccurrences(of: "$" + $1.key, with: $1.value) } }
        if words.count == 1, let equals = words[0].firstIndex(of: "=") {
            variables[String(words[0][..<equals])] = String(words[0][words[0].index(after: equals)...])
            continue
        }
        if !words.isEmpty { result.append(words) }
    }
    return result
}

@Suite struct HelpExampleTests {
    @Test func everyHelpLineFitsEightyColumns() {
        for command in commands {
            // As a pipe or an 80-column terminal shows it (wider terminals get wider prose).
            let help = WorldSweepCommand.helpMessage(for: command, columns: 80)
            for line in help.split(separator: "\n") {
                #expect(line.count <= 80, "\(command): \(line)")
            }
            // Examples are never wrapped: the same lines at 80 columns as on an endless line.
            let wide = WorldSweepCommand.helpMessage(for: command, columns: 10_000)
            #expect(examples(in: help) == examples(in: wide), "\(command)")
        }
    }

    @Test func everyExampleParsesAndNamesWhatExists() throws {
        var count = 0
        for command in commands {
            let help = WorldSweepCommand.helpMessage(for: command, columns: 80)
            let lines = examples(in: help)
            #expect(!lines.isEmpty, "\(command) has no examples")
            var variables: [String: String] = [:]
            for example in lines {
                for words in shellCommands(example, variables: &variables) where words.first != "mkdir" {
                    #expect(words.first == "worldsweep", "\(example)")
                    try check(Array(words.dropFirst()), example: example)
                    count += 1
                }
            }
        }
        #expect(count >= 30)
    }

    /// Parses the arguments (validate() included) and, for commands that read a sweep file, loads
    /// it with the example's overrides from the repository's Sweeps/, checking the size limit.
    private func check(_ arguments: [String], example: String) throws {
        let parsed: ParsableCommand
        do { parsed = try WorldSweepCommand.parseAsRoot(arguments) } catch {
            Issue.record("\(example): \(WorldSweepCommand.message(for: error))")
            return
        }
        func load(_ file: String, _ overrides: OverrideOptions) throws -> SceneFile {
            try SceneFile.load(path: root.appendingPathComponent(file).path, overrides: overrides.overrides)
        }
        switch parsed {
        case let c as RunCommand:
            try WorldLimit.check(try load(c.file, c.overrides), maximum: c.limit.maxWorlds, force: c.force)
        case let c as ValidateCommand:
            try WorldLimit.check(try load(c.file, c.overrides), maximum: c.limit.maxWorlds, force: c.force)
        case let c as TraceCommand:
            let selection = try TraceWorld.selection(world: c.world, point: c.point, replica: c.replica)
            _ = try TraceWorld.scene(try load(c.file, c.overrides), world: selection)
        case let c as BenchCommand:
            if let file = c.file { _ = try load(file, c.overrides) }
        case let c as TuneCommand:
            #expect(try load(c.file, c.overrides).tune != nil, "\(example): no 'tune' section")
        case let c as CompletionCommand:
            #expect(CompletionShell(rawValue: c.shell) != nil, "\(example)")
        default:
            break   // merge, missing, compare: folders a run makes; their parse is the check
        }
    }
}
