// The batched engine's contact solver, constraint-major. Each running lane lists the contacts it
// solves in Box2D 2.x's island order (LaneIslands.swift); round k packs the k-th contact of
// every lane that has one into bundles of eight, densely (no two lanes of a bundle share a
// world, so the bundles of one round are independent). A bundle gathers its bodies' velocities
// (or positions) from the per-(body, lane) columns into SIMD8 lanes, runs the shared kernels and
// scatters them back, as Box2D v3 does within one world (b2GatherBodies / b2ScatterBodies).
// Warm start, the velocity iterations and the position passes each walk the rounds in order, so
// every world meets its contacts in its own sequence, bit for bit the single world's.

/// Bundles of one sub-step, round by round, and their constraints, in memory this store owns.
final class ContactBundles {
    typealias V = SIMD8<Float>
    static let width = V.scalarCount
    let capacity: Int
    /// Bundles in use this sub-step, stored round by round (round 0's first), so walking them
    /// in order walks every world's contacts in its own order.
    var count = 0
    /// Active lanes of each bundle: the first `laneCount[b]`, the rest repeat lane 0's indices.
    let laneCount: UnsafeMutablePointer<Int32>
    /// Per (bundle, lane), index = bundle × 8 + lane: the column index of body A and B, of the
    /// contact (row × lanes + world lane), and the island slot.
    let bodyA: UnsafeMutablePointer<Int32>, bodyB: UnsafeMutablePointer<Int32>
    let contact: UnsafeMutablePointer<Int32>, island: UnsafeMutablePointer<Int32>
    /// Per bundle: which of its index lists are eight consecutive entries (`BundleRuns`).
    let runs: UnsafeMutablePointer<Int32>
    /// Set up once per sub-step, read by every iteration.
    let constraints: UnsafeMutablePointer<ContactLanes<V>>
    let manifolds: UnsafeMutablePointer<ManifoldLanes<V>>
    let bodies: UnsafeMutablePointer<ContactBodiesLanes<V>>
    let kinds: UnsafeMutablePointer<ManifoldKinds>
    /// Whether body A can move in some lane (`canMove`); where it cannot, its velocities stay as
    /// they were at set-up through every pass (x − 0·P is x), so they are gathered once, here.
    let aMoves: UnsafeMutablePointer<Bool>
    let fixedA: UnsafeMutablePointer<VelocityLanes<V>>
    /// Lanes in the order they are packed (most contacts first), and scratch for that sort.
    let laneOrder: UnsafeMutablePointer<Int32>, bucket: UnsafeMutablePointer<Int>
    /// Since creation: bundles run and their active lanes (set up once per sub-step), for the
    /// occupancy the docs report, and bundles set up with a run of indices (tests read it).
    var bundlesSetUp = 0, lanesSetUp = 0, runBundlesSetUp = 0

    /// Rows it was sized for.
    let rowCapacity: Int
    private let columns = Columns()
    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// Bundle `b`'s contact, body A and body B indices.
    @inline(__always) func indices(_ b: Int) -> (contact: BundleIndices, a: BundleIndices, b: BundleIndices) {
        let runs = BundleRuns(rawValue: self.runs[b]), at = b &* Self.width
        return (BundleIndices(contact + at, run: runs.contains(.contact)), BundleIndices(bodyA + at, run: runs.contains(.bodyA)),
                BundleIndices(bodyB + at, run: runs.contains(.bodyB)))
    }

    init(lanes: Int, capacity rows: Int) {
        rowCapacity = rows
        let pairCount = rows
        // A lane solves each row at most once: at most `rows` rounds of at most lanes / 8 bundles.
        capacity = max(pairCount * ((lanes + Self.width - 1) / Self.width), 1)
        // Written by the packing and the set-up before any pass reads them.
        laneCount = columns.make(uninitialized: capacity); runs = columns.make(uninitialized: capacity)
        bodyA = columns.make(uninitialized: capacity * Self.width); bodyB = columns.make(uninitialized: capacity * Self.width)
        contact = columns.make(uninitialized: capacity * Self.width); island = columns.make(uninitialized: capacity * Self.width)
        constraints = columns.make(uninitialized: capacity); manifolds = columns.make(uninitialized: capacity)
        bodies = columns.make(uninitialized: capacity); kinds = columns.make(uninitialized: capacity)
        aMoves = columns.make(uninitialized: capacity); fixedA = columns.make(uninitialized: capacity)
        laneOrder = columns.make(uninitialized: lanes); bucket = columns.make(uninitialized: pairCount + 2)
        columns.expect(Self.bytes(lanes: lanes, capacity: rows), of: "ContactBundles")
    }

