// The joints stage of the batched engine, lane by lane: each running lane's joints, in the order
// its island walk listed them (LaneIslands.swift), run the shared kernels on Float with the
// bodies read from and written back to the (body, lane) columns. A joint's definition and
// impulses stay in the lane's own world (`PhysicsWorld.joints`), where the single world keeps
// them. Worlds of a sweep share the joints' kinds and bodies, so the kernels could also run
// eight lanes per instruction as the contacts do; this is the first, plain form.

extension LaneWorld {
    @inline(__always) private func velocity(_ i: Int) -> VelocityLanes<Float> {
        VelocityLanes(vx: bodies.vx[i], vy: bodies.vy[i], w: bodies.w[i])
    }
    @inline(__always) private func setVelocity(_ v: VelocityLanes<Float>, _ i: Int) {
        bodies.vx[i] = v.vx; bodies.vy[i] = v.vy; bodies.w[i] = v.w
    }
    @inline(__always) private func position(_ i: Int) -> PositionLanes<Float> {
        PositionLanes(cx: bodies.cx[i], cy: bodies.cy[i], a: bodies.a[i])
    }
    @inline(__always) private func setPosition(_ p: PositionLanes<Float>, _ i: Int) {
        bodies.cx[i] = p.cx; bodies.cy[i] = p.cy; bodies.a[i] = p.a
    }

    /// Calls `body` with each joint `lane` solves this sub-step: its index, its bodies' column
    /// indices, its island slot, and the lane's joints to change.
    @inline(__always) private func forEachSolvedJoint(_ body: (_ joint: Int, _ iA: Int, _ iB: Int, _ slot: Int,
                                                               _ joints: UnsafeMutablePointer<Joint>) -> Void) {
        let count = jointBodies.count
        for lane in 0..<lanes where running[lane] && islands.solveJointCount[lane] > 0 {
            worlds[lane].joints.withUnsafeMutableBufferPointer { joints in
                for k in 0..<Int(islands.solveJointCount[lane]) {
                    let j = Int(islands.solveJoint[lane * count + k])
                    body(j, jointBodies[j].a * lanes + lane, jointBodies[j].b * lanes + lane,
                         Int(islands.solveJointIsland[lane * count + k]), joints.baseAddress!)
                }
            }
        }
    }

    /// Each joint's set-up and warm start (JointIslandSolver.initializeVelocityConstraints).
    func setUpJoints(dtRatio: Float) {
        forEachSolvedJoint { j, iA, iB, _, joints in
            joints[j].lanes.takeBodies(mA: bodies.invMass[iA], iA: bodies.invI[iA], mB: bodies.invMass[iB], iB: bodies.invI[iB],
                                       localCenterA: (details.lcx[iA], details.lcy[iA]), localCenterB: (details.lcx[iB], details.lcy[iB]))
            var vA = velocity(iA), vB = velocity(iB)
            JointKernels.initVelocity(joints[j].kind, &joints[j].lanes, position(iA), position(iB), &vA, &vB, h: h, dtRatio: dtRatio)
            setVelocity(vA, iA); setVelocity(vB, iB)
        }
    }

    /// One velocity step of every joint.
    func solveJointVelocities() {
        forEachSolvedJoint { j, iA, iB, _, joints in
            var vA = velocity(iA), vB = velocity(iB)
            JointKernels.solveVelocity(joints[j].kind, &joints[j].lanes, &vA, &vB, h: h)
            setVelocity(vA, iA); setVelocity(vB, iB)
        }
    }

    /// One position pass of the joints of islands not yet solved; clears `jointsOkay` of every
    /// island slot with a joint that is not.
    func correctJointPositions() {
        forEachSolvedJoint { j, iA, iB, slot, joints in
            guard islands.solved[slot] == 0 else { return }
            var pA = position(iA), pB = position(iB)
            let okay = JointKernels.solvePosition(joints[j].kind, joints[j].lanes, &pA, &pB)
            setPosition(pA, iA); setPosition(pB, iB)
            if !okay { islands.jointsOkay[slot] = 0 }
        }
    }
}
