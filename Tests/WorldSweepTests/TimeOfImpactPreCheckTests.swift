import Foundation
import Testing
@testable import WorldSweep

/// The time-of-impact pre-check against a static edge: its answers for sweeps worked out by hand,
/// and the same answer on eight lanes at once as on each lane alone (the batched engine runs it
/// eight worlds at a time, the single world one at a time; they must never disagree).
@Suite struct TimeOfImpactPreCheckTests {
    /// A floor along the x axis and a 50 × 50 pt box (0.5 m, engine units).
    let floor = Shape.edge(Vec2(-5, 0), Vec2(5, 0))
    let box = Shape.box(halfWidth: 0.25, halfHeight: 0.25)

    func sweep(from y0: Float, to y1: Float, angle a0: Float = 0, to a1: Float = 0) -> Sweep {
        Sweep(localCenter: .zero, c0: Vec2(0.3, y0), c: Vec2(0.3, y1), a0: a0, a: a1, alpha0: 0)
    }

    func mayTouch(_ s: Sweep) -> Bool { toiMayTouch(staticShape: floor, .identity, moving: box, s) }

    // Both skins are 1 pt (0.01 m): target = max(slop, 0.02 − 3 × 0.005) = 0.005 m and the
    // clearance is target + slop / 4 + slop = 0.01125 m. The box's core reaches 0.25 m below its
    // centre when upright, its half-diagonal √0.125 ≈ 0.3536 m at 45°.

    @Test func aCentreThatComesWithinTheClearanceMayTouch() {
        #expect(mayTouch(sweep(from: 0.5, to: 0.01)))
    }

    @Test func aBoxFarAboveTheEdgeIsRuledOutWithoutTrigonometry() {
        // 0.99 − 0.3536 × 1.001 > 0.01125: the bound alone rules it out.
        #expect(!mayTouch(sweep(from: 1.0, to: 0.99)))
    }

    @Test func anUprightBoxIsJudgedByItsExactReach() {
        // Resting: 0.26 − 0.25 = 0.01 ≤ 0.01125, so a search runs; 3 pt up, 0.03 > 0.01125, none.
        #expect(mayTouch(sweep(from: 0.26, to: 0.26)))
        #expect(!mayTouch(sweep(from: 0.28, to: 0.28)))
    }

    @Test func aTurningBoxCountsTheCornerItSwingsDown() {
        // Upright at 0.28 m it stays clear; turning to 45° its reach is
        // ½ (0.25 + 0.3536 + 0.3536 × π/4) ≈ 0.4406 m > 0.28 − 0.01125.
        #expect(mayTouch(sweep(from: 0.28, to: 0.28, angle: 0, to: .pi / 4)))
    }

    @Test func againstAWallTheReachIsTakenAtBothEndAngles() {
        // A wall along the y axis; the box turns from 45° back to upright, its centre 0.43 m from
        // the wall. Reach ½ (0.3536 + 0.25 + 0.3536 × π/4) ≈ 0.4406 m > 0.43 − 0.01125: a search
        // runs. Had the upright end been taken at the 45° cosine (0.177 m), it would not.
        let wall = Shape.edge(Vec2(0, -5), Vec2(0, 5))
        let turning = Sweep(localCenter: .zero, c0: Vec2(0.43, 1), c: Vec2(0.43, 1), a0: .pi / 4, a: 0, alpha0: 0)
        #expect(toiMayTouch(staticShape: wall, .identity, moving: box, turning))
        // Upright throughout at the same place: 0.43 − 0.25 > 0.01125.
        let upright = Sweep(localCenter: .zero, c0: Vec2(0.43, 1), c: Vec2(0.43, 1), a0: 0, a: 0, alpha0: 0)
        #expect(!toiMayTouch(staticShape: wall, .identity, moving: box, upright))
    }

    @Test func onlyEdgesCanRuleASearchOut() {
        let ground = Shape.box(halfWidth: 5, halfHeight: 0.1)
        #expect(toiMayTouch(staticShape: ground, .identity, moving: box, sweep(from: 3, to: 3)))
    }

