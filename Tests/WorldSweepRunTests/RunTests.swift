import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// A small sweep: two boxes, 3 × 2 points × 2 replicas with jitter = 12 worlds of 90 ticks.
let smallSweep = """
    name: small
    world: {bounds: [320, 568], ticks: 90}
    items:
      top: {center: [100, 200], size: [50, 50]}
      bottom: {center: [100, 500], size: [50, 50]}
    behaviors:
      fall: {type: gravity, items: [top, bottom]}
      walls:
        type: collision
        items: [top, bottom]
        reference_bounds: true
        boundaries:
          ledge: {from: [0, 300], to: [320, 300]}
      bouncy: {type: item, items: [bottom], elasticity: 0.9}
    sweep:
      parameters:
        bouncy.elasticity: {linspace: [0, 1, 3]}
        fall.magnitude: [1, 2]
      seed: 3
      replicas: 2
      jitter: {top.center: [2, 2]}
    """

func tempDir(_ tag: String = "run") -> String {
    Scratch.directory(tag)
}

func writeScene(_ text: String, in dir: String) -> String {
    let path = "\(dir)/scene.yaml"
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The scene's worlds run one at a time on the single-world engine (what the batched engine must
/// give world by world), and a runner of the same scene on the batched SIMD engine.
func singleWorldsAndBatchedRunner(_ scene: SceneFile) -> (expected: [WorldResult], batched: WorldRunner) {
    var single = WorldRunner(scene: scene)
    single.engine = .single
    var batched = single
    batched.engine = .batched(.simd)
    return ((0..<scene.worldCount).map { single.run(world: $0) }, batched)
}

func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

/// summary.json without its run info (wall time and threads differ from run to run).
func summaryWithoutRun(_ path: String) throws -> SweepSummary {
    var s = try JSONDecoder().decode(SweepSummary.self, from: bytes(path))
    s.run = RunInfo(engine: "", threads: 0, worlds: 0, ticksPerWorld: 0, wallSeconds: 0, worldTicksPerSecond: 0)
    return s
}

/// summary.json's text with the run object cut out (its points, partners, … must match bytewise).
func summaryTextWithoutRun(_ path: String) -> String {
    let text = String(decoding: bytes(path), as: UTF8.self)
    guard let r = text.range(of: "\"run\":{"), let close = text[r.upperBound...].firstIndex(of: "}") else { return text }
    return String(text[..<r.lowerBound] + text[text.index(after: close)...])
}

func runSweep(_ path: String, into dir: String, threads: Int = 1, chunk: Int = 64, resume: Bool = false,
              shard: (Int, Int)? = nil, cancel: CancellationFlag = CancellationFlag(),
              formatsOnCollector: Bool? = nil) throws -> SweepRun.Outcome {
    let scene = try SceneFile.load(path: path)
    let run = SweepRun(scene: scene, fileData: bytes(path), directory: dir)
    var options = SweepRun.Options(threads: threads, chunkSize: chunk, resume: resume, shard: shard.map { (index: $0.0, count: $0.1) },
                                   cancel: cancel)
    options.formatsOnCollector = formatsOnCollector
    return try run.run(options)
}

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

    @Test func schedulerHandsChunksOverInOrder() throws {
        var seen: [Range<Int>] = []
        let end = try Scheduler(threads: 2, chunkSize: 3).run(5..<30, work: { $0 }, consume: { chunk, r in
            #expect(chunk == r)
            seen.append(r)
        })
        #expect(end == 30)
        #expect(seen.flatMap { Array($0) } == Array(5..<30))
        // Workers never run more than threads × aheadPerThread chunks past the consumer.
        let consumed = Counter()
        let ahead = Counter()
        let scheduler = Scheduler(threads: 2, chunkSize: 1, aheadPerThread: 2)
        try scheduler.run(0..<200, work: { chunk in
            ahead.max(chunk.lowerBound - consumed.value)
            return chunk
        }, consume: { _, _ in consumed.add(1) })
        #expect(consumed.value == 200)
        #expect(ahead.value < 4)
        // Cancelled before starting: nothing runs, nothing is consumed.
        let cancel = CancellationFlag(); cancel.cancel()
        let none = try Scheduler(threads: 2, chunkSize: 3).run(0..<30, cancel: cancel, work: { $0 }, consume: { _, _ in Issue.record("consumed") })
        #expect(none == 0)
    }

    /// A consumed result is dropped by the worker that made it (its memory goes back where it was
    /// allocated), but for the last few, which the consumer drops once the workers have stopped.
    @Test func schedulerDropsResultsOnTheThreadsThatMadeThem() throws {
        // Threads told apart by pthread_self (a Thread object's identity can be another's once freed).
        final class Made: @unchecked Sendable {
            let maker = pthread_self()
            let freedOnMaker: Counter, freed: Counter
            init(_ freedOnMaker: Counter, _ freed: Counter) { self.freedOnMaker = freedOnMaker; self.freed = freed }
            deinit {
                freed.add(1)
                if pthread_equal(pthread_self(), maker) != 0 { freedOnMaker.add(1) }
            }
        }
        let freedOnMaker = Counter(), freed = Counter()
        let scheduler = Scheduler(threads: 2, chunkSize: 1, aheadPerThread: 2)
        var madeOnConsumer = 0
        try scheduler.run(0..<200, work: { _ in Made(freedOnMaker, freed) }, consume: { _, made in
            if pthread_equal(pthread_self(), made.maker) != 0 { madeOnConsumer += 1 }
        })
        #expect(freed.value == 200)
        #expect(madeOnConsumer == 0)
        // At most the chunks in flight when the workers stop (threads × aheadPerThread, and one
        // per worker) are dropped by the consumer.
        #expect(freedOnMaker.value >= 200 - (2 * 2 + 2), "\(freedOnMaker.value) of 200 freed by their maker")
    }

    @Test func chunksShrinkTowardTheEndOnlyWithSeveralThreads() throws {
        func sizes(_ s: Scheduler, _ range: Range<Int>) -> [Int] {
            let starts = s.chunkStarts(range)
            return zip(starts, starts.dropFirst()).map { $1 - $0 }
        }
        // One thread: equal chunks, the last one what is left.
        #expect(sizes(Scheduler(threads: 1, chunkSize: 64), 0..<768) == Array(repeating: 64, count: 12))
        #expect(sizes(Scheduler(threads: 1, chunkSize: 64), 0..<100) == [64, 36])
        // Two threads, 768 worlds: a chunk holds ⌈left / 4⌉ rounded up to a multiple of 8, at
        // most 64. Left 768 … 256: 64 each (9 chunks); then 192 → 48, 144 → ⌈36⌉ = 40,
        // 104 → 32, 72 → 24, 48 → 16, 32 → 8, 24 → 8, 16 → 8, 8 → 8.
        #expect(sizes(Scheduler(threads: 2, chunkSize: 64), 0..<768)
                == Array(repeating: 64, count: 9) + [48, 40, 32, 24, 16, 8, 8, 8, 8])
        // Chunks no larger than one lane group are never cut further.
        #expect(sizes(Scheduler(threads: 4, chunkSize: 3), 5..<30) == Array(repeating: 3, count: 8) + [1])
        // Any range, thread count and chunk size: the chunks tile the range in order, none larger
        // than asked, none growing.
        var rng = SeededNumbers(2026)   // seeded, so a failure replays
        for _ in 0..<300 {
            let lower = Int.random(in: 0..<1000, using: &rng)
            let range = lower..<(lower + Int.random(in: 1..<5000, using: &rng))
            let s = Scheduler(threads: Int.random(in: 1...32, using: &rng), chunkSize: Int.random(in: 1...200, using: &rng))
            let starts = s.chunkStarts(range)
            #expect(starts.first == range.lowerBound && starts.last == range.upperBound)
            let chunk = sizes(s, range)
            #expect(chunk.allSatisfy { $0 >= 1 && $0 <= s.chunkSize })
            #expect(zip(chunk, chunk.dropFirst()).allSatisfy { $0 >= $1 })
        }
        // The scheduler hands over exactly those chunks, in order.
        var seen: [Range<Int>] = []
        try Scheduler(threads: 2, chunkSize: 64).run(0..<768, work: { $0 }, consume: { chunk, r in
            #expect(chunk == r)
            seen.append(r)
        })
        #expect(seen.map(\.count) == sizes(Scheduler(threads: 2, chunkSize: 64), 0..<768))
    }

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

    @Test func csvRowsReadBackExactly() throws {
        let layout = CSVLayout(parameters: ["a.b"], items: ["x"],
                               partners: PartnerRule(groups: [(PartnerRule.Group(items: [], boundaries: ["b", "bounds"]), ["x"])]))
        let r = WorldResult(world: 3, point: 1, replica: 1, parameters: [0.1 + 0.2],
                            items: [ItemResult(contacts: 2, contactsByPartner: ["bounds": 2], bounceHeights: [Double(Float(12.345))],
                                               restTime: Double(Float(1.5)), x: Double(Float(160.1)), y: -0.0, angle: Double(Float(1e-7)),
                                               vx: 0, vy: 0, angularVelocity: 0)])
        let line = layout.row(r)
        #expect(line == "3,1,1,0.30000000000000004,2,1,12.345,,,,,,,,1.5,160.1,0,1e-07,0,0,0\n")
        var back = try #require(layout.parseRow(line.dropLast()))
        back.items[0].contactsByPartner = ["bounds": 2]
        var expected = r; expected.items[0].y = 0
        #expect(back == expected)
        // One row per partner touched (none for a partner not touched), read back exactly.
        #expect(layout.partnersHeader == "world,item,partner,contacts")
        var two = r; two.items[0].contactsByPartner = ["bounds": 2, "b": 1]
        #expect(layout.partnersRows(two) == "3,x,b,1\n3,x,bounds,2\n")
        // In name order whatever the count, a zero count skipped (one, two and three partners).
        let rule3 = PartnerRule(groups: [(PartnerRule.Group(items: [], boundaries: ["a", "b", "bounds"]), ["x"])])
        let layout3 = CSVLayout(parameters: ["a.b"], items: ["x"], partners: rule3)
        for (touched, rows) in [(["b": 4], "3,x,b,4\n"), (["b": 0], ""), (["bounds": 2, "a": 0], "3,x,bounds,2\n"),
                                (["a": 1, "bounds": 2], "3,x,a,1\n3,x,bounds,2\n"),
                                (["bounds": 3, "b": 2, "a": 1], "3,x,a,1\n3,x,b,2\n3,x,bounds,3\n")] {
            var w = r; w.items[0].contactsByPartner = touched
            #expect(layout3.partnersRows(w) == rows, "\(touched)")
        }
        let partnersBack = try #require(layout.parsePartnersRow("3,x,bounds,2"))
        #expect(partnersBack.world == 3 && partnersBack.item == 0 && partnersBack.partner == "bounds" && partnersBack.contacts == 2)
        var failed = r; failed.failed = true
        #expect(layout.partnersRows(failed) == "")
        // A chunk's rows go into one buffer, after what it holds, in order.
        var chunk = Array("header\n".utf8), partnerChunk = Array("p\n".utf8)
        for world in [r, failed, two] { layout.appendRow(world, to: &chunk); layout.appendPartnersRows(world, to: &partnerChunk) }
        #expect(String(decoding: chunk, as: UTF8.self) == "header\n" + line + "3,1,1,0.30000000000000004" + String(repeating: ",", count: 17) + "\n" + line)
        #expect(String(decoding: partnerChunk, as: UTF8.self) == "p\n3,x,bounds,2\n3,x,b,1\n3,x,bounds,2\n")
        // Not a row: no count, a zero count, an unknown item, a partner x cannot touch, itself.
        for bad in ["3,x,bounds", "3,x,bounds,0", "3,y,bounds,1", "3,x,floor,1", "3,x,x,1", "-1,x,b,1", "3,x,b,1,1"] {
            #expect(layout.parsePartnersRow(bad[...]) == nil, "\(bad)")
        }
        #expect(layout.row(failed) == "3,1,1,0.30000000000000004" + String(repeating: ",", count: 17) + "\n")
        #expect(layout.parseRow(layout.row(failed).dropLast())?.failed == true)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var v = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return v }
    func add(_ n: Int) { lock.lock(); v += n; lock.unlock() }
    func max(_ n: Int) { lock.lock(); v = Swift.max(v, n); lock.unlock() }
}

