import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

private let smallSweep = tinySweep(name: "refusals", ticks: 40, boxY: 400, elasticity: "{linspace: [0, 0.9, 4]}", replicas: 3)

private func contents(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// The promise every refusal keeps: exit 2, one printable line that says 'error', no raw
/// runtime or Foundation text.
private func expectRefusal(_ arguments: [String], _ fragments: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let (code, message) = WorldSweepCommand.outcome(arguments)
    #expect(code == ExitStatus.badInput, "\(arguments): exit \(code), \(message ?? "no message")", sourceLocation: sourceLocation)
    guard let message else { Issue.record("no message", sourceLocation: sourceLocation); return }
    #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(message)", sourceLocation: sourceLocation)
    #expect(message.contains(": error: "), "\(message)", sourceLocation: sourceLocation)
    for raw in ["NSCocoaErrorDomain", "Error Domain=", "Usage:", "EncodingError"] {
        #expect(!message.contains(raw), "\(message)", sourceLocation: sourceLocation)
    }
    for fragment in fragments {
        #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation)
    }
}

/// Issue 17: every command-line value is checked, every refusal is one line and writes nothing.
@Suite struct CommandLineRefusalTests {
    @Test func hugeAndNegativeCountsAreOneLineRefusals() throws {
        let file = try temporaryFile(smallSweep)
        let out = Scratch.directory("run", create: false)
        // This crashed the scheduler (overflow) after creating the output folder.
        expectRefusal(["run", file, "--out", out, "--threads", "4611686018427387904"], "--threads must be from 1 to 4096")
        // This said "Missing value".
        expectRefusal(["run", file, "--out", out, "--threads", "-1"], "--threads must be from 1 to 4096, got -1")
        expectRefusal(["run", file, "--out", out, "--chunk-size", "0"], "--chunk-size must be from 1 to 65536")
        expectRefusal(["run", file, "--out", out, "--shard", "0", "--of", "-3"], "--of must be from 1 to 1000000")
        expectRefusal(["run", file, "--out", out, "--threads", "99999999999999999999"], "--threads")
        #expect(!exists(out))
        // This streamed until killed.
        expectRefusal(["trace", file, "--ticks", "9223372036854775807"], "--ticks must be from 0 to 10000000")
        expectRefusal(["bench", file, "--threads", "4611686018427387904", "--out", out], "--threads")
        expectRefusal(["missing", out, "--of", "0"])
        #expect(!exists(out))
    }

    @Test func foundationErrorsAreShownAsSentences() {
        let text = plainText(CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/x/report.md"]))
        #expect(!text.contains("Error Domain") && !text.contains("NSCocoaErrorDomain") && !text.isEmpty, "\(text)")
        #expect(plainText(RunFileError("cannot write x")) == "cannot write x")
    }

    @Test func usageErrorsAreOneLine() {
        expectRefusal(["run"], "Missing expected argument")
        expectRefusal(["validate", "a.yaml", "--no-such-option"], "--no-such-option")
        expectRefusal(["frobnicate"])
    }

    @Test func aBadSetValueIsBlamedOnTheArgument() throws {
        let file = try temporaryFile(smallSweep)
        let (code, message) = WorldSweepCommand.outcome(["trace", file, "--set", "stuff.density=1e39", "--ticks", "1"])
        #expect(code == ExitStatus.badInput)
        #expect(message?.hasPrefix("worldsweep: error: --set stuff.density=1e39: ") == true, "\(message ?? "")")
        expectRefusal(["trace", file, "--set", "stuff.elasticity=-1"], "--set stuff.elasticity=-1")
    }

    @Test func outProblemsAreOnePlainSentence() throws {
        let file = try temporaryFile(smallSweep)
        let plainFile = try temporaryFile("not a folder", name: "plain.txt")
        expectRefusal(["run", file, "--out", plainFile, "--quiet"], "exists and is not a folder")
        expectRefusal(["run", file, "--out", "", "--quiet"], "the output folder name is empty")
        expectRefusal(["run", file, "--out", plainFile + "/inside", "--quiet"], "is not a folder")
        expectRefusal(["run", file, "--out", "/proc/worldsweep-cannot-be-here", "--quiet"], "cannot create the output folder")
        #expect(contents(plainFile) == Data("not a folder".utf8))
    }

    @Test func itNeverDeletesWhatItDidNotWrite() throws {
        let file = try temporaryFile(smallSweep)
        // A folder named worlds.csv (or summary.json) with files in it: it was deleted, contents and all.
        for name in ["worlds.csv", "summary.json", "report.html"] {
            let out = Scratch.directory("held")
            try FileManager.default.createDirectory(atPath: "\(out)/\(name)", withIntermediateDirectories: true)
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(out)/\(name)/precious.txt"))
            expectRefusal(["run", file, "--out", out, "--quiet", "--force"], "\(out)/\(name) is not a file worldsweep wrote")
            #expect(contents("\(out)/\(name)/precious.txt") == Data("keep me".utf8))
        }
        // A worlds.csv of someone else's (no run.json): left as it is.
        let foreign = Scratch.directory("foreign")
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: "\(foreign)/worlds.csv"))
        expectRefusal(["run", file, "--out", foreign, "--quiet", "--force"], "holds worlds.csv but no run.json")
        #expect(contents("\(foreign)/worlds.csv") == Data("a,b\n1,2\n".utf8))
        #expect(!exists("\(foreign)/run.json"))
        // Its own earlier run it may replace (a finished one only when told to, with --force).
        let own = Scratch.directory("own", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", own, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", own, "--quiet", "--force"]) == 0)
    }

    @Test func mergeAndMissingAgreeOnAFolderThatDoesNotExist() {
        let nowhere = Scratch.directory("nowhere", create: false)
        expectRefusal(["merge", nowhere], "no such folder")
        expectRefusal(["missing", nowhere], "no such folder")
        expectRefusal(["missing", nowhere, "--of", "3"], "no such folder")
    }

    @Test func aFileThatIsNotUTF8IsLocatedOnTheCommandLineToo() throws {
        let path = Scratch.directory("bytes") + "/bad.yaml"
        try Data(Array("name: t".utf8) + [0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        expectRefusal(["validate", path], "\(path):1:8: error: expected UTF-8 text")
        expectRefusal(["run", path, "--out", Scratch.directory("x", create: false)], "\(path):1:8: error:")
    }
}

/// Issue 17: resume and merge trust only rows that match their checksums.
@Suite struct RowIntegrityTests {
    /// A run cut after its first chunks (summary gone, last rows torn), as a kill leaves it.
    private func interruptedRun(_ file: String) throws -> (cut: String, whole: Data) {
        let whole = Scratch.directory("whole", create: false), cut = Scratch.directory("cut", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet", "--threads", "1", "--chunk-size", "2"]) == 0)
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet", "--threads", "1", "--chunk-size", "2"]) == 0)
        try FileManager.default.removeItem(atPath: "\(cut)/summary.json")
        return (cut, contents("\(whole)/worlds.csv"))
    }

    /// worlds.csv with one cell of row `row` (1 = first data row) replaced by `cell`.
    private func edit(_ path: String, row: Int, column: Int, to cell: String) throws {
        var lines = String(decoding: contents(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        var cells = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(cells[column] != cell)
        cells[column] = cell
        lines[row] = cells.joined(separator: ",")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func anEditedDigitIsRecomputedOnResume() throws {
        let file = try temporaryFile(smallSweep)
        let (cut, whole) = try interruptedRun(file)
        // Row 3's x: kept silently before.
        let header = String(decoding: contents("\(cut)/worlds.csv"), as: UTF8.self).split(separator: "\n")[0]
        let x = try #require(header.split(separator: ",").firstIndex(of: "box.x"))
        try edit("\(cut)/worlds.csv", row: 3, column: x, to: "123.25")
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet", "--resume"]) == 0)
        #expect(contents("\(cut)/worlds.csv") == whole)
    }

    @Test func aNaNCellNoLongerBreaksEveryResume() throws {
        let file = try temporaryFile(smallSweep)
        let (cut, whole) = try interruptedRun(file)
        let header = String(decoding: contents("\(cut)/worlds.csv"), as: UTF8.self).split(separator: "\n")[0]
        let vy = try #require(header.split(separator: ",").firstIndex(of: "box.vy"))
        try edit("\(cut)/worlds.csv", row: 5, column: vy, to: "nan")
        #expect(WorldSweepCommand.execute(["run", file, "--out", cut, "--quiet", "--resume"]) == 0)
        #expect(contents("\(cut)/worlds.csv") == whole)
        let summary = String(decoding: contents("\(cut)/summary.json"), as: UTF8.self)
        #expect(!summary.contains("nan") && !summary.isEmpty)
    }

    @Test func missingListsAShortOrEditedShardAndMergeRefusesItNamingTheLine() throws {
        let file = try temporaryFile(smallSweep)
        let out = Scratch.directory("sharded", create: false), whole = Scratch.directory("whole", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", whole, "--quiet"]) == 0)
        for shard in ["0", "1"] {
            #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", shard, "--of", "2"]) == 0)
        }
        #expect(try Shards.missing(in: out, count: 2) == [])
        // Shard 1 is done, but its worlds.csv lost its last row.
        let worlds1 = "\(out)/shards/1-of-2/worlds.csv"
        let rows = contents(worlds1)
        let lastLineStart = rows.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
        try rows.prefix(lastLineStart).write(to: URL(fileURLWithPath: worlds1))
        #expect(try Shards.missing(in: out, count: 2) == [1])
        let (code, message) = WorldSweepCommand.outcome(["merge", out])
        #expect(code == ExitStatus.runFailed)
        #expect(message?.hasPrefix("\(worlds1):") == true && message?.contains(": error: ") == true, "\(message ?? "")")
        #expect(!exists("\(out)/worlds.csv"))
        // An edited digit in shard 0: found the same way.
        let header = String(decoding: contents(worlds1), as: UTF8.self).split(separator: "\n")[0]
        let x = try #require(header.split(separator: ",").firstIndex(of: "box.x"))
        try edit("\(out)/shards/0-of-2/worlds.csv", row: 2, column: x, to: "123.25")
        #expect(try Shards.missing(in: out, count: 2) == [0, 1])
        for shard in ["0", "1"] {
            #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--shard", shard, "--of", "2", "--force"]) == 0)
        }
        #expect(WorldSweepCommand.execute(["merge", out]) == 0)
        #expect(contents("\(out)/worlds.csv") == contents("\(whole)/worlds.csv"))
    }

    @Test func ctrlCExitsWith130AndResumes() throws {
        // The real path: the built executable beside the test bundle, sent SIGINT mid-run.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("worldsweep").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no worldsweep at \(binary)")
        // Enough worlds that the run is still going when the signal comes.
        let file = try temporaryFile(smallSweep.replacingOccurrences(of: "replicas: 3", with: "replicas: 100")
            .replacingOccurrences(of: "ticks: 40", with: "ticks: 300"))
        let out = Scratch.directory("interrupted", create: false)
        let arguments = ["run", file, "--out", out, "--quiet", "--threads", "1", "--chunk-size", "8"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while !exists("\(out)/worlds.csv") && process.isRunning { usleep(2000) }
        usleep(50_000)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == ExitStatus.interrupted)
        #expect(!exists("\(out)/summary.json") && exists("\(out)/run.json"))
        #expect(WorldSweepCommand.execute(arguments + ["--resume"]) == 0)
        #expect(exists("\(out)/summary.json"))
    }
}

/// Issue 17 item 7: a world that cannot fit in memory is one line, before anything is allocated.
@Suite struct MemoryRefusalTests {
    @Test func aRunTooBigForTheMemoryIsRefusedAtItsFirstItem() throws {
        var lines = ["name: crowd", "world: {bounds: [4000, 4000], ticks: 2}", "items:"]
        for k in 0..<2000 { lines.append("  i\(k): {center: [\(20 + k % 45 * 20), \(20 + k / 45 * 20)], size: [6, 6]}") }
        let names = (0..<2000).map { "i\($0)" }.joined(separator: ", ")
        lines += ["behaviors:", "  walls: {type: collision, items: [\(names)], reference_bounds: true}"]
        let file = try temporaryFile(lines.joined(separator: "\n"))
        let scene = try SceneFile.load(path: file)
        let runner = WorldRunner(scene: scene)
        // The output is linear now (32 MiB + 2 000 × 17 408 bytes ≈ 68.4 MB) and one world 2 004 ×
        // 4 096 bytes ≈ 8.2 MB: 77 MB in all, refused with 40 MB available (a fifth kept back).
        let error = try #require(throws: SceneError.self) {
            try MemoryCheck.worldsThatFit(scene, runner: runner, available: 40e6)
        }
        #expect(error.line == 4 && error.column == 3, "\(error)")
        #expect(error.message.contains("needs about 77 MB") && error.message.contains("2000 items"), "\(error.message)")
        // With a gigabyte the same scene runs (it needed 2.6 GB of partner columns before).
        #expect(try MemoryCheck.worldsThatFit(scene, runner: runner, available: 1e9) >= 1)
        #expect(!error.message.contains("\n"))
        // A trace writes no such columns: one world (2 004 bodies) fits in 100 MB.
        #expect(try MemoryCheck.worldsThatFit(scene, runner: runner, batched: false, outputs: false, available: 100e6) >= 1)
    }
}
