// A display tick: configuration, pushes, the fixed sub-steps, items moved, a pause once all sleep.
extension DynamicAnimator {
    /// Runs one display tick of `dt` seconds (ticks over 0.5 s count as 1/60).
    public func tick(_ dt: Double = 1.0 / 60.0) {
        guard let dt = beginTick(dt) else { return }
        SubStepClock.advance(by: dt, accumulator: &accumulator) { world.step(EngineSettings.subStep) }
        endTick()
    }

    /// The start of a tick: configuration, pause, time, and the behaviors' per-tick work (pushes
    /// apply their force, kept for every sub-step of this tick, or fire their impulse). Returns
    /// the tick length, or nil when paused. The batched engine calls this and `endTick` around
    /// its own sub-steps.
    func beginTick(_ dt: Double) -> Double? {
        let dt = Self.tickLength(dt)
        if needsConfiguration { configureWorld() }
        guard !paused else { return nil }
        elapsedTime += dt
        for push in pushPlans where push.behavior.active {
            applyPush(push)
        }
        return dt
    }

    /// Ticks over `EngineSettings.maxTick` count as 1/60 s.
    static func tickLength(_ dt: Double) -> Double { dt > EngineSettings.maxTick ? 1.0 / 60.0 : dt }

    /// The end of a tick: forces cleared, items moved, contact events delivered (all began, then
    /// all ended), behavior actions run, and a pause once everything sleeps.
    func endTick() {
        world.clearForces()
        writeBackItems()
        deliverContactEvents()
        for behavior in flattenedBehaviors { behavior.action?() }
        if !needsConfiguration && world.allDynamicBodiesAsleep && !paused {
            paused = true
            delegate?.dynamicAnimatorDidPause(self)
        }
    }

    /// The world as the first tick would configure it, not yet stepped (for the batched engine).
    func preparedWorld() -> PhysicsWorld {
        if needsConfiguration { configureWorld() }
        return world
    }

    private func applyPush(_ push: PushPlan) {
        let vector = push.vector
        world.bodies.withUnsafeMutableBufferPointer { bodies in
            for (b, localPoint) in push.targets { push.behavior.mode.act(vector, atLocalPoint: localPoint, on: &bodies[b]) }
        }
        push.behavior.didFire()
    }

    private func writeBackItems() {
        let s = EngineSettings.pointsPerMetre
        for (item, b) in itemBodies {
            let p = world.bodies[b].xf.p   // not the whole Body (see itemState)
            item.center = Point(x: Double(p.x * s), y: Double(p.y * s))
            item.angle = Double(world.bodies[b].sweep.a)
        }
    }
}
