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

    /// A continuous push on body `b` in every running lane where it is `active` (−1), each lane
    /// with its own vector (`vectorX`, `vectorY`) and point in the body's frame (`pointX`,
    /// `pointY`), by lane: what `PushBehavior.Mode.act` does lane by lane (a force where the
    /// vector is not zero, Body.applyForce), eight lanes per instruction through the same rule
    /// (`Body.addForce`) and transform, so the same bits.
    func applyContinuousPush(body b: Int, vectorX: UnsafeMutablePointer<Float>, vectorY: UnsafeMutablePointer<Float>,
                             pointX: UnsafeMutablePointer<Float>, pointY: UnsafeMutablePointer<Float>, active: UnsafeMutablePointer<Int32>) {
        guard !isStatic[b] else { return }
        forEachRunningGroup { group, running in
            let fx = loadLanes(vectorX, group), fy = loadLanes(vectorY, group)
            let acting = running .& loadMask(active, group) .& ((fx .!= 0) .| (fy .!= 0))
            guard anyLane(acting) else { return }
            let i = b &* lanes &+ group
            let asleep = acting .& .!loadMask(details.awake, i)
            if anyLane(asleep) { for k in 0..<Self.width where asleep[k] { wake(i &+ k) } }
            let xf = TransformLanes(px: loadLanes(details.px, i), py: loadLanes(details.py, i), s: loadLanes(details.qs, i), c: loadLanes(details.qc, i))
            let (x, y) = xf.apply(loadLanes(pointX, group), loadLanes(pointY, group))
            let oldX = loadLanes(bodies.fx, i), oldY = loadLanes(bodies.fy, i), oldTorque = loadLanes(bodies.torque, i)
            var forceX = oldX, forceY = oldY, torque = oldTorque
            Body.addForce(fx: fx, fy: fy, atX: x, atY: y, centerX: loadLanes(bodies.cx, i), centerY: loadLanes(bodies.cy, i),
                          forceX: &forceX, forceY: &forceY, torque: &torque)
            storeLanes(oldX.blended(with: forceX, where: acting), bodies.fx, i)
            storeLanes(oldY.blended(with: forceY, where: acting), bodies.fy, i)
            storeLanes(oldTorque.blended(with: torque, where: acting), bodies.torque, i)
        }
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
        // Rows past `movingBodyCount` are static: no need to look at them.
        for b in 0..<bodies.movingBodyCount where !isStatic[b] && details.awake[b &* lanes &+ lane] != 0 { return false }
        return true
    }
}
