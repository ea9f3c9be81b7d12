import Testing
@testable import WorldSweep

/// The batch's pair → row table against Swift's Dictionary as the oracle: seeded random inserts,
/// overwrites and removals over keys crowded into few bodies (so probe runs collide and wrap, and
/// removal must shift entries back), every key looked up after every step.
@Suite struct PairKeyTableTests {
    @Test func agreesWithDictionaryUnderInsertsAndRemovals() {
        var table = PairKeyTable()
        var oracle: [UInt64: Int32] = [:]
        var random = SplitMix64(seed: 29)
        // 40 bodies: 780 pairs, so the table grows several times and stays dense.
        let keys = (0..<40).flatMap { a in (a + 1..<40).map { PhysicsWorld.pairKey(a, $0) } }
        for step in 0..<20_000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            if random.next() % 3 == 0 {
                table[key] = nil; oracle[key] = nil
            } else {
                let value = Int32(step)
                table[key] = value; oracle[key] = value
            }
            if step % 97 == 0 {
                for k in keys { #expect(table[k] == oracle[k] && table.contains(k) == (oracle[k] != nil)) }
            }
            #expect(table[key] == oracle[key])
        }
        #expect(table.count == oracle.count)
        for k in keys { #expect(table[k] == oracle[k]) }
        // Emptied, every key reads as absent.
        for k in keys { table[k] = nil }
        #expect(table.count == 0)
        for k in keys { #expect(table[k] == nil && !table.contains(k)) }
    }
}

/// A small seeded generator (SplitMix64), so the test's sequence is the same everywhere.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
