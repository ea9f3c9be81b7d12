// The integration and mixing rules, each written once: the single world and the batched engine
// both call these.

/// Semi-implicit Euler velocity update of one sub-step: gravity and accumulated force, then
/// damping as `v *= 1 / (1 + h·c)` (the engine's resistance).
func integrateVelocity(_ s: inout BodyVelocity, _ b: Body, gravity: Vec2, h: Float) {
    integrateVelocityLanes(vx: &s.v.x, vy: &s.v.y, w: &s.w, gx: gravity.x, gy: gravity.y,
                           gravityScale: b.gravityScale, invMass: b.invMass, fx: b.force.x, fy: b.force.y,
                           invI: b.invI, torque: b.torque,
                           linearDampingFactor: dampingFactor(b.linearDamping, h: h),
                           angularDampingFactor: dampingFactor(b.angularDamping, h: h), h: h)
}

/// The same with the force for this sub-step given (the body's own plus the fields').
func integrateVelocity(_ s: inout BodyVelocity, _ b: Body, gravity: Vec2, force: Vec2, h: Float) {
    integrateVelocityLanes(vx: &s.v.x, vy: &s.v.y, w: &s.w, gx: gravity.x, gy: gravity.y,
                           gravityScale: b.gravityScale, invMass: b.invMass, fx: force.x, fy: force.y,
                           invI: b.invI, torque: b.torque,
                           linearDampingFactor: dampingFactor(b.linearDamping, h: h),
                           angularDampingFactor: dampingFactor(b.angularDamping, h: h), h: h)
}

/// The velocity rule itself, for one world (`Float`) or several side by side (`SIMD8<Float>`).
@inline(__always)
func integrateVelocityLanes<L: LaneReal>(vx: inout L, vy: inout L, w: inout L, gx: L, gy: L, gravityScale gs: L,
                                         invMass im: L, fx: L, fy: L, invI: L, torque: L,
                                         linearDampingFactor ldf: L, angularDampingFactor adf: L, h: L) {
    vx = vx + h * (gs * gx + im * fx)
    vy = vy + h * (gs * gy + im * fy)
    w = w + h * invI * torque
    vx = ldf * vx
    vy = ldf * vy
    w = w * adf
}

/// The Pade approximation of exp(−h·c) the engine damps with: v ← v / (1 + h·c), as a factor.
func dampingFactor(_ damping: Float, h: Float) -> Float { 1 / (1 + h * damping) }

/// Position update of one sub-step, with translation capped at 200 pt and rotation at π/2.
func integratePosition(_ p: inout BodyPosition, _ s: inout BodyVelocity, h: Float) {
    integratePositionLanes(cx: &p.c.x, cy: &p.c.y, a: &p.a, vx: &s.v.x, vy: &s.v.y, w: &s.w, h: h)
}

/// The position rule for one world or several side by side: a capped velocity moves the body.
@inline(__always)
func integratePositionLanes<L: LaneReal>(cx: inout L, cy: inout L, a: inout L, vx: inout L, vy: inout L, w: inout L, h: L) {
    let maxT = L(EngineSettings.maxTranslation), maxR = L(EngineSettings.maxRotation)
    let tx = h * vx, ty = h * vy
    let t2 = tx * tx + ty * ty
    // Scaling by exactly 1 where the cap does not apply leaves those velocities untouched.
    let ratio = L.select(L.isGreater(t2, maxT * maxT), maxT / t2.squareRoot(), L(1))
    vx = ratio * vx
    vy = ratio * vy
    let r = h * w
    w = w * L.select(L.isGreater(r * r, maxR * maxR), maxR / L.absolute(r), L(1))
    cx = cx + h * vx
    cy = cy + h * vy
    a = a + h * w
}

/// Restitution of a contact: the larger of the two (per lane: Swift.max's rule).
@inline(__always) func mixedRestitution<L: LaneReal>(_ a: L, _ b: L) -> L { L.maximum(a, b) }
/// Friction of a contact: the geometric mean.
@inline(__always) func mixedFriction<L: LaneReal>(_ a: L, _ b: L) -> L { (a * b).squareRoot() }
