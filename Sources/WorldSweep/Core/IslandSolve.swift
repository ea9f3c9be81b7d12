// The discrete solve (Box2D 2.3's b2World::Solve and b2Island::Solve): islands in the walk's
// order (Islands.swift), each solved as the walk completes it — velocities, the contact and joint
// solvers, positions, position correction, then the sleep rule.

extension PhysicsWorld {
    /// Islands in Box2D 2.x's order (`Islands.walk`), each solved as the walk completes it, its
    /// contacts in the order the walk met them.
    func solve(_ h: Float, dtRatio: Float) {
        let order = contactsNewestFirst()
        var touching: [Int32] = []
        touching.reserveCapacity(order.count)
        contacts.withUnsafeBufferPointer { contacts in
            for ci in order {
                let c = contacts.baseAddress! + ci   // (not a copy of the whole Contact)
                if c.pointee != nil && c.pointee!.enabled && c.pointee!.touching { touching.append(Int32(ci)) }
            }
        }
        let scratch = walkScratch?.withRoom(bodies: bodies.count, contacts: touching.count, joints: joints.count)
            ?? IslandWalkScratch(bodies: bodies.count, contacts: touching.count, joints: joints.count)
        walkScratch = scratch
        if threads.splits(touching.count, least: Self.leastTouchingToSplit) {
            solveOverThreads(touching, scratch: scratch, h, dtRatio: dtRatio)
            return
        }
        _ = walkIslands(touching, scratch: scratch, h, dtRatio: dtRatio, listing: false)
    }

    /// Box2D's island walk over the `touching` contacts, the graph reading and waking bodies
    /// through pointers (the walk reads them for every contact it takes). `listing`: each island
    /// listed in the graph (`WorldIslandGraph.ends`) rather than solved as the walk completes it;
    /// the graph comes back for its lists (its pointers are the walk's only).
    func walkIslands(_ touching: [Int32], scratch: IslandWalkScratch, _ h: Float, dtRatio: Float,
                     listing: Bool) -> WorldIslandGraph {
        bodies.withUnsafeMutableBufferPointer { bodies in
            pairs.withUnsafeBufferPointer { pairs in
                touching.withUnsafeBufferPointer { touching in
                    var graph = WorldIslandGraph(world: self, bodies: bodies, pairs: pairs, h: h, dtRatio: dtRatio)
                    if listing { graph.ends = [] }
                    Islands.walk(&graph, bodyCount: bodies.count, contacts: touching, jointCount: joints.count, scratch: scratch)
                    return graph
                }
            }
        }
    }

    func setLocalIndices<Bodies: Collection<Int>>(_ islandBodies: Bodies) {
        Self.setLocalIndices(islandBodies, in: &localIndex, bodyCount: bodies.count)
    }

    /// Each island body's place in its island, in `localIndex` (grown to `bodyCount` first).
    static func setLocalIndices<Bodies: Collection<Int>>(_ islandBodies: Bodies, in localIndex: inout [Int], bodyCount: Int) {
        if localIndex.count < bodyCount { localIndex = Array(repeating: -1, count: bodyCount) }
        for (k, bi) in islandBodies.enumerated() { localIndex[bi] = k }
    }

    /// The island's contacts into `solver` (emptied first, its storage kept), their bodies numbered
    /// by `localIndex`, read through `access`. With `states` (the island's positions and
    /// velocities), each constraint is set up as it is appended.
    func fillSolver<Contacts: Collection<Int>>(_ solver: inout ContactSolver, _ islandContacts: Contacts, localIndex: [Int],
                                               access: IslandAccess, warmStarting: Bool, dtRatio: Float,
                                               initializingWith states: (UnsafeBufferPointer<BodyPosition>, UnsafeBufferPointer<BodyVelocity>)? = nil) {
        solver.removeAll(reservingCapacity: islandContacts.count)
        let bodies = access.bodies, contacts = access.contacts
        localIndex.withUnsafeBufferPointer { localIndex in
            pairs.withUnsafeBufferPointer { pairs in
                for ci in islandContacts {
                    let p = pairs[ci]
                    let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b   // (not copies of whole bodies)
                    let masses = ContactBodiesLanes(mA: a.pointee.invMass, iA: a.pointee.invI, mB: b.pointee.invMass, iB: b.pointee.invI,
                                                    localCenterAX: a.pointee.sweep.localCenter.x, localCenterAY: a.pointee.sweep.localCenter.y,
                                                    localCenterBX: b.pointee.sweep.localCenter.x, localCenterBY: b.pointee.sweep.localCenter.y,
                                                    radiusA: a.pointee.shape.radius, radiusB: b.pointee.shape.radius)
                    solver.append(contacts[ci]!.manifold, indexA: localIndex[p.a], indexB: localIndex[p.b], bodies: masses,
                                  friction: mixedFriction(a.pointee.friction, b.pointee.friction),
                                  restitution: mixedRestitution(a.pointee.restitution, b.pointee.restitution),
                                  warmStarting: warmStarting, dtRatio: dtRatio, initializingWith: states)
                }
            }
        }
    }

