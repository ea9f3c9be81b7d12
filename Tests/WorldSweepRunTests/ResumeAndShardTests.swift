import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// A cancelled or killed run resumes to the same files; shards merge to one run.
@Suite struct ResumeAndShardTests {
    @Test func aCancelledRunResumesToTheSameFiles() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/whole")
        // Cancel after the first chunk is consumed: the run stops with a prefix written.
        let cancel = CancellationFlag()
        let scene = try SceneFile.load(path: path)
        let partial = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/cut").run(
            .init(threads: 1, chunkSize: 2, cancel: cancel, progress: { done, _ in if done >= 2 { cancel.cancel() } }))
        #expect(!partial.completed && partial.worldsDone >= 2 && partial.worldsDone < 12)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/cut/summary.json"))
        // points.csv appears only with a whole run (nor is its unfinished part left behind).
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/cut/points.csv"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/cut/points.csv.tmp"))
        let resumed = try runSweep(path, into: "\(dir)/cut", resume: true)
        #expect(resumed.completed)
        // Its figures count only the worlds this run simulated, not the ones kept.
        #expect(resumed.summary?.run.worldsRun == 12 - partial.worldsDone && resumed.summary?.run.worlds == 12)
        #expect(resumed.summary?.run.simulationWorldTicksPerSecond != nil)
        #expect(bytes("\(dir)/whole/worlds.csv") == bytes("\(dir)/cut/worlds.csv"))
        #expect(bytes("\(dir)/whole/points.csv") == bytes("\(dir)/cut/points.csv"))
        #expect(bytes("\(dir)/whole/partner_points.csv") == bytes("\(dir)/cut/partner_points.csv"))
        #expect(summaryTextWithoutRun("\(dir)/whole/summary.json") == summaryTextWithoutRun("\(dir)/cut/summary.json"))
    }

    @Test func resumeAfterAKillAtAnyByte() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/whole")
        let whole = bytes("\(dir)/whole/worlds.csv")
        let wholePartners = bytes("\(dir)/whole/partners.csv")
        let wholeSummary = summaryTextWithoutRun("\(dir)/whole/summary.json")
        // Kill points: inside the header, at a row boundary, mid-row, and with partners.csv cut elsewhere.
        let cuts: [(Int, Int)] = [(10, wholePartners.count), (whole.count / 2, wholePartners.count / 3),
                                  (whole.count - 7, wholePartners.count), (whole.count, 30)]
        for (i, (w, p)) in cuts.enumerated() {
            let d = "\(dir)/k\(i)"
            try FileManager.default.copyItem(atPath: "\(dir)/whole", toPath: d)
            try FileManager.default.removeItem(atPath: "\(d)/summary.json")
            try whole.prefix(w).write(to: URL(fileURLWithPath: "\(d)/worlds.csv"))
            try wholePartners.prefix(p).write(to: URL(fileURLWithPath: "\(d)/partners.csv"))
            if w < 50 {
                // A torn header cannot be checked: resuming says so.
                #expect(throws: RunFileError.self) { try runSweep(path, into: d, resume: true) }
                continue
            }
            let out = try runSweep(path, into: d, threads: 2, chunk: 3, resume: true)
            #expect(out.completed)
            #expect(bytes("\(d)/worlds.csv") == whole, "cut \(i)")
            #expect(bytes("\(d)/partners.csv") == wholePartners, "cut \(i)")
            #expect(bytes("\(d)/points.csv") == bytes("\(dir)/whole/points.csv"), "cut \(i)")
            #expect(bytes("\(d)/partner_points.csv") == bytes("\(dir)/whole/partner_points.csv"), "cut \(i)")
            #expect(summaryTextWithoutRun("\(d)/summary.json") == wholeSummary, "cut \(i)")
        }
    }

    @Test func threeShardsMergeToOneRun() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/whole")
        let out = "\(dir)/sharded"
        _ = try runSweep(path, into: out, shard: (2, 3))
        _ = try runSweep(path, into: out, threads: 2, shard: (0, 3))
        #expect(try Shards.missing(in: out, count: 3) == [1])
        #expect(throws: RunFileError.self) { try Shards.merge(directory: out) }
        _ = try runSweep(path, into: out, chunk: 1, shard: (1, 3))
        #expect(try Shards.missing(in: out, count: 3) == [])
        for _ in 0..<2 {   // merging again is safe
            let merged = try Shards.merge(directory: out)
            #expect(bytes("\(dir)/whole/worlds.csv") == bytes("\(out)/worlds.csv"))
            #expect(bytes("\(dir)/whole/partners.csv") == bytes("\(out)/partners.csv"))
            #expect(bytes("\(dir)/whole/points.csv") == bytes("\(out)/points.csv"))
            #expect(bytes("\(dir)/whole/partner_points.csv") == bytes("\(out)/partner_points.csv"))
            #expect(bytes(path) == bytes("\(out)/sweep.yaml"))
            #expect(summaryTextWithoutRun("\(dir)/whole/summary.json") == summaryTextWithoutRun("\(out)/summary.json"))
            #expect(merged.summary.points.count == 6 && merged.sample.worlds == 12)
            // Merge simulated nothing: no rate of its own.
            #expect(merged.summary.run.worldTicksPerSecond == 0 && merged.summary.run.simulationWorldTicksPerSecond == nil)
        }
        // Shards hold whole points: 6 points over 3 shards is 2 points (4 worlds) each.
        #expect(SweepRun.shardWorlds(index: 1, count: 3, points: 6, replicas: 2) == 4..<8)
        #expect(SweepRun.shardWorlds(index: 2, count: 4, points: 5, replicas: 3) == 6..<9)
    }
}
