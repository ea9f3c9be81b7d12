// The solve stage of the batched engine (PhysicsWorld.solve's islands): sweeps start, velocities
// integrated, the contact bundles (LaneBundles.swift) and joints (LaneJoints.swift) set up and
// solved, positions integrated and corrected, then transforms and sleep, per island slot
// (LaneIslands.swift).

extension LaneWorld {
    func solve(dtRatio: Float) {
        let n = bodies.movingCount
        // Solved islands start their sweeps here; only they feel gravity (asleep and static
        // bodies have no velocity or force, so integrating every lane leaves them in place).
        var i = 0
        while i < n {
            let m = loadMask(details.inIsland, i)
            storeLanes(loadLanes(details.c0x, i).blended(with: loadLanes(bodies.cx, i), where: m), details.c0x, i)
            storeLanes(loadLanes(details.c0y, i).blended(with: loadLanes(bodies.cy, i), where: m), details.c0y, i)
            storeLanes(loadLanes(details.a0, i).blended(with: loadLanes(bodies.a, i), where: m), details.a0, i)
            storeLanes(V(repeating: 0).blended(with: loadLanes(details.baseGravityScale, i), where: m), bodies.gravityScale, i)
            i += Self.width
        }
        applyFields()
        integrator.integrateVelocities(bodies, h: h)
        restoreForces()
        packBundles()
        setUpBundles(dtRatio: dtRatio)
        // b2Island::Solve's order: contacts' warm start, joints' set-up, then in each iteration
        // the joints before the contacts (lanes are independent, so every lane's joints, then
        // every lane's contacts, keeps each world's order).
        warmStartBundles()
        let hasJoints = !jointBodies.isEmpty
        if hasJoints { setUpJoints(dtRatio: dtRatio) }
        for _ in 0..<EngineSettings.velocityIterations {
            if hasJoints { solveJointVelocities() }
            bundleVelocityIteration()
        }
        storeBundleImpulses()
        if hasJoints { storeJointImpulses() }
        integrator.integratePositions(bodies, h: h)
        correctBundlePositions()
        let slots = islands.islandCount
        islands.minSleepTime.update(repeating: Float.greatestFiniteMagnitude, count: slots)
        forEachRunningGroup { group, _ in transformsAndSleepTimers(group) }
        // Which island slots fall asleep, as 0 / −1: `solved` turns into that verdict in place,
        // eight slots at a time (the columns hold a whole number of eight-slot groups).
        var anySleeps = false
        for g in stride(from: 0, to: slots, by: Self.width) {
            let valid = firstLanes(slots - g)
            let sleeps = islandFallsAsleep(minSleepTime: loadLanes(islands.minSleepTime, g), positionSolved: loadMask(islands.solved, g)) .& valid
            storeLanes(loadLanes(islands.solved, g).blended(with: unsafeBitCast(sleeps, to: IV.self), where: valid), islands.solved, g)
            if anyLane(sleeps) { anySleeps = true }
        }
        if anySleeps { forEachRunningGroup { group, _ in sleepIslands(group, islands.solved) } }
    }

    /// Transforms of the solved bodies of lanes `group ..< group + 8`, their sleep timers, and
    /// each island's smallest timer (the rest of PhysicsWorld.solveIsland).
    func transformsAndSleepTimers(_ group: Int) {
        let h = V(repeating: self.h)
        // The lanes' slot shifts added as one vector per body: a load and add per lane cost 8 M
        // instructions in twin-drop.
        let shift = loadLanes(islands.slotShift, group)
        for b in 0..<bodies.movingBodyCount where !isStatic[b] {
            let i = b &* lanes &+ group
            let m = loadMask(details.inIsland, i)
            guard anyLane(m) else { continue }
            let xf = TransformLanes(PositionLanes(cx: loadLanes(bodies.cx, i), cy: loadLanes(bodies.cy, i), a: loadLanes(bodies.a, i)),
                                    localCenterX: loadLanes(details.lcx, i), localCenterY: loadLanes(details.lcy, i))
            storeLanes(loadLanes(details.px, i).blended(with: xf.px, where: m), details.px, i)
            storeLanes(loadLanes(details.py, i).blended(with: xf.py, where: m), details.py, i)
            storeLanes(loadLanes(details.qs, i).blended(with: xf.s, where: m), details.qs, i)
            storeLanes(loadLanes(details.qc, i).blended(with: xf.c, where: m), details.qc, i)
            let oldSleep = loadLanes(details.sleepTime, i)
            let sleep = oldSleep.blended(with: sleepTimeAfterStep(oldSleep, vx: loadLanes(bodies.vx, i), vy: loadLanes(bodies.vy, i),
                                                                   w: loadLanes(bodies.w, i), h: h), where: m)
            storeLanes(sleep, details.sleepTime, i)
            let slots = loadLanes(details.islandOfBody, i) &+ shift
            for k in 0..<Self.width where m[k] {
                let g = Int(slots[k])
                islands.minSleepTime[g] = min(islands.minSleepTime[g], sleep[k])
            }
        }
    }

    /// Puts the bodies of islands that fall asleep to sleep (Body.setAwake(false)), static bodies
    /// included where the last island that took them in falls asleep (their velocities and forces
    /// are zero already).
    func sleepIslands(_ group: Int, _ sleeps: UnsafeMutablePointer<Int32>) {
        let shift = loadLanes(islands.slotShift, group)
        for b in 0..<bodyCount where isStatic[b] {
            let lastSlots = loadLanes(islands.lastIslandOfStatic, b &* lanes &+ group)
            for k in 0..<Self.width {
                let i = b &* lanes &+ group &+ k
                let slot = lastSlots[k]
                if slot >= 0 && sleeps[Int(slot &+ shift[k])] != 0 { details.awake[i] = 0; details.sleepTime[i] = 0; islandsChanged(group + k) }
            }
        }
        for b in 0..<bodyCount where !isStatic[b] {
            let i = b &* lanes &+ group
            var flags = IV(repeating: 0)
            let slots = loadLanes(details.islandOfBody, i) &+ shift
            for k in 0..<Self.width where details.inIsland[i + k] != 0 { flags[k] = sleeps[Int(slots[k])] }
            let s = maskFromFlags(flags)
            guard anyLane(s) else { continue }
            for k in 0..<Self.width where s[k] { islandsChanged(group + k) }
            storeLanes(loadLanes(details.awake, i).blended(with: 0, where: s), details.awake, i)
            var sleepTime = loadLanes(details.sleepTime, i), vx = loadLanes(bodies.vx, i), vy = loadLanes(bodies.vy, i)
            var w = loadLanes(bodies.w, i), fx = loadLanes(bodies.fx, i), fy = loadLanes(bodies.fy, i)
            var torque = loadLanes(bodies.torque, i)
            fallAsleep(s, sleepTime: &sleepTime, vx: &vx, vy: &vy, w: &w, fx: &fx, fy: &fy, torque: &torque)
            storeLanes(sleepTime, details.sleepTime, i)
            storeLanes(vx, bodies.vx, i); storeLanes(vy, bodies.vy, i); storeLanes(w, bodies.w, i)
            storeLanes(fx, bodies.fx, i); storeLanes(fy, bodies.fy, i); storeLanes(torque, bodies.torque, i)
        }
    }
}
