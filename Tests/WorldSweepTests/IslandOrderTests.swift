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

    /// Walks `touching` (contact indices, newest first) over `pairs`.
    func walk(bodyCount: Int, pairs: [BodyPair], touching: [Int32], statics: Set<Int>, asleep: Set<Int> = []) -> Walk {
        var result = Walk()
        var contacts: [Int] = [], reached: [Int] = []
        var bodyFlag = [Bool](repeating: false, count: bodyCount), contactFlag = [Bool](repeating: false, count: touching.count)
        var stack = [Int32](repeating: 0, count: bodyCount)
        touching.withUnsafeBufferPointer { touching in
            Islands.walk(bodyCount: bodyCount, contacts: touching, pair: { pairs[$0] },
                         isStatic: { statics.contains($0) }, canSeed: { !asleep.contains($0) },
                         bodyFlag: &bodyFlag, contactFlag: &contactFlag, stack: &stack,
                         body: { reached.append($0) }, contact: { contacts.append($0) },
                         endIsland: {
                             result.islands.append(contacts); result.bodies.append(reached)
                             contacts = []; reached = []
                         })
        }
        return result
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
}
