// The joints stage of the batched engine, constraint-major like the contacts (LaneBundles.swift):
// each running lane lists its joints in the order its island walk met them (LaneIslands.swift);
// round k packs the k-th joint of every lane that has one into bundles of eight lanes of one
// joint kind (lanes walk differently, so a round may hold several kinds). A bundle gathers its
// joints' definitions and carried impulses from the lanes' own worlds (`PhysicsWorld.joints`,
// where the single world keeps them) and its bodies from the (body, lane) columns, runs the
// shared kernels on SIMD8 and scatters back; the impulses go back to the worlds after the
// velocity iterations. Walking the rounds in order walks every world's joints in its own order.

/// Joint bundles of one sub-step, round by round, in memory this store owns.
final class JointBundles {
    typealias V = SIMD8<Float>
    static let width = V.scalarCount
    let capacity: Int
    var count = 0
    private let columns = Columns()
    /// Active lanes of each bundle (the first `laneCount[b]`; the rest repeat lane 0) and its kind.
    let laneCount: UnsafeMutablePointer<Int32>, kind: UnsafeMutablePointer<JointKind>
    /// Per (bundle, lane), index = bundle × 8 + lane: column indices of bodies A and B, the island
    /// slot, the world lane and the joint index.
    let bodyA: UnsafeMutablePointer<Int32>, bodyB: UnsafeMutablePointer<Int32>, island: UnsafeMutablePointer<Int32>
    let lane: UnsafeMutablePointer<Int32>, joint: UnsafeMutablePointer<Int32>
    let joints: UnsafeMutablePointer<JointLanes<V>>

    init(lanes: Int, jointCount: Int) {
        // Round k's lanes split by kind: at most lanes / 8 + (kinds) bundles per round.
        capacity = max(jointCount * ((lanes + Self.width - 1) / Self.width + JointKind.allCases.count), 1)
        laneCount = columns.make(capacity, 0); kind = columns.make(capacity, .distance)
        bodyA = columns.make(capacity * Self.width, 0); bodyB = columns.make(capacity * Self.width, 0)
        island = columns.make(capacity * Self.width, 0); lane = columns.make(capacity * Self.width, 0)
        joint = columns.make(capacity * Self.width, 0)
        joints = columns.make(capacity, JointLanes<V>(zero: V(repeating: 0)))
        columns.expect(Self.bytes(lanes: lanes, jointCount: jointCount), of: "JointBundles")
    }

    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them: per bundle its lane count and kind, five index
    /// columns of eight lanes and the joints' lanes.
    static func bytes(lanes: Int, jointCount: Int) -> Int {
        let bundles = max(jointCount * ((lanes + width - 1) / width + JointKind.allCases.count), 1)
        return Columns.bytes(Int32.self, bundles) + Columns.bytes(JointKind.self, bundles)
            + 5 * Columns.bytes(Int32.self, bundles * width) + Columns.bytes(JointLanes<V>.self, bundles)
    }
}

extension LaneWorld {
    /// Packs the lanes' joint lists into bundles, round by round, one kind per bundle.
    func packJointBundles() {
        let k = jointBundles, width = JointBundles.width, jointCount = jointBodies.count
        var bundle = 0
        var rounds = 0
        for l in 0..<lanes where running[l] { rounds = max(rounds, Int(islands.solveJointCount[l])) }
        var members = [[Int32]](repeating: [], count: JointKind.allCases.count)
        for round in 0..<rounds {
            for kindIndex in members.indices { members[kindIndex].removeAll(keepingCapacity: true) }
            for l in 0..<lanes where running[l] && Int(islands.solveJointCount[l]) > round {
                let j = Int(islands.solveJoint[l * jointCount + round])
                members[jointKinds[j].bundleIndex].append(Int32(l))
            }
            for (kindIndex, lanesOfKind) in members.enumerated() where !lanesOfKind.isEmpty {
                for start in stride(from: 0, to: lanesOfKind.count, by: width) {
                    let n = min(width, lanesOfKind.count - start)
                    k.laneCount[bundle] = Int32(n)
                    k.kind[bundle] = JointKind.allInBundleOrder[kindIndex]
                    for s in 0..<width {
                        let l = Int(lanesOfKind[start + (s < n ? s : 0)])
                        let j = Int(islands.solveJoint[l * jointCount + round])
                        let slot = bundle * width + s
                        k.lane[slot] = Int32(l); k.joint[slot] = Int32(j)
                        k.bodyA[slot] = Int32(jointBodies[j].a * lanes + l)
                        k.bodyB[slot] = Int32(jointBodies[j].b * lanes + l)
                        k.island[slot] = islands.solveJointIsland[l * jointCount + round] + islands.slotShift[l]
                    }
                    bundle += 1
                }
            }
        }
        k.count = bundle
    }

