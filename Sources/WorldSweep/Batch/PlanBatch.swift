// Many worlds given by their plans, ticked together on the batched engine with no animators:
// what a sweep runs. Each tick does what BatchAnimator does around the sub-steps (the tick
// length rule, pushes, the accumulator, clearing forces), on the lanes themselves; a world's
// contact changes stay in its lane's record list until the caller takes them, and its state is
// read from the lanes. Bit for bit what DynamicAnimator would do with the same behaviors.

import Foundation

/// How a plan batch lays out its worlds: side by side in lanes (`lanes`: eight worlds per
/// instruction), or each world alone on the single world's engine (`solo`, SoloWorlds.swift).
/// Both give every world the same bits. Lanes win wherever a batch has more than one world; one
/// big world alone fills one lane of eight, and there the single world's engine is the faster.
public enum PlanBatchLayout: String, Sendable {
    case lanes, solo

    /// The most moving bodies a batch's only world may have for lanes to run it; a bigger one
    /// runs solo (the crossover measured on Benchmarks/peers/box-curve.sh's scene: docs/journal.md).
    public static let mostLaneBodies = 512

    /// The layout for a batch of `plans`, unless the environment variable WORLDSWEEP_LAYOUT
    /// (`lanes`, `solo`) names one, to measure one against the other.
    public static func of(_ plans: [WorldPlan]) -> PlanBatchLayout {
        if let forced { return forced }
        guard plans.count == 1 else { return .lanes }
        return plans[0].bodies.count(where: { !($0.material?.isStatic ?? true) }) > mostLaneBodies ? .solo : .lanes
    }

    private static let forced: PlanBatchLayout? = ProcessInfo.processInfo.environment["WORLDSWEEP_LAYOUT"].flatMap(Self.init(rawValue:))
}

/// Worlds of one structure (see `WorldPlan.sharesStructure`) run from their plans.
public final class PlanBatch {
    public let count: Int
    public let layout: PlanBatchLayout
    /// The worlds in lanes (`.lanes`), or each alone (`.solo`).
    private enum Engine {
        case lanes(LaneWorld)
        case solo(SoloWorlds)
    }
    private let engine: Engine
    /// The lanes of a `.lanes` batch (tests look inside them).
    var lanes: LaneWorld {
        guard case .lanes(let lanes) = engine else { preconditionFailure("a solo batch has no lanes") }
        return lanes
    }
    /// World `k` of a `.solo` batch (tests look inside it).
    func soloWorld(_ k: Int) -> PhysicsWorld {
        guard case .solo(let solo) = engine else { preconditionFailure("a lanes batch has no solo worlds") }
        return solo.worlds[k]
    }
    @exclusivity(unchecked) private var accumulator: Double = 0

    /// Each push of the structure across lanes, in columns of the lanes' width (zeros past the
    /// worlds): its vector per lane, per (target, lane) the point it acts at (index target ×
    /// lanes + lane), and per lane −1 while it acts (an instantaneous push turns itself off once
    /// fired). Columns, so a continuous push acts eight lanes per instruction.
    private final class PushLanes {
        let mode: PushBehavior.Mode
        let bodies: [Int]
        let vectorX: UnsafeMutablePointer<Float>, vectorY: UnsafeMutablePointer<Float>
        let pointX: UnsafeMutablePointer<Float>, pointY: UnsafeMutablePointer<Float>
        let active: UnsafeMutablePointer<Int32>
        private let columns = Columns()

        /// Push `k` of every plan, plan j in lane j of `lanes`.
        init(_ k: Int, of plans: [WorldPlan], lanes: Int) {
            let push = plans[0].pushes[k]
            mode = push.mode
            bodies = push.targets.map(\.body)
            vectorX = columns.make(lanes, 0); vectorY = columns.make(lanes, 0)
            pointX = columns.make(bodies.count * lanes, 0); pointY = columns.make(bodies.count * lanes, 0)
            active = columns.make(lanes, 0)
            for (j, plan) in plans.enumerated() {
                let push = plan.pushes[k]
                vectorX[j] = push.vector.x; vectorY[j] = push.vector.y
                active[j] = push.active ? -1 : 0
                for t in bodies.indices {
                    pointX[t * lanes + j] = push.targets[t].localPoint.x; pointY[t * lanes + j] = push.targets[t].localPoint.y
                }
            }
        }
    }
    private let pushes: [PushLanes]

