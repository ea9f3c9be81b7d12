// Box2D 2.3's sub-step (b2World::Step), written once: the single world (`PhysicsWorld`) and the
// batched lanes (`LaneWorld`) run this one stage list, each stage its own way — new contacts,
// the contact update, the islands (walk, solve, sleep), new contacts again, time of impact.

/// What every stage of one sub-step shares.
struct StepContext {
    /// The sub-step's length (s).
    let h: Float
    /// The share of the last sub-step's impulses carried into the warm start: 0 on a world's
    /// first sub-step (there are none), else 1 (the sub-step is fixed).
    let dtRatio: Float
}

/// The stages of a sub-step, as one engine runs them.
protocol StepStages: AnyObject {
    /// Sub-steps taken so far.
    var stepCount: Int { get set }
    /// Whether something from outside (bodies, rule, hand-over) asks for a broad phase before
    /// the contact update.
    var needsNewContacts: Bool { get set }
    /// The broad phase: contacts for allowed pairs whose boxes newly overlap (b2ContactManager::
    /// FindNewContacts). `afterSolve`: the boxes grew by the motion of the sub-step just solved.
    func findNewContacts(afterSolve: Bool)
    /// Each contact's manifold at the bodies' transforms, and contacts whose boxes parted
    /// destroyed (b2ContactManager::Collide).
    func updateContacts()
    /// The islands in Box2D's walk order, each solved and then put to sleep or not (b2World::Solve).
    func solveIslands(_ step: StepContext)
    /// Continuous collision for the items that use it (b2World::SolveTOI).
    func solveTimeOfImpact(_ step: StepContext)
}

extension StepStages {
    /// One fixed sub-step of `h` seconds, in Box2D 2.3's order.
    @inline(__always) func runStages(_ h: Float) {
        let step = StepContext(h: h, dtRatio: stepCount == 0 ? 0 : 1)
        if needsNewContacts { findNewContacts(afterSolve: false); needsNewContacts = false }
        updateContacts()
        if h > 0 {
            solveIslands(step)
            findNewContacts(afterSolve: true)
            solveTimeOfImpact(step)
        }
        stepCount += 1
    }
}
