// Helpers held by one world through a stretch of sub-steps (`PhysicsWorld.holdingHelpers`): each
// split stage is handed to them through one atomic word and waited for on one atomic count,
// where `WorldThreads.run` alone posts every stage to `HelperThreads` (a lock, a queue, a
// condition to broadcast on and, for the caller, one to park on). A held helper spins between
// stages; the chunks and what each writes are the same either way, so the bits are too.

import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One world's helpers while they are held: the stage being handed out and the count of its
/// chunks finished. The calling thread is worker 0; each held helper serves (`serve`) until
/// released.
final class WorldCrew: @unchecked Sendable {
    /// The stage handed out, in one word so that a chunk is taken by one compare-and-exchange:
    /// the stage's serial number from bit 32, its chunk count in bits 16 ..< 32, the next chunk
    /// to take in bits 0 ..< 16. Taken out: next == count.
    private let stage = Atomic<Int>(0)
    /// Chunks of the stage handed out that have run, on any thread.
    private let finished = Atomic<Int>(0)
    /// Set when the helpers are no longer held: each returns once no chunk is left to take.
    private let released = Atomic<Bool>(false)
    /// The stage's body: written before the stage is handed out, read by a helper only after it
    /// took a chunk, and dropped only once every chunk has run (so never while a helper reads it).
    private var body: ((Int, Int) -> Void)?
    private var serial = 0

    /// The most chunks one stage may have (the width of the word's fields).
    static let mostChunks = 1 << 16 - 1

    /// Runs `body(k, worker)` for every chunk k in 0 ..< chunks, each once, on the calling thread
    /// (worker 0) and whichever held helpers take a chunk; returns when all have run. With no
    /// helper serving, the caller runs them all.
    func run(chunks: Int, _ body: (_ chunk: Int, _ worker: Int) -> Void) {
        precondition(chunks <= Self.mostChunks)
        withoutActuallyEscaping(body) { body in
            self.body = body
            finished.store(0, ordering: .relaxed)
            serial &+= 1
            // Releasing: what the serial stages before wrote is seen by the helper that takes a chunk.
            stage.store((serial & 0xFFFF_FFFF) << 32 | chunks << 16, ordering: .releasing)
            var ran = 0
            while let k = take() { body(k, 0); ran += 1 }
            if finished.add(ran, ordering: .acquiringAndReleasing).newValue < chunks {
                // A helper is still on a chunk: its core is busy with this stage, so wait on this one.
                while finished.load(ordering: .acquiring) < chunks { sched_yield() }
            }
            self.body = nil
        }
    }

    /// Runs `part(p)` for every p in 0 ..< parts at once, each on its own thread: the calling
    /// thread (part 0) and held helpers, no part started before every part has a thread (the
    /// parts may wait on one another). Returns false, having run none, when the helpers have not
    /// taken every part within `longestJoinNanoseconds`.
    func runTogether(parts: Int, longestJoinNanoseconds: UInt64, _ part: (Int) -> Void) -> Bool {
        precondition(parts >= 1 && parts <= Self.mostChunks)
        return withoutActuallyEscaping(part) { part in
            let gate = Gate()
            self.body = { k, _ in if gate.opened() { part(k) } }
            finished.store(0, ordering: .relaxed)
            serial &+= 1
            stage.store((serial & 0xFFFF_FFFF) << 32 | parts << 16, ordering: .releasing)
            let own = take()!
            var ran = 1
            let start = DispatchTime.now().uptimeNanoseconds
            while stage.load(ordering: .acquiring) & 0xFFFF < parts {
                if DispatchTime.now().uptimeNanoseconds - start > longestJoinNanoseconds {
                    while take() != nil { ran += 1 }   // the parts no helper took: none will run
                    break
                }
                sched_yield()
            }
            let together = ran == 1
            gate.open(together)
            if together { part(own) }
            if finished.add(ran, ordering: .acquiringAndReleasing).newValue < parts {
                while finished.load(ordering: .acquiring) < parts { sched_yield() }
            }
            self.body = nil
            return together
        }
    }

    /// Holds the parts of `runTogether` until every part has a thread (opened) or some never
    /// will (shut): a part taken then returns without running.
    private final class Gate: @unchecked Sendable {
        private let state = Atomic<Int>(0)
        func open(_ run: Bool) { state.store(run ? 1 : 2, ordering: .releasing) }
        func opened() -> Bool {
            while true {
                let s = state.load(ordering: .acquiring)
                if s != 0 { return s == 1 }
                sched_yield()
            }
        }
    }

    /// A held helper's loop (a `HelperThreads` share's work): takes chunks of each stage handed
    /// out until released.
    func serve(worker: Int) {
        while true {
            if let k = take() {
                runChunk(k, worker)
                finished.add(1, ordering: .releasing)
                continue
            }
            if released.load(ordering: .acquiring) { return }
            sched_yield()
        }
    }

    /// Lets the helpers go; the caller then waits for their shares (`HelperThreads.finish`).
    func release() { released.store(true, ordering: .releasing) }

    /// The next chunk of the stage handed out, if one is left.
    private func take() -> Int? {
        var word = stage.load(ordering: .acquiring)
        while true {
            let next = word & 0xFFFF, chunks = (word >> 16) & 0xFFFF
            guard next < chunks else { return nil }
            let (taken, seen) = stage.compareExchange(expected: word, desired: word + 1, ordering: .acquiringAndReleasing)
            if taken { return next }
            word = seen
        }
    }

    /// Runs chunk k with a copy of the body that is gone before the chunk counts as finished (the
    /// caller's `withoutActuallyEscaping` checks that none outlives its stage).
    @inline(never)
    private func runChunk(_ k: Int, _ worker: Int) {
        let body = self.body!
        body(k, worker)
    }
}

extension PhysicsWorld {
    /// Runs `body` (sub-steps) with the world's helpers held (`WorldCrew`): every split stage in
    /// it is handed over through the crew. As is with one thread.
    func holdingHelpers(_ body: () -> Void) {
        guard threads.count > 1 else { return body() }
        let crew = WorldCrew()
        let shares = (1..<threads.count).map { worker in HelperThreads.Share(worker: worker) { crew.serve(worker: $0) } }
        HelperThreads.shared.post(shares)
        threads.crew = crew
        body()
        threads.crew = nil
        crew.release()
        HelperThreads.shared.finish(shares)
    }
}
