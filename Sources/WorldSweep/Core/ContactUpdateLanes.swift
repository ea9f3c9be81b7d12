// The first pass of the two-pass contact update (ContactUpdateThreads.swift) with one world's
// box–box contacts eight at a time in the lanes: their transforms and boxes gathered into
// SIMD8 lanes, `CollideLanes.polygons` run once, each lane's manifold taken back into its
// contact by the same `Contact.adopt` as one pair at a time. The kernel is the one the single
// pair runs on `Float`, in the same operation order, and a lane's result does not depend on the
// other lanes, so each contact gets the bits it would get alone. A box pair that one of A's faces
// parts (the kernel's first early exit, tried on the pair alone) takes the empty manifold without
// a lane. Other shapes (circles, edges, polygons of other counts) and a lone box pair left at the
// end are refreshed one at a time.

extension PhysicsWorld {
    /// The fewest contact slots for which the update takes the two passes on one thread (the
    /// second pass walks every slot again; a world of a few contacts fills no lanes).
    static let leastSlotsForPairLanes = 32

    /// Pass one for slots `range`: each contact whose bodies are active when the pass begins and
    /// whose boxes overlap is refreshed into its slot, a touching change into `changes`; each
    /// slot's step for pass two into `steps`. `inLanes`: box–box contacts eight per kernel call.
    /// Returns how many contacts the lane kernel refreshed.
    static func refreshContacts(_ range: Range<Int>, bodies: UnsafeMutableBufferPointer<Body>, boxes: UnsafeBufferPointer<AABB>,
                                pairs: UnsafeBufferPointer<BodyPair>, contacts: UnsafeMutableBufferPointer<Contact?>,
                                changes: UnsafeMutableBufferPointer<TouchChange>, steps: UnsafeMutableBufferPointer<ContactUpdateStep>,
                                inLanes: Bool) -> Int {
        // The kernel's rows, taken once for the whole range (too big for the stack, they would
        // be allocated on the heap at each call).
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: BoxPairLanes.scratchRowCount) { rows in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: BoxPairLanes.width) { waiting in
                let waiting = waiting.baseAddress!, rows = rows.baseAddress!
                var waitingCount = 0, inLanesCount = 0
                for i in range {
                    steps[i] = .none
                    guard contacts[i] != nil else { continue }
                    let p = pairs[i]
                    let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
                    guard a.pointee.isActive || b.pointee.isActive else { steps[i] = .asleep; continue }
                    guard boxes[p.a].overlaps(boxes[p.b]) else { steps[i] = .destroy; continue }
                    if inLanes && BoxPairLanes.takes(a.pointee.shape) && BoxPairLanes.takes(b.pointee.shape) {
                        guard contacts[i]!.needsNarrowPhase(a.pointee.xf, b.pointee.xf) else { continue }
                        // Most pairs the fat boxes bring are apart, most on one of A's faces: found
                        // so alone, the kernel's answer for them is known without a lane.
                        if BoxPairLanes.apartOnFacesOfA(&a.pointee.shape, a.pointee.xf, &b.pointee.shape, b.pointee.xf) {
                            Self.keep(contacts[i]!.adopt(Manifold(), a.pointee.xf, a.pointee.shape.radius, b.pointee.xf, b.pointee.shape.radius),
                                      i, changes, steps)
                            continue
                        }
                        waiting[waitingCount] = i
                        waitingCount &+= 1
                        if waitingCount == BoxPairLanes.width {
                            inLanesCount &+= waitingCount
                            BoxPairLanes.refresh(waiting, count: waitingCount, rows: rows, bodies: bodies, pairs: pairs,
                                                 contacts: contacts, changes: changes, steps: steps)
                            waitingCount = 0
                        }
                        continue
                    }
                    // The shapes lent where they lie (`Contact.refresh(_:lending:…)`): only read, by
                    // any number of threads at once.
                    Self.keep(Contact.refresh(&contacts[i]!, lending: &a.pointee.shape, a.pointee.xf, &b.pointee.shape, b.pointee.xf),
                              i, changes, steps)
                }
                if waitingCount > 1 {
                    inLanesCount &+= waitingCount
                    BoxPairLanes.refresh(waiting, count: waitingCount, rows: rows, bodies: bodies, pairs: pairs,
                                         contacts: contacts, changes: changes, steps: steps)
                } else if waitingCount == 1 {
                    // One pair alone: the kernel on one lane costs less than on eight.
                    let i = waiting[0], p = pairs[i]
                    let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
                    let m = Collide.polygons(a.pointee.shape, a.pointee.xf, b.pointee.shape, b.pointee.xf)
                    Self.keep(contacts[i]!.adopt(m, a.pointee.xf, a.pointee.shape.radius, b.pointee.xf, b.pointee.shape.radius),
                              i, changes, steps)
                }
                return inLanesCount
            }
        }
    }

    /// Slot i's touching change, kept for pass two.
    @inline(__always)
    static func keep(_ change: TouchChange, _ i: Int, _ changes: UnsafeMutableBufferPointer<TouchChange>,
                     _ steps: UnsafeMutableBufferPointer<ContactUpdateStep>) {
        // A pattern, not `!=`: the derived equality compares the payloads through a call.
        if case .none = change { return }
        changes[i] = change; steps[i] = .changed
    }
}