    /// Builds each world from its plan and lays the worlds out (`layout`, by default
    /// `PlanBatchLayout.of(plans)`). A `.solo` world's sub-steps may split over `threadsPerWorld`
    /// threads (WorldThreads.swift: the same bits at any count); lanes run on the calling thread.
    /// Throws when the plans differ in structure.
    public convenience init(_ plans: [WorldPlan], integrator: LaneIntegrator = .simd, layout: PlanBatchLayout? = nil,
                            threadsPerWorld: Int = 1) throws {
        try self.init(plans, integrator: integrator, rowPolicy: .bySize, layout: layout, threadsPerWorld: threadsPerWorld)
    }

    package init(_ plans: [WorldPlan], integrator: LaneIntegrator, rowPolicy: LaneRowPolicy, layout: PlanBatchLayout? = nil,
                 threadsPerWorld: Int = 1) throws {
        precondition(!plans.isEmpty, "a batch needs at least one world")
        let first = plans[0]
        for (k, plan) in plans.enumerated() where !plan.sharesStructure(with: first) {
            throw BatchStructureError(world: k, reason: "a different structure (bodies, pairs or pushes)")
        }
        count = plans.count
        self.layout = layout ?? PlanBatchLayout.of(plans)
        switch self.layout {
        case .lanes:
            let lanes = try LaneWorld(padding: plans.map { $0.makeWorld() }, integrator: integrator, rowPolicy: rowPolicy)
            engine = .lanes(lanes)
            pushes = first.pushes.indices.map { k in PushLanes(k, of: plans, lanes: lanes.lanes) }
        case .solo:
            engine = .solo(SoloWorlds(plans, threadsPerWorld: threadsPerWorld))
            pushes = []
        }
    }

    /// Whether world `k` still takes part.
    public func isRunning(_ k: Int) -> Bool {
        switch engine {
        case .lanes(let lanes): lanes.running[k]
        case .solo(let solo): solo.isRunning(k)
        }
    }

    /// Drops world `k`; it keeps the state of its last tick.
    public func stop(_ k: Int) {
        switch engine {
        case .lanes(let lanes): lanes.stop(k)
        case .solo(let solo): solo.stop(k)
        }
    }

    /// Runs `body` (the batch's ticks) with the helper threads that a `.solo` world's sub-steps
    /// split over kept spinning between its split stages (`HelperThreads.awake`), rather than
    /// parked after each and woken for the next; as is for a batch that does not split.
    public func keepingHelpersAwake<T>(_ body: () throws -> T) rethrows -> T {
        guard case .solo(let solo) = engine, solo.splitsOverThreads else { return try body() }
        return try HelperThreads.shared.awake(body)
    }

    /// One tick of every running world (DynamicAnimator.tick: pushes, sub-steps, forces cleared).
    public func tick(_ dt: Double = 1.0 / 60.0) {
        guard (0..<count).contains(where: isRunning) else { return }
        switch engine {
        case .lanes(let lanes):
            // Push by push over the running lanes: each world still takes its pushes in order.
            for p in pushes.indices { applyPush(p, lanes) }
            SubStepClock.advance(by: DynamicAnimator.tickLength(dt), accumulator: &accumulator) { lanes.step() }
            lanes.clearForces()
        case .solo(let solo):
            var subSteps = 0
            SubStepClock.advance(by: DynamicAnimator.tickLength(dt), accumulator: &accumulator) { subSteps += 1 }
            solo.tick(subSteps: subSteps)
        }
    }

    private func applyPush(_ p: Int, _ lanes: LaneWorld) {
        let push = pushes[p], width = lanes.lanes
        if push.mode == .continuous {
            // Eight lanes at a time; target by target, so each world still takes them in order.
            for (t, b) in push.bodies.enumerated() {
                lanes.applyContinuousPush(body: b, vectorX: push.vectorX, vectorY: push.vectorY,
                                          pointX: push.pointX + t * width, pointY: push.pointY + t * width, active: push.active)
            }
            return
        }
        for k in 0..<count where lanes.running[k] && push.active[k] != 0 {
            let vector = Vec2(push.vectorX[k], push.vectorY[k])
            for t in push.bodies.indices {
                var body = LaneBody(lanes, body: push.bodies[t], lane: k)
                push.mode.act(vector, atLocalPoint: Vec2(push.pointX[t * width + k], push.pointY[t * width + k]), on: &body)
            }
            push.active[k] = 0
        }
    }

    /// The state of body `b` of world `k` (as `DynamicAnimator.itemState(for:)` reports it).
    public func itemState(_ k: Int, body b: Int) -> ItemState {
        switch engine {
        case .lanes(let lanes): lanes.itemState(body: b, lane: k)
        case .solo(let solo): solo.itemState(k, body: b)
        }
    }