    /// The bytes it allocates, as `init` makes them: per bundle its lane count and runs, four index columns
    /// of eight lanes, its constraint, manifold, bodies, kinds, `aMoves` and fixed velocities; the
    /// lane order and the packing's buckets.
    static func bytes(lanes: Int, capacity rows: Int) -> Int {
        let bundles = max(rows * ((lanes + width - 1) / width), 1)
        return 2 * Columns.bytes(Int32.self, bundles) + 4 * Columns.bytes(Int32.self, bundles * width)
            + Columns.bytes(ContactLanes<V>.self, bundles) + Columns.bytes(ManifoldLanes<V>.self, bundles)
            + Columns.bytes(ContactBodiesLanes<V>.self, bundles) + Columns.bytes(ManifoldKinds.self, bundles)
            + Columns.bytes(Bool.self, bundles) + Columns.bytes(VelocityLanes<V>.self, bundles)
            + Columns.bytes(Int32.self, lanes) + Columns.bytes(Int.self, rows + 2)
    }
}

/// The first `count` lanes, as a mask.
@inline(__always) func firstLanes(_ count: Int) -> SIMDMask<SIMD8<Int32>> {
    maskFromFlags((SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) &- SIMD8(repeating: Int32(count))) &>> 31)
}

extension LaneWorld {
    /// Packs the lanes' solve lists into bundles: lanes sorted by how many contacts they solve,
    /// most first (stably), so the lanes with a k-th contact are a prefix and each keeps its
    /// place in every round. The packing is a function of the lists and the island slots alone,
    /// so while no lane walked its islands again, renumbered them or stopped (`packingValid`),
    /// the last one stands (most sub-steps of a settled batch).
    func packBundles() {
        if packingValid { bundleReuses += 1; return }
        packingValid = true
        bundlePackings += 1
        let k = bundles, width = ContactBundles.width
        // bucket[c]: lanes that solve more than c contacts (counting sort, most first).
        let maxSolve = k.rowCapacity
        k.bucket.update(repeating: 0, count: maxSolve + 2)
        var rounds = 0
        for lane in 0..<lanes {
            let n = Int(islands.solveCount[lane])
            guard n > 0 else { continue }
            k.bucket[n - 1] += 1
            rounds = max(rounds, n)
        }
        var more = 0
        for c in stride(from: maxSolve, through: 0, by: -1) { more += k.bucket[c]; k.bucket[c] = more }
        // Now bucket[c] counts the lanes solving more than c contacts, so the lanes solving n go
        // from bucket[n] on, in lane order (one pass, not one per count). Placing them moves
        // bucket[n] up to bucket[n - 1]: afterwards bucket[c + 1] counts the lanes solving more than c.
        for lane in 0..<lanes {
            let n = Int(islands.solveCount[lane])
            guard n > 0 else { continue }
            k.laneOrder[k.bucket[n]] = Int32(lane)
            k.bucket[n] += 1
        }
        var bundle = 0
        let islands = self.islands, capacity = islands.capacity, lanes = self.lanes
        for round in 0..<rounds {
            let inRound = k.bucket[round + 1]   // lanes with a round-th contact: a prefix of laneOrder
            rows.pair.withUnsafeBufferPointer { pairs in
                // Wrapping arithmetic: every index here is below the columns' sizes, which were
                // made as Int32 columns of (body or row) × lanes; the checked forms cost a third
                // of the loop in overflow tests.
                for j in 0..<inRound {
                    let lane = Int(k.laneOrder[j])
                    let slot = lane &* capacity &+ round
                    let p = Int(islands.solvePair[slot])
                    let s = bundle &* width &+ j   // bundle + j / width, lane j % width
                    k.bodyA[s] = Int32(truncatingIfNeeded: pairs[p].a &* lanes &+ lane)
                    k.bodyB[s] = Int32(truncatingIfNeeded: pairs[p].b &* lanes &+ lane)
                    k.contact[s] = Int32(truncatingIfNeeded: p &* lanes &+ lane)
                    k.island[s] = islands.solveIsland[slot] &+ islands.slotShift[lane]
                }
            }
            let full = inRound / width, rest = inRound % width
            for b in bundle..<(bundle + full) {
                k.laneCount[b] = Int32(width)
                var runs: BundleRuns = []
                if BundleRuns.consecutive(k.contact + b &* width) { runs.insert(.contact) }
                if BundleRuns.consecutive(k.bodyA + b &* width) { runs.insert(.bodyA) }
                if BundleRuns.consecutive(k.bodyB + b &* width) { runs.insert(.bodyB) }
                k.runs[b] = runs.rawValue
            }
            if rest > 0 {
                let b = bundle + full
                k.laneCount[b] = Int32(rest)
                k.runs[b] = 0
                for l in rest..<width {
                    k.bodyA[b * width + l] = k.bodyA[b * width]; k.bodyB[b * width + l] = k.bodyB[b * width]
                    k.contact[b * width + l] = k.contact[b * width]; k.island[b * width + l] = k.island[b * width]
                }
            }
            bundle += full + (rest > 0 ? 1 : 0)
        }
        k.count = bundle
    }

