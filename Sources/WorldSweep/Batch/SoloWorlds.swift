// The big-world layout of a plan batch: each world stepped on its own by the single world's
// engine (`PhysicsWorld.step`, Box2D's scalar order), one world after another. Lanes of worlds
// pay per-lane work a big world fills only one of eight lanes of; a world alone pays only for
// its own bodies and contacts. Pushes, sub-steps, forces cleared, item states and the pause are
// what `DynamicAnimator.tick` does around `world.step`, through the same rules (the push rule,
// `SubStepClock`, `ItemState(position:…)`), so each world's bits are those of the lanes
// (PlanBatchLayoutTests) and of its animator.

/// Worlds of one structure stepped one at a time (PlanBatch's `.solo` layout).
final class SoloWorlds {
    /// Each world as its plan made it; stepped while `running`.
    let worlds: [PhysicsWorld]
    @exclusivity(unchecked) private var running: [Bool]
    /// Each world's pushes as its plan gives them; an instantaneous push turns itself off once fired.
    @exclusivity(unchecked) private var pushes: [[WorldPlan.Push]]

    /// `threadsPerWorld`: the threads each world's sub-steps may split over (WorldThreads.swift).
    init(_ plans: [WorldPlan], threadsPerWorld: Int = 1) {
        worlds = plans.map { $0.makeWorld() }
        for world in worlds { world.threads.count = max(1, threadsPerWorld) }
        running = Array(repeating: true, count: plans.count)
        pushes = plans.map(\.pushes)
    }

    /// Whether the worlds' sub-steps may split over helper threads.
    var splitsOverThreads: Bool { worlds.contains { $0.threads.count > 1 } }

    func isRunning(_ k: Int) -> Bool { running[k] }

    func stop(_ k: Int) { running[k] = false }

    /// One tick of every running world: its pushes in order (DynamicAnimator.beginTick),
    /// `subSteps` sub-steps, forces cleared (endTick). A world's whole tick runs before the next
    /// world's: the worlds share nothing.
    func tick(subSteps: Int) {
        for k in worlds.indices where running[k] {
            let world = worlds[k]
            applyPushes(k)
            world.holdingHelpers { for _ in 0..<subSteps { world.step(EngineSettings.subStep) } }
            world.clearForces()
        }
    }

    private func applyPushes(_ k: Int) {
        let world = worlds[k]
        for p in pushes[k].indices where pushes[k][p].active {
            let push = pushes[k][p]
            world.bodies.withUnsafeMutableBufferPointer { bodies in
                for target in push.targets { push.mode.act(push.vector, atLocalPoint: target.localPoint, on: &bodies[target.body]) }
            }
            if push.mode == .instantaneous { pushes[k][p].active = false }
        }
    }

    /// DynamicAnimator.itemState(ofBody:) of body `b` in world `k`.
    @inline(__always) func itemState(_ k: Int, body b: Int) -> ItemState {
        worlds[k].bodies.withUnsafeBufferPointer { bodies in
            // Field by field: copying the whole Body would retain and release its shape's arrays.
            let body = bodies.baseAddress! + b
            return ItemState(position: body.pointee.xf.p, angle: body.pointee.sweep.a, velocity: body.pointee.v,
                             angularVelocity: body.pointee.w, awake: body.pointee.awake)
        }
    }

    func isAsleep(_ k: Int) -> Bool { worlds[k].allDynamicBodiesAsleep }
}
