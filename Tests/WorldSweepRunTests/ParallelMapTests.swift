import Foundation
import Testing
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

    @Test func everyJobRunsOnce() {
        let counts = ParallelMap.map(1000, threads: 3) { $0 * $0 }
        #expect(counts == (0..<1000).map { $0 * $0 })
        #expect(ParallelMap.map(0, threads: 4) { $0 }.isEmpty)
    }
}
