// A few worlds of a sweep replayed side by side in the lanes of one plan batch, tick by tick: what
// the report draws of its extreme worlds. On the single-world engine each world filled one lane of
// eight, so four worlds cost four times what they cost here.
import WorldSweep
import WorldSweepScene

/// A contact that began during a replayed tick, as a collision behavior's delegate hears it: two
/// items in the order the animator first met them, or an item and the boundary's identifier
/// ("bounds" for the reference bounds), and where it began, in points.
public struct ReplayedContact: Sendable, Equatable {
    public var item: String
    public var other: String
    public var point: Point
}

extension WorldRunner {
    /// Replays `worlds` (sweep world indices) side by side in one plan batch. After every tick,
    /// `afterTick(k, tick, states, contacts, paused)` for each world `worlds[k]` still replaying:
    /// its items' states in file order (nil for an item no behavior moves), the contacts that began
    /// during the tick (once per collision behavior that reports them, as delegates hear them), and
    /// whether the animator would have paused (every body asleep). A world stops when `afterTick`
    /// returns false or after its last tick. Returns false, replaying nothing, when the worlds
    /// cannot share a batch (a caller then replays them one at a time, with the same states).
    public func replayInLanes(_ worlds: [Int], integrator: LaneIntegrator = .simd,
                              afterTick: (_ k: Int, _ tick: Int, _ states: [ItemState?], _ contacts: [ReplayedContact], _ paused: Bool) -> Bool) -> Bool {
        guard !worlds.isEmpty, memoryPlan.batchFits, ruleProblem == nil else { return false }
        var plans: [WorldPlan] = [], ticks: [Int] = []
        var template: PlanTemplate?
        var first: SceneFile?
        for index in worlds {
            guard let world = try? worldMaker.world(index) else { return false }
            let plan: WorldPlan
            if let template {
                plan = template.plan(for: world).plan
            } else {
                let made = PlanTemplate(world, of: worldMaker)
                template = made
                first = world
                plan = made.plan
            }
            // As runBatched: one structure (items on the same bodies) and one tick length.
            guard plan.bodyOfItem == plans.first?.bodyOfItem ?? plan.bodyOfItem, world.world.tick == first!.world.tick else { return false }
            plans.append(plan)
            ticks.append(world.world.ticks)
        }
        guard let first, let batch = try? PlanBatch(plans, integrator: integrator, rowPolicy: rowPolicy) else { return false }
        let names = first.items.map(\.name), bodies = plans[0].bodyOfItem
        let hearers = ContactHearers(plan: plans[0], names: names)
        // The animator names an item pair in the order it first met the items, which is the order
        // of their bodies in the plan (WorldPlan.compile numbers them so, for both).
        let heldOrder = bodies.map { $0 ?? Int.max }
        var replaying = (0..<worlds.count).filter { ticks[$0] > 0 }
        for k in worlds.indices where ticks[k] <= 0 { batch.stop(k) }
        var tick = 0
        var contacts: [ReplayedContact] = []
        while !replaying.isEmpty {
            tick += 1
            batch.tick(first.world.tick)
            replaying.removeAll { k in
                contacts.removeAll(keepingCapacity: true)
                batch.takeContactChanges(withPointsOf: k) { a, b, point in
                    guard let point else { return }
                    switch hearers.of(a, b) {
                    case .items(let a, let b, let pair, let listeners):
                        let (item, other) = heldOrder[a] <= heldOrder[b] ? (pair.0, pair.1) : (pair.1, pair.0)
                        for _ in listeners { contacts.append(ReplayedContact(item: item, other: other, point: point)) }
                    case .boundary(let item, let partner):
                        contacts.append(ReplayedContact(item: names[item], other: partner, point: point))
                    case .nobody:
                        break
                    }
                }
                let states = bodies.map { $0.map { batch.itemState(k, body: $0) } }
                guard afterTick(k, tick, states, contacts, batch.isAsleep(k)), tick < ticks[k] else {
                    batch.stop(k)
                    return true
                }
                return false
            }
        }
        return true
    }
}
