import Foundation
import Testing
@testable import WorldSweepRun
@testable import WorldSweep
import WorldSweepScene

/// A plan batch lays worlds out in lanes or runs each alone (`PlanBatchLayout`); the layout is
/// chosen by the worlds' size, and each world must get the same bits either way: every item
/// state, every contact change in delivery order, every pause, tick by tick.
@Suite struct PlanBatchLayoutTests {
    /// `count` boxes on a grid falling into a pile with bounces, pushes of both modes on some
    /// boxes, and a sweep that makes each world's numbers differ.
    static func pile(_ count: Int, ticks: Int) -> String {
        let names = (0..<count).map { "b\($0)" }.joined(separator: ", ")
        var lines = ["name: layout-pile", "world: {bounds: [400, 300], ticks: \(ticks)}", "items:"]
        for i in 0..<count { lines.append("  b\(i): {center: [\(30 + 14 * (i % 24)), \(60 + 14 * (i / 24))], size: [10, 10]}") }
        lines += [
            "behaviors:",
            "  fall: {type: gravity, items: [\(names)]}",
            "  walls: {type: collision, items: [\(names)], mode: everything, reference_bounds: true}",
            "  bouncy: {type: item, items: [\(names)], elasticity: 0.5}",
            "  shove: {type: push, items: [b0, b5], mode: continuous, magnitude: 0.01, angle: 0.3}",
            "  kick: {type: push, items: [b7], mode: instantaneous, magnitude: 0.05, angle: 1.5}",
            "sweep:",
            "  parameters: {bouncy.elasticity: [0.1, 0.9], shove.magnitude: [0, 0.02]}",
        ]
        return lines.joined(separator: "\n")
    }

    static func plans(_ count: Int, ticks: Int) throws -> [WorldPlan] {
        try worldPlans(yaml: pile(count, ticks: ticks), path: "layout-pile.yaml")
    }

    /// A batch of one world past the crossover runs solo; one at it, or several of any size, in lanes.
    @Test func theLayoutFollowsTheWorldsSizeAndCount() throws {
        let limit = PlanBatchLayout.mostLaneBodies
        let atLimit = try Self.plans(limit, ticks: 1), past = try Self.plans(limit + 1, ticks: 1)
        #expect(PlanBatchLayout.of([atLimit[0]]) == .lanes)
        #expect(PlanBatchLayout.of([past[0]]) == .solo)
        #expect(PlanBatchLayout.of(past) == .lanes)
        #expect(try PlanBatch([past[0]]).layout == .solo)
    }

    /// Lanes and solo, side by side, on small and bigger worlds.
    @Test(arguments: [30, 101])
    func bothLayoutsGiveEveryWorldTheSameBits(count: Int) throws {
        let plans = try Self.plans(count, ticks: 150)
        let lanes = try PlanBatch(plans, layout: .lanes), solo = try PlanBatch(plans, layout: .solo)
        #expect(lanes.layout == .lanes && solo.layout == .solo)
        let bodies = plans[0].bodyOfItem.compactMap { $0 }
        var changes = 0, asleep = 0
        for tick in 1...150 {
            lanes.tick(1.0 / 60); solo.tick(1.0 / 60)
            for k in plans.indices {
                #expect(lanes.isRunning(k) == solo.isRunning(k))
                guard lanes.isRunning(k) else { continue }
                for b in bodies {
                    let l = lanes.itemState(k, body: b), s = solo.itemState(k, body: b)
                    #expect(l.bitPattern == s.bitPattern, "world \(k) body \(b) tick \(tick)")
                }
                var fromLanes: [String] = [], fromSolo: [String] = []
                lanes.takeContactChanges(k) { a, b, began in fromLanes.append("\(a)-\(b) \(began)") }
                solo.takeContactChanges(k) { a, b, began in fromSolo.append("\(a)-\(b) \(began)") }
                #expect(fromLanes == fromSolo, "world \(k) tick \(tick)")
                changes += fromLanes.count
                #expect(lanes.isAsleep(k) == solo.isAsleep(k))
                if lanes.isAsleep(k) { asleep += 1 }
                // Stop a world partway, as the metrics do; the others go on.
                if tick == 90 && k == 1 { lanes.stop(k); solo.stop(k) }
            }
        }
        #expect(changes > 4 * count, "contact changes seen: \(changes)")
        #expect(!lanes.isRunning(1) && lanes.isRunning(0))
    }

    /// The whole run with its batches solo gives what each world's own animator gives, metrics
    /// included.
    @Test func aSoloRunIsEachWorldsAnimator() throws {
        let scene = try SceneFile.parse(yaml: Self.pile(101, ticks: 120), path: "layout-pile.yaml")
        let (expected, runner) = singleWorldsAndBatchedRunner(scene)
        var batched = runner
        batched.layout = .solo
        let got = batched.runBatched(Array(0..<scene.worldCount), integrator: .simd)
        #expect(got.count == expected.count)
        for (e, g) in zip(expected, got) { #expect(e == g, "world \(e.world): solo differs from the single world") }
    }
}

private extension ItemState {
    /// Every number's bits, so −0 and 0 differ and NaNs compare.
    var bitPattern: [UInt64] {
        [center.x.bitPattern, center.y.bitPattern, angle.bitPattern, velocity.dx.bitPattern, velocity.dy.bitPattern,
         angularVelocity.bitPattern, isAsleep ? 1 : 0]
    }
}
