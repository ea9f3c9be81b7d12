import Testing
@testable import WorldSweep

/// The two-point block solve stops at its first case ("both points push") where every lane is a
/// two-point lane that takes it; elsewhere it tries every case and selects per lane. Stopping
/// early must give bitwise what the full select gives: on one world (Float) and on eight lanes
/// (SIMD8), whether all eight lanes take the first case or only some do.
@Suite struct ContactBlockSolveTests {
    typealias Lane = ContactKernelTests.Lane
    typealias V = SIMD8<Float>

    /// Whether one velocity step of this two-point lane ends with both normal impulses positive:
    /// only the first case ("both") leaves both non-zero, so the lane took it.
    func takesBoth(_ lane: Lane) -> Bool {
        var (c, a, b) = lane
        ContactVelocityKernel.solve(&c, &a, &b, fullSelect: true)
        return c.p0.normalImpulse > 0 && c.p1.normalImpulse > 0
    }

    /// Random two-point lanes, split into those whose first step takes the first case and the rest.
    func twoPointLanes(seed: UInt64, count: Int) -> (both: [Lane], other: [Lane]) {
        var r = ContactKernelTests.Random(state: seed)
        var both: [Lane] = [], other: [Lane] = []
        for _ in 0..<count {
            let lane = ContactKernelTests().randomLane(&r, points: 2)
            if takesBoth(lane) { both.append(lane) } else { other.append(lane) }
        }
        return (both, other)
    }

    @Test func oneWorldStoppingEarlyGivesTheFullSelectsBits() {
        var r = ContactKernelTests.Random(state: 31)
        var tookBoth = 0, tookOther = 0
        for k in 0..<1_000 {
            let lane = ContactKernelTests().randomLane(&r, points: k % 5 == 0 ? 1 : (k % 7 == 0 ? 0 : 2))
            if lane.0.twoPoints { if takesBoth(lane) { tookBoth += 1 } else { tookOther += 1 } }
            var (c, a, b) = lane, (cs, as_, bs) = lane
            for _ in 0..<EngineSettings.velocityIterations {
                ContactVelocityKernel.solve(&c, &a, &b)
                ContactVelocityKernel.solve(&cs, &as_, &bs, fullSelect: true)
            }
            ContactKernelTests().expectSameBits((c, a, b), (cs, as_, bs), "lane \(k)")
        }
        // Both paths ran: lanes that stop early and lanes that need the other cases.
        #expect(tookBoth > 100 && tookOther > 100)
    }

    /// Lane k of the wide solve holds the bits of the single-world solve of lane k.
    func expectLanesMatch(_ wide: (ContactLanes<V>, VelocityLanes<V>, VelocityLanes<V>), _ lanes: [Lane], _ label: String) {
        let (c, a, b) = wide
        for k in 0..<8 {
            var (cs, as_, bs) = lanes[k]
            for _ in 0..<EngineSettings.velocityIterations { ContactVelocityKernel.solve(&cs, &as_, &bs, fullSelect: true) }
            let pairs: [(Float, Float)] = [
                (a.vx[k], as_.vx), (a.vy[k], as_.vy), (a.w[k], as_.w), (b.vx[k], bs.vx), (b.vy[k], bs.vy), (b.w[k], bs.w),
                (c.p0.normalImpulse[k], cs.p0.normalImpulse), (c.p1.normalImpulse[k], cs.p1.normalImpulse),
                (c.p0.tangentImpulse[k], cs.p0.tangentImpulse), (c.p1.tangentImpulse[k], cs.p1.tangentImpulse)]
            for (x, y) in pairs { #expect(x.bitPattern == y.bitPattern, "\(label) lane \(k)") }
        }
    }

    /// Eight lanes that all take the first case (the wide kernel stops early), and mixes where only
    /// some do (it must select per lane): each lane as the full select on its own gives.
    @Test(arguments: [0, 1, 4, 7, 8])
    func eightLanesStoppingEarlyGiveTheFullSelectsBits(lanesTakingBoth: Int) {
        let (both, other) = twoPointLanes(seed: 57 &+ UInt64(lanesTakingBoth), count: 400)
        #expect(both.count >= 8 && other.count >= 8)
        let lanes = Array(both.prefix(lanesTakingBoth)) + Array(other.prefix(8 - lanesTakingBoth))
        var (c, a, b) = ContactKernelTests.wide(lanes), (cs, as_, bs) = ContactKernelTests.wide(lanes)
        for _ in 0..<EngineSettings.velocityIterations {
            ContactVelocityKernel.solve(&c, &a, &b)
            ContactVelocityKernel.solve(&cs, &as_, &bs, fullSelect: true)
        }
        expectLanesMatch((c, a, b), lanes, "stopping early")
        expectLanesMatch((cs, as_, bs), lanes, "full select")
    }
}
