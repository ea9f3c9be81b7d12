// The contact update eight lanes at a time, for rows whose eight lanes hold a static edge against
// a polygon (every item against a boundary: most of the contacts), or two polygons, of one
// vertex count per body. The narrow phase is the shared kernel (`CollideLanes.edgeAndPolygon`,
// `CollideLanes.polygons`) on SIMD8; what
// `Contact.refresh` does around it (leave out a contact whose transforms have not changed by a
// bit, carry impulses over by feature id, touching) is done on the columns with masks, and only
// the lanes whose touching began or ended, or whose boxes parted, go on one by one (events and
// wakes, in each lane's pair order).

/// What the lane kernels read of the shapes besides the vertex columns (`LaneBodyDetails`): the
/// moving bodies' polygon normals and centroids, and the end points of bodies that are an edge
/// in every lane. Index as the vertex columns (normals) or body × lanes + lane.
final class LaneShapeColumns {
    private let columns = Columns()
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    let centroidX: UnsafeMutablePointer<Float>, centroidY: UnsafeMutablePointer<Float>
    let edge1X: UnsafeMutablePointer<Float>, edge1Y: UnsafeMutablePointer<Float>
    let edge2X: UnsafeMutablePointer<Float>, edge2Y: UnsafeMutablePointer<Float>
    /// Per body: its shape is an edge in every lane (so its end points are in the edge columns).
    let isEdgeInEveryLane: [Bool]
    /// The lane kernels' scratch (4 × the most vertices, eight lanes each).
    let scratch: UnsafeMutablePointer<SIMD8<Float>>
    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The bytes it allocates, as `init` makes them: the moving bodies' two normal columns (laid
    /// out as the vertex columns), centroid and edge end points per (body, lane), the scratch.
    static func bytes(bodyCount: Int, movingBodyCount moving: Int, lanes: Int, maxVertexCount: Int) -> Int {
        2 * Columns.bytes(Float.self, moving * maxVertexCount * lanes) + 6 * Columns.bytes(Float.self, bodyCount * lanes)
            + Columns.bytes(SIMD8<Float>.self, 4 * maxVertexCount)
    }

    init(details: LaneBodyDetails, bodyCount: Int, movingBodyCount moving: Int, lanes: Int) {
        let n = bodyCount * lanes, maxCount = details.maxVertexCount
        normalX = columns.make(moving * maxCount * lanes, 0); normalY = columns.make(moving * maxCount * lanes, 0)
        centroidX = columns.make(n, 0); centroidY = columns.make(n, 0)
        edge1X = columns.make(n, 0); edge1Y = columns.make(n, 0); edge2X = columns.make(n, 0); edge2Y = columns.make(n, 0)
        scratch = columns.make(4 * maxCount, SIMD8(repeating: 0))
        columns.expect(Self.bytes(bodyCount: bodyCount, movingBodyCount: moving, lanes: lanes, maxVertexCount: maxCount),
                       of: "LaneShapeColumns")
        var isEdge = Array(repeating: true, count: bodyCount)
        for b in 0..<bodyCount {
            for lane in 0..<lanes {
                let i = b * lanes + lane, shape = details.shapes[i]
                centroidX[i] = shape.centroid.x; centroidY[i] = shape.centroid.y
                if shape.kind == .edge {
                    edge1X[i] = shape.vertices[0].x; edge1Y[i] = shape.vertices[0].y
                    edge2X[i] = shape.vertices[1].x; edge2Y[i] = shape.vertices[1].y
                } else {
                    isEdge[b] = false
                }
                if b < moving {
                    for (k, normal) in shape.normals.enumerated() {
                        normalX[(b * maxCount + k) * lanes + lane] = normal.x
                        normalY[(b * maxCount + k) * lanes + lane] = normal.y
                    }
                }
            }
        }
        isEdgeInEveryLane = isEdge
    }
}

