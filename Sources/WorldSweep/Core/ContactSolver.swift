// Sequential impulses over contact constraints (Box2D 2.x's solver): friction then normal per
// contact, a 2×2 block solve for two-point manifolds, restitution as a velocity bias taken before
// the iterations, and split position correction (Baumgarte) afterwards.

struct BodyPosition { var c: Vec2; var a: Float }
struct BodyVelocity { var v: Vec2; var w: Float }

/// A contact's two bodies, as places in the island's position and velocity arrays: the one thing
/// every iteration reads beside the constraint, so it is kept apart in eight bytes.
struct ContactBodyIndices { var a: Int32, b: Int32 }

/// What a contact's set-up and position correction read, and the velocity iterations do not: its
/// manifold, its bodies' mass and shape, the manifold's kind and the mixed restitution.
struct ContactShapeLane {
    var manifold: ManifoldLanes<Float>
    var bodies: ContactBodiesLanes<Float>
    var kinds: ManifoldKinds
    var restitution: Float
}

struct ContactSolver {
    /// Each contact's velocity constraint, shape and bodies' places, in the form the shared
    /// kernels take (one lane).
    var constraints: [ContactLanes<Float>] = []
    private var shapes: [ContactShapeLane] = []
    private(set) var indices: [ContactBodyIndices] = []

    /// No contacts yet: a solver kept to be filled again and again (`removeAll`, then `append`),
    /// so its arrays keep their storage (an island solve per island, a time-of-impact pass per impact).
    init() {}

    var count: Int { indices.count }

    /// Empties the solver, keeping its storage, with room for `count` contacts made at once (not
    /// by doubling).
    /// (Already empty, as after most islands without contacts, it is left alone: emptying an
    /// array is a call.)
    mutating func removeAll(reservingCapacity count: Int) {
        if !indices.isEmpty {
            constraints.removeAll(keepingCapacity: true); shapes.removeAll(keepingCapacity: true)
            indices.removeAll(keepingCapacity: true)
        }
        if indices.capacity < count {
            constraints.reserveCapacity(count); shapes.reserveCapacity(count); indices.reserveCapacity(count)
        }
    }

    /// One contact: its manifold, its bodies' places `indexA`, `indexB` in the island's arrays,
    /// their mass and shape (`bodies`), the mixed friction and restitution. Its constraint carries
    /// the manifold's impulses scaled by `dtRatio` when warm starting, else none. With `states`
    /// (the island's positions and velocities), the constraint is set up at once
    /// (`initializeVelocityConstraints`' work for this contact), while its inputs are at hand.
    mutating func append(_ m: Manifold, indexA: Int, indexB: Int, bodies b: ContactBodiesLanes<Float>,
                         friction: Float, restitution: Float, warmStarting: Bool, dtRatio: Float,
                         initializingWith states: (UnsafeBufferPointer<BodyPosition>, UnsafeBufferPointer<BodyVelocity>)? = nil) {
        // The carried impulses, scaled by `dtRatio` when warm starting, else none.
        func carried(_ impulse: Float) -> Float { warmStarting ? dtRatio * impulse : 0 }
        var constraint = ContactLanes(beforeSetUp: b, friction: friction,
                                      normalImpulse0: carried(m.point0.normalImpulse), tangentImpulse0: carried(m.point0.tangentImpulse),
                                      normalImpulse1: carried(m.point1.normalImpulse), tangentImpulse1: carried(m.point1.tangentImpulse))
        let manifold = ManifoldLanes(oneLane: m), kind = ManifoldKinds(m.kind)
        if let (positions, velocities) = states {
            ContactKernels.initialize(&constraint, manifold, kinds: kind, b, restitution: restitution,
                                      Self.lanes(positions[indexA]), Self.lanes(positions[indexB]),
                                      Self.lanes(velocities[indexA]), Self.lanes(velocities[indexB]))
        }
        constraints.append(constraint)
        shapes.append(ContactShapeLane(manifold: manifold, bodies: b, kinds: kind, restitution: restitution))
        indices.append(ContactBodyIndices(a: Int32(truncatingIfNeeded: indexA), b: Int32(truncatingIfNeeded: indexB)))
    }

    @inline(__always) private static func lanes(_ p: BodyPosition) -> PositionLanes<Float> { PositionLanes(cx: p.c.x, cy: p.c.y, a: p.a) }
    @inline(__always) private static func lanes(_ v: BodyVelocity) -> VelocityLanes<Float> { VelocityLanes(vx: v.v.x, vy: v.v.y, w: v.w) }

    // The loops below read and write through buffer pointers: indexing the arrays checked bounds
    // and uniqueness for every contact of every iteration. Without contacts they return at once:
    // the empty arrays' storage, shared, would be copied to be written.

    /// Sets up every constraint appended without states.
    mutating func initializeVelocityConstraints(_ positions: [BodyPosition], _ velocities: [BodyVelocity]) {
        if indices.isEmpty { return }
        let shapes = self.shapes, indices = self.indices
        constraints.withUnsafeMutableBufferPointer { constraints in
            for i in 0..<indices.count {
                let ia = Int(indices[i].a), ib = Int(indices[i].b), s = shapes[i]
                ContactKernels.initialize(&constraints[i], s.manifold, kinds: s.kinds, s.bodies, restitution: s.restitution,
                                          Self.lanes(positions[ia]), Self.lanes(positions[ib]),
                                          Self.lanes(velocities[ia]), Self.lanes(velocities[ib]))
            }
        }
    }

    func warmStart(_ velocities: inout [BodyVelocity]) {
        if indices.isEmpty { return }
        indices.withUnsafeBufferPointer { indices in
            constraints.withUnsafeBufferPointer { constraints in
                velocities.withUnsafeMutableBufferPointer { velocities in
                    for i in 0..<indices.count {
                        let ia = Int(indices[i].a), ib = Int(indices[i].b)
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
        if indices.isEmpty { return }
        indices.withUnsafeBufferPointer { indices in
            constraints.withUnsafeMutableBufferPointer { constraints in
                velocities.withUnsafeMutableBufferPointer { velocities in
                    for i in 0..<indices.count {
                        let ia = Int(indices[i].a), ib = Int(indices[i].b)
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
        if indices.isEmpty { return ContactKernels.positionsSolved(minSeparation: minSeparation, timeOfImpact: toiBodies != nil) }
        indices.withUnsafeBufferPointer { indices in
            shapes.withUnsafeBufferPointer { shapes in
                positions.withUnsafeMutableBufferPointer { positions in
                    for i in 0..<indices.count {
                        let ia = Int(indices[i].a), ib = Int(indices[i].b)
                        let s = shapes.baseAddress! + i
                        var mA = s.pointee.bodies.mA, iA = s.pointee.bodies.iA, mB = s.pointee.bodies.mB, iB = s.pointee.bodies.iB
                        if let (t1, t2) = toiBodies {
                            if ia != t1 && ia != t2 { mA = 0; iA = 0 }
                            if ib != t1 && ib != t2 { mB = 0; iB = 0 }
                        }
                        var pA = Self.lanes(positions[ia]), pB = Self.lanes(positions[ib])
                        minSeparation = ContactKernels.correctPositions(
                            s.pointee.manifold, kinds: s.pointee.kinds, s.pointee.bodies, mA: mA, iA: iA, mB: mB, iB: iB,
                            baumgarte: baumgarte, &pA, &pB, minSeparation: minSeparation, active: true)
                        positions[ia] = BodyPosition(c: Vec2(pA.cx, pA.cy), a: pA.a)
                        positions[ib] = BodyPosition(c: Vec2(pB.cx, pB.cy), a: pB.a)
                    }
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
