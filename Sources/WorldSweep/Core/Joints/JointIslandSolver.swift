// The single world's joint solver for one island: each joint's lane form run on Float through
// the shared kernels, in the island's order (b2Island::Solve's joint loops).

struct JointIslandSolver {
    var joints: [Joint]
    /// Island-local indices of each joint's bodies.
    private let indexA: [Int], indexB: [Int]

    init(joints: [Joint], localIndex: [Int]) {
        self.joints = joints
        indexA = joints.map { localIndex[$0.bodyA] }
        indexB = joints.map { localIndex[$0.bodyB] }
    }

    private static func lanes(_ p: BodyPosition) -> PositionLanes<Float> { PositionLanes(cx: p.c.x, cy: p.c.y, a: p.a) }
    private static func lanes(_ v: BodyVelocity) -> VelocityLanes<Float> { VelocityLanes(vx: v.v.x, vy: v.v.y, w: v.w) }
    private static func velocity(_ v: VelocityLanes<Float>) -> BodyVelocity { BodyVelocity(v: Vec2(v.vx, v.vy), w: v.w) }

    mutating func initializeVelocityConstraints(_ bodies: [Body], _ positions: [BodyPosition], _ velocities: inout [BodyVelocity],
                                                h: Float, dtRatio: Float) {
        for k in joints.indices {
            let a = bodies[joints[k].bodyA], b = bodies[joints[k].bodyB]
            joints[k].lanes.takeBodies(mA: a.invMass, iA: a.invI, mB: b.invMass, iB: b.invI,
                                       localCenterA: (a.sweep.localCenter.x, a.sweep.localCenter.y),
                                       localCenterB: (b.sweep.localCenter.x, b.sweep.localCenter.y))
            var vA = Self.lanes(velocities[indexA[k]]), vB = Self.lanes(velocities[indexB[k]])
            JointKernels.initVelocity(joints[k].kind, &joints[k].lanes, Self.lanes(positions[indexA[k]]), Self.lanes(positions[indexB[k]]),
                                      &vA, &vB, h: h, dtRatio: dtRatio)
            velocities[indexA[k]] = Self.velocity(vA)
            velocities[indexB[k]] = Self.velocity(vB)
        }
    }

    mutating func solveVelocityConstraints(_ velocities: inout [BodyVelocity], h: Float) {
        for k in joints.indices {
            var vA = Self.lanes(velocities[indexA[k]]), vB = Self.lanes(velocities[indexB[k]])
            JointKernels.solveVelocity(joints[k].kind, &joints[k].lanes, &vA, &vB, h: h)
            velocities[indexA[k]] = Self.velocity(vA)
            velocities[indexB[k]] = Self.velocity(vB)
        }
    }

    /// One position pass over every joint; true when all are within the slops.
    func solvePositionConstraints(_ positions: inout [BodyPosition]) -> Bool {
        var okay = true
        for k in joints.indices {
            var pA = Self.lanes(positions[indexA[k]]), pB = Self.lanes(positions[indexB[k]])
            let jointOkay = JointKernels.solvePosition(joints[k].kind, joints[k].lanes, &pA, &pB)
            positions[indexA[k]] = BodyPosition(c: Vec2(pA.cx, pA.cy), a: pA.a)
            positions[indexB[k]] = BodyPosition(c: Vec2(pB.cx, pB.cy), a: pB.a)
            okay = okay && jointOkay
        }
        return okay
    }
}
