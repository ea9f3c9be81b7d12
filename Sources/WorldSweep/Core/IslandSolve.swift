// The discrete solve (Box2D 2.3's b2World::Solve and b2Island::Solve): islands in the walk's
// order (Islands.swift), each solved as the walk completes it — velocities, the contact and joint
// solvers, positions, position correction, then the sleep rule.

extension PhysicsWorld {
    /// Islands in Box2D 2.x's order (`Islands.walk`), each solved as the walk completes it, its
    /// contacts in the order the walk met them.
    func solve(_ h: Float, dtRatio: Float) {
        let touching = contactsNewestFirst().compactMap { ci -> Int32? in
            guard let c = contacts[ci], c.enabled, c.touching else { return nil }
            return Int32(ci)
        }
        let scratch = walkScratch?.withRoom(bodies: bodies.count, contacts: touching.count, joints: joints.count)
            ?? IslandWalkScratch(bodies: bodies.count, contacts: touching.count, joints: joints.count)
        walkScratch = scratch
        var graph = WorldIslandGraph(world: self, h: h, dtRatio: dtRatio)
        touching.withUnsafeBufferPointer { touching in
            Islands.walk(&graph, bodyCount: bodies.count, contacts: touching, jointCount: joints.count, scratch: scratch)
        }
    }

    func setLocalIndices(_ islandBodies: [Int]) {
        if localIndex.count < bodies.count { localIndex = Array(repeating: -1, count: bodies.count) }
        for (k, bi) in islandBodies.enumerated() { localIndex[bi] = k }
    }

    /// The solver's input of each of `islandContacts` into `inputs` (emptied first, its storage kept).
    func contactInputs(_ islandContacts: [Int], into inputs: inout [ContactInput]) {
        inputs.removeAll(keepingCapacity: true)
        for ci in islandContacts {
            let p = pairs[ci]
            inputs.append(ContactInput(
                manifold: contacts[ci]!.manifold, indexA: localIndex[p.a], indexB: localIndex[p.b],
                invMassA: bodies[p.a].invMass, invMassB: bodies[p.b].invMass,
                invIA: bodies[p.a].invI, invIB: bodies[p.b].invI,
                localCenterA: bodies[p.a].sweep.localCenter, localCenterB: bodies[p.b].sweep.localCenter,
                radiusA: bodies[p.a].shape.radius, radiusB: bodies[p.b].shape.radius,
                friction: mixedFriction(bodies[p.a].friction, bodies[p.b].friction),
                restitution: mixedRestitution(bodies[p.a].restitution, bodies[p.b].restitution)))
        }
    }