/// Which lane kernel a row's group of eight lanes can run, with the polygons' vertex counts.
enum LaneNarrowPhaseKernel: Equatable {
    case edgeAndPolygon(count: Int)
    case polygons(countA: Int, countB: Int)
}

extension LaneWorld {
    /// The lane kernel for the eight lanes of `group` in row `p` (worked out when the row got its
    /// pair: `laneKernel(for:group:)`).
    @inline(__always) func laneKernel(_ p: Int, group: Int) -> LaneNarrowPhaseKernel? {
        rows.kernel[p * (lanes / Self.width) + group / Self.width]
    }

    /// The lane kernel for the eight lanes of `group` of `pair`, or nil when they go lane by
    /// lane: a static edge against a moving body's polygon, or two polygons, of one vertex count
    /// per body in all eight lanes. Shapes never change, so a row's stays while it has its pair.
    func laneKernel(for pair: BodyPair, group: Int) -> LaneNarrowPhaseKernel? {
        let a = pair.a, b = pair.b, moving = bodies.movingBodyCount, g = group / Self.width
        guard b < moving, !isStatic[b] else { return nil }
        // A moving body's shape is a polygon or a circle, a static one may be an edge: three
        // vertices or more is a polygon.
        let countB = Int(details.groupVertexCount[b * (lanes / Self.width) + g])
        guard countB >= 3 else { return nil }
        if shapeColumns.isEdgeInEveryLane[a] && isStatic[a] { return .edgeAndPolygon(count: countB) }
        guard a < moving else { return nil }
        let countA = Int(details.groupVertexCount[a * (lanes / Self.width) + g])
        return countA >= 3 ? .polygons(countA: countA, countB: countB) : nil
    }

    /// `updateContact` for the lanes `live` of `group` in row `p`, eight lanes per instruction
    /// with `kernel`.
    func updateContacts(_ p: Int, group: Int, live: SIMDMask<IV>, kernel: LaneNarrowPhaseKernel) {
        let a = rows.pair[p].a, b = rows.pair[p].b
        let ia = a * lanes + group, ib = b * lanes + group
        // isActive: a body that can move and is awake (B can move).
        let activeA = isStatic[a] ? SIMDMask<IV>() : loadMask(details.awake, ia)
        let update = live .& (activeA .| loadMask(details.awake, ib))
        guard anyLane(update) else { return }
        let apart = update .& boxLanes(ia).isApart(from: boxLanes(ib))
        let refresh = update .& .!apart
        if anyLane(refresh) { refreshContacts(p, group: group, a: a, b: b, refresh: refresh, kernel: kernel) }
        if anyLane(apart) {
            for k in 0..<Self.width where apart[k] { destroyContact(p, lane: group + k) }
        }
    }

    /// The narrow phase on the eight lanes of `slots`.
    @inline(__always)
    func collide<S: NarrowPhaseSlots>(_ kernel: LaneNarrowPhaseKernel, _ s: S, _ xfA: TransformLanes<V>, _ xfB: TransformLanes<V>) -> CollisionLanes<V> {
        // The polygons as plain values, which the vertex and normal loads capture.
        let polygonA = s.polygonA, polygonB = s.polygonB
        switch kernel {
        case .edgeAndPolygon(let count):
            @inline(__always) func run(count: Int) -> CollisionLanes<V> {
                CollideLanes.edgeAndPolygon(
                    edge1: (s.bodyA(shapeColumns.edge1X), s.bodyA(shapeColumns.edge1Y)),
                    edge2: (s.bodyA(shapeColumns.edge2X), s.bodyA(shapeColumns.edge2Y)), edgeRadius: s.bodyA(details.radius), xfA,
                    count: count, vertex: { k in polygonB.vertex(k) }, normal: { k in polygonB.normal(k) },
                    centroid: (s.bodyB(shapeColumns.centroidX), s.bodyB(shapeColumns.centroidY)), polygonRadius: s.bodyB(details.radius), xfB,
                    scratch: shapeColumns.scratch)
            }
            // Boxes (four vertices) with the count known, so the loops unroll.
            return count == 4 ? run(count: 4) : run(count: count)
        case .polygons(let countA, let countB):
            @inline(__always) func run(countA: Int, countB: Int) -> CollisionLanes<V> {
                CollideLanes.polygons(
                    countA: countA, vertexA: { k in polygonA.vertex(k) }, normalA: { k in polygonA.normal(k) }, radiusA: s.bodyA(details.radius), xfA,
                    countB: countB, vertexB: { k in polygonB.vertex(k) }, normalB: { k in polygonB.normal(k) }, radiusB: s.bodyB(details.radius), xfB)
            }
            return countA == 4 && countB == 4 ? run(countA: 4, countB: 4) : run(countA: countA, countB: countB)
        }
    }

