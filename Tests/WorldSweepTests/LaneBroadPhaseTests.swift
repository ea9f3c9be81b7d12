import Testing
@testable import WorldSweep

/// The batch's boxes carried over between sub-steps (LaneBroadPhase.swift) and the time-of-impact
/// pre-check's remembered rotations (LaneTimeOfImpact.swift): a box comes to rest
/// on the floor and falls asleep; later another box lands on it (waking it through a contact) or
/// it is struck sideways hard enough that only time of impact stops it at the wall. Every world
/// must stay bit for bit its animator alone, tick by tick, and the kept boxes must be the ones
/// the single world computes.
@Suite struct LaneBroadPhaseTests {
    /// A 40 pt box resting 8 pt above the floor, and a 30 pt box dropped from `dropY` onto it.
    func scene(dropY: Double) -> (rest: View, drop: View, animator: DynamicAnimator) {
        let rest = View(name: "rest", center: Point(100, 540), size: Size(width: 40, height: 40))
        let drop = View(name: "drop", center: Point(104, dropY), size: Size(width: 30, height: 30))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: [rest, drop])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [rest, drop]))
        animator.addBehavior(collision)
        return (rest, drop, animator)
    }

    @Test func restingBoxesWokenOrStruckAgreeWithTheirAnimatorsAlone() throws {
        // Sixteen worlds (two lane groups): the drop height sets when the falling box lands on
        // the resting one, which has slept since about tick 35. Worlds 8-15 also strike the
        // resting box at tick 50 (asleep still where the drop is falling) towards the right wall
        // at 2 500 to 6 000 pt/s (21 to 50 pt a sub-step: more than half its width).
        let dropYs: [Double] = (0..<16).map { 20 + 30 * Double($0 % 8) }
        let strikes: [Float] = (0..<16).map { $0 < 8 ? 0 : 4 + 0.8 * Float($0 - 8) }   // N·s on 0.16 kg
        let alone = dropYs.map(scene)
        let batched = dropYs.map(scene)
        let batch = try BatchAnimator(batched.map(\.animator))
        let lanes = batch.lanes
        var wereAsleep = Array(repeating: false, count: 16)
        var farthest = Array(repeating: 0.0, count: 16)
        var carriedOver = 0, boxesCompared = 0, rotationsKnown = 0
        for tick in 1...240 {
            if tick == 50 {
                for (k, pair) in zip(alone, batched).enumerated() where strikes[k] > 0 {
                    for s in [pair.0, pair.1] {
                        let b = s.animator.bodyIndex(of: s.rest)!
                        let c = s.animator.world.bodies[b].sweep.c
                        s.animator.world.bodies[b].applyImpulse(Vec2(strikes[k], 0), at: c)
                    }
                }
            }
            for s in alone { s.animator.tick() }
            batch.tick()
            for (k, (a, b)) in zip(alone, batched).enumerated() {
                #expect(a.rest.center == b.rest.center && a.rest.angle == b.rest.angle, "world \(k) tick \(tick)")
                #expect(a.drop.center == b.drop.center && a.drop.angle == b.drop.angle, "world \(k) tick \(tick)")
                farthest[k] = max(farthest[k], b.rest.center.x)
                guard batch.isRunning(k) else { continue }
                let world = a.animator.world
                if !world.bodies[a.animator.bodyIndex(of: a.rest)!].awake { wereAsleep[k] = true }
                // The pre-check's remembered rotations are what sinCos gives for their angles.
                let memo = lanes.toiBodies
                for body in memo.bodies where memo.known[body * lanes.lanes + k] != 0 {
                    let i = body * lanes.lanes + k
                    let exact = sinCos(SIMD8<Float>(repeating: memo.angle[i]))
                    #expect(exact.sin[0].bitPattern == memo.sin[i].bitPattern && exact.cos[0].bitPattern == memo.cos[i].bitPattern,
                            "world \(k) tick \(tick) body \(body): remembered rotation")
                    rotationsKnown += 1
                }
                let passBoxes = lanes.worlds[k].boxes
                for body in 0..<world.bodies.count where world.bodies[body].isDynamic {
                    let i = body * lanes.lanes + k
                    // The swept box is the single world's last box (or, after a time-of-impact
                    // pass, the one the lane's own world computed in it).
                    let swept = lanes.sweptBox(i), expected = world.boxes[body]
                    func same(_ box: AABB) -> Bool { box.lower == expected.lower && box.upper == expected.upper }
                    if same(swept) { boxesCompared += 1 } else {
                        #expect(body < passBoxes.count && same(passBoxes[body]), "world \(k) tick \(tick) body \(body): swept box")
                    }
                    // A body not outdated keeps the box at its transform, as the single world
                    // computes it from that transform.
                    guard lanes.sweptBoxes.outdated[i] == 0 else { continue }
                    carriedOver += 1
                    let atTransform = world.bodies[body].shape.broadPhaseBox(world.bodies[body].xf)
                    #expect(lanes.box(i).lower == atTransform.lower && lanes.box(i).upper == atTransform.upper,
                            "world \(k) tick \(tick) body \(body): box at the transform")
                }
            }
        }
        #expect(wereAsleep.allSatisfy { $0 }, "\(wereAsleep)")
        #expect(lanes.timeOfImpactHandOvers > 0)
        #expect(carriedOver > 16 * 100 && boxesCompared > 16 * 100, "\(carriedOver) carried over, \(boxesCompared) compared")
        #expect(rotationsKnown > 16 * 100, "\(rotationsKnown) rotations remembered")
        for k in 8..<16 {
            // Struck into the wall (its centre stops 20 pt short of x = 320), never through it.
            #expect(farthest[k] > 280 && farthest[k] < 301, "world \(k): farthest centre \(farthest[k])")
        }
    }
}
