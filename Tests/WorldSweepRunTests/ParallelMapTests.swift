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

    @Test func everyJobRunsOnce() {
        let counts = ParallelMap.map(1000, threads: 3) { $0 * $0 }
        #expect(counts == (0..<1000).map { $0 * $0 })
        #expect(ParallelMap.map(0, threads: 4) { $0 }.isEmpty)
    }
}