    /// Constraint set-up of every bundle (ContactSolver.init and initializeVelocityConstraints):
    /// the manifold, masses and materials gathered from the columns, impulses scaled for the warm
    /// start, then the shared kernel. Lanes past a bundle's count get zero masses and no points.
    func setUpBundles(dtRatio: Float) {
        let k = bundles
        let ratio = V(repeating: dtRatio)
        for b in 0..<k.count {
            let (ci, ia, ib) = k.indices(b)
            let count = Int(k.laneCount[b])
            k.bundlesSetUp += 1; k.lanesSetUp += count
            if k.runs[b] != 0 { k.runBundlesSetUp += 1 }
            let active = firstLanes(count)
            let activeFlags = unsafeBitCast(active, to: IV.self)
            let points = ci.gather(contacts.pointCount) & activeFlags   // 0 where inactive
            let onFaceA = maskFromFlags(ci.gather(contacts.faceA)), onFaceB = maskFromFlags(ci.gather(contacts.faceB))
            var kinds: ManifoldKinds = []
            if anyLane(onFaceA .& active) { kinds.insert(.faceA) }
            if anyLane(onFaceB .& active) { kinds.insert(.faceB) }
            // Neither face: a circle–circle manifold (the only other kind).
            if anyLane(active .& .!onFaceA .& .!onFaceB) { kinds.insert(.circles) }
            k.kinds[b] = kinds
            let manifold = ManifoldLanes(
                isFaceA: onFaceA, isFaceB: onFaceB,
                localNormalX: ci.gather(contacts.normalX), localNormalY: ci.gather(contacts.normalY),
                localPointX: ci.gather(contacts.pointX), localPointY: ci.gather(contacts.pointY),
                point0X: ci.gather(contacts.point0X), point0Y: ci.gather(contacts.point0Y),
                point1X: ci.gather(contacts.point1X), point1Y: ci.gather(contacts.point1Y),
                hasPoint0: nonZeroLanes(points), hasPoint1: maskFromFlags(0 &- (points &>> 1)))   // points is 0, 1 or 2
            k.manifolds[b] = manifold
            @inline(__always) func masked(_ v: V) -> V { v.blended(with: 0, where: .!active) }   // out of line: a call per use
            let pb = ContactBodiesLanes(mA: masked(ia.gather(self.bodies.invMass)), iA: masked(ia.gather(self.bodies.invI)),
                                        mB: masked(ib.gather(self.bodies.invMass)), iB: masked(ib.gather(self.bodies.invI)),
                                        localCenterAX: ia.gather(details.lcx), localCenterAY: ia.gather(details.lcy),
                                        localCenterBX: ib.gather(details.lcx), localCenterBY: ib.gather(details.lcy),
                                        radiusA: ia.gather(details.radius), radiusB: ib.gather(details.radius))
            k.bodies[b] = pb
            // The carried impulses, scaled for the warm start (none in lanes past the count).
            @inline(__always) func carried(_ impulse: UnsafeMutablePointer<Float>) -> V { ratio * masked(ci.gather(impulse)) }
            k.constraints[b] = ContactLanes(
                beforeSetUp: pb, friction: mixedFriction(ia.gather(details.friction), ib.gather(details.friction)),
                normalImpulse0: carried(contacts.normalImpulse0), tangentImpulse0: carried(contacts.tangentImpulse0),
                normalImpulse1: carried(contacts.normalImpulse1), tangentImpulse1: carried(contacts.tangentImpulse1))
            let vA = velocityLanes(ia)
            ContactKernels.initialize(&k.constraints[b], manifold, kinds: kinds, pb,
                                      restitution: mixedRestitution(ia.gather(details.restitution), ib.gather(details.restitution)),
                                      positionLanes(ia), positionLanes(ib), vA, velocityLanes(ib))
            k.aMoves[b] = k.constraints[b].bodyAMoves
            k.fixedA[b] = vA
        }
    }

