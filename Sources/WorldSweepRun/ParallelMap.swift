import Dispatch
import Synchronization

/// Independent jobs over up to `threads` threads, each result stored at its own index: what a
/// caller builds from the results is the same whatever the thread count (the report's bytes may
/// not depend on `--threads`). The calling thread takes jobs too. For jobs of a millisecond or
/// more (a metric's fit, a metric's charts): Dispatch costs about 5 µs a call.
public enum ParallelMap {
    public static func map<T>(_ count: Int, threads: Int, _ job: (Int) -> T) -> [T] {
        map(count, threads: threads) { k, _ in job(k) }
    }

    /// How many threads `map` runs `count` jobs on.
    public static func workers(_ count: Int, threads: Int) -> Int { min(max(1, threads), count) }

    /// `map`, each job told which of the `workers(count, threads:)` threads runs it (0 ..< workers;
    /// one job at a time per thread): for data a thread should have a copy of its own.
    public static func map<T>(_ count: Int, threads: Int, _ job: (_ index: Int, _ worker: Int) -> T) -> [T] {
        let workers = Self.workers(count, threads: threads)
        guard workers > 1 else { return (0..<count).map { job($0, 0) } }
        // An array's own storage, not a buffer allocated here (the stores own every allocation).
        var results = [T?](repeating: nil, count: count)
        let next = Atomic<Int>(0)
        results.withUnsafeMutableBufferPointer { slots in
            withoutActuallyEscaping(job) { job in
                let shared = Shared(job: job, slots: slots)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    while true {
                        let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard k < count else { return }
                        shared.slots[k] = shared.job(k, worker)
                    }
                }
            }
        }
        return results.map { $0! }
    }

    /// The job and the result slots, handed to the threads: each slot is written by one job only
    /// and read after all have joined.
    private struct Shared<T>: @unchecked Sendable {
        let job: (Int, Int) -> T
        let slots: UnsafeMutableBufferPointer<T?>
    }
}
