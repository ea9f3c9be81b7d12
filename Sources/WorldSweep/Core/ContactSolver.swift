// Sequential impulses over contact constraints (Box2D 2.x's solver): friction then normal per
// contact, a 2×2 block solve for two-point manifolds, restitution as a velocity bias taken before
// the iterations, and split position correction (Baumgarte) afterwards.

struct BodyPosition { var c: Vec2; var a: Float }
struct BodyVelocity { var v: Vec2; var w: Float }

/// What the solver needs of a contact: its manifold and the material and mass of both bodies,
/// with indices into the island's position and velocity arrays.
struct ContactInput {
    var manifold: Manifold
    var indexA: Int, indexB: Int
    var invMassA: Float, invMassB: Float
    var invIA: Float, invIB: Float
    var localCenterA: Vec2, localCenterB: Vec2
    var radiusA: Float, radiusB: Float
    var friction: Float, restitution: Float
}

struct ContactSolver {
    var inputs: [ContactInput]
    /// Each contact's velocity constraint, manifold and bodies, in the form the shared kernels
    /// take (one lane).
    var constraints: [ContactLanes<Float>]
    private var manifolds: [ManifoldLanes<Float>]
    private var bodies: [ContactBodiesLanes<Float>]

    /// No contacts yet: a solver kept to be filled again and again (`inputs`, then `prepare`),
    /// so its arrays keep their storage (an island solve per island, a time-of-impact pass per impact).
    init() { inputs = []; constraints = []; manifolds = []; bodies = [] }

    /// Each of `inputs`' constraint, manifold and bodies, into the arrays this solver already has
    /// (emptied first, their storage kept).
    mutating func prepare(warmStarting: Bool, dtRatio: Float) {
        constraints.removeAll(keepingCapacity: true)
        manifolds.removeAll(keepingCapacity: true)
        bodies.removeAll(keepingCapacity: true)
        if constraints.capacity < inputs.count {   // room made once, not by doubling
            constraints.reserveCapacity(inputs.count); manifolds.reserveCapacity(inputs.count); bodies.reserveCapacity(inputs.count)
        }
        for c in inputs {
            let b = Self.bodies(c), m = c.manifold
            // The carried impulses, scaled by `dtRatio` when warm starting, else none.
            func carried(_ impulse: Float) -> Float { warmStarting ? dtRatio * impulse : 0 }
            constraints.append(ContactLanes(beforeSetUp: b, friction: c.friction,
                                            normalImpulse0: carried(m.point0.normalImpulse), tangentImpulse0: carried(m.point0.tangentImpulse),
                                            normalImpulse1: carried(m.point1.normalImpulse), tangentImpulse1: carried(m.point1.tangentImpulse)))
            manifolds.append(ManifoldLanes(oneLane: c.manifold))
            bodies.append(b)
        }
    }

    /// A contact's bodies as the kernels take them.
    private static func bodies(_ c: ContactInput) -> ContactBodiesLanes<Float> {
        ContactBodiesLanes(mA: c.invMassA, iA: c.invIA, mB: c.invMassB, iB: c.invIB,
                           localCenterAX: c.localCenterA.x, localCenterAY: c.localCenterA.y,
                           localCenterBX: c.localCenterB.x, localCenterBY: c.localCenterB.y,
                           radiusA: c.radiusA, radiusB: c.radiusB)
    }

    private static func lanes(_ p: BodyPosition) -> PositionLanes<Float> { PositionLanes(cx: p.c.x, cy: p.c.y, a: p.a) }
    private static func lanes(_ v: BodyVelocity) -> VelocityLanes<Float> { VelocityLanes(vx: v.v.x, vy: v.v.y, w: v.w) }

    // The loops below read and write through buffer pointers: indexing the arrays checked bounds
    // and uniqueness for every contact of every iteration. Without contacts they return at once:
    // the empty arrays' storage, shared, would be copied to be written.

    mutating func initializeVelocityConstraints(_ positions: [BodyPosition], _ velocities: [BodyVelocity]) {
        if inputs.isEmpty { return }
        inputs.withUnsafeBufferPointer { inputs in
            constraints.withUnsafeMutableBufferPointer { constraints in
                for i in 0..<inputs.count {
                    let c = inputs.baseAddress! + i
                    ContactKernels.initialize(&constraints[i], manifolds[i], kinds: ManifoldKinds(c.pointee.manifold.kind), bodies[i],
                                              restitution: c.pointee.restitution,
                                              Self.lanes(positions[c.pointee.indexA]), Self.lanes(positions[c.pointee.indexB]),
                                              Self.lanes(velocities[c.pointee.indexA]), Self.lanes(velocities[c.pointee.indexB]))
                }
            }
        }
    }