    /// Whether every moving body of world `k` sleeps: the animator would pause here.
    public func isAsleep(_ k: Int) -> Bool {
        switch engine {
        case .lanes(let lanes): lanes.allDynamicBodiesAsleep(lane: k)
        case .solo(let solo): solo.isAsleep(k)
        }
    }

    /// What `readRunning` says of one world after a tick.
    public struct WorldReading: OptionSet, Sendable {
        public let rawValue: UInt8
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
        // Inlinable constants: stored `static let`s were a call (their addressor) per world and
        // question in the recorder's fold, from the other module.
        /// The world still takes part (`isRunning`).
        @inlinable public static var running: WorldReading { WorldReading(rawValue: 1) }
        /// Every moving body sleeps (`isAsleep`).
        @inlinable public static var asleep: WorldReading { WorldReading(rawValue: 2) }
        /// It has contact changes for `takeContactChanges`.
        @inlinable public static var contactChanges: WorldReading { WorldReading(rawValue: 4) }
    }

    /// What a sweep's metrics read after a tick, for worlds `range` in one call (calls per world
    /// and tick cost more than the reading): world k's `WorldReading` into
    /// `readings[k - range.lowerBound]` and, when it runs, its item states into `states` from
    /// `(k - range.lowerBound) × bodies.count` (`itemState` of each item with a body; the others are
    /// left as they are). Every world of `range` has its items on `bodies`.
    public func readRunning(_ range: Range<Int>, bodies: [Int?], states: UnsafeMutablePointer<ItemState>,
                            readings: UnsafeMutablePointer<WorldReading>) {
        guard case .lanes(let lanes) = engine else {
            guard case .solo(let solo) = engine else { return }
            readRunning(range, bodies: bodies, states: states, readings: readings, solo)
            return
        }
        let running = lanes.running, n = bodies.count
        bodies.withUnsafeBufferPointer { bodies in
            for k in range {
                let slot = k &- range.lowerBound
                guard running[k] else { readings[slot] = []; continue }
                var reading = WorldReading.running
                for i in 0..<n { if let b = bodies[i] { states[slot &* n &+ i] = lanes.itemState(body: b, lane: k) } }
                if lanes.allDynamicBodiesAsleep(lane: k) { reading.insert(.asleep) }
                if lanes.changesWaiting[k] != 0 { reading.insert(.contactChanges) }
                readings[slot] = reading
            }
        }
    }

    /// Hands over world `k`'s contact changes since the last call, in the order the animator
    /// delivers them (every began, then every ended), as (the pair's bodies, began); the plan's
    /// `contactPartners` says who hears of it.
    public func takeContactChanges(_ k: Int, _ body: (_ a: Int, _ b: Int, _ began: Bool) -> Void) {
        takeChanges(k) { change in
            switch change {
            case .began(let a, let b, _): body(a, b, true)
            case .ended(let a, let b): body(a, b, false)
            }
        }
    }

    /// `takeContactChanges` with where each contact began, in points (nil for an ended one), as a
    /// collision behavior's delegate is told it: what a replay draws.
    public func takeContactChanges(withPointsOf k: Int, _ body: (_ a: Int, _ b: Int, _ beganAt: Point?) -> Void) {
        takeChanges(k) { change in
            switch change {
            case .began(let a, let b, let p): body(a, b, ContactChange.pointInPoints(p))
            case .ended(let a, let b): body(a, b, nil)
            }
        }
    }

    /// `readRunning` of solo worlds: the same readings from each world's own bodies.
    private func readRunning(_ range: Range<Int>, bodies: [Int?], states: UnsafeMutablePointer<ItemState>,
                             readings: UnsafeMutablePointer<WorldReading>, _ solo: SoloWorlds) {
        let n = bodies.count
        for k in range {
            let slot = k &- range.lowerBound
            guard solo.isRunning(k) else { readings[slot] = []; continue }
            var reading = WorldReading.running
            for i in 0..<n { if let b = bodies[i] { states[slot &* n &+ i] = solo.itemState(k, body: b) } }
            if solo.isAsleep(k) { reading.insert(.asleep) }
            if !solo.worlds[k].changes.isEmpty { reading.insert(.contactChanges) }
            readings[slot] = reading
        }
    }

    private func takeChanges(_ k: Int, _ body: (ContactChange) -> Void) {
        let world: PhysicsWorld
        switch engine {
        case .lanes(let lanes): world = lanes.worlds[k]; lanes.changesWaiting[k] = 0
        case .solo(let solo): world = solo.worlds[k]
        }
        if world.changes.isEmpty { return }
        ContactChange.inDeliveryOrder(world.changes, body)
        world.changes.removeAll(keepingCapacity: true)
    }
}
