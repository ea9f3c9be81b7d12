// The integration and mixing rules, each written once: the single world and the batched engine
// both call these.

/// Semi-implicit Euler velocity update of one sub-step: gravity and accumulated force, then
/// damping as `v *= 1 / (1 + h·c)` (the engine's resistance).

func integrateVelocity(_ s: inout BodyVelocity, _ b: Body, gravity: Vec2, h: Float) {
    s.v += h * (b.gravityScale * gravity + b.invMass * b.force)
    s.w += h * b.invI * b.torque
    s.v = dampingFactor(b.linearDamping, h: h) * s.v
    s.w *= dampingFactor(b.angularDamping, h: h)
}

/// The Pade approximation of exp(−h·c) the engine damps with: v ← v / (1 + h·c), as a factor.
func dampingFactor(_ damping: Float, h: Float) -> Float { 1 / (1 + h * damping) }

/// Position update of one sub-step, with translation capped at 200 pt and rotation at π/2.

func integratePosition(_ p: inout BodyPosition, _ s: inout BodyVelocity, h: Float) {
    let translation = h * s.v
    if dot(translation, translation) > EngineSettings.maxTranslation * EngineSettings.maxTranslation {
        s.v = (EngineSettings.maxTranslation / translation.length) * s.v
    }
    let rotation = h * s.w
    if rotation * rotation > EngineSettings.maxRotation * EngineSettings.maxRotation {
        s.w *= EngineSettings.maxRotation / abs(rotation)
    }
    p.c += h * s.v
    p.a += h * s.w
}

/// Restitution of a contact: the larger of the two.
func mixedRestitution(_ a: Float, _ b: Float) -> Float { max(a, b) }
/// Friction of a contact: the geometric mean.
func mixedFriction(_ a: Float, _ b: Float) -> Float { (a * b).squareRoot() }
