// Bodies of many worlds that share one structure, laid out structure-of-arrays so one vector
// instruction advances several worlds: index = body × lanes + lane (lanes = worlds). The columns
// are raw pointers (owned by `Columns`), so hot loops index them without array bookkeeping and
// BLAS reads them in place.

/// Motion state and per-body constants of `bodyCount` bodies in each of `lanes` worlds. A
/// reference type owned by one thread at a time (a scheduler chunk).
public final class LaneBodies: @unchecked Sendable {
    public let lanes: Int
    public let bodyCount: Int
    // State.
    public let cx: UnsafeMutablePointer<Float>, cy: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>
    public let vx: UnsafeMutablePointer<Float>, vy: UnsafeMutablePointer<Float>, w: UnsafeMutablePointer<Float>
    public let fx: UnsafeMutablePointer<Float>, fy: UnsafeMutablePointer<Float>, torque: UnsafeMutablePointer<Float>
    // Per body and world: parameters may differ between worlds.
    public let invMass: UnsafeMutablePointer<Float>, invI: UnsafeMutablePointer<Float>
    /// Zero for static and sleeping bodies, so integrating every lane leaves them where they are.
    public let gravityScale: UnsafeMutablePointer<Float>
    /// 1 / (1 + h · damping), computed once per body by the same expression the single world uses.
    public let linearDampingFactor: UnsafeMutablePointer<Float>, angularDampingFactor: UnsafeMutablePointer<Float>
    /// Gravity per world (m/s²), one entry per lane.
    public let gravityX: UnsafeMutablePointer<Float>, gravityY: UnsafeMutablePointer<Float>
    /// Work space for back ends that need a temporary column (BLAS).
    let scratch: UnsafeMutablePointer<Float>
    private let columns = Columns()
    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// Number of (body, world) entries in each column.
    public var count: Int { bodyCount * lanes }
    /// Rows `0 ..< movingBodyCount` hold every body that can move; the integrators skip the rest
    /// (static bodies: integrating them would add exact zeros).
    public let movingBodyCount: Int
    /// Entries in the rows the integrators advance.
    public var movingCount: Int { movingBodyCount * lanes }

    public init(bodyCount: Int, lanes: Int, movingBodyCount: Int? = nil) {
        precondition((0...bodyCount).contains(movingBodyCount ?? bodyCount))
        self.lanes = lanes
        self.bodyCount = bodyCount
        self.movingBodyCount = movingBodyCount ?? bodyCount
        // Each column is made by name (no count of them kept by hand, no offsets into a block).
        let n = bodyCount * lanes
        cx = columns.make(n, 0); cy = columns.make(n, 0); a = columns.make(n, 0)
        vx = columns.make(n, 0); vy = columns.make(n, 0); w = columns.make(n, 0)
        fx = columns.make(n, 0); fy = columns.make(n, 0); torque = columns.make(n, 0)
        invMass = columns.make(n, 0); invI = columns.make(n, 0); gravityScale = columns.make(n, 0)
        linearDampingFactor = columns.make(n, 1); angularDampingFactor = columns.make(n, 1)
        scratch = columns.make(n, 0)
        gravityX = columns.make(lanes, 0); gravityY = columns.make(lanes, 0)
        columns.expect(Self.bytes(bodyCount: bodyCount, lanes: lanes), of: "LaneBodies")
    }

    /// The bytes it allocates, column by column as `init` makes them: fifteen per (body, lane)
    /// (cx … angularDampingFactor, scratch) and the two gravity columns per lane.
    static func bytes(bodyCount: Int, lanes: Int) -> Int {
        15 * Columns.bytes(Float.self, bodyCount * lanes) + 2 * Columns.bytes(Float.self, lanes)
    }

    public func index(body: Int, lane: Int) -> Int { body * lanes + lane }

    /// Rows before the last one that can move (items come before boundary edges, so these are
    /// the first rows): the rows the integrators advance.
    static func movingBodyCount(_ isStatic: [Bool]) -> Int { (isStatic.lastIndex(of: false) ?? -1) + 1 }