/// What pass two of the contact update does for a slot, in slot order.
enum ContactUpdateStep: UInt8 {
    /// Nothing: no contact, or refreshed (or current) with its touching state as it was.
    case none
    /// Both bodies slept when the pass began: updated now if a change before it woke one.
    case asleep
    /// The boxes parted: the contact goes.
    case destroy
    /// Refreshed, touching began or ended (`refreshedChanges`): bodies woken, the change recorded.
    case changed
}

/// Box–box contacts refreshed eight per call of the polygons' lane kernel.
enum BoxPairLanes {
    static let width = 8
    /// Vertices of the polygons the lanes take (boxes: the common shape; the kernel's loops are
    /// unrolled for a count known here).
    static let vertexCount = 4

    @inline(__always) static func takes(_ shape: Shape) -> Bool {
        shape.kind == .polygon && shape.vertices.count == vertexCount
    }

    /// Whether the kernel would find boxes A and B apart on one of A's faces: on the first face
    /// whose separation (`CollideLanes.faceSeparation`, on one lane) is beyond the radii, the
    /// largest (`maxSeparation`) is too, and the kernel gives `CollisionLanes.apart`, which its
    /// lane would hold as `Manifold()`. The answer does not depend on the order the faces are
    /// tried in: A's face whose normal points most towards B's origin goes first (for boxes
    /// apart, usually the one that parts them). False says nothing (B's faces may part them).
    /// The shapes are lent where they lie, as to `gather`.
    @inline(__always)
    static func apartOnFacesOfA(_ shapeA: inout Shape, _ xfA: Transform, _ shapeB: inout Shape, _ xfB: Transform) -> Bool {
        let totalRadius = shapeA.radius + shapeB.radius
        let towardsB = xfA.q.applyInverse(xfB.p - xfA.p), xf = TransformLanes(xfB).inverseTimes(TransformLanes(xfA))
        return shapeA.vertices.withUnsafeBufferPointer { va in
            shapeA.normals.withUnsafeBufferPointer { na in
                shapeB.vertices.withUnsafeBufferPointer { vb in
                    @inline(__always) func parts(_ i: Int) -> Bool {
                        CollideLanes.faceSeparation(i, vertex1: { (va[$0].x, va[$0].y) }, normal1: { (na[$0].x, na[$0].y) },
                                                    inFrameOf2: xf, count2: vertexCount, vertex2: { (vb[$0].x, vb[$0].y) }) > totalRadius
                    }
                    var facing = 0, most = dot(na[0], towardsB)
                    for i in 1..<vertexCount {
                        let d = dot(na[i], towardsB)
                        if d > most { most = d; facing = i }
                    }
                    if parts(facing) { return true }
                    for i in 0..<vertexCount where i != facing {
                        if parts(i) { return true }
                    }
                    return false
                }
            }
        }
    }

    /// Rows of the gathered lanes: A's vertices x, y and normals x, y (four rows each), then
    /// B's, then A's transform (x, y, sin, cos), B's, and the two radii.
    private static let transformRow = 8 * vertexCount, radiusRow = transformRow + 8
    static let rowCount = radiusRow + 2
    /// The rows `refresh` works in: the gathered pairs, then the manifolds.
    static let scratchRowCount = rowCount + ManifoldRows.rowCount