    func solveIsland(_ islandBodies: [Int], _ islandContacts: [Int], _ islandJoints: [Int], _ h: Float, dtRatio: Float) {
        // The last island's arrays, taken out while this one is solved and emptied, their storage kept.
        var positions: [BodyPosition] = [], velocities: [BodyVelocity] = [], solver = ContactSolver()
        swap(&positions, &islandScratch.positions); swap(&velocities, &islandScratch.velocities); swap(&solver, &islandScratch.solver)
        defer { swap(&positions, &islandScratch.positions); swap(&velocities, &islandScratch.velocities); swap(&solver, &islandScratch.solver) }
        positions.removeAll(keepingCapacity: true)
        velocities.removeAll(keepingCapacity: true)
        positions.reserveCapacity(islandBodies.count)
        velocities.reserveCapacity(islandBodies.count)
        setLocalIndices(islandBodies)
        for bi in islandBodies {
            bodies[bi].sweep.c0 = bodies[bi].sweep.c
            bodies[bi].sweep.a0 = bodies[bi].sweep.a
            var state = BodyVelocity(v: bodies[bi].v, w: bodies[bi].w)
            if bodies[bi].isDynamic {
                if bi < fieldsOfBody.count && !fieldsOfBody[bi].isEmpty {
                    var force = bodies[bi].force
                    applyFields(toBody: bi, velocity: &state.v, force: &force, h: h)
                    integrateVelocity(&state, bodies[bi], gravity: gravity, force: force, h: h)
                } else {
                    integrateVelocity(&state, bodies[bi], gravity: gravity, h: h)
                }
            }
            positions.append(BodyPosition(c: bodies[bi].sweep.c, a: bodies[bi].sweep.a))
            velocities.append(state)
        }

        contactInputs(islandContacts, into: &solver.inputs)
        solver.prepare(warmStarting: true, dtRatio: dtRatio)
        solver.initializeVelocityConstraints(positions, velocities)
        solver.warmStart(&velocities)
        // Box2D 2.3's island order: joints set up after the contacts' warm start, and in each
        // iteration every joint before the contacts. (An island without joints skips their
        // solver: its steps would change nothing.)
        var jointSolver = islandJoints.isEmpty ? nil : JointIslandSolver(joints: islandJoints.map { joints[$0] }, localIndex: localIndex)
        jointSolver?.initializeVelocityConstraints(bodies, positions, &velocities, h: h, dtRatio: dtRatio)
        for _ in 0..<EngineSettings.velocityIterations {
            jointSolver?.solveVelocityConstraints(&velocities, h: h)
            solver.solveVelocityConstraints(&velocities)
        }
        if let jointSolver { for (k, j) in islandJoints.enumerated() { joints[j] = jointSolver.joints[k] } }
        for (k, ci) in islandContacts.enumerated() { solver.storeImpulses(k, into: &contacts[ci]!.manifold) }

        for k in positions.indices { integratePosition(&positions[k], &velocities[k], h: h) }

        var positionSolved = false
        for _ in 0..<EngineSettings.positionIterations {
            let contactsOkay = solver.solvePositionConstraints(&positions)
            let jointsOkay = jointSolver?.solvePositionConstraints(&positions) ?? true
            if contactsOkay && jointsOkay { positionSolved = true; break }
        }

        for (k, bi) in islandBodies.enumerated() {
            bodies[bi].sweep.c = positions[k].c
            bodies[bi].sweep.a = positions[k].a
            bodies[bi].v = velocities[k].v
            bodies[bi].w = velocities[k].w
            bodies[bi].synchronizeTransform()
        }

        // Sleep: the island sleeps when all its bodies have been slow for long enough.
        var minSleepTime = Float.greatestFiniteMagnitude
        for bi in islandBodies where bodies[bi].isDynamic {
            bodies[bi].sleepTime = sleepTimeAfterStep(bodies[bi].sleepTime, vx: bodies[bi].v.x, vy: bodies[bi].v.y,
                                                      w: bodies[bi].w, h: h)
            minSleepTime = min(minSleepTime, bodies[bi].sleepTime)
        }
        if islandFallsAsleep(minSleepTime: minSleepTime, positionSolved: positionSolved) {
            for bi in islandBodies { bodies[bi].setAwake(false) }
        }
    }
}

/// What the discrete solve reuses from one island to the next, as Box2D reuses one b2Island:
/// the island's body states and the contact solver with its inputs (arrays emptied, storage kept).
struct IslandSolveScratch {
    var positions: [BodyPosition] = [], velocities: [BodyVelocity] = []
    var solver = ContactSolver()
}

/// The discrete solve's island walk over one world: each island's bodies, contacts and joints as
/// the walk takes them, solved when it completes.
struct WorldIslandGraph: IslandGraph {
    unowned(unsafe) let world: PhysicsWorld
    let h: Float, dtRatio: Float
    var islandBodies: [Int] = [], islandContacts: [Int] = [], islandJoints: [Int] = []

    init(world: PhysicsWorld, h: Float, dtRatio: Float) { self.world = world; self.h = h; self.dtRatio = dtRatio }

    @inline(__always) func pair(_ contact: Int) -> BodyPair { world.pairs[contact] }
    @inline(__always) func isStatic(_ body: Int) -> Bool { world.bodies[body].isStatic }
    @inline(__always) func canSeed(_ body: Int) -> Bool { world.bodies[body].alive && world.bodies[body].awake }
    @inline(__always) func jointBodies(_ joint: Int) -> BodyPair {
        BodyPair(a: world.joints[joint].bodyA, b: world.joints[joint].bodyB)
    }
    @inline(__always) mutating func reached(body b: Int) { islandBodies.append(b); world.bodies[b].setAwake(true) }
    @inline(__always) mutating func took(contact: Int) { islandContacts.append(contact) }
    @inline(__always) mutating func took(joint: Int) { islandJoints.append(joint) }
    mutating func endIsland() {
        world.solveIsland(islandBodies, islandContacts, islandJoints, h, dtRatio: dtRatio)
        islandBodies.removeAll(keepingCapacity: true)
        islandContacts.removeAll(keepingCapacity: true)
        islandJoints.removeAll(keepingCapacity: true)
    }
}
