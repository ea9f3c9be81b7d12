// Time of impact (Box2D 2.3's b2World::SolveTOI): items that would pass through a static body
// within a sub-step are moved back to their first time of impact, that contact resolved, and the
// rest of the sub-step run; contacts are taken newest first.

/// What a time-of-impact pass reuses from one impact to the next instead of allocating it
/// again: each island's bodies and contacts, and its solver and body states.
struct TimeOfImpactScratch {
    var islandBodies: [Int] = [], islandContacts: [Int] = []
    var positions: [BodyPosition] = [], velocities: [BodyVelocity] = []
    var solver = ContactSolver()
}

extension PhysicsWorld {
    /// Moves items that would pass through a static body within this sub-step back to their
    /// first time of impact, resolves that contact and lets them finish the sub-step.
    /// `firstRoundTimesGiven`: the caller has set each contact's `hasTOI` (and then `toi`) to
    /// what the first round would find for it, or `hasTOI` false to let the search find it (the
    /// batch, which ran that round on the lane: `timeOfImpactAlpha` on the same sweeps, and in the
    /// first round every sweep starts at alpha0 = 0 and none is advanced, so the time is the same).
    func solveTOI(_ h: Float, firstRoundTimesGiven: Bool = false) {
        bodies.withUnsafeMutableBufferPointer { bodies in
            for i in bodies.indices { bodies[i].islandFlag = false; bodies[i].sweep.alpha0 = 0 }
        }
        contacts.withUnsafeMutableBufferPointer { contacts in
            for i in contacts.indices where contacts[i] != nil {
                contacts[i]!.startTimeOfImpactPass(keepingTimes: firstRoundTimesGiven)   // (one unwrap, not four)
            }
        }
        while true {
            let (minContact, minAlpha) = firstImpact()
            // (minAlpha is never NaN: it starts at 1 and only takes smaller values.)
            if minContact < 0 || !timeOfImpactIsResolved(minAlpha) { return }

            let pa = pairs[minContact].a, pb = pairs[minContact].b
            let backupA = bodies[pa].sweep, backupB = bodies[pb].sweep
            bodies[pa].advance(to: minAlpha)
            bodies[pb].advance(to: minAlpha)
            updateContact(minContact)
            contacts[minContact]!.hasTOI = false
            contacts[minContact]!.toiCount += 1
            if !contacts[minContact]!.enabled || !contacts[minContact]!.touching {
                contacts[minContact]!.enabled = false
                bodies[pa].sweep = backupA; bodies[pa].synchronizeTransform()
                bodies[pb].sweep = backupB; bodies[pb].synchronizeTransform()
                continue
            }
            bodies[pa].setAwake(true)
            bodies[pb].setAwake(true)

            // The island: the two bodies and their touching contacts with static bodies (in
            // lists kept from the last impact: taken out here, put back after the island).
            var islandBodies: [Int] = [], islandContacts: [Int] = []
            swap(&islandBodies, &toiScratch.islandBodies); swap(&islandContacts, &toiScratch.islandContacts)
            defer { swap(&islandBodies, &toiScratch.islandBodies); swap(&islandContacts, &toiScratch.islandContacts) }
            islandBodies.removeAll(keepingCapacity: true); islandContacts.removeAll(keepingCapacity: true)
            islandBodies.append(pa); islandBodies.append(pb)
            islandContacts.append(minContact)
            bodies[pa].islandFlag = true
            bodies[pb].islandFlag = true
            contacts[minContact]!.islandFlag = true
            for body in (0..<2).lazy.map({ $0 == 0 ? pa : pb }) where bodies[body].isDynamic {
                for ci in contactList(of: body) {
                    guard let c = contacts[ci], !c.islandFlag else { continue }
                    let o = other(ci, body)
                    if bodies[o].isDynamic { continue }
                    let backup = bodies[o].sweep
                    if !bodies[o].islandFlag { bodies[o].advance(to: minAlpha) }
                    updateContact(ci)
                    if !contacts[ci]!.enabled || !contacts[ci]!.touching {
                        bodies[o].sweep = backup
                        bodies[o].synchronizeTransform()
                        continue
                    }
                    contacts[ci]!.islandFlag = true
                    islandContacts.append(ci)
                    if bodies[o].islandFlag { continue }
                    bodies[o].islandFlag = true
                    islandBodies.append(o)
                }
            }
            solveTOIIsland(islandBodies, islandContacts, (1 - minAlpha) * h)

            for bi in islandBodies {
                bodies[bi].islandFlag = false
                if bodies[bi].isStatic { continue }
                for ci in contactList(of: bi) where contacts[ci] != nil {
                    contacts[ci]!.hasTOI = false
                    contacts[ci]!.islandFlag = false
                }
            }
            findNewContacts()
        }
    }