    @Test(arguments: [1, 2, 3])
    func eightLanesEqualEightSingleWorlds(seed: UInt64) {
        var state = seed
        func next(_ scale: Float) -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * scale
        }
        typealias V = SIMD8<Float>
        var outcomes = Set<String>()
        for _ in 0..<500 {
            // Edges at random slopes and offsets; pentagons at random heights, moves and turns,
            // spread so that every exit of the rule is taken by some lane.
            let edgeAngle = next(0.4)
            let edges = (0..<8).map { _ in
                Shape.edge(Vec2(-5, next(0.05)), Vec2(5, next(0.05)))
            }
            let xfs = (0..<8).map { _ in Transform(p: Vec2(next(0.1), next(0.1)), q: Rot(edgeAngle)) }
            let pentagon = Shape.polygon((0..<5).map { k in
                let t = Float(k) * 2 * .pi / 5
                return Vec2(0.2 * cosf(t), 0.15 * sinf(t))
            })
            let sweeps = (0..<8).map { _ in
                let y0 = 0.1 + abs(next(0.6)), y1 = y0 + next(0.2)
                let a0 = next(4)
                return Sweep(localCenter: Vec2(0.01, -0.02), c0: Vec2(next(1), y0), c: Vec2(next(1), y1),
                             a0: a0, a: a0 + next(0.8), alpha0: 0)
            }
            var activeFlags = SIMD8<Int32>(repeating: 0)
            for k in 0..<8 where next(1) > -0.6 { activeFlags[k] = -1 }
            let active = maskFromFlags(activeFlags)
            func lanes(_ f: (Int) -> Float) -> V { V((0..<8).map(f)) }
            let e1 = (0..<8).map { xfs[$0].apply(edges[$0].vertices[0]) }
            let n = (0..<8).map { xfs[$0].q.apply(edges[$0].normals[0]) }
            let edge = EdgeLanes(pointX: lanes { e1[$0].x }, pointY: lanes { e1[$0].y },
                                 normalX: lanes { n[$0].x }, normalY: lanes { n[$0].y }, radius: lanes { edges[$0].radius })
            let result = pentagon.vertices.withUnsafeBufferPointer { v in
                toiMayTouchEdge(edge, movingRadius: V(repeating: pentagon.radius),
                                from: PositionLanes(cx: lanes { sweeps[$0].c0.x }, cy: lanes { sweeps[$0].c0.y }, a: lanes { sweeps[$0].a0 }),
                                to: PositionLanes(cx: lanes { sweeps[$0].c.x }, cy: lanes { sweeps[$0].c.y }, a: lanes { sweeps[$0].a }),
                                localCenterX: V(repeating: 0.01), localCenterY: V(repeating: -0.02),
                                count: v.count, active: active) { (V(repeating: v[$0].x), V(repeating: v[$0].y)) }
            }
            for k in 0..<8 {
                let alone = toiMayTouch(staticShape: edges[k], xfs[k], moving: pentagon, sweeps[k])
                #expect(result[k] == (active[k] && alone), "lane \(k) of seed \(seed)")
                // Which exit the lane takes (roughly: by the centre's least distance to the line).
                let d0 = dot(n[k], sweeps[k].c0 - e1[k]), d1 = dot(n[k], sweeps[k].c - e1[k])
                let nearest = d0 >= 0 ? min(d0, d1) : min(-d0, -d1)
                let core = pentagon.vertices.map { ($0 - Vec2(0.01, -0.02)).length }.max()!
                let bound = core * (1.001 + 0.5005 * abs(sweeps[k].a - sweeps[k].a0)) + 1e-6
                let exit = nearest <= 0.01125 ? "near" : nearest - bound > 0.01125 ? "bound" : "exact"
                if active[k] { outcomes.insert("\(exit), \(alone)") }
            }
        }
        #expect(outcomes == ["near, true", "bound, false", "exact, true", "exact, false"])
    }
}