    // Bundle bodies in and out of SIMD8 lanes, for the contact and the joint bundles alike.
    @inline(__always) func positionLanes(_ i: UnsafeMutablePointer<Int32>) -> PositionLanes<V> {
        PositionLanes(cx: gatherLanes(bodies.cx, i), cy: gatherLanes(bodies.cy, i), a: gatherLanes(bodies.a, i))
    }
    @inline(__always) func velocityLanes(_ i: UnsafeMutablePointer<Int32>) -> VelocityLanes<V> {
        VelocityLanes(vx: gatherLanes(bodies.vx, i), vy: gatherLanes(bodies.vy, i), w: gatherLanes(bodies.w, i))
    }
    @inline(__always) func scatter(_ v: VelocityLanes<V>, _ i: UnsafeMutablePointer<Int32>, count: Int) {
        scatterLanes(v.vx, bodies.vx, v.vy, bodies.vy, v.w, bodies.w, i, count: count)
    }
    @inline(__always) func scatter(_ p: PositionLanes<V>, _ i: UnsafeMutablePointer<Int32>, count: Int) {
        scatterLanes(p.cx, bodies.cx, p.cy, bodies.cy, p.a, bodies.a, i, count: count)
    }
    @inline(__always) func positionLanes(_ i: BundleIndices) -> PositionLanes<V> {
        PositionLanes(cx: i.gather(bodies.cx), cy: i.gather(bodies.cy), a: i.gather(bodies.a))
    }
    @inline(__always) func velocityLanes(_ i: BundleIndices) -> VelocityLanes<V> {
        VelocityLanes(vx: i.gather(bodies.vx), vy: i.gather(bodies.vy), w: i.gather(bodies.w))
    }
    @inline(__always) func scatter(_ v: VelocityLanes<V>, _ i: BundleIndices, count: Int) {
        i.scatter(v.vx, bodies.vx, v.vy, bodies.vy, v.w, bodies.w, count: count)
    }
    @inline(__always) func scatter(_ p: PositionLanes<V>, _ i: BundleIndices, count: Int) {
        i.scatter(p.cx, bodies.cx, p.cy, bodies.cy, p.a, bodies.a, count: count)
    }

    /// Every bundle's warm start, over the rounds in order.
    func warmStartBundles() {
        for b in 0..<bundles.count { velocityStep(b, warmStart: true) }
    }

    /// One velocity iteration over the rounds in order.
    func bundleVelocityIteration() {
        // Bundles of one round share no body, so the core overlaps their chains on its own;
        // taking them two per loop step measured slower (docs/batched-engine.md).
        for b in 0..<bundles.count { velocityStep(b, warmStart: false) }
    }

    /// The impulses back into the contact columns for the next sub-step's warm start.
    func storeBundleImpulses() {
        let k = bundles
        for b in 0..<k.count {
            let ci = k.indices(b).contact, count = Int(k.laneCount[b])
            let c = k.constraints + b
            ci.scatter(c.pointee.p0.normalImpulse, contacts.normalImpulse0, c.pointee.p0.tangentImpulse, contacts.tangentImpulse0,
                       c.pointee.p1.normalImpulse, contacts.normalImpulse1, c.pointee.p1.tangentImpulse, contacts.tangentImpulse1,
                       count: count)
        }
    }

