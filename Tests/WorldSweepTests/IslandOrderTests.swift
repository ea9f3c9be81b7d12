import TestScratch
import Testing
@testable import WorldSweep

/// Box2D 2.x's island walk (b2World::Solve), the order both engines solve contacts in. The
/// expected orders are worked out by hand from that code: seeds newest body first, a stack,
/// each body's contacts newest first, static bodies ending the walk.
@Suite struct IslandOrderTests {
    struct Walk {
        var islands: [[Int]] = []       // contacts of each island, in solving order
        var bodies: [[Int]] = []        // bodies of each island, in the order they are reached
    }

    /// What the walk told its graph, island by island.
    struct Recorder: IslandGraph {
        var pairs: [BodyPair], statics: Set<Int>, asleep: Set<Int>, joints: [BodyPair] = []
        var result = Walk(), joinedJoints: [[Int]] = []
        var contacts: [Int] = [], reachedBodies: [Int] = [], islandJoints: [Int] = []
        func pair(_ contact: Int) -> BodyPair { pairs[contact] }
        func isStatic(_ body: Int) -> Bool { statics.contains(body) }
        func canSeed(_ body: Int) -> Bool { !asleep.contains(body) }
        func jointBodies(_ joint: Int) -> BodyPair { joints[joint] }
        mutating func reached(body: Int) { reachedBodies.append(body) }
        mutating func took(contact: Int) { contacts.append(contact) }
        mutating func took(joint: Int) { islandJoints.append(joint) }
        mutating func endIsland() {
            result.islands.append(contacts); result.bodies.append(reachedBodies); joinedJoints.append(islandJoints)
            contacts = []; reachedBodies = []; islandJoints = []
        }
    }

    /// Walks `touching` (contact indices, newest first) over `pairs`.
    func walk(bodyCount: Int, pairs: [BodyPair], touching: [Int32], statics: Set<Int>, asleep: Set<Int> = [],
              joints: [BodyPair] = []) -> Recorder {
        var recorder = Recorder(pairs: pairs, statics: statics, asleep: asleep, joints: joints)
        let scratch = IslandWalkScratch(bodies: bodyCount, contacts: touching.count, joints: joints.count)
        touching.withUnsafeBufferPointer { touching in
            Islands.walk(&recorder, bodyCount: bodyCount, contacts: touching, jointCount: joints.count, scratch: scratch)
        }
        return recorder
    }

    func walk(bodyCount: Int, pairs: [BodyPair], touching: [Int32], statics: Set<Int>, asleep: Set<Int> = []) -> Walk {
        walk(bodyCount: bodyCount, pairs: pairs, touching: touching, statics: statics, asleep: asleep, joints: []).result
    }

    /// Three boxes stacked on the ground: 0 at the bottom, 2 on top; body 3 is the ground edge.
    /// Pairs in pair order: (3,0), (3,1), (3,2), (0,1), (0,2), (1,2); the touching contacts
    /// (ground–0, 0–1, 1–2) were made bottom up, so newest first they are 5, 3, 0.
    @Test func aStackIsSolvedFromTheNewestBodyDown() {
        let pairs = [BodyPair(a: 3, b: 0), BodyPair(a: 3, b: 1), BodyPair(a: 3, b: 2),
                     BodyPair(a: 0, b: 1), BodyPair(a: 0, b: 2), BodyPair(a: 1, b: 2)]
        let w = walk(bodyCount: 4, pairs: pairs, touching: [5, 3, 0], statics: [3])
        // Seed 3 is static; seed 2 (top): its one contact 1–2 (pair 5) reaches 1; 1's contacts
        // newest first: 1–2 (taken), 0–1 (pair 3) reaches 0; 0's: ground–0 (pair 0) reaches the
        // ground, which ends the walk. One island, top down — pair order would be 0, 3, 5.
        #expect(w.islands == [[5, 3, 0]])
        #expect(w.bodies == [[2, 1, 0, 3]])
    }

    /// A stack of two made in the other order (the top box's ground contact is older than the
    /// boxes' contact) and a separate box: two islands, newest seed first, and the shared
    /// static ground freed after the first island so the second reaches it too.
    @Test func islandsFollowSeedsNewestFirstAndShareStaticBodies() {
        // Bodies: 0, 1 stacked (1 on 0), 2 alone, 3 the ground. Pairs: (3,0)=0, (3,1)=1, (3,2)=2, (0,1)=3.
        let pairs = [BodyPair(a: 3, b: 0), BodyPair(a: 3, b: 1), BodyPair(a: 3, b: 2), BodyPair(a: 0, b: 1)]
        // Touching, newest first: 0–1 (pair 3), ground–2 (pair 2), ground–0 (pair 0).
        let w = walk(bodyCount: 4, pairs: pairs, touching: [3, 2, 0], statics: [3])
        // Seed 2: ground–2, reaches the ground (static: ends). Seed 1: 0–1 reaches 0; 0's newest
        // first: 0–1 (taken), ground–0 reaches the ground again (freed after island one).
        #expect(w.islands == [[2], [3, 0]])
        #expect(w.bodies == [[2, 3], [1, 0, 3]])
    }

