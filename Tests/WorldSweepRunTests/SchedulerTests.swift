import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// Chunks handed over in world order, results freed where they were made, chunk sizes.
@Suite struct SchedulerTests {
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
}