    /// Contact.refresh on the lanes `refresh` of one row and group.
    @inline(__always)
    private func refreshContacts(_ p: Int, group: Int, a: Int, b: Int, refresh: SIMDMask<IV>, kernel: LaneNarrowPhaseKernel) {
        let slots = RowSlots(self, row: p, group: group, a: a, b: b)
        let ci = slots.ci, ia = slots.ia, ib = slots.ib
        storeLanes(loadLanes(contacts.enabled, ci) | unsafeBitCast(refresh, to: IV.self), contacts.enabled, ci)
        guard let (began, ended) = refreshManifolds(slots, refresh: refresh, kernel: kernel) else { return }
        // Touching: began or ended lanes wake their bodies and tell their worlds.
        for k in 0..<Self.width where began[k] || ended[k] {
            let lane = group + k
            if began[k] {
                let point = WorldManifold(contacts.manifold(ci + k), transform(ia + k), details.radius[ia + k],
                                          transform(ib + k), details.radius[ib + k]).points.0
                touchBegan(p, lane: lane, point: point)
            } else {
                touchEnded(p, lane: lane)
            }
        }
    }

    /// What Contact.refresh does to the contacts of the lanes `refresh` of `s` whose manifolds
    /// are not current (besides `enabled`): their manifolds, carried impulses and touching flags
    /// written back; the lanes whose touching began or ended, nil when none did.
    @inline(__always)
    func refreshManifolds<S: NarrowPhaseSlots>(_ s: S, refresh: SIMDMask<IV>, kernel: LaneNarrowPhaseKernel)
        -> (began: SIMDMask<IV>, ended: SIMDMask<IV>)?
    {
        // The store held once: read through `self` (a `var`), every column access would load it
        // again, since the stores below might have changed it as far as the compiler knows.
        // Unowned: `self` keeps it (rows do not grow during the update), so no retain is needed.
        unowned(unsafe) let contacts = self.contacts
        let xfA = TransformLanes(px: s.bodyA(details.px), py: s.bodyA(details.py), s: s.bodyA(details.qs), c: s.bodyA(details.qc))
        let xfB = TransformLanes(px: s.bodyB(details.px), py: s.bodyB(details.py), s: s.bodyB(details.qs), c: s.bodyB(details.qc))
        let oldCount = s.contact(contacts.pointCount)   // 0, 1 or 2
        let oldHas0 = nonZeroLanes(oldCount), oldHas1 = maskFromFlags(0 &- (oldCount &>> 1))
        let oldId0 = s.contact(contacts.id0), oldId1 = s.contact(contacts.id1)
        var compute = refresh
        if S.mayHoldCurrentContacts {
            // Contact.isCurrent: the manifold was made at these very transforms (bit for bit) and no
            // two of its points share an id.
            @inline(__always) func differs(_ x: V, _ column: UnsafeMutablePointer<Float>) -> IV {
                unsafeBitCast(x, to: IV.self) ^ unsafeBitCast(s.contact(column), to: IV.self)
            }
            let moved = differs(xfA.px, contacts.transformAX) | differs(xfA.py, contacts.transformAY)
                | differs(xfA.s, contacts.transformAS) | differs(xfA.c, contacts.transformAC)
                | differs(xfB.px, contacts.transformBX) | differs(xfB.py, contacts.transformBY)
                | differs(xfB.s, contacts.transformBS) | differs(xfB.c, contacts.transformBC)
            let current = manifoldIsCurrent(V.self, hasManifold: maskFromFlags(s.contact(contacts.hasManifold)), sameTransforms: lanesEqual(moved, 0),
                                            twoPointsShareAnId: oldHas1 .& laneEquals(oldId0, oldId1))
            compute = refresh .& .!current
            guard anyLane(compute) else { return nil }
        }

        let c = collide(kernel, s, xfA, xfB)
        let m = c.manifold

        // Impulses carried over by feature id (Contact.refresh's rule, `carriedImpulse`).
        let code0 = c.id0.code, code1 = c.id1.code
        let same00 = m.hasPoint0 .& oldHas0 .& laneEquals(code0, oldId0), same01 = m.hasPoint0 .& oldHas1 .& laneEquals(code0, oldId1)
        let same10 = m.hasPoint1 .& oldHas0 .& laneEquals(code1, oldId0), same11 = m.hasPoint1 .& oldHas1 .& laneEquals(code1, oldId1)
        let normal0 = s.contact(contacts.normalImpulse0), normal1 = s.contact(contacts.normalImpulse1)
        let tangent0 = s.contact(contacts.tangentImpulse0), tangent1 = s.contact(contacts.tangentImpulse1)
        let wasTouching = maskFromFlags(s.contact(contacts.touching))
        @inline(__always) func store(_ x: V, _ column: UnsafeMutablePointer<Float>) { s.store(x, column, where: compute) }
        @inline(__always) func store(_ x: SIMDMask<IV>, _ column: UnsafeMutablePointer<Int32>) {
            s.store(unsafeBitCast(x, to: IV.self), column, where: compute)
        }
        store(carriedImpulse(sameAsOld0: same00, sameAsOld1: same01, normal0, normal1), contacts.normalImpulse0)
        store(carriedImpulse(sameAsOld0: same00, sameAsOld1: same01, tangent0, tangent1), contacts.tangentImpulse0)
        store(carriedImpulse(sameAsOld0: same10, sameAsOld1: same11, normal0, normal1), contacts.normalImpulse1)
        store(carriedImpulse(sameAsOld0: same10, sameAsOld1: same11, tangent0, tangent1), contacts.tangentImpulse1)
        store(m.isFaceA, contacts.faceA); store(m.isFaceB, contacts.faceB)
        let newCount = (0 &- unsafeBitCast(m.hasPoint0, to: IV.self)) &+ (0 &- unsafeBitCast(m.hasPoint1, to: IV.self))
        s.store(newCount, contacts.pointCount, where: compute)
        store(m.localNormalX, contacts.normalX); store(m.localNormalY, contacts.normalY)
        store(m.localPointX, contacts.pointX); store(m.localPointY, contacts.pointY)
        store(m.point0X, contacts.point0X); store(m.point0Y, contacts.point0Y)
        store(m.point1X, contacts.point1X); store(m.point1Y, contacts.point1Y)
        store(code0, contacts.id0); store(code1, contacts.id1)
        s.store(IV(repeating: -1), contacts.hasManifold, where: compute)
        store(xfA.px, contacts.transformAX); store(xfA.py, contacts.transformAY); store(xfA.s, contacts.transformAS); store(xfA.c, contacts.transformAC)
        store(xfB.px, contacts.transformBX); store(xfB.py, contacts.transformBY); store(xfB.s, contacts.transformBS); store(xfB.c, contacts.transformBC)
        store(m.hasPoint0, contacts.touching)
        let began = compute .& m.hasPoint0 .& .!wasTouching, ended = compute .& wasTouching .& .!m.hasPoint0
        guard anyLane(began .| ended) else { return nil }
        return (began, ended)
    }
}