    /// Sets one body of one world from the single-world representation: its part of the
    /// moving state (LaneBodyState.swift) and its constants.
    func load(_ b: Body, body: Int, lane: Int, gravity: Vec2, h: Float) {
        let i = index(body: body, lane: lane)
        var b = b
        forEachMovingField(of: &b, entry: i, position: intoLanes, motion: intoLanes)
        invMass[i] = b.isDynamic ? b.invMass : 0
        invI[i] = b.invI
        gravityScale[i] = b.isDynamic ? b.gravityScale : 0
        linearDampingFactor[i] = dampingFactor(b.linearDamping, h: h)
        angularDampingFactor[i] = dampingFactor(b.angularDamping, h: h)
        gravityX[lane] = gravity.x
        gravityY[lane] = gravity.y
    }
}

/// Eight lanes of a column at `i`, and back.
@inline(__always) func loadLanes(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
    UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
}
@inline(__always) func storeLanes(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ i: Int) {
    UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<Float>.self)
}
@inline(__always) func loadLanes(_ p: UnsafeMutablePointer<Int32>, _ i: Int) -> SIMD8<Int32> {
    UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Int32>.self)
}
@inline(__always) func storeLanes(_ v: SIMD8<Int32>, _ p: UnsafeMutablePointer<Int32>, _ i: Int) {
    UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<Int32>.self)
}

