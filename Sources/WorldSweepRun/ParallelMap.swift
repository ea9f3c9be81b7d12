import Dispatch
import WorldSweep
import Synchronization

/// Independent jobs over up to `threads` threads, each result stored at its own index: what a
/// caller builds from the results is the same whatever the thread count (the report's bytes may
/// not depend on `--threads`). The calling thread takes jobs too, the others go to helper threads
/// (HelperThreads). For jobs of a millisecond or more (a metric's fit, a metric's charts).
public enum ParallelMap {
    public static func map<T>(_ count: Int, threads: Int, _ job: (Int) -> T) -> [T] {
        map(count, threads: threads) { k, _ in job(k) }
    }

    /// Runs `body`, whose parallel steps (`map`s) follow one another with short serial steps
    /// between them, with the helper threads kept awake between the steps (`HelperThreads.awake`).
    /// Nothing changes with one thread.
    public static func keepingHelpersAwake<T>(threads: Int, _ body: () throws -> T) rethrows -> T {
        threads > 1 ? try HelperThreads.shared.awake(body) : try body()
    }

    /// How many threads `map` runs `count` jobs on.
    public static func workers(_ count: Int, threads: Int) -> Int { min(max(1, threads), count) }

    /// `map`, each job told which of the `workers(count, threads:)` threads runs it (0 ..< workers;
    /// one job at a time per thread): for data a thread should have a copy of its own.
    public static func map<T>(_ count: Int, threads: Int, _ job: (_ index: Int, _ worker: Int) -> T) -> [T] {
        let workers = Self.workers(count, threads: threads)
        // Plain loops, here and below: this function is not specialized for its callers' `T`, and
        // a collection's `map` in it walked the indices through witness calls, a large share of a
        // job as short as a big world's per-metric ones.
        guard workers > 1 else {
            var results: [T] = []
            results.reserveCapacity(count)
            for k in 0..<count { results.append(job(k, 0)) }
            return results
        }
        // An array's own storage, not a buffer allocated here (the stores own every allocation).
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            withoutActuallyEscaping(job) { job in
                let shared = Shared(job: job, slots: slots)
                let run: (Int) -> Void = { worker in
                    while true {
                        let k = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard k < count else { return }
                        shared.slots[k] = shared.job(k, worker)
                    }
                }
                // The calling thread is worker 0; helpers take the others. The jobs are shared out
                // one at a time, so the caller finishes them all should no helper start.
                let shares = (1..<workers).map { HelperThreads.Share(worker: $0, work: run) }
                HelperThreads.shared.post(shares)
                run(0)
                HelperThreads.shared.finish(shares)
            }
        }
        var taken: [T] = []
        taken.reserveCapacity(count)
        for k in 0..<count { taken.append(results[k]!) }
        return taken
    }

    /// The job, the result slots and the next job's index, handed to the threads: each slot is
    /// written by one job only and read after all have joined.
    private final class Shared<T>: @unchecked Sendable {
        let job: (Int, Int) -> T
        let slots: UnsafeMutableBufferPointer<T?>
        let next = Atomic<Int>(0)
        init(job: @escaping (Int, Int) -> T, slots: UnsafeMutableBufferPointer<T?>) { self.job = job; self.slots = slots }
    }
}
