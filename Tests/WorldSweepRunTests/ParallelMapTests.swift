import Foundation
import Synchronization
import Testing
import WorldSweep
@testable import WorldSweepRun

@Suite struct ParallelMapTests {
    /// Results come back by index whatever order the jobs finish in: the early jobs are the slow
    /// ones here, so with several threads the late ones finish first.
    @Test(arguments: [1, 2, 4, 16])
    func resultsAreInIndexOrder(threads: Int) {
        let out = ParallelMap.map(12, threads: threads) { k -> String in
            usleep(UInt32((12 - k) * 500))
            return "job \(k)"
        }
        #expect(out == (0..<12).map { "job \($0)" })
    }

    /// Each job is told its thread: an index below `workers`, held by one job at a time (a
    /// thread's own copy of shared data is never used by two jobs at once).
    @Test(arguments: [1, 2, 3, 8])
    func workersAreOnePerThreadAtATime(threads: Int) {
        let count = 40, workers = ParallelMap.workers(count, threads: threads)
        #expect(workers == min(threads, count))
        let busy = (0..<workers).map { _ in NSLock() }
        // Per job: its worker, or -1 when that worker was busy with another job (a held lock).
        let used = ParallelMap.map(count, threads: threads) { k, worker -> Int in
            guard (0..<workers).contains(worker) else { return -2 }
            guard busy[worker].try() else { return -1 }
            usleep(UInt32(200 + (k % 3) * 300))
            busy[worker].unlock()
            return worker
        }
        #expect(used.count == count && used.allSatisfy { (0..<workers).contains($0) }, "\(used)")
        #expect(ParallelMap.workers(3, threads: 8) == 3 && ParallelMap.workers(0, threads: 2) == 0)
    }

    /// Maps inside a map's jobs (helpers busy with the outer map, so some inner shares find no
    /// helper free and their callers do the jobs): every result is right, and nothing waits forever.
    @Test func nestedMapsFinish() {
        let sums = ParallelMap.map(6, threads: 4) { k -> Int in
            ParallelMap.map(50, threads: 3) { j -> Int in j * k }.reduce(0, +)
        }
        #expect(sums == (0..<6).map { k in (0..<50).reduce(0) { $0 + $1 * k } })
        // Maps from many threads at once share the helpers.
        let outer = ParallelMap.map(8, threads: 8) { k in ParallelMap.map(20, threads: 2) { $0 + k } }
        #expect(outer == (0..<8).map { k in (0..<20).map { $0 + k } })
    }

    @Test func everyJobRunsOnce() {
        let counts = ParallelMap.map(1000, threads: 3) { $0 * $0 }
        #expect(counts == (0..<1000).map { $0 * $0 })
        #expect(ParallelMap.map(0, threads: 4) { $0 }.isEmpty)
    }

    /// A helper kept awake takes each share posted after a serial step without a new thread
    /// being started for it (a spinning helper counts as idle); after the scope the same helper,
    /// parked again, takes the next post.
    @Test func awakeHelperTakesEachPostWithoutNewThreads() {
        let helpers = HelperThreads()
        let ran = Mutex<[Int]>([])
        func post(_ round: Int) -> Bool {
            Self.post(to: helpers, { ran.withLock { $0.append(round) } }, until: { ran.withLock { $0.last } == round })
        }
        let awake = helpers.awake { (0..<20).map { round -> Bool in usleep(300); return post(round) } }
        #expect(awake.allSatisfy { $0 })
        #expect(helpers.threadsStarted == 1)
        usleep(2_000)
        #expect(post(20))
        #expect(helpers.threadsStarted == 1 && ran.withLock { $0 } == Array(0...20))
    }

    /// Inside an awake scope a helper spins at most `longestSpinNanoseconds` without a share, then
    /// parks; a post after a longer serial step still reaches it (no new thread, nothing lost).
    @Test func awakeHelperParksAfterItsLongestSpinAndTakesTheNextPost() {
        let helpers = HelperThreads()
        let ran = Mutex<[Int]>([])
        func post(_ round: Int) -> Bool {
            Self.post(to: helpers, { ran.withLock { $0.append(round) } }, until: { ran.withLock { $0.last } == round })
        }
        let longest = HelperThreads.longestSpinNanoseconds
        let taken = helpers.awake { () -> [Bool] in
            (0..<3).map { round in
                // A serial step ten times the longest spin: the helper must have parked by its end.
                usleep(UInt32(10 * longest / 1_000))
                return post(round)
            }
        }
        #expect(taken == [true, true, true])
        #expect(helpers.spinsRunOut >= 2)
        #expect(helpers.threadsStarted == 1 && ran.withLock { $0 } == [0, 1, 2])
    }

    /// Maps inside an awake scope (with serial steps between them) give the same results, the
    /// scope returns its body's value and rethrows its error.
    @Test func keepingHelpersAwakeChangesNoResult() throws {
        struct Stop: Error {}
        let sums = ParallelMap.keepingHelpersAwake(threads: 2) {
            (0..<5).map { k -> [Int] in usleep(200); return ParallelMap.map(30, threads: 2) { $0 * k } }
        }
        #expect(sums == (0..<5).map { k in (0..<30).map { $0 * k } })
        #expect(throws: Stop.self) { try ParallelMap.keepingHelpersAwake(threads: 2) { throw Stop() } }
        #expect(ParallelMap.keepingHelpersAwake(threads: 1) { 7 } == 7)
    }

    /// Posts one share running `work`, waits (2 s at most) until `done` says a helper ran it, and
    /// tells whether one did; `finish` takes back a share not started.
    static func post(to helpers: HelperThreads, _ work: @escaping () -> Void, until done: () -> Bool) -> Bool {
        let share = HelperThreads.Share(worker: 1) { _ in work() }
        helpers.post([share])
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while !done() && DispatchTime.now().uptimeNanoseconds < deadline { usleep(20) }
        helpers.finish([share])
        return done()
    }
}
