// Many animators of one structure ticked together on the batched engine (LaneWorld). Each
// animator keeps its own items, behaviors, delegates and events: the batch only replaces the
// sub-steps between a tick's start and end, so what an animator reports is what `tick()` on it
// alone would have reported.

/// Ticks many `DynamicAnimator`s whose worlds share one structure — the worlds of one sweep — as
/// one batch: eight worlds per vector instruction, bit for bit what each would do on its own
/// (with the `simd` integrator).
///
/// Behaviors must not change during the run (a sweep's never do); an animator that pauses, or
/// that the caller stops, drops out of the batch.
public final class BatchAnimator {
    public let animators: [DynamicAnimator]
    public let integrator: LaneIntegrator
    let lanes: LaneWorld
    private var accumulator: Double = 0

    /// Takes over `animators`, which must not have ticked yet. Throws when their worlds differ
    /// in structure (bodies, collision pairs, anchoring).
    public init(_ animators: [DynamicAnimator], integrator: LaneIntegrator = .simd) throws {
        precondition(!animators.isEmpty, "a batch needs at least one animator")
        self.animators = animators
        self.integrator = integrator
        lanes = try LaneWorld(padding: animators.map { $0.preparedWorld() }, integrator: integrator)
    }

    public var count: Int { animators.count }

    /// Worlds advanced per vector instruction: a batch runs its worlds in groups of this many
    /// (the last group padded with lanes that never run).
    public static let laneWidth = LaneWorld.width

    /// Whether animator `index` still takes part (it has not paused or been stopped).
    public func isRunning(_ index: Int) -> Bool { lanes.running[index] }

    /// Drops animator `index` from the batch; it keeps the state of its last tick.
    public func stop(_ index: Int) { lanes.stop(index) }

    /// One tick of every animator still running (see `DynamicAnimator.tick`).
    public func tick(_ dt: Double = 1.0 / 60.0) {
        var tickLength: Double?
        for (k, animator) in animators.enumerated() where lanes.running[k] {
            let configurations = animator.configurationCount
            guard let length = animator.beginTick(dt) else { lanes.stop(k); continue }
            precondition(animator.configurationCount == configurations,
                         "behaviors changed during a batched run; tick such animators on their own")
            tickLength = length
            lanes.readBodies(fromWorldOf: k)   // pushes act between ticks, on the animator's world
        }
        guard let length = tickLength else { return }
        SubStepClock.advance(by: length, accumulator: &accumulator) { lanes.step() }
        lanes.clearForces()
        for (k, animator) in animators.enumerated() where lanes.running[k] {
            lanes.writeBodies(toWorldOf: k)
            animator.endTick()
        }
    }
}
