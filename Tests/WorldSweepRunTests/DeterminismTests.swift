import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// Determinism inside `swift test`, as Box2D v3's test_determinism pins it: a hash of every body
/// state a few worlds of each seed sweep end in (position, angle, velocities and contact counts, as
/// bit patterns), the same whatever the thread count, the chunk size or the engine path (one world
/// at a time through the animator, or batched lanes), and equal to a hash pinned here from the code
/// that passes the golden pins (scripts/golden.sh, which pins the output files' bytes). A change of
/// one bit of one state changes the hash; a change to how files are written does not.
@Suite struct DeterminismTests {
    /// Per seed sweep: the hash of its sampled worlds' end states. Derived once from commit
    /// 48da931 (golden 60/60 on both engine codes); an engine change that moves a bit must say
    /// why and re-pin with the golden hashes.
    static let pinned: [String: UInt64] = [
        "ledge-squares": 1630747658629366859,
        "million-drops": 10590801940517523166,
        "pendulum": 3268994362254079533,
        "push-offset": 18268821389657854180,
        "radial-gravity": 10620851691345012416,
        "snap": 3648206615827997879,
        "spinner": 1666032499454320319,
        "spring-card": 4439265621505107082,
        "spring-hang": 12173055273377484922,
        "twin-drop": 10099208270591839319,
    ]

    /// Six worlds spread over the sweep (its first and its last among them).
    static func sampledWorlds(_ count: Int) -> [Int] {
        let n = min(count, 6)
        return (0..<n).map { k in n == 1 ? 0 : k * (count - 1) / (n - 1) }
    }

    /// FNV-1a over the bit patterns of every end state, world by world in the order given.
    static func stateHash(_ results: [WorldResult]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) {
            for byte in 0..<8 { hash = (hash ^ (word >> (8 * UInt64(byte)) & 0xff)) &* 0x100_0000_01b3 }
        }
        for r in results {
            mix(UInt64(r.world)); mix(r.failed ? 1 : 0)
            for item in r.items {
                for value in [item.x, item.y, item.angle, item.vx, item.vy, item.angularVelocity] { mix(value.bitPattern) }
                mix(UInt64(item.contacts))
                mix(item.restTime?.bitPattern ?? UInt64.max)
            }
        }
        return hash
    }

    /// The sampled worlds on `runner`'s engine, cut into chunks of `chunkSize` run on `threads`
    /// threads by the sweep scheduler, results in world order.
    static func run(_ runner: WorldRunner, worlds: [Int], threads: Int, chunkSize: Int) throws -> [WorldResult] {
        var results: [WorldResult] = []
        try Scheduler(threads: threads, chunkSize: chunkSize).run(0..<worlds.count, work: { chunk in
            runner.run(worldsAt: chunk.map { worlds[$0] })
        }, consume: { _, chunkResults in results += chunkResults })
        return results
    }

    @Test(arguments: pinned.keys.sorted())
    func endStatesHashAsPinned(_ sweep: String) throws {
        let scene = try SceneFile.load(path: "\(BatchAgreementTests.sweepsDirectory)/\(sweep).yaml")
        let worlds = Self.sampledWorlds(scene.worldCount)
        var single = WorldRunner(scene: scene)
        single.engine = .single
        var batched = single
        batched.engine = .batched(.simd)
        let reference = Self.stateHash(try Self.run(single, worlds: worlds, threads: 1, chunkSize: 1))
        // One batch of all on one thread; batches of two on three threads, of three on two.
        for (threads, chunkSize) in [(1, worlds.count), (3, 2), (2, 3)] {
            let hash = Self.stateHash(try Self.run(batched, worlds: worlds, threads: threads, chunkSize: chunkSize))
            #expect(hash == reference, "\(sweep): batched, \(threads) threads, chunks of \(chunkSize)")
        }
        #expect(Self.stateHash(try Self.run(single, worlds: worlds, threads: 2, chunkSize: 2)) == reference,
                "\(sweep): single world, 2 threads")
        #expect(reference == Self.pinned[sweep], "\(sweep): end states hash to \(reference), pinned \(Self.pinned[sweep]!)")
    }
}

extension WorldRunner {
    /// `worlds` (any indices) on this runner's engine: one at a time, or as one batch.
    func run(worldsAt worlds: [Int]) -> [WorldResult] {
        switch engine {
        case .single: worlds.map { run(world: $0) }
        case .batched(let integrator): runBatched(worlds, integrator: integrator)
        }
    }
}
