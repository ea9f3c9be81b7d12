// Bodies of many worlds that share one structure, laid out structure-of-arrays so one vector
// instruction advances several worlds: index = body × lanes + lane (lanes = worlds).

/// Motion state and per-body constants of `bodyCount` bodies in each of `lanes` worlds.
public struct LaneBodies: Sendable {
    public let lanes: Int
    public let bodyCount: Int
    // State.
    public var cx: [Float], cy: [Float], a: [Float]
    public var vx: [Float], vy: [Float], w: [Float]
    public var fx: [Float], fy: [Float], torque: [Float]
    // Per body and world: parameters may differ between worlds.
    public var invMass: [Float], invI: [Float], gravityScale: [Float]
    /// 1 / (1 + h · damping), computed once per body by the same expression the single world uses.
    public var linearDampingFactor: [Float], angularDampingFactor: [Float]
    /// Gravity per world (m/s²).
    public var gravityX: [Float], gravityY: [Float]

    public init(bodyCount: Int, lanes: Int) {
        self.lanes = lanes
        self.bodyCount = bodyCount
        let n = bodyCount * lanes
        let zeros = [Float](repeating: 0, count: n)
        cx = zeros; cy = zeros; a = zeros
        vx = zeros; vy = zeros; w = zeros
        fx = zeros; fy = zeros; torque = zeros
        invMass = zeros; invI = zeros; gravityScale = zeros
        linearDampingFactor = [Float](repeating: 1, count: n)
        angularDampingFactor = [Float](repeating: 1, count: n)
        gravityX = [Float](repeating: 0, count: lanes)
        gravityY = [Float](repeating: 0, count: lanes)
    }

    public func index(body: Int, lane: Int) -> Int { body * lanes + lane }

    /// Sets one body of one world from the single-world representation.
    mutating func load(_ b: Body, body: Int, lane: Int, gravity: Vec2, h: Float) {
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