    /// A sleeping body is no seed but joins (and is woken by) the island of an awake one it
    /// touches; a body alone makes an island with no contacts.
    @Test func sleepingBodiesJoinAwakeIslandsButSeedNone() {
        // Bodies 0 (asleep) and 1 (awake) touch (pair 0); body 2 (awake) touches nothing.
        let pairs = [BodyPair(a: 0, b: 1), BodyPair(a: 0, b: 2)]
        let w = walk(bodyCount: 3, pairs: pairs, touching: [0], statics: [], asleep: [0])
        #expect(w.islands == [[], [0]])
        #expect(w.bodies == [[2], [1, 0]])
    }

    /// b2World::Solve's walk as Box2D writes it: for each body popped, every touching contact
    /// (newest first) and then every joint (newest first) scanned for its edges. The walk under
    /// test reads per-body edge lists instead; on a random pile of bodies, contacts and joints
    /// (static bodies shared by islands, sleeping bodies) both must visit everything in the same order.
    /// Piles both small enough for the walk's own scan (`Islands.scanLimit`) and beyond it.
    @Test func edgeListsVisitAsTheFullScanDoes() {
        var seeded = SeededNumbers(28)
        var scanned = 0, listed = 0
        for _ in 0..<50 {
            let bodyCount = Int.random(in: 2...40, using: &seeded)
            let statics = Set((0..<bodyCount).filter { _ in Int.random(in: 0..<5, using: &seeded) == 0 })
            let asleep = Set((0..<bodyCount).filter { _ in Int.random(in: 0..<6, using: &seeded) == 0 })
            var pairs: [BodyPair] = []
            for a in 0..<bodyCount {
                for b in (a + 1)..<max(a + 1, bodyCount) where !(statics.contains(a) && statics.contains(b)) {
                    if Int.random(in: 0..<bodyCount, using: &seeded) < 3 { pairs.append(BodyPair(a: a, b: b)) }
                }
            }
            let touching = (0..<pairs.count).map(Int32.init).shuffled(using: &seeded)
            let joints = (0..<Int.random(in: 0...4, using: &seeded)).map { _ -> BodyPair in
                let a = Int.random(in: 0..<bodyCount, using: &seeded)
                return BodyPair(a: a, b: (a + 1 + Int.random(in: 0..<(bodyCount - 1), using: &seeded)) % bodyCount)
            }
            let got = walk(bodyCount: bodyCount, pairs: pairs, touching: touching, statics: statics, asleep: asleep, joints: joints)
            if touching.count + joints.count <= Islands.scanLimit { scanned += 1 } else { listed += 1 }
            // The reference: Box2D's scan.
            var want = Recorder(pairs: pairs, statics: statics, asleep: asleep, joints: joints)
            var bodyFlag = [Bool](repeating: false, count: bodyCount), contactFlag = [Bool](repeating: false, count: touching.count)
            var jointFlag = [Bool](repeating: false, count: joints.count)
            for seed in stride(from: bodyCount - 1, through: 0, by: -1) {
                if bodyFlag[seed] || statics.contains(seed) || asleep.contains(seed) { continue }
                var stack = [seed]
                bodyFlag[seed] = true
                while let b = stack.popLast() {
                    want.reached(body: b)
                    if statics.contains(b) { continue }
                    for k in touching.indices where !contactFlag[k] {
                        let p = pairs[Int(touching[k])]
                        guard p.a == b || p.b == b else { continue }
                        contactFlag[k] = true
                        want.took(contact: Int(touching[k]))
                        let o = p.a == b ? p.b : p.a
                        if !bodyFlag[o] { bodyFlag[o] = true; stack.append(o) }
                    }
                    for j in stride(from: joints.count - 1, through: 0, by: -1) where !jointFlag[j] {
                        let p = joints[j]
                        guard p.a == b || p.b == b else { continue }
                        jointFlag[j] = true
                        want.took(joint: j)
                        let o = p.a == b ? p.b : p.a
                        if !bodyFlag[o] { bodyFlag[o] = true; stack.append(o) }
                    }
                }
                want.endIsland()
                for s in statics { bodyFlag[s] = false }
            }
            #expect(got.result.islands == want.result.islands)
            #expect(got.result.bodies == want.result.bodies)
            #expect(got.joinedJoints == want.joinedJoints)
            #expect(!want.result.islands.isEmpty || asleep.union(statics).count == bodyCount)
        }
        #expect(scanned >= 5 && listed >= 5)
    }
}
