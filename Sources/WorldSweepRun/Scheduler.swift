import Dispatch
import Foundation
import WorldSweep

/// A flag set from another thread (a signal handler's queue) to stop starting new work.
public final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private let also: (@Sendable () -> Bool)?
    public init() { also = nil }
    /// `also` is polled too (e.g. a flag a signal handler sets).
    public init(also: @escaping @Sendable () -> Bool) { self.also = also }
    public var isCancelled: Bool {
        if let also, also() { return true }
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }
    public func cancel() { lock.lock(); cancelled = true; lock.unlock() }
}

/// Cuts a range of worlds into chunks, runs them on a pool of `threads` worker threads (joined with
/// a DispatchGroup) and hands each chunk's result to one consumer on the calling thread, strictly
/// in order. Workers run at most `aheadPerThread` chunks per thread ahead of the consumer, so
/// memory stays bounded however many worlds there are.
///
/// Chunks hold `chunkSize` worlds until the end of the range draws near; there, with more than
/// one thread, they shrink (see `chunkStarts`) so that the threads finish together.
public struct Scheduler: Sendable {
    public var threads: Int
    public var chunkSize: Int
    public var aheadPerThread: Int

    public init(threads: Int, chunkSize: Int = 64, aheadPerThread: Int = 3) {
        self.threads = max(1, threads)
        self.chunkSize = max(1, chunkSize)
        self.aheadPerThread = max(1, aheadPerThread)
    }

