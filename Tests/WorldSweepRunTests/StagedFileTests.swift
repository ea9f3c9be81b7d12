// A run's first files are written at once and put in place beside the engine (StagedFile,
// BackgroundWork): until placed, only NAME.tmp exists; placed, NAME holds the bytes and no .tmp
// is left; an error of the background work comes back where it is waited for.
import Foundation
import Testing
@testable import WorldSweepRun

@Suite struct StagedFileTests {
    static func folder() -> String {
        let dir = NSTemporaryDirectory() + "staged-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func stagedThenPlaced() throws {
        let dir = Self.folder(), path = dir + "/run.json"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try StagedFile(Data("{\"a\":1}".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try String(contentsOfFile: path + ".tmp", encoding: .utf8) == "{\"a\":1}")
        let work = BackgroundWork { try file.place() }
        try work.wait()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        try work.wait()   // a second wait returns at once
    }

    /// Appends past the writeback step (where the kernel is asked to start writing what came
    /// before) leave the bytes as appended; on Linux the kernel takes the hint.
    @Test func appendsAcrossWritebackStepsKeepTheBytes() throws {
        let dir = Self.folder(), path = dir + "/worlds.csv"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try AppendFile(path: path, truncate: true)
        var expected: [UInt8] = []
        for k in 0..<40 {
            let piece = [UInt8](repeating: UInt8(ascii: "a") + UInt8(k % 26), count: 100_000 + k * 997)
            try file.append(piece)
            expected += piece
        }
        try file.sync()
        file.close()
        #expect(expected.count > 4 << 20)
        #expect(FileManager.default.contents(atPath: path) == Data(expected))
        #if os(Linux)
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        #expect(startWriteback(fd, from: 0, count: expected.count))
        #endif
    }

    @Test func aFolderThatTakesNoFileFailsWhenStaged() {
        #expect(throws: RunFileError.self) { try StagedFile(Data("x".utf8), to: "/proc/no-such-folder/run.json") }
    }

    @Test func theBackgroundErrorComesBackOnWait() throws {
        struct Failure: Error {}
        let work = BackgroundWork { throw Failure() }
        #expect(throws: Failure.self) { try work.wait() }
        try work.wait()   // said once
    }

    /// A fresh run leaves run.json and sweep.yaml in place, with no .tmp beside them, and so does
    /// one cancelled before its first chunk (whose rows never came).
    @Test func aRunPutsItsFirstFilesInPlace() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        let out = try runSweep(path, into: "\(dir)/out")
        #expect(out.completed)
        let cancel = CancellationFlag()
        cancel.cancel()
        let cancelled = try runSweep(path, into: "\(dir)/cancelled", cancel: cancel)
        #expect(!cancelled.completed)
        for folder in ["out", "cancelled"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/\(folder)")
            #expect(files.contains("run.json") && files.contains("sweep.yaml"), "\(folder): \(files)")
            #expect(!files.contains { $0.hasSuffix(".tmp") }, "\(folder): \(files)")
            let settings = bytes("\(dir)/\(folder)/run.json")
            #expect(settings.first == UInt8(ascii: "{") && settings.last == UInt8(ascii: "}"), "\(folder)")
        }
    }
}