    /// Runs the kernel on the `count` (2 … 8) contact slots in `waiting`, all box–box, enabled
    /// and not current, and takes each lane's manifold into its contact, its change into `changes`.
    /// `rows`: `scratchRowCount` rows, every one written here before it is read.
    @inline(never)
    static func refresh(_ waiting: UnsafeMutablePointer<Int>, count: Int, rows: UnsafeMutablePointer<SIMD8<Float>>,
                        bodies: UnsafeMutableBufferPointer<Body>, pairs: UnsafeBufferPointer<BodyPair>,
                        contacts: UnsafeMutableBufferPointer<Contact?>,
                        changes: UnsafeMutableBufferPointer<TouchChange>, steps: UnsafeMutableBufferPointer<ContactUpdateStep>) {
        // Lanes past `count` repeat the first contact (their results are not read).
        for k in 0..<width {
            let p = pairs[waiting[k < count ? k : 0]]
            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
            gather(&a.pointee.shape, a.pointee.xf, into: rows, lane: k, asB: false)
            gather(&b.pointee.shape, b.pointee.xf, into: rows, lane: k, asB: true)
        }
        let manifolds = ManifoldRows(collide(rows), into: rows + rowCount)
        for k in 0..<count {
            let i = waiting[k], p = pairs[i]
            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
            let xfA = a.pointee.xf, radiusA = rows[radiusRow][k], xfB = b.pointee.xf, radiusB = rows[radiusRow + 1][k]
            // Most pairs the fat boxes bring are apart: their lane holds `Manifold()` exactly, taken
            // as that constant (a copy of `adopt` folded for it) rather than read back field by field.
            let change = manifolds.isApart(lane: k) ? contacts[i]!.adopt(Manifold(), xfA, radiusA, xfB, radiusB)
                : contacts[i]!.adopt(manifolds.manifold(lane: k), xfA, radiusA, xfB, radiusB)
            PhysicsWorld.keep(change, i, changes, steps)
        }
    }

    /// The kernel on the pairs gathered into `rows` (`rowCount` of them).
    @inline(__always)
    static func collide(_ rows: UnsafeMutablePointer<SIMD8<Float>>) -> CollisionLanes<SIMD8<Float>> {
        let n = vertexCount, bRows = rows + 4 * n, t = rows + transformRow
        return CollideLanes.polygons(
            countA: n, vertexA: { (rows[$0], rows[n + $0]) }, normalA: { (rows[2 * n + $0], rows[3 * n + $0]) },
            radiusA: rows[radiusRow], TransformLanes(px: t[0], py: t[1], s: t[2], c: t[3]),
            countB: n, vertexB: { (bRows[$0], bRows[n + $0]) }, normalB: { (bRows[2 * n + $0], bRows[3 * n + $0]) },
            radiusB: rows[radiusRow + 1], TransformLanes(px: t[4], py: t[5], s: t[6], c: t[7]))
    }

    /// A box (lent where it lies: see `Contact.refresh(_:lending:…)`), its transform and radius
    /// into lane `k` of the rows of the pair's A or B.
    @inline(__always)
    static func gather(_ shape: inout Shape, _ xf: Transform, into rows: UnsafeMutablePointer<SIMD8<Float>>, lane k: Int, asB: Bool) {
        let lane = UnsafeMutableRawPointer(rows).assumingMemoryBound(to: Float.self)
        let vertexRow = asB ? 4 &* vertexCount : 0, transformRow = asB ? Self.transformRow &+ 4 : Self.transformRow
        lane[transformRow &* 8 &+ k] = xf.p.x
        lane[(transformRow &+ 1) &* 8 &+ k] = xf.p.y
        lane[(transformRow &+ 2) &* 8 &+ k] = xf.q.s
        lane[(transformRow &+ 3) &* 8 &+ k] = xf.q.c
        lane[(asB ? radiusRow &+ 1 : radiusRow) &* 8 &+ k] = shape.radius
        shape.vertices.withUnsafeBufferPointer { v in
            shape.normals.withUnsafeBufferPointer { nm in
                for j in 0..<vertexCount {
                    lane[(vertexRow &+ j) &* 8 &+ k] = v[j].x
                    lane[(vertexRow &+ vertexCount &+ j) &* 8 &+ k] = v[j].y
                    lane[(vertexRow &+ 2 &* vertexCount &+ j) &* 8 &+ k] = nm[j].x
                    lane[(vertexRow &+ 3 &* vertexCount &+ j) &* 8 &+ k] = nm[j].y
                }
            }
        }
    }
}

