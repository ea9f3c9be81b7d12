// A body's moving state — its sweep and transform, velocities, force and torque, sleep timer and
// awake flag — lives in the lane columns while the batch steps, and in the lane's own PhysicsWorld
// while that world runs a time-of-impact pass, is pushed between ticks or is read by the animator.
// Its fields are listed once, here, each with the column that holds it; the three copies (the batch
// taking its worlds over, a lane handed to its world, and taken back) say only which way they go.

/// Visits one field of a body's moving state with its entry in a lane column.
typealias MovingFieldVisit<Field, Column> = (_ field: inout Field, _ entry: UnsafeMutablePointer<Column>) -> Void

extension LaneBodies {
    /// The part of a body's moving state this store holds, for entry `i`: `position` with the
    /// sweep's centre and angle, `motion` with the velocities, force and torque.
    @inline(__always)
    func forEachMovingField(of body: UnsafeMutablePointer<Body>, entry i: Int,
                            position: MovingFieldVisit<Float, Float>, motion: MovingFieldVisit<Float, Float>) {
        position(&body.pointee.sweep.c.x, cx + i); position(&body.pointee.sweep.c.y, cy + i)
        position(&body.pointee.sweep.a, a + i)
        motion(&body.pointee.v.x, vx + i); motion(&body.pointee.v.y, vy + i); motion(&body.pointee.w, w + i)
        motion(&body.pointee.force.x, fx + i); motion(&body.pointee.force.y, fy + i)
        motion(&body.pointee.torque, torque + i)
    }
}

extension LaneBodyDetails {
    /// The rest of a body's moving state, for entry `i`: `position` with the sweep's start and
    /// the transform, `motion` with the sleep timer, `awake` with the flag (a 0 / −1 column).
    /// Not moving state: the local centre, a constant of the body loaded once, and the sweep's
    /// `alpha0`, which the lanes do not keep (a sub-step starts from 0).
    @inline(__always)
    func forEachMovingField(of body: UnsafeMutablePointer<Body>, entry i: Int,
                            position: MovingFieldVisit<Float, Float>, motion: MovingFieldVisit<Float, Float>,
                            awake: MovingFieldVisit<Bool, Int32>) {
        position(&body.pointee.sweep.c0.x, c0x + i); position(&body.pointee.sweep.c0.y, c0y + i)
        position(&body.pointee.sweep.a0, a0 + i)
        position(&body.pointee.xf.p.x, px + i); position(&body.pointee.xf.p.y, py + i)
        position(&body.pointee.xf.q.s, qs + i); position(&body.pointee.xf.q.c, qc + i)
        motion(&body.pointee.sleepTime, sleepTime + i)
        awake(&body.pointee.awake, self.awake + i)
    }
}

/// Copies into the lanes: a field's value into its entry.
@inline(__always) func intoLanes(_ field: inout Float, _ entry: UnsafeMutablePointer<Float>) { entry.pointee = field }
@inline(__always) func intoLanes(_ field: inout Bool, _ entry: UnsafeMutablePointer<Int32>) { entry.pointee = field ? -1 : 0 }

extension LaneWorld {
    /// Every field of a body's moving state, both stores' parts: the one list of what the
    /// lanes and a lane's own world hand each other.
    @inline(__always)
    func forEachMovingField(of body: UnsafeMutablePointer<Body>, entry i: Int,
                            position: MovingFieldVisit<Float, Float>, motion: MovingFieldVisit<Float, Float>,
                            awake: MovingFieldVisit<Bool, Int32>) {
        bodies.forEachMovingField(of: body, entry: i, position: position, motion: motion)
        details.forEachMovingField(of: body, entry: i, position: position, motion: motion, awake: awake)
    }

    /// Copies lane `lane`'s moving bodies into its PhysicsWorld (for a time-of-impact pass, the
    /// animator and metrics).
    func writeBodies(toWorldOf lane: Int) {
        // One access to the world's bodies for the whole copy (each `w.bodies[b].x = …` would be
        // an exclusivity-checked access of its own).
        worlds[lane].bodies.withUnsafeMutableBufferPointer { worldBodies in
            for b in 0..<bodyCount where !isStatic[b] {
                let body = worldBodies.baseAddress! + b
                forEachMovingField(of: body, entry: b * lanes + lane,
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
                forEachMovingField(of: worldBodies.baseAddress! + b, entry: i,
                                   position: { field, entry in
                                       moved = moved || entry.pointee.bitPattern != field.bitPattern
                                       intoLanes(&field, entry)
                                   },
                                   motion: intoLanes,
                                   awake: { field, entry in
                                       awakeChanged = entry.pointee != (field ? -1 : 0)
                                       intoLanes(&field, entry)
                                   })
                // A body whose place changed there needs its boxes made afresh (LaneBroadPhase.swift);
                // one that fell asleep or woke changes what the lane's island walk reads.
                if moved { sweptBoxes.outdated[i] = -1; sweptBoxes.mayBeOutdated = true }
                if awakeChanged { islandsChanged(lane) }
            }
        }
    }
}