    /// Solves one island: its moving bodies, its contacts' impulses and its joints are written
    /// (through `access`: islands that share no moving body may be solved on different threads),
    /// its static bodies only read. Says whether the island fell asleep: its moving bodies are
    /// put to sleep here, its static bodies by the caller, in the walk's order (`islandStaticsSlept`).
    /// `scratch` is the solving thread's own: its arrays, emptied, keep their storage from island to island.
    func solveIsland<Bodies: Collection<Int>, Contacts: Collection<Int>, Joints: Collection<Int>>(
        _ islandBodies: Bodies, _ islandContacts: Contacts, _ islandJoints: Joints, _ h: Float, dtRatio: Float,
        access: IslandAccess, scratch: inout IslandSolveScratch, sharing: WorldThreads? = nil) -> Bool {
        let bodies = access.bodies, contacts = access.contacts, joints = access.joints
        // The thread's last island's arrays, taken out while this one is solved, put back after.
        var positions: [BodyPosition] = [], velocities: [BodyVelocity] = [], solver = ContactSolver()
        swap(&positions, &scratch.positions); swap(&velocities, &scratch.velocities); swap(&solver, &scratch.solver)
        defer { swap(&positions, &scratch.positions); swap(&velocities, &scratch.velocities); swap(&solver, &scratch.solver) }
        if !positions.isEmpty {   // (emptying an array is a call; most islands are one body)
            positions.removeAll(keepingCapacity: true)
            velocities.removeAll(keepingCapacity: true)
        }
        if positions.capacity < islandBodies.count {
            positions.reserveCapacity(islandBodies.count)
            velocities.reserveCapacity(islandBodies.count)
        }
        Self.setLocalIndices(islandBodies, in: &scratch.localIndex, bodyCount: self.bodies.count)
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

        positions.withUnsafeBufferPointer { positions in
            velocities.withUnsafeBufferPointer { velocities in
                fillSolver(&solver, islandContacts, localIndex: scratch.localIndex, access: access, warmStarting: true, dtRatio: dtRatio,
                           initializingWith: (positions, velocities))
            }
        }
        // Without joints, a big island's warm start and iterations may be shared between threads
        // (IslandVelocityThreads.swift); the same bits as below.
        var shared = false
        if islandJoints.isEmpty, let sharing {
            if scratch.velocityParts == nil { scratch.velocityParts = IslandVelocityParts() }
            shared = solveVelocitiesSharing(&solver, &velocities, threads: sharing, parts: scratch.velocityParts!)
        }
        if !shared { solver.warmStart(&velocities) }
        // Box2D 2.3's island order: joints set up after the contacts' warm start, and in each
        // iteration every joint before the contacts. (An island without joints skips their
        // solver: its steps would change nothing.)
        var jointSolver = islandJoints.isEmpty ? nil
            : JointIslandSolver(joints: islandJoints.map { joints[$0] }, localIndex: scratch.localIndex)
        jointSolver?.initializeVelocityConstraints(self.bodies, positions, &velocities, h: h, dtRatio: dtRatio)
        for _ in 0..<EngineSettings.velocityIterations where !shared {
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

        // Static bodies keep their state (the solver leaves them where they are): written by each
        // island they are in, they would be written from several threads.
        for (k, bi) in islandBodies.enumerated() where bodies[bi].isDynamic {
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
        let asleep = islandFallsAsleep(minSleepTime: minSleepTime, positionSolved: positionSolved)
        if asleep {
            for bi in islandBodies where bodies[bi].isDynamic { bodies[bi].setAwake(false) }
        }
        return asleep
    }

    /// What a solved island does to its static bodies, which other islands share: in the walk's
    /// order each is woken as the walk reached it and, if the island fell asleep, put to sleep.
    func islandStaticsSlept<Bodies: Collection<Int>>(_ islandBodies: Bodies, asleep: Bool, wake: Bool) {
        bodies.withUnsafeMutableBufferPointer { bodies in
            for bi in islandBodies where bodies[bi].isStatic {
                if wake { bodies[bi].setAwake(true) }
                if asleep { bodies[bi].setAwake(false) }
            }
        }
    }
}

/// The memory one island's solve writes, as pointers taken on the thread that runs the stage.
struct IslandAccess {
    let bodies: UnsafeMutableBufferPointer<Body>
    let contacts: UnsafeMutableBufferPointer<Contact?>
    let joints: UnsafeMutableBufferPointer<Joint>
}

extension PhysicsWorld {
    /// `body` given pointers to the bodies, contacts and joints (taken on the calling thread).
    @inline(__always) func withIslandAccess<R>(_ body: (IslandAccess) -> R) -> R {
        bodies.withUnsafeMutableBufferPointer { bodies in
            contacts.withUnsafeMutableBufferPointer { contacts in
                joints.withUnsafeMutableBufferPointer { joints in
                    body(IslandAccess(bodies: bodies, contacts: contacts, joints: joints))
                }
            }
        }
    }
}

/// What the discrete solve reuses from one island to the next, as Box2D reuses one b2Island: the
/// island's local indices, body states and the contact solver with its inputs (arrays emptied,
/// storage kept). One per thread that solves islands (`PhysicsWorld.islandScratches`).
struct IslandSolveScratch {
    /// Each island body's place in its island (`setLocalIndices`).
    var localIndex: [Int] = []
    var positions: [BodyPosition] = [], velocities: [BodyVelocity] = []
    var solver = ContactSolver()
    /// A big island's velocity passes shared between threads (made on first use).
    var velocityParts: IslandVelocityParts?
}

/// The discrete solve's island walk over one world: each island's bodies, contacts and joints as
/// the walk takes them, solved when it completes.
struct WorldIslandGraph: IslandGraph {
    unowned(unsafe) let world: PhysicsWorld
    /// The world's bodies and pairs, taken by `PhysicsWorld.walkIslands` for the walk.
    let bodies: UnsafeMutableBufferPointer<Body>, pairs: UnsafeBufferPointer<BodyPair>
    let h: Float, dtRatio: Float
    var islandBodies: [Int] = [], islandContacts: [Int] = [], islandJoints: [Int] = []
    /// Listing instead of solving (IslandThreads.swift): each island's end in the three lists,
    /// which then hold every island in the walk's order.
    var ends: [IslandEnd]?

    init(world: PhysicsWorld, bodies: UnsafeMutableBufferPointer<Body>, pairs: UnsafeBufferPointer<BodyPair>,
         h: Float, dtRatio: Float) {
        self.world = world; self.bodies = bodies; self.pairs = pairs; self.h = h; self.dtRatio = dtRatio
    }

    @inline(__always) func pair(_ contact: Int) -> BodyPair { pairs[contact] }
    @inline(__always) func isStatic(_ body: Int) -> Bool { bodies[body].isStatic }
    @inline(__always) func canSeed(_ body: Int) -> Bool { bodies[body].alive && bodies[body].awake }
    @inline(__always) func jointBodies(_ joint: Int) -> BodyPair {
        BodyPair(a: world.joints[joint].bodyA, b: world.joints[joint].bodyB)
    }
    @inline(__always) mutating func reached(body b: Int) { islandBodies.append(b); bodies[b].setAwake(true) }
    @inline(__always) mutating func took(contact: Int) { islandContacts.append(contact) }
    @inline(__always) mutating func took(joint: Int) { islandJoints.append(joint) }
    mutating func endIsland() {
        if ends != nil {
            ends!.append(IslandEnd(bodies: islandBodies.count, contacts: islandContacts.count, joints: islandJoints.count))
            return
        }
        let world = self.world
        if world.islandScratches.isEmpty { world.islandScratches = [IslandSolveScratch()] }
        let asleep = world.withIslandAccess { access in
            world.solveIsland(islandBodies, islandContacts, islandJoints, h, dtRatio: dtRatio, access: access,
                              scratch: &world.islandScratches[0])
        }
        world.islandStaticsSlept(islandBodies, asleep: asleep, wake: false)
        islandBodies.removeAll(keepingCapacity: true)
        islandContacts.removeAll(keepingCapacity: true)
        islandJoints.removeAll(keepingCapacity: true)
    }
}