/// Everything else about each (body, lane) — where the sweep started, the transform, local
/// centre, material, shape, sleep timer and flags, broad-phase box, vertices — apart from the
/// integrated state in `LaneBodies` (as Box2D v3 keeps b2BodySim apart from b2BodyState), in
/// memory this store owns. Index = body × lanes + lane.
final class LaneBodyDetails {
    private let columns = Columns()
    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }
    /// Shape of each (body, lane). A raw column like the others: its subscript lends the shape
    /// in place, where an array's would copy it (two array retains per use, in the hottest loops).
    let shapes: UnsafeMutablePointer<Shape>
    let c0x: UnsafeMutablePointer<Float>, c0y: UnsafeMutablePointer<Float>, a0: UnsafeMutablePointer<Float>
    let px: UnsafeMutablePointer<Float>, py: UnsafeMutablePointer<Float>
    let qs: UnsafeMutablePointer<Float>, qc: UnsafeMutablePointer<Float>
    let lcx: UnsafeMutablePointer<Float>, lcy: UnsafeMutablePointer<Float>
    let sleepTime: UnsafeMutablePointer<Float>
    let friction: UnsafeMutablePointer<Float>, restitution: UnsafeMutablePointer<Float>, radius: UnsafeMutablePointer<Float>
    /// The body's gravity scale; `LaneBodies.gravityScale` is this while the body is in a solved
    /// island, else 0.
    let baseGravityScale: UnsafeMutablePointer<Float>
    /// Flags as 0 / −1 so eight of them load as a SIMD mask.
    let awake: UnsafeMutablePointer<Int32>, inIsland: UnsafeMutablePointer<Int32>
    /// The island slot (`LaneIslands`) of a body in a solved island this sub-step.
    let islandOfBody: UnsafeMutablePointer<Int32>
    /// Broad-phase boxes per (body, lane), as four columns so eight lanes store at once.
    let boxLowerX: UnsafeMutablePointer<Float>, boxLowerY: UnsafeMutablePointer<Float>
    let boxUpperX: UnsafeMutablePointer<Float>, boxUpperY: UnsafeMutablePointer<Float>
    /// Body-local vertices of the moving bodies' shapes, index = (body × maxVertexCount + k) ×
    /// lanes + lane, so the boxes of eight lanes come from one vector pass over the vertices.
    let vertexX: UnsafeMutablePointer<Float>, vertexY: UnsafeMutablePointer<Float>
    let maxVertexCount: Int
    /// Per (moving body, group of eight lanes): the vertex count all eight lanes' shapes share,
    /// or −1 when they differ (a swept size can turn an ellipse into a circle); such groups go
    /// lane by lane.
    let groupVertexCount: UnsafeMutablePointer<Int32>

    /// Takes every body of each lane's world (`bodies` has loaded its part of their moving state
    /// and their constants).
    init(worlds: [PhysicsWorld], bodies: LaneBodies) {
        let lanes = worlds.count, bodyCount = bodies.bodyCount, n = bodyCount * lanes
        let moving = bodies.movingBodyCount, width = SIMD8<Float>.scalarCount, groups = lanes / width
        shapes = columns.make(n, worlds[0].bodies.first?.shape ?? .circle(center: .zero, radius: 0))
        c0x = columns.make(n, 0); c0y = columns.make(n, 0); a0 = columns.make(n, 0)
        px = columns.make(n, 0); py = columns.make(n, 0); qs = columns.make(n, 0); qc = columns.make(n, 0)
        lcx = columns.make(n, 0); lcy = columns.make(n, 0); sleepTime = columns.make(n, 0)
        friction = columns.make(n, 0); restitution = columns.make(n, 0); radius = columns.make(n, 0)
        baseGravityScale = columns.make(n, 0)
        awake = columns.make(n, 0); inIsland = columns.make(n, 0); islandOfBody = columns.make(n, 0)
        boxLowerX = columns.make(n, 0); boxLowerY = columns.make(n, 0); boxUpperX = columns.make(n, 0); boxUpperY = columns.make(n, 0)
        maxVertexCount = Self.maxVertexCount(movingBodyCount: moving) { b in worlds.map { $0.bodies[b].shape.vertices.count }.max() ?? 1 }
        vertexX = columns.make(moving * maxVertexCount * lanes, 0); vertexY = columns.make(moving * maxVertexCount * lanes, 0)
        groupVertexCount = columns.make(moving * groups, 0)
        columns.expect(Self.bytes(bodyCount: bodyCount, movingBodyCount: moving, lanes: lanes, maxVertexCount: maxVertexCount),
                       of: "LaneBodyDetails")
        for b in 0..<moving {
            for g in 0..<groups {
                let counts = Set((g * width..<(g + 1) * width).map { worlds[$0].bodies[b].shape.vertices.count })
                groupVertexCount[b * groups + g] = counts.count == 1 ? Int32(counts.first!) : -1
            }
        }
        for (lane, w) in worlds.enumerated() {
            // Each body read in place (a copy of each Body was most of loading a batch).
            w.bodies.withUnsafeMutableBufferPointer { worldBodies in
                for b in 0..<bodyCount {
                    let body = worldBodies.baseAddress! + b, i = b * lanes + lane
                    shapes[i] = body.pointee.shape
                    forEachMovingField(of: body, entry: i, position: intoLanes, motion: intoLanes, awake: intoLanes)
                    lcx[i] = body.pointee.sweep.localCenter.x; lcy[i] = body.pointee.sweep.localCenter.y
                    friction[i] = body.pointee.friction; restitution[i] = body.pointee.restitution; radius[i] = body.pointee.shape.radius
                    baseGravityScale[i] = bodies.gravityScale[i]
                    let box = body.pointee.shape.broadPhaseBox(body.pointee.xf)
                    boxLowerX[i] = box.lower.x; boxLowerY[i] = box.lower.y; boxUpperX[i] = box.upper.x; boxUpperY[i] = box.upper.y
                    if b < moving {
                        for (k, v) in body.pointee.shape.vertices.enumerated() {
                            vertexX[(b * maxVertexCount + k) * lanes + lane] = v.x
                            vertexY[(b * maxVertexCount + k) * lanes + lane] = v.y
                        }
                    }
                }
            }
        }
    }
}

extension LaneBodyDetails {
    /// The most vertices a moving body's shape has (`vertexCount(b)`: the most body b's has in any
    /// world): the vertex columns' stride.
    static func maxVertexCount(movingBodyCount moving: Int, vertexCount: (_ body: Int) -> Int) -> Int {
        (0..<moving).map(vertexCount).max() ?? 1
    }

    /// The bytes it allocates, column by column as `init` makes them: per (body, lane) the shape,
    /// eighteen numbers (sweep start, transform, local centre, sleep timer, material, base
    /// gravity scale, box) and three flags or slots; the moving bodies' two vertex columns; one
    /// vertex count per (moving body, group of eight lanes).
    static func bytes(bodyCount: Int, movingBodyCount moving: Int, lanes: Int, maxVertexCount: Int) -> Int {
        let n = bodyCount * lanes
        return Columns.bytes(Shape.self, n) + 18 * Columns.bytes(Float.self, n) + 3 * Columns.bytes(Int32.self, n)
            + 2 * Columns.bytes(Float.self, moving * maxVertexCount * lanes)
            + Columns.bytes(Int32.self, moving * (lanes / SIMD8<Float>.scalarCount))
    }
}
