// A body's moving state — its sweep and transform, velocities, force and torque, sleep timer and
// awake flag — lives in the lane columns while the batch steps, and in the lane's own PhysicsWorld
// while that world runs a time-of-impact pass, is pushed between ticks or is read by the animator.
// Its fields are listed once, here, each with the column that holds it; the three copies (the batch
// taking its worlds over, a lane handed to its world, and taken back) say only which way they go.

extension LaneBodyDetails {
    /// Calls `position` with each field a body's place is made of (its sweep's centre and angle,
    /// now and at the sub-step's start, and its transform) and that field's entry in the lane
    /// columns at `i`, `motion` likewise with its velocities, force, torque and sleep timer, and
    /// `awake` with its flag (a 0 / −1 column). Not copied: the local centre, a constant of the
    /// body the lanes load once, and the sweep's `alpha0`, which the lanes do not keep (a sub-step
    /// starts from 0).
    @inline(__always)
    func forEachMovingField(of body: UnsafeMutablePointer<Body>, entry i: Int, in bodies: LaneBodies,
                            position: (_ field: inout Float, _ entry: UnsafeMutablePointer<Float>) -> Void,
                            motion: (_ field: inout Float, _ entry: UnsafeMutablePointer<Float>) -> Void,
                            awake: (_ field: inout Bool, _ entry: UnsafeMutablePointer<Int32>) -> Void) {
        position(&body.pointee.sweep.c.x, bodies.cx + i); position(&body.pointee.sweep.c.y, bodies.cy + i)
        position(&body.pointee.sweep.a, bodies.a + i)
        position(&body.pointee.sweep.c0.x, c0x + i); position(&body.pointee.sweep.c0.y, c0y + i)
        position(&body.pointee.sweep.a0, a0 + i)
        position(&body.pointee.xf.p.x, px + i); position(&body.pointee.xf.p.y, py + i)
        position(&body.pointee.xf.q.s, qs + i); position(&body.pointee.xf.q.c, qc + i)
        motion(&body.pointee.v.x, bodies.vx + i); motion(&body.pointee.v.y, bodies.vy + i); motion(&body.pointee.w, bodies.w + i)
        motion(&body.pointee.force.x, bodies.fx + i); motion(&body.pointee.force.y, bodies.fy + i)
        motion(&body.pointee.torque, bodies.torque + i)
        motion(&body.pointee.sleepTime, sleepTime + i)
        awake(&body.pointee.awake, self.awake + i)
    }

    /// Takes `body`'s moving state into entry `i` (the batch taking its worlds over).
    @inline(__always) func takeMovingState(of body: UnsafeMutablePointer<Body>, entry i: Int, in bodies: LaneBodies) {
        forEachMovingField(of: body, entry: i, in: bodies,
                           position: { field, entry in entry.pointee = field },
                           motion: { field, entry in entry.pointee = field },
                           awake: { field, entry in entry.pointee = field ? -1 : 0 })
    }
}

extension LaneWorld {
    /// Copies lane `lane`'s moving bodies into its PhysicsWorld (for a time-of-impact pass, the
    /// animator and metrics).
    func writeBodies(toWorldOf lane: Int) {
        // One access to the world's bodies for the whole copy (each `w.bodies[b].x = …` would be
        // an exclusivity-checked access of its own).
        worlds[lane].bodies.withUnsafeMutableBufferPointer { worldBodies in
            for b in 0..<bodyCount where !isStatic[b] {
                let body = worldBodies.baseAddress! + b
                details.forEachMovingField(of: body, entry: b * lanes + lane, in: bodies,
                                           position: { field, entry in field = entry.pointee },
                                           motion: { field, entry in field = entry.pointee },
                                           awake: { field, entry in field = entry.pointee != 0 })
                body.pointee.sweep.alpha0 = 0
            }
        }
    }

    /// Takes lane `lane`'s moving bodies back from its PhysicsWorld (after pushes, or a
    /// time-of-impact pass, changed them there).
    func readBodies(fromWorldOf lane: Int) {
        // Field by field through one access: copying a whole Body would retain its shape's arrays.
        worlds[lane].bodies.withUnsafeMutableBufferPointer { worldBodies in
            for b in 0..<bodyCount where !isStatic[b] {
                let i = b * lanes + lane
                var moved = false, awakeChanged = false
                details.forEachMovingField(of: worldBodies.baseAddress! + b, entry: i, in: bodies,
                                           position: { field, entry in
                                               moved = moved || entry.pointee.bitPattern != field.bitPattern
                                               entry.pointee = field
                                           },
                                           motion: { field, entry in entry.pointee = field },
                                           awake: { field, entry in
                                               let flag: Int32 = field ? -1 : 0
                                               awakeChanged = entry.pointee != flag
                                               entry.pointee = flag
                                           })
                // A body whose place changed there needs its boxes made afresh (LaneBroadPhase.swift);
                // one that fell asleep or woke changes what the lane's island walk reads.
                if moved { sweptBoxes.outdated[i] = -1; sweptBoxes.mayBeOutdated = true }
                if awakeChanged { islandsChanged(lane) }
            }
        }
    }
}