/// The kernel's manifolds stored once as rows of eight lanes, each lane then read as a `Manifold`
/// (`Manifold(oneLane:)` of that lane) by plain loads rather than a lane extract per field.
struct ManifoldRows {
    static let rowCount = 10
    /// Rows: local normal x, y, local point x, y, point 0 x, y, point 1 x, y, then the points'
    /// id keys (`ContactFeature.key`, as UInt32 bits).
    private let rows: UnsafeMutablePointer<Float>
    /// Lane k: bit k.
    private let faceA: UInt32, faceB: UInt32, hasPoint0: UInt32, hasPoint1: UInt32

    @inline(__always) init(_ c: CollisionLanes<SIMD8<Float>>, into memory: UnsafeMutablePointer<SIMD8<Float>>) {
        let m = c.manifold
        memory[0] = m.localNormalX; memory[1] = m.localNormalY; memory[2] = m.localPointX; memory[3] = m.localPointY
        memory[4] = m.point0X; memory[5] = m.point0Y; memory[6] = m.point1X; memory[7] = m.point1Y
        memory[8] = unsafeBitCast(c.id0.keys, to: SIMD8<Float>.self); memory[9] = unsafeBitCast(c.id1.keys, to: SIMD8<Float>.self)
        rows = UnsafeMutableRawPointer(memory).assumingMemoryBound(to: Float.self)
        faceA = laneBits(m.isFaceA); faceB = laneBits(m.isFaceB)
        hasPoint0 = laneBits(m.hasPoint0); hasPoint1 = laneBits(m.hasPoint1)
    }

    @inline(__always) private func value(_ row: Int, _ k: Int) -> Float { rows[row &* 8 &+ k] }
    @inline(__always) private func key(_ row: Int, _ k: Int) -> UInt32 {
        UnsafeRawPointer(rows).load(fromByteOffset: (row &* 8 &+ k) &* 4, as: UInt32.self)
    }

    /// Whether lane k's shapes are apart (no reference face): the kernel then gives every row
    /// zero (`CollisionLanes.apart`, or a separated lane's selects), which is `Manifold()`.
    @inline(__always) func isApart(lane k: Int) -> Bool { (faceA | faceB) >> k & 1 == 0 }

    @inline(__always) func manifold(lane k: Int) -> Manifold {
        var m = Manifold()
        m.kind = faceA >> k & 1 != 0 ? .faceA : faceB >> k & 1 != 0 ? .faceB : .circles
        m.localNormal = Vec2(value(0, k), value(1, k))
        m.localPoint = Vec2(value(2, k), value(3, k))
        // Both points taken as they are, without a branch: a lane without its point holds
        // zeros there (`CollideLanes.collision`), which is `ManifoldPoint()`.
        m.point0 = ManifoldPoint(localPoint: Vec2(value(4, k), value(5, k)), id: ContactFeature(key: key(8, k)))
        m.point1 = ManifoldPoint(localPoint: Vec2(value(6, k), value(7, k)), id: ContactFeature(key: key(9, k)))
        m.pointCount = Int(hasPoint0 >> k & 1 &+ hasPoint1 >> k & 1)
        return m
    }
}

extension ContactFeature {
    /// The id whose `key` is `key`.
    @inline(__always) init(key: UInt32) {
        self.init(indexA: UInt8(truncatingIfNeeded: key), indexB: UInt8(truncatingIfNeeded: key >> 8),
                  typeA: UInt8(truncatingIfNeeded: key >> 16), typeB: UInt8(truncatingIfNeeded: key >> 24))
    }
}

extension FeatureLanes where L == SIMD8<Float> {
    /// `ContactFeature.key` per lane, from `code` without leaving the vector: adding 2^23 puts a
    /// small integer (here below 2^18) in a Float's low mantissa bits; typeB's bit then moves
    /// from the code's place (bit 17) to the key's (bit 24).
    @inline(__always) var keys: SIMD8<UInt32> {
        let c = unsafeBitCast(code + SIMD8(repeating: 8_388_608), to: SIMD8<UInt32>.self) & SIMD8(repeating: 0x3_FFFF)
        return (c & SIMD8(repeating: 0x1_FFFF)) | ((c &>> 17) & SIMD8(repeating: 1)) &<< 24
    }
}
