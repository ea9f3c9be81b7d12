import Foundation

/// Threads that stay for the life of the process, parked on a condition, to take a share of a
/// `ParallelMap`'s jobs. Dispatch's pool, idle for 20 ms or more, took about 2.8 ms to start the
/// second thread of a `concurrentPerform` on a 2-core machine (a parked thread here wakes in about
/// 20 µs): in a report's few parallel steps, each one after a serial step, the second core stood
/// idle for 1–5 ms a step (issue 29).
final class HelperThreads: @unchecked Sendable {
    static let shared = HelperThreads()

    /// A share of one call's work: `work(worker)` run by one helper, unless the caller took it back
    /// before any helper started it.
    final class Share: @unchecked Sendable {
        let worker: Int
        /// Dropped before the share counts as finished (or when taken back): the caller's jobs may
        /// not outlive its call (`withoutActuallyEscaping`).
        var work: ((Int) -> Void)?
        var started = false
        var finished = false
        init(worker: Int, work: @escaping (Int) -> Void) { self.worker = worker; self.work = work }
    }

    private let condition = NSCondition()
    private var queue: [Share] = []
    /// Helpers waiting for a share.
    private var idle = 0

    /// Hands out `shares` (worker indices 1 ... shares), starting threads while fewer are idle.
    func post(_ shares: [Share]) {
        condition.lock()
        queue += shares
        let missing = max(0, queue.count - idle)
        condition.broadcast()
        condition.unlock()
        for _ in 0..<missing {
            let thread = Thread { [self] in helperLoop() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Takes back the shares no helper started, and waits for the started ones to finish.
    func finish(_ shares: [Share]) {
        condition.lock()
        queue.removeAll { share in shares.contains { $0 === share } }
        for share in shares where !share.started { share.work = nil }
        while shares.contains(where: { $0.started && !$0.finished }) { condition.wait() }
        condition.unlock()
    }

    /// Runs the work and drops it before returning.
    private func run(_ work: consuming ((Int) -> Void)?, _ worker: Int) {
        work?(worker)
        work = nil
    }

    private func helperLoop() {
        condition.lock()
        while true {
            while queue.isEmpty {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let share = queue.removeFirst()
            share.started = true
            let work = share.work
            share.work = nil
            condition.unlock()
            run(work, share.worker)
            condition.lock()
            share.finished = true
            condition.broadcast()
        }
    }
}