    func warmStart(_ velocities: inout [BodyVelocity]) {
        if inputs.isEmpty { return }
        inputs.withUnsafeBufferPointer { inputs in
            constraints.withUnsafeBufferPointer { constraints in
                velocities.withUnsafeMutableBufferPointer { velocities in
                    for i in 0..<inputs.count {
                        let ia = inputs[i].indexA, ib = inputs[i].indexB
                        var a = Self.lanes(velocities[ia]), b = Self.lanes(velocities[ib])
                        ContactKernels.warmStart(constraints[i], &a, &b)
                        velocities[ia] = BodyVelocity(v: Vec2(a.vx, a.vy), w: a.w)
                        velocities[ib] = BodyVelocity(v: Vec2(b.vx, b.vy), w: b.w)
                    }
                }
            }
        }
    }

    mutating func solveVelocityConstraints(_ velocities: inout [BodyVelocity]) {
        if inputs.isEmpty { return }
        inputs.withUnsafeBufferPointer { inputs in
            constraints.withUnsafeMutableBufferPointer { constraints in
                velocities.withUnsafeMutableBufferPointer { velocities in
                    for i in 0..<inputs.count {
                        let ia = inputs[i].indexA, ib = inputs[i].indexB
                        var a = Self.lanes(velocities[ia]), b = Self.lanes(velocities[ib])
                        ContactVelocityKernel.solve(&constraints[i], &a, &b)
                        velocities[ia] = BodyVelocity(v: Vec2(a.vx, a.vy), w: a.w)
                        velocities[ib] = BodyVelocity(v: Vec2(b.vx, b.vy), w: b.w)
                    }
                }
            }
        }
    }

    /// Copies contact i's accumulated impulses back into its manifold for the next sub-step's
    /// warm start.
    @inline(__always) func storeImpulses(_ i: Int, into m: inout Manifold) {
        m.point0.normalImpulse = constraints[i].p0.normalImpulse
        m.point0.tangentImpulse = constraints[i].p0.tangentImpulse
        m.point1.normalImpulse = constraints[i].p1.normalImpulse
        m.point1.tangentImpulse = constraints[i].p1.tangentImpulse
    }

    /// One pass of position correction; true when every contact is within three slops.
    /// With `toiBodies`, only those two bodies move (a time-of-impact sub-step) and the stiffer
    /// TOI Baumgarte factor applies.
    func solvePositionConstraints(_ positions: inout [BodyPosition], toiBodies: (Int, Int)? = nil) -> Bool {
        var minSeparation: Float = 0
        let baumgarte = toiBodies == nil ? EngineSettings.baumgarte : EngineSettings.toiBaumgarte
        inputs.withUnsafeBufferPointer { inputs in
            positions.withUnsafeMutableBufferPointer { positions in
                for i in 0..<inputs.count {
                    let c = inputs.baseAddress! + i
                    var mA = c.pointee.invMassA, iA = c.pointee.invIA, mB = c.pointee.invMassB, iB = c.pointee.invIB
                    let ia = c.pointee.indexA, ib = c.pointee.indexB
                    if let (t1, t2) = toiBodies {
                        if ia != t1 && ia != t2 { mA = 0; iA = 0 }
                        if ib != t1 && ib != t2 { mB = 0; iB = 0 }
                    }
                    var pA = Self.lanes(positions[ia]), pB = Self.lanes(positions[ib])
                    minSeparation = ContactKernels.correctPositions(
                        manifolds[i], kinds: ManifoldKinds(c.pointee.manifold.kind), bodies[i], mA: mA, iA: iA, mB: mB, iB: iB,
                        baumgarte: baumgarte, &pA, &pB, minSeparation: minSeparation, active: true)
                    positions[ia] = BodyPosition(c: Vec2(pA.cx, pA.cy), a: pA.a)
                    positions[ib] = BodyPosition(c: Vec2(pB.cx, pB.cy), a: pB.a)
                }
            }
        }
        return ContactKernels.positionsSolved(minSeparation: minSeparation, timeOfImpact: toiBodies != nil)
    }
}

extension ManifoldLanes where L == Float {
    /// One manifold as a single lane.
    init(oneLane m: Manifold) {
        self.init(isFaceA: m.kind == .faceA, isFaceB: m.kind == .faceB,
                  localNormalX: m.localNormal.x, localNormalY: m.localNormal.y,
                  localPointX: m.localPoint.x, localPointY: m.localPoint.y,
                  point0X: m.point0.localPoint.x, point0Y: m.point0.localPoint.y,
                  point1X: m.point1.localPoint.x, point1Y: m.point1.localPoint.y,
                  hasPoint0: m.pointCount >= 1, hasPoint1: m.pointCount >= 2)
    }
}