    /// Each bundle's joints gathered from the lanes' worlds, set up and warm-started
    /// (JointIslandSolver.initializeVelocityConstraints).
    func setUpJoints(dtRatio: Float) {
        packJointBundles()
        let k = jointBundles, width = JointBundles.width
        for b in 0..<k.count {
            let base = b * width
            var j = JointLanes<V>(zero: V(repeating: 0))
            for s in 0..<width {
                worlds[Int(k.lane[base + s])].joints.withUnsafeBufferPointer { j.take($0[Int(k.joint[base + s])].lanes, lane: s) }
            }
            let ia = k.bodyA + base, ib = k.bodyB + base
            j.takeBodies(mA: gatherLanes(bodies.invMass, ia), iA: gatherLanes(bodies.invI, ia),
                         mB: gatherLanes(bodies.invMass, ib), iB: gatherLanes(bodies.invI, ib),
                         localCenterA: (gatherLanes(details.lcx, ia), gatherLanes(details.lcy, ia)),
                         localCenterB: (gatherLanes(details.lcx, ib), gatherLanes(details.lcy, ib)))
            var vA = velocityLanes(ia), vB = velocityLanes(ib)
            JointKernels.initVelocity(k.kind[b], &j, positionLanes(ia), positionLanes(ib), &vA, &vB,
                                      h: V(repeating: h), dtRatio: V(repeating: dtRatio))
            let count = Int(k.laneCount[b])
            scatter(vA, ia, count: count); scatter(vB, ib, count: count)
            k.joints[b] = j
        }
    }

    /// One velocity step of every bundle, rounds in order.
    func solveJointVelocities() {
        let k = jointBundles, width = JointBundles.width, hv = V(repeating: h)
        for b in 0..<k.count {
            let ia = k.bodyA + b * width, ib = k.bodyB + b * width, count = Int(k.laneCount[b])
            var vA = velocityLanes(ia), vB = velocityLanes(ib)
            JointKernels.solveVelocity(k.kind[b], &k.joints[b], &vA, &vB, h: hv)
            scatter(vA, ia, count: count); scatter(vB, ib, count: count)
        }
    }

    /// The impulses back into the lanes' worlds for the next sub-step's warm start.
    func storeJointImpulses() {
        let k = jointBundles, width = JointBundles.width
        for b in 0..<k.count {
            for s in 0..<Int(k.laneCount[b]) {
                let slot = b * width + s
                worlds[Int(k.lane[slot])].joints.withUnsafeMutableBufferPointer {
                    k.joints[b].giveCarried(lane: s, to: &$0[Int(k.joint[slot])].lanes)
                }
            }
        }
    }

    /// One position pass of the bundles whose islands are not yet solved; clears `jointsOkay` of
    /// every island slot with a joint that is not okay.
    func correctJointPositions() {
        let k = jointBundles, width = JointBundles.width
        for b in 0..<k.count {
            let isl = k.island + b * width, count = Int(k.laneCount[b])
            let active = firstLanes(count) .& .!maskFromFlags(gatherLanes(islands.solved, isl))
            guard anyLane(active) else { continue }
            let ia = k.bodyA + b * width, ib = k.bodyB + b * width
            let oldA = positionLanes(ia), oldB = positionLanes(ib)
            var pA = oldA, pB = oldB
            let okay = JointKernels.solvePosition(k.kind[b], k.joints[b], &pA, &pB)
            // Lanes of solved islands keep their positions.
            func keep(_ new: PositionLanes<V>, _ old: PositionLanes<V>) -> PositionLanes<V> {
                PositionLanes(cx: old.cx.blended(with: new.cx, where: active), cy: old.cy.blended(with: new.cy, where: active),
                              a: old.a.blended(with: new.a, where: active))
            }
            scatter(keep(pA, oldA), ia, count: count)
            scatter(keep(pB, oldB), ib, count: count)
            let failed = active .& .!okay
            if anyLane(failed) { for s in 0..<count where failed[s] { islands.jointsOkay[Int(isl[s])] = 0 } }
        }
    }
}

extension JointKind {
    /// Kinds in the order a round's bundles take them: the declaration's.
    static var allInBundleOrder: AllCases { allCases }
    var bundleIndex: Int { rawValue }
}
