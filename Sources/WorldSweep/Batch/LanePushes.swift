// Pushes and item states on the lanes themselves, for PlanBatch: what Body.applyForce,
// Body.applyImpulse and DynamicAnimator.itemState do on one world's bodies, through the same
// rules (Body.addForce, Body.addImpulse, ItemState(position:…)), so the bits are the same.

extension LaneWorld {
    /// Body.applyForce on body `b` of lane `lane`, at `localPoint` in the body's frame.
    func applyForce(_ f: Vec2, atLocalPoint localPoint: Vec2, body b: Int, lane: Int) {
        guard !isStatic[b] else { return }
        let i = b &* lanes &+ lane
        wake(i)
        var force = Vec2(bodies.fx[i], bodies.fy[i]), torque = bodies.torque[i]
        Body.addForce(f, at: transform(i).apply(localPoint), center: Vec2(bodies.cx[i], bodies.cy[i]), force: &force, torque: &torque)
        bodies.fx[i] = force.x; bodies.fy[i] = force.y; bodies.torque[i] = torque
    }

    /// Body.applyImpulse on body `b` of lane `lane`, at `localPoint` in the body's frame.
    func applyImpulse(_ p: Vec2, atLocalPoint localPoint: Vec2, body b: Int, lane: Int) {
        guard !isStatic[b] else { return }
        let i = b &* lanes &+ lane
        wake(i)
        var v = Vec2(bodies.vx[i], bodies.vy[i]), w = bodies.w[i]
        Body.addImpulse(p, at: transform(i).apply(localPoint), center: Vec2(bodies.cx[i], bodies.cy[i]),
                        invMass: bodies.invMass[i], invI: bodies.invI[i], v: &v, w: &w)
        bodies.vx[i] = v.x; bodies.vy[i] = v.y; bodies.w[i] = w
    }

    /// DynamicAnimator.itemState(ofBody:) of body `b` in lane `lane`.
    func itemState(body b: Int, lane: Int) -> ItemState {
        let i = b &* lanes &+ lane
        return ItemState(position: Vec2(details.px[i], details.py[i]), angle: bodies.a[i], velocity: Vec2(bodies.vx[i], bodies.vy[i]),
                         angularVelocity: bodies.w[i], awake: details.awake[i] != 0)
    }

    /// PhysicsWorld.allDynamicBodiesAsleep for lane `lane`: the animator's pause condition.
    func allDynamicBodiesAsleep(lane: Int) -> Bool {
        for b in 0..<bodyCount where !isStatic[b] && details.awake[b &* lanes &+ lane] != 0 { return false }
        return true
    }
}