    /// Bundle `b`'s warm start or one velocity step: gather, the shared kernel, scatter.
    @inline(__always) private func velocityStep(_ b: Int, warmStart: Bool) {
        let k = bundles
        let (_, ia, ib) = k.indices(b), count = Int(k.laneCount[b])
        let aMoves = k.aMoves[b]
        var va = aMoves ? velocityLanes(ia) : k.fixedA[b], vb = velocityLanes(ib)
        if warmStart {
            if aMoves { Self.warmStartMovingA(k.constraints + b, &va, &vb) } else { ContactKernels.warmStart(k.constraints[b], &va, &vb, aMoves: false) }
        } else {
            ContactVelocityKernel.solve(&k.constraints[b], &va, &vb, aMoves: aMoves)
        }
        if aMoves { scatter(va, ia, count: count) }
        scatter(vb, ib, count: count)
    }

    /// The warm start of a bundle whose body A moves, out of line: inlined between the gathers and
    /// the scatters, the compiler turned its arithmetic into lane-by-lane scalar code (695
    /// instructions a bundle in twin-drop, against 105 where A is fixed). Here the velocities
    /// come and go as whole vectors.
    @inline(never) private static func warmStartMovingA(_ c: UnsafeMutablePointer<ContactLanes<V>>, _ a: inout VelocityLanes<V>,
                                                        _ b: inout VelocityLanes<V>) {
        ContactKernels.warmStart(c.pointee, &a, &b, aMoves: true)
    }

    /// Position correction: up to three passes over the rounds in order, then the lanes' joints
    /// (LaneJoints.swift), each (lane, island) leaving once a pass finds its contacts within three
    /// slops and its joints okay (b2Island::Solve). Marks each island slot solved or not, for
    /// the sleep rule.
    func correctBundlePositions() {
        let k = bundles, width = ContactBundles.width, slots = islands.islandCount
        let solved = islands.solved, minSeparation = islands.minSeparation
        solved.update(repeating: 0, count: slots)
        let baumgarte = V(repeating: EngineSettings.baumgarte)
        for _ in 0..<EngineSettings.positionIterations {
            minSeparation.update(repeating: 0, count: slots)
            for b in 0..<k.count {
                let isl = k.island + b * width, count = Int(k.laneCount[b])
                let active = firstLanes(count) .& .!maskFromFlags(gatherLanes(solved, isl))
                guard anyLane(active) else { continue }
                let (_, ia, ib) = k.indices(b)
                var pA = positionLanes(ia), pB = positionLanes(ib)
                let pb = k.bodies + b
                let aMoves = canMove(invMass: pb.pointee.mA, invInertia: pb.pointee.iA)
                let out = ContactKernels.correctPositions(k.manifolds[b], kinds: k.kinds[b], pb.pointee,
                                                          mA: pb.pointee.mA, iA: pb.pointee.iA, mB: pb.pointee.mB, iB: pb.pointee.iB,
                                                          baumgarte: baumgarte, &pA, &pB,
                                                          minSeparation: gatherLanes(minSeparation, isl), active: active, aMoves: aMoves)
                if aMoves { scatter(pA, ia, count: count) }
                scatter(pB, ib, count: count)
                scatterLanes(out, minSeparation, isl, count: count)
            }
            let hasJoints = !jointBodies.isEmpty
            if hasJoints {
                islands.jointsOkay.update(repeating: -1, count: slots)
                correctJointPositions()
            }
            // Eight island slots at a time (slot by slot this loop was as costly as the passes'
            // bookkeeping); the columns hold a whole number of eight-slot groups.
            var allSolved = true
            for g in stride(from: 0, to: slots, by: Self.width) {
                let open = firstLanes(slots - g) .& .!loadMask(solved, g)
                guard anyLane(open) else { continue }
                var ok = ContactKernels.positionsSolved(minSeparation: loadLanes(minSeparation, g))
                if hasJoints { ok = ok .& loadMask(islands.jointsOkay, g) }
                storeLanes(loadLanes(solved, g) | unsafeBitCast(open .& ok, to: IV.self), solved, g)
                if anyLane(open .& .!ok) { allSolved = false }
            }
            if allSolved { break }
        }
    }
}
