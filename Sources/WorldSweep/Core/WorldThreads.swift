// One world's sub-step over several threads. A stage that splits (the contact update, the
// islands' solve) cuts its items into a fixed number of chunks by their count alone; each chunk
// writes only its own items' results, and whatever depends on order is done after, on the
// calling thread, in the one-thread order. Which thread runs a chunk, and when, changes nothing:
// the same bits at any thread count.

import Synchronization

/// How many threads one world's stages may use, and how a stage's chunks are handed to them
/// (the calling thread and `HelperThreads`).
struct WorldThreads {
    /// Threads the world may use; 1: every stage on the calling thread, as one world has always run.
    var count = 1
    /// The helpers held while the world runs `holdingHelpers` (WorldCrew.swift), else nil: each
    /// stage is then handed to them rather than posted to `HelperThreads`.
    var crew: WorldCrew?

    /// How long a stage whose parts run at once (`runTogether`) waits for helpers to take them,
    /// and one part for another's progress, before the stage is run on the calling thread alone:
    /// on a machine busier than its cores, a part's thread may be off its core for milliseconds.
    var longestJoinNanoseconds: UInt64 = 200_000, longestWaitNanoseconds: UInt64 = 200_000

    /// Chunks per thread: more than one, so a thread that finishes early takes another (a
    /// stage's cost is uneven along its items: asleep contacts cost nothing, and they cluster).
    static let chunksPerThread = 4

    /// Whether a stage of `items` items runs over threads: with more than one thread, and enough
    /// items that the split gains more than handing chunks to a helper costs.
    func splits(_ items: Int, least: Int) -> Bool { count > 1 && items >= least }

    /// The chunks a stage of `items` items is cut into (at least one).
    func chunkCount(_ items: Int) -> Int { max(1, min(items, count * Self.chunksPerThread)) }

    /// Chunk `k` of `chunks` over `items` items: the items from k·items/chunks on.
    @inline(__always) static func chunk(_ k: Int, of chunks: Int, items: Int) -> Range<Int> {
        (k * items / chunks)..<((k + 1) * items / chunks)
    }

    /// Runs `body(k, worker)` for every chunk k in 0 ..< chunks, on up to `count` threads (the
    /// calling thread one of them), each chunk once, told which thread (0 ..< count) runs it, for
    /// scratch of its own; returns when all have run. Helpers that have not
    /// started when the caller runs out of chunks are taken back, so the caller never waits for
    /// a thread to become free.
    func run(chunks: Int, _ body: (_ chunk: Int, _ worker: Int) -> Void) {
        let workers = min(count, chunks)
        guard workers > 1 else {
            for k in 0..<chunks { body(k, 0) }
            return
        }
        if let crew { return crew.run(chunks: chunks, body) }
        withoutActuallyEscaping(body) { body in
            let shared = ChunkCounter(body: body)
            let take: (Int) -> Void = { worker in
                while true {
                    let k = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < chunks else { return }
                    shared.body(k, worker)
                }
            }
            let shares = (1..<workers).map { HelperThreads.Share(worker: $0, work: take) }
            HelperThreads.shared.post(shares)
            take(0)
            HelperThreads.shared.finish(shares)
        }
    }

    /// Runs `part(p)` for every p in 0 ..< parts at once, each on its own thread (the parts may
    /// wait on one another), through the held helpers (`WorldCrew.runTogether`). Returns false,
    /// having run none, without such helpers or when they are not free at once.
    func runTogether(parts: Int, _ part: (_ part: Int) -> Void) -> Bool {
        guard count >= parts, let crew else { return false }
        return crew.runTogether(parts: parts, longestJoinNanoseconds: longestJoinNanoseconds, part)
    }

    /// The stage's body and the next chunk to take, shared by the threads.
    private final class ChunkCounter: @unchecked Sendable {
        let body: (Int, Int) -> Void
        let next = Atomic<Int>(0)
        init(body: @escaping (Int, Int) -> Void) { self.body = body }
    }
}
