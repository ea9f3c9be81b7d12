import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// Issue 30: a run killed before its first rename leaves only its own temporary files; resuming
/// (or running) there continues afresh. An edited file's refusal says the one thing to do.
@Suite struct ResumeEdgeTests {
    @Test func aFolderHoldingOnlyTheRunsTemporaryFilesResumesAfresh() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/whole")
        for (k, names) in [["run.json.tmp"], ["run.json.tmp", "sweep.yaml.tmp"]].enumerated() {
            for resume in [true, false] {
                let d = "\(dir)/killed\(k)\(resume)"
                try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
                for name in names { try Data("{\"torn".utf8).write(to: URL(fileURLWithPath: "\(d)/\(name)")) }
                let out = try runSweep(path, into: d, resume: resume)
                #expect(out.completed, "\(names), resume \(resume)")
                #expect(bytes("\(d)/worlds.csv") == bytes("\(dir)/whole/worlds.csv"), "\(names), resume \(resume)")
            }
        }
        // A results file without run.json is still someone else's.
        let foreign = "\(dir)/foreign"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(foreign)/worlds.csv"))
        #expect(throws: RunInputError.self) { try runSweep(path, into: foreign, resume: true) }
    }

    @Test func anEditedFileSaysToStartAgainWithForce() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/out")
        try FileManager.default.removeItem(atPath: "\(dir)/out/summary.json")
        try Data((smallSweep + "\n# edited\n").utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try runSweep(path, into: "\(dir)/out", resume: true)
            Issue.record("resumed a run of another file")
        } catch let error as RunInputError {
            #expect(error.description.contains("add --force (instead of --resume)"), "\(error)")
            #expect(!error.description.contains("run without --resume"), "\(error)")
        }
        // What it says works.
        let scene = try SceneFile.load(path: path)
        let forced = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/out").run(.init(threads: 1, force: true))
        #expect(forced.completed)
    }
}
