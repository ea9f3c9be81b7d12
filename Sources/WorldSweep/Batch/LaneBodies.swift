// Bodies of many worlds that share one structure, laid out structure-of-arrays so one vector
// instruction advances several worlds: index = body × lanes + lane (lanes = worlds). One block of
// memory holds every column; the columns are raw pointers into it, so hot loops index them
// without array bookkeeping and BLAS reads them in place.

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
    private let block: UnsafeMutablePointer<Float>

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
        let n = bodyCount * lanes
        let columns = 15
        block = .allocate(capacity: columns * n + 2 * lanes)
        block.initialize(repeating: 0, count: columns * n + 2 * lanes)
        var next = block
        func column(_ size: Int) -> UnsafeMutablePointer<Float> { defer { next += size }; return next }
        cx = column(n); cy = column(n); a = column(n)
        vx = column(n); vy = column(n); w = column(n)
        fx = column(n); fy = column(n); torque = column(n)
        invMass = column(n); invI = column(n); gravityScale = column(n)
        linearDampingFactor = column(n); angularDampingFactor = column(n)
        scratch = column(n)
        gravityX = column(lanes); gravityY = column(lanes)
        linearDampingFactor.update(repeating: 1, count: n)
        angularDampingFactor.update(repeating: 1, count: n)
    }

    deinit { block.deallocate() }

    public func index(body: Int, lane: Int) -> Int { body * lanes + lane }

    /// Sets one body of one world from the single-world representation.
    func load(_ b: Body, body: Int, lane: Int, gravity: Vec2, h: Float) {
        let i = index(body: body, lane: lane)
        cx[i] = b.sweep.c.x; cy[i] = b.sweep.c.y; a[i] = b.sweep.a
        vx[i] = b.v.x; vy[i] = b.v.y; w[i] = b.w
        fx[i] = b.force.x; fy[i] = b.force.y; torque[i] = b.torque
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
