import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

@Suite struct RunTests {
    /// The caller's work beside the workers (the report's groundwork) is done once, on the calling
    /// thread, before the first rows are written; a resumed run with nothing left to run does
    /// none (the report makes its groundwork itself).
    @Test func workWhileTheWorkersRunIsDoneOnceOnTheCallingThreadBeforeTheFirstRows() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        let scene = try SceneFile.load(path: path)
        final class Calls: @unchecked Sendable { var threads: [pthread_t] = []; var worldsBytes: [Int] = [] }
        let calls = Calls()
        let caller = pthread_self()
        for resume in [false, true] {
            var options = SweepRun.Options(threads: 2, chunkSize: 4, resume: resume)
            options.whileWorkersRun = {
                calls.threads.append(pthread_self())
                calls.worldsBytes.append(bytes("\(dir)/out/worlds.csv").count)
            }
            let out = try SweepRun(scene: scene, fileData: bytes(path), directory: "\(dir)/out").run(options)
            #expect(out.completed)
        }
        #expect(calls.threads.count == 1 && pthread_equal(calls.threads[0], caller) != 0)
        // Only the header is in worlds.csv then.
        let header = CSVLayout(scene: scene).header
        #expect(calls.worldsBytes == [header.utf8.count + 1])
    }

    @Test func worldsCSVHasTheContractColumnsAndOneRowPerWorld() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        let out = try runSweep(path, into: "\(dir)/out")
        #expect(out.completed)
        let lines = String(decoding: bytes("\(dir)/out/worlds.csv"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 13)
        let header = lines[0].split(separator: ",").map(String.init)
        let item = ["contacts", "bounces"] + (1...8).map { "bounce\($0)" } + ["rest_time", "x", "y", "angle", "vx", "vy", "angular_velocity"]
        #expect(header == ["world", "point", "replica", "bouncy.elasticity", "fall.magnitude"]
                + item.map { "top.\($0)" } + item.map { "bottom.\($0)" })
        // World 5 = point 2 (the last parameter varies fastest: elasticity 0.5, magnitude 1), replica 1.
        let row = lines[6].split(separator: ",", omittingEmptySubsequences: false)
        #expect(row[0] == "5" && row[1] == "2" && row[2] == "1" && row[3] == "0.5" && row[4] == "1")
        #expect(row.count == header.count)
        // The same world run alone gives the same numbers.
        let alone = WorldRunner(scene: try SceneFile.load(path: path)).run(world: 5)
        let layout = CSVLayout(parameters: ["bouncy.elasticity", "fall.magnitude"], items: ["top", "bottom"])
        #expect(layout.row(alone) == lines[6] + "\n")
        // The bottom box falls onto the bounds, the top one onto the ledge.
        #expect(alone.items[1].contactsByPartner["bounds"] ?? 0 >= 1)
        #expect(alone.items[0].contactsByPartner["ledge"] ?? 0 >= 1)
    }

    @Test func summaryAggregatesEachPointsReplicas() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        let out = try runSweep(path, into: "\(dir)/out")
        let summary = try JSONDecoder().decode(SweepSummary.self, from: bytes("\(dir)/out/summary.json"))
        #expect(summary.points.count == 6)
        #expect(summary.parameters == ["bouncy.elasticity", "fall.magnitude"])
        #expect(summary.run.engine == "batched-simd" && summary.run.worlds == 12 && summary.run.ticksPerWorld == 90)
        let runner = WorldRunner(scene: try SceneFile.load(path: path))
        for p in summary.points {
            let a = runner.run(world: 2 * p.point), b = runner.run(world: 2 * p.point + 1)
            #expect(p.replicas == 2 && p.failedReplicas == 0)
            let y = try #require(p.metrics["top.y"])
            #expect(y.count == 2)
            #expect(abs(y.mean - (a.items[0].y + b.items[0].y) / 2) < 1e-9)
            #expect(abs(y.std - abs(a.items[0].y - b.items[0].y) / 2.0.squareRoot()) < 1e-9)
            #expect(y.min == min(a.items[0].y, b.items[0].y) && y.max == max(a.items[0].y, b.items[0].y))
            let ledge = p.metrics["top.contacts.ledge"]
            let expected = Double((a.items[0].contactsByPartner["ledge"] ?? 0) + (b.items[0].contactsByPartner["ledge"] ?? 0)) / 2
            #expect(ledge?.mean == expected)
        }
        #expect(out.sample.worlds == 12)
        #expect(summary.partners["top"]?.contains("ledge") == true)
    }

    @Test func resultsDoNotDependOnThreadsOrChunks() throws {
        let dir = tempDir()
        let path = writeScene(smallSweep, in: dir)
        _ = try runSweep(path, into: "\(dir)/a", threads: 1, chunk: 1)
        _ = try runSweep(path, into: "\(dir)/b", threads: 2, chunk: 7)
        _ = try runSweep(path, into: "\(dir)/c", threads: 2, chunk: 1)
        // Rows and points made by the collecting thread or by the workers, at one and two threads.
        _ = try runSweep(path, into: "\(dir)/d", threads: 2, chunk: 5, formatsOnCollector: true)
        _ = try runSweep(path, into: "\(dir)/e", threads: 1, chunk: 5, formatsOnCollector: false)
        #expect(bytes("\(dir)/d/\(RowSums.fileName)") == bytes("\(dir)/e/\(RowSums.fileName)"))
        for name in ["b", "c", "d", "e"] {
            #expect(bytes("\(dir)/a/worlds.csv") == bytes("\(dir)/\(name)/worlds.csv"))
            #expect(bytes("\(dir)/a/partners.csv") == bytes("\(dir)/\(name)/partners.csv"))
            #expect(summaryTextWithoutRun("\(dir)/a/summary.json") == summaryTextWithoutRun("\(dir)/\(name)/summary.json"))
        }
    }
}
