import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads that stay for the life of the process, parked on a condition, to take a share of a
/// `ParallelMap`'s jobs or of one world's parallel stages (`WorldThreads`). Dispatch's pool,
/// once idle, is slow to start the second thread of a `concurrentPerform` where a parked thread
/// here wakes at once: in a report's few parallel steps, each one after a serial step, the second
/// core would stand idle (docs/journal.md). A caller takes back the shares no helper started, so
/// work posted here never waits on a busy pool.
package final class HelperThreads: @unchecked Sendable {
    package static let shared = HelperThreads()
    package init() {}

    /// A share of one call's work: `work(worker)` run by one helper, unless the caller took it back
    /// before any helper started it.
    package final class Share: @unchecked Sendable {
        package let worker: Int
        /// Dropped before the share counts as finished (or when taken back): the caller's jobs may
        /// not outlive its call (`withoutActuallyEscaping`).
        var work: ((Int) -> Void)?
        var started = false
        var finished = false
        package init(worker: Int, work: @escaping (Int) -> Void) { self.worker = worker; self.work = work }
    }

    private let condition = NSCondition()
    private var queue: [Share] = []
    /// Helpers waiting for a share (parked or spinning).
    private var idle = 0
    /// Helper threads started so far.
    package private(set) var threadsStarted = 0
    /// Times a helper spun its longest inside an `awake` scope without a share, and parked.
    package private(set) var spinsRunOut = 0
    /// Shares posted so far: what a spinning helper watches.
    private let posted = Atomic<Int>(0)
    /// Open `awake` scopes: while any is open, a helper with no share spins instead of parking.
    private let awakeScopes = Atomic<Int>(0)

    /// Runs `body` with the helpers spinning between shares instead of parking (each for at most
    /// `longestSpinNanoseconds` at a time, then parked until the next post). A parked helper
    /// was often woken on the caller's busy core and waited there for the scheduler's next
    /// balance while the other core idled (traced with sched_switch; docs/journal.md). For a run
    /// of parallel steps with short serial steps
    /// between them; a spinning helper yields its core to any other thread that wants it.
    /// Parked helpers are woken at once, so that they spin by the time the first step posts.
    package func awake<T>(_ body: () throws -> T) rethrows -> T {
        if awakeScopes.add(1, ordering: .relaxed).oldValue == 0 {
            condition.lock(); condition.broadcast(); condition.unlock()
        }
        defer { awakeScopes.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// Hands out `shares` (worker indices 1 ... shares), starting threads while fewer are idle.
    package func post(_ shares: [Share]) {
        condition.lock()
        queue += shares
        posted.add(shares.count, ordering: .releasing)
        let missing = max(0, queue.count - idle)
        threadsStarted += missing
        condition.broadcast()
        condition.unlock()
        for _ in 0..<missing {
            let thread = Thread { [self] in helperLoop() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Takes back the shares no helper started, and waits for the started ones to finish.
    package func finish(_ shares: [Share]) {
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

    /// The longest a helper spins without a share inside an `awake` scope before it parks: long
    /// enough to span a big world's serial stages between two split ones, short enough that a
    /// scope around a long serial stretch does not hold a core for nothing.
    package static let longestSpinNanoseconds: UInt64 = 2_000_000

    private func helperLoop() {
        condition.lock()
        while true {
            // Whether this helper spun its longest since it last had a share or was woken.
            var spunOut = false
            while queue.isEmpty {
                idle += 1
                if awakeScopes.load(ordering: .relaxed) > 0 && !spunOut {
                    let seen = posted.load(ordering: .acquiring)
                    condition.unlock()
                    let start = DispatchTime.now().uptimeNanoseconds
                    while posted.load(ordering: .acquiring) == seen && awakeScopes.load(ordering: .relaxed) > 0 {
                        if DispatchTime.now().uptimeNanoseconds - start > Self.longestSpinNanoseconds { spunOut = true; break }
                        sched_yield()
                    }
                    condition.lock()
                    if spunOut { spinsRunOut += 1 }
                } else {
                    condition.wait()
                    spunOut = false
                }
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