    /// The contact of the earliest time of impact and that time (−1 and 1: none), each contact's
    /// time found and kept unless it has one. Box2D's contact list order, newest first: the first
    /// of equal times wins, and each advances its bodies' sweeps for the ones after it. Read and
    /// written through pointers: the scan visits every contact at every impact.
    private func firstImpact() -> (contact: Int, alpha: Float) {
        var minContact = -1
        var minAlpha: Float = 1
        let order = contactsNewestFirst()
        contacts.withUnsafeMutableBufferPointer { contacts in
            bodies.withUnsafeMutableBufferPointer { bodies in
                pairs.withUnsafeBufferPointer { pairs in
                    for ci in order {
                        let c = contacts.baseAddress! + ci
                        guard c.pointee != nil, c.pointee!.enabled, Int(c.pointee!.toiCount) <= EngineSettings.maxSubSteps else { continue }
                        var alpha: Float = 1
                        if c.pointee!.hasTOI {
                            alpha = c.pointee!.toi
                        } else {
                            let p = pairs[ci]
                            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
                            if !a.pointee.isActive && !b.pointee.isActive { continue }
                            // Continuous collision only between a static body and an item that uses it.
                            guard (a.pointee.isStatic && b.pointee.usesTOI) || (b.pointee.isStatic && a.pointee.usesTOI)
                            else { continue }
                            let alphaA = a.pointee.sweep.alpha0, alphaB = b.pointee.sweep.alpha0
                            var alpha0 = alphaA
                            if alphaA < alphaB {
                                alpha0 = alphaB
                                a.pointee.sweep.advance(to: alpha0)
                            } else if alphaB < alphaA {
                                alpha0 = alphaA
                                b.pointee.sweep.advance(to: alpha0)
                            }
                            let (fixed, moving) = a.pointee.isStatic ? (a, b) : (b, a)
                            if WorldSweep.toiMayTouch(staticShape: fixed.pointee.shape, fixed.pointee.xf,
                                                      moving: moving.pointee.shape, moving.pointee.sweep) {
                                alpha = timeOfImpactAlpha(a.pointee.shape, a.pointee.sweep, b.pointee.shape, b.pointee.sweep, from: alpha0)
                            }
                            c.pointee!.toi = alpha
                            c.pointee!.hasTOI = true
                        }
                        if alpha < minAlpha { minContact = ci; minAlpha = alpha }
                    }
                }
            }
        }
        return (minContact, minAlpha)
    }

    func solveTOIIsland(_ islandBodies: [Int], _ islandContacts: [Int], _ h: Float) {
        // The pass's solver and arrays, taken out of the world for the island and put back after
        // (so they stay uniquely held and keep their storage from one impact to the next).
        var positions: [BodyPosition] = [], velocities: [BodyVelocity] = [], solver = ContactSolver()
        swap(&positions, &toiScratch.positions); swap(&velocities, &toiScratch.velocities); swap(&solver, &toiScratch.solver)
        defer {
            swap(&positions, &toiScratch.positions); swap(&velocities, &toiScratch.velocities); swap(&solver, &toiScratch.solver)
        }
        positions.removeAll(keepingCapacity: true); velocities.removeAll(keepingCapacity: true)
        setLocalIndices(islandBodies)
        for bi in islandBodies {
            positions.append(BodyPosition(c: bodies[bi].sweep.c, a: bodies[bi].sweep.a))
            velocities.append(BodyVelocity(v: bodies[bi].v, w: bodies[bi].w))
        }
        withIslandAccess { access in
            fillSolver(&solver, islandContacts, localIndex: localIndex, access: access, warmStarting: false, dtRatio: 1)
        }
        for _ in 0..<EngineSettings.toiPositionIterations {
            if solver.solvePositionConstraints(&positions, toiBodies: (0, 1)) { break }
        }
        // The two bodies' sweeps now start from this safe state.
        for k in 0..<2 {
            bodies[islandBodies[k]].sweep.c0 = positions[k].c
            bodies[islandBodies[k]].sweep.a0 = positions[k].a
        }
        // No warm start: the discrete solve already applied this sub-step's impulses.
        solver.initializeVelocityConstraints(positions, velocities)
        for _ in 0..<EngineSettings.velocityIterations { solver.solveVelocityConstraints(&velocities) }
        for (k, bi) in islandBodies.enumerated() {
            integratePosition(&positions[k], &velocities[k], h: h)
            bodies[bi].sweep.c = positions[k].c
            bodies[bi].sweep.a = positions[k].a
            bodies[bi].v = velocities[k].v
            bodies[bi].w = velocities[k].w
            bodies[bi].synchronizeTransform()
        }
    }
}

extension Contact {
    /// A pass's start: out of every island, no impacts yet, and unless `keepingTimes`, no time
    /// of impact known (the first round finds it).
    @inline(__always) mutating func startTimeOfImpactPass(keepingTimes: Bool) {
        islandFlag = false
        toiCount = 0
        if !keepingTimes {
            hasTOI = false
            toi = 1
        }
    }
}