    /// The default thread count: `SLURM_CPUS_PER_TASK` when set, else the active processors.
    public static func defaultThreads(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let text = environment["SLURM_CPUS_PER_TASK"], let n = Int(text), n > 0 { return n }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The smallest chunk the tail is cut into: one group of SIMD lanes, so no chunk of the
    /// batched engine runs with lanes empty for want of worlds.
    public static let smallestTailChunk = BatchAnimator.laneWidth

    /// Where each chunk of `range` starts, then `range.upperBound`. With one thread every chunk
    /// holds `chunkSize` worlds (the last, what is left). With more, a chunk holds at most a
    /// (2 × threads)-th of the worlds not yet handed out, rounded up to a multiple of
    /// `smallestTailChunk` (guided scheduling): worlds of one sweep cost unequal time (the
    /// bouncier ones stay awake longer), and with equal chunks to the end one thread can idle for
    /// most of a chunk while another finishes, a share that grows with the threads
    /// (docs/batched-engine.md, Scheduler). Results
    /// never depend on where the chunks fall.
    public func chunkStarts(_ range: Range<Int>) -> [Int] {
        var starts = [range.lowerBound]
        var next = range.lowerBound
        while next < range.upperBound {
            let left = range.upperBound - next
            var size = chunkSize
            if threads > 1 && chunkSize > Self.smallestTailChunk {
                let share = (left + 2 * threads - 1) / (2 * threads)
                let rounded = (share + Self.smallestTailChunk - 1) / Self.smallestTailChunk * Self.smallestTailChunk
                size = min(chunkSize, rounded)
            }
            next += min(size, left)
            starts.append(next)
        }
        return starts
    }

    /// How many worker threads `run` starts for `range`: no more than it has chunks.
    public func workerCount(for range: Range<Int>) -> Int {
        range.isEmpty ? 0 : min(threads, chunkStarts(range).count - 1)
    }

    /// The threads each worker's big world may split over: the spare threads, when `run` starts
    /// fewer workers than `threads` (one world on two threads gets both).
    public func threadsPerWorld(_ range: Range<Int>) -> Int {
        max(1, threads / max(1, workerCount(for: range)))
    }

    /// Runs `work` on every chunk of `range` and `consume` on the results in chunk order.
    /// After `cancel` is set no new chunk starts; chunks already started finish and are consumed.
    /// Returns the end of the prefix of `range` that was consumed (== `range.upperBound` when all
    /// was). A throwing `consume` stops the run and its error is rethrown.
    @discardableResult
    public func run<T: Sendable>(_ range: Range<Int>, cancel: CancellationFlag = CancellationFlag(),
                                 work: @escaping @Sendable (Range<Int>) -> T,
                                 consume: (Range<Int>, T) throws -> Void) throws -> Int {
        guard !range.isEmpty else { return range.lowerBound }
        let starts = chunkStarts(range)
        let chunkCount = starts.count - 1
        @Sendable func chunk(_ c: Int) -> Range<Int> { starts[c]..<starts[c + 1] }
        let state = SchedulerState<T>(limit: threads * aheadPerThread)
        let group = DispatchGroup()
        let workers = min(threads, chunkCount)
        // Dedicated threads, not Dispatch's global pool: the consumer blocks while it waits, and
        // under Swift Testing (or other blocking callers) a shared pool of core-count width could
        // leave the workers queued behind it.
        for w in 0..<workers {
            group.enter()
            let thread = Thread {
                while let c = state.take(chunkCount: chunkCount, cancel: cancel) {
                    state.dropConsumed(by: w)
                    let result = work(chunk(c))
                    state.deliver(c, consume result, by: w)
                }
                state.dropConsumed(by: w)
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        var consumedTo = range.lowerBound
        var failure: Error?
        var next = 0
        while next < chunkCount, let (result, worker) = state.await(next, cancel: cancel) {
            do {
                try consume(chunk(next), result)
                consumedTo = chunk(next).upperBound
            } catch {
                failure = error
                cancel.cancel()
                state.stop()
                break
            }
            next += 1
            // Handed over, not copied: a reference the consumer still held could be the last,
            // and the result freed here after all.
            state.consumed(next, consume result, by: worker)
        }
        state.stop()
        group.wait()
        // What the workers had not dropped when they stopped is dropped here.
        state.dropAllConsumed()
        if let failure { throw failure }
        return consumedTo
    }
}

/// Shared by the workers and the consumer: which chunk starts next, the finished chunks not yet
/// consumed, how far the consumer got, and the consumed results each worker is to drop.
///
/// A result goes back to the worker that made it to be dropped there: freed by the consumer, its
/// memory went back to the worker's malloc arena from another thread (taking the arena's lock
/// while the worker allocated from it, and leaving the worker colder memory to allocate), which
/// made the engine itself slower in `run` than alone.
final class SchedulerState<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var nextToStart = 0
    private var nextToConsume = 0
    private var done: [Int: (T, worker: Int)] = [:]
    private var consumedResults: [Int: [T]] = [:]
    private var stopped = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Drops the consumed results worker `w` made (on the calling thread, which should be `w`'s).
    func dropConsumed(by w: Int) {
        condition.lock()
        let results = consumedResults.removeValue(forKey: w)
        condition.unlock()
        withExtendedLifetime(results) {}
    }

    /// Drops every consumed result not yet dropped.
    func dropAllConsumed() {
        condition.lock()
        let results = consumedResults
        consumedResults = [:]
        condition.unlock()
        withExtendedLifetime(results) {}
    }

    /// The next chunk for a worker, waiting while too far ahead; nil when there is no more work.
    func take(chunkCount: Int, cancel: CancellationFlag) -> Int? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if stopped || nextToStart >= chunkCount || cancel.isCancelled { return nil }
            if nextToStart < nextToConsume + limit {
                let c = nextToStart
                nextToStart += 1
                return c
            }
            condition.wait()
        }
    }

    func deliver(_ c: Int, _ result: consuming T, by worker: Int) {
        condition.lock()
        done[c] = (result, worker)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for chunk `c` (its result and the worker that made it); nil if it was never started
    /// (cancelled) or the run stopped.
    func await(_ c: Int, cancel: CancellationFlag) -> (T, worker: Int)? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if let r = done.removeValue(forKey: c) { return r }
            // Once cancelled, `take` starts nothing more: a chunk not yet started never will be.
            if stopped || (c >= nextToStart && cancel.isCancelled) { return nil }
            // Timed: cancellation comes from a signal without waking this condition.
            _ = condition.wait(until: Date().addingTimeInterval(0.05))
        }
    }

    /// The consumer is done with the chunks before `upTo`, the last of which gave `result`,
    /// made by `worker`.
    func consumed(_ upTo: Int, _ result: consuming T, by worker: Int) {
        condition.lock()
        consumedResults[worker, default: []].append(result)
        nextToConsume = upTo
        condition.broadcast()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