@Suite struct SummaryBuilderTests {
    @Test func failedWorldsAreCountedButNotAveraged() throws {
        let layout = CSVLayout(parameters: ["p"], items: ["a"])
        let ok1 = WorldResult(world: 0, point: 0, replica: 0, parameters: [1],
                              items: [ItemResult(contacts: 2, contactsByPartner: ["bounds": 2], bounceHeights: [10, 4], restTime: 1.5, x: 1, y: 2)])
        let ok2 = WorldResult(world: 1, point: 0, replica: 1, parameters: [1],
                              items: [ItemResult(contacts: 4, contactsByPartner: ["bounds": 3, "b": 1], bounceHeights: [20], x: 3, y: 2)])
        let bad = WorldResult(world: 2, point: 0, replica: 2, parameters: [1], items: [ItemResult()], failed: true)
        let p = SummaryBuilder.summarize([ok1, ok2, bad], layout: layout)
        #expect(p.replicas == 3 && p.failedReplicas == 1 && p.parameters == [1])
        #expect(p.metrics["a.contacts"] == MetricStats(count: 2, mean: 3, std: 2.0.squareRoot(), min: 2, max: 4))
        #expect(p.metrics["a.bounce1"] == MetricStats(count: 2, mean: 15, std: 50.0.squareRoot(), min: 10, max: 20))
        #expect(p.metrics["a.bounce2"] == MetricStats(count: 1, mean: 4, std: 0, min: 4, max: 4))
        #expect(p.metrics["a.bounce3"] == nil)
        #expect(p.metrics["a.rest_time"]?.count == 1)
        // A partner one replica never touched counts 0 there.
        #expect(p.metrics["a.contacts.b"] == MetricStats(count: 2, mean: 0.5, std: 0.5.squareRoot(), min: 0, max: 1))
        #expect(p.metrics["a.y"] == MetricStats(count: 2, mean: 2, std: 0, min: 2, max: 2))

        // Fed world by world, points close when their replicas are in; samples are every k-th world
        // (k = 7: the smallest from ⌈60 000 / 20 000⌉ = 3 prime to 60 000 = 2⁵·3·5⁴).
        var builder = SummaryBuilder(layout: layout, replicas: 3, totalWorlds: 60_000, totalPoints: 20_000, writesTables: true)
        #expect(builder.sampleStride == 7 && builder.pointStride == 1)
        var worlds: [WorldResult] = []
        for w in 0..<6 {
            var r = ok1; r.world = w; r.point = w / 3; r.replica = w % 3
            worlds.append(r)
            try builder.add(r)
        }
        #expect(builder.keptPoints.map(\.point) == [0, 1])
        #expect(builder.sample == WorldSample([worlds[0]]) && builder.sample.worlds == 1)
        let worldByWorld = builder.takeRecords()

        // Folded by workers chunk by chunk (a point cut by a chunk's edge finished by the builder),
        // the rows are the same bytes, whatever the cuts.
        for cuts in [[0, 6], [0, 2, 6], [0, 1, 2, 4, 5, 6], [0, 3, 6]] {
            var chunked = SummaryBuilder(layout: layout, replicas: 3, totalWorlds: 60_000, totalPoints: 20_000, writesTables: true)
            for k in 0..<(cuts.count - 1) {
                // Kept as made or as copies (a worker's fold): the same points.
                try chunked.add(chunked.chunkFolder.fold(chunk: Array(worlds[cuts[k]..<cuts[k + 1]])), copyingKept: k % 2 == 1)
            }
            let records = chunked.takeRecords()
            #expect(records.pointsCSV == worldByWorld.pointsCSV && records.pointsJSON == worldByWorld.pointsJSON, "cuts \(cuts)")
            #expect(records.partnerPointsCSV == worldByWorld.partnerPointsCSV && !records.partnerPointsCSV.isEmpty, "cuts \(cuts)")
            #expect(chunked.keptPoints == builder.keptPoints && chunked.sample == builder.sample, "cuts \(cuts)")
            #expect(chunked.pointsDone == 2 && chunked.worldsSeen == 6 && chunked.partners == builder.partners, "cuts \(cuts)")
        }
    }
}
