import Foundation

// The field rule (UIFieldBehavior's forces), written once: both engines call these kernels, the
// single world on `Float`, the batch on eight lanes (`SIMD8<Float>`). SI units throughout:
// positions in metres, velocities in m/s, masses in kg, forces in N. Noise, turbulence and the
// custom closure are scalar only; the batch calls them lane by lane (same function, same bits).

/// The ten field kinds and the custom one.
enum FieldKind: UInt8, Sendable {
    case linearGravity, radialGravity, spring, electric, magnetic, vortex, drag, velocity, noise, turbulence, custom
}

/// What the field rule needs beyond `LaneReal`: a power (the falloff), lane by lane through the
/// same `powf` so lanes and the single world agree bit for bit.
protocol FieldReal: LaneReal {
    static func power(_ base: Self, _ exponent: Self) -> Self
}

extension Float: FieldReal {
    @inline(__always) static func power(_ base: Float, _ exponent: Float) -> Float { Foundation.pow(base, exponent) }
}

extension SIMD8: FieldReal where Scalar == Float {
    @inline(__always) static func power(_ base: Self, _ exponent: Self) -> Self {
        var r = Self()
        for k in 0..<scalarCount { r[k] = Foundation.pow(base[k], exponent[k]) }
        return r
    }
}

/// A field's numbers in engine units (per world: a sweep may vary every one of them).
struct FieldParameters: Sendable, Equatable {
    var strength: Float = 1
    var falloff: Float = 0
    var minimumRadius: Float = FieldDefaults.minimumRadius
    /// The field's position, metres.
    var position: Vec2 = .zero
    /// Linear gravity: m/s² per unit strength; velocity: m/s; drag: the velocity it drags towards.
    var direction: Vec2 = .zero
    var smoothness: Float = 0
    var animationSpeed: Float = 0
}

enum FieldDefaults {
    /// 2⁻¹⁵ m: also the |falloff| under which fall(r) is 1.
    static let minimumRadius: Float = 1.0 / 32768
    /// Below this r² (m²) radial gravity pulls nothing (the centre is singular).
    static let radialCoreSquared: Float = 1e-5
}

/// fall(r) = max(r, minimumRadius)^(−falloff), or 1 when |falloff| < 2⁻¹⁵.
@inline(__always)
func fieldFall<L: FieldReal>(r: L, falloff: L, minimumRadius: L) -> L {
    let f = L.power(L.maximum(r, minimumRadius), -falloff)
    return L.select(L.isGreater(L(FieldDefaults.minimumRadius), L.absolute(falloff)), L(1), f)
}

/// The force of one field of a closed-form kind (linear and radial gravity, spring, electric,
/// magnetic, vortex, drag) on items at offset (dx, dy) from the field's position, with velocity
/// (vx, vy), mass and charge. Velocity, noise, turbulence and custom fields are not forces of
/// this form (see `fieldVelocity`, `noiseFieldForce`).
@inline(__always)
func fieldForce<L: FieldReal>(_ kind: FieldKind, dx: L, dy: L, vx: L, vy: L, mass: L, charge: L,
                              strength: L, falloff: L, minimumRadius: L, directionX: L, directionY: L) -> (x: L, y: L) {
    let r2 = dx * dx + dy * dy
    let r = r2.squareRoot()
    let fall = fieldFall(r: r, falloff: falloff, minimumRadius: minimumRadius)
    // r̂, and 0 at the field's very position (where it has no direction).
    let away = L.isGreater(r2, L(0))
    let ux = L.select(away, dx / r, L(0)), uy = L.select(away, dy / r, L(0))
    let zero = L(0)
    switch kind {
    case .linearGravity:
        let k = strength * mass * fall
        return (directionX * k, directionY * k)
    case .radialGravity:
        let k = -(mass * strength * fall)
        let acts = L.isGreaterOrEqual(r2, L(FieldDefaults.radialCoreSquared))
        return (L.select(acts, k * ux, zero), L.select(acts, k * uy, zero))
    case .spring:
        let k = -(strength * fall)
        return (k * ux, k * uy)
    case .electric:
        let k = charge * strength * fall
        return (k * ux, k * uy)
    case .magnetic:
        // The charge only gates: any charged item feels S · fall · (v_y, −v_x).
        let charged = L.or(L.isGreater(charge, zero), L.isGreater(zero, charge))
        let k = strength * fall
        return (L.select(charged, k * vy, zero), L.select(charged, -(k * vx), zero))
    case .vortex:
        // Divided by the mass, so the acceleration goes as 1/m² (as the engine does).
        let k = -(strength * fall) / mass
        return (k * uy, -(k * ux))
    case .drag:
        let wx = vx - directionX, wy = vy - directionY
        let k = -(strength * (wx * wx + wy * wy).squareRoot() * fall)
        return (k * wx, k * wy)
    case .velocity, .noise, .turbulence, .custom:
        return (zero, zero)
    }
}

/// The noise and turbulence fields' force on one item (scalar; the batch calls it per lane):
/// the gradient of 3-D simplex noise at (x, y) · frequency and time · animationSpeed, × S · fall;
/// turbulence multiplies by m · |v|².
func noiseFieldForce(_ kind: FieldKind, dx: Float, dy: Float, vx: Float, vy: Float, mass: Float,
                     strength: Float, falloff: Float, minimumRadius: Float, smoothness: Float, animationSpeed: Float,
                     time: Float) -> (x: Float, y: Float) {
    let frequency = 1.25 / (max(smoothness, 0) + 1.0 / 12) - 1
    let g = SimplexNoise.gradient(x: dx * frequency, y: dy * frequency, z: time * animationSpeed)
    let fall = fieldFall(r: (dx * dx + dy * dy).squareRoot(), falloff: falloff, minimumRadius: minimumRadius)
    var k = strength * fall
    if kind == .turbulence { k = k * mass * (vx * vx + vy * vy) }
    return (g.x * k, g.y * k)
}

/// A custom field's rule: given the item's position in field-local points, its velocity (m/s),
/// mass (kg), charge and the time step (s), the force in N. Compared by identity.
public final class FieldEvaluator: @unchecked Sendable, Equatable {
    public let evaluate: (_ position: Point, _ velocity: Vector, _ mass: Double, _ charge: Double, _ timeStep: Double) -> Vector
    public init(_ evaluate: @escaping (Point, Vector, Double, Double, Double) -> Vector) { self.evaluate = evaluate }
    public static func == (a: FieldEvaluator, b: FieldEvaluator) -> Bool { a === b }

    /// The closure's force for one item (scalar; the batch calls it per lane).
    func force(dx: Float, dy: Float, vx: Float, vy: Float, mass: Float, charge: Float, h: Float) -> (x: Float, y: Float) {
        let s = EngineSettings.pointsPerMetre
        let f = evaluate(Point(x: Double(dx * s), y: Double(dy * s)), Vector(dx: Double(vx), dy: Double(vy)),
                         Double(mass), Double(charge), Double(h))
        return (Float(f.dx), Float(f.dy))
    }
}

/// A field in a world: its kind, numbers, region and the bodies it acts on (with each body's
/// charge, which only fields read).
struct WorldField: Sendable, Equatable {
    var kind: FieldKind
    var parameters: FieldParameters
    var region: FieldRegion
    /// Body indices, in the order the field's items were added.
    var bodies: [Int]
    /// Parallel to `bodies`.
    var charges: [Float]
    var evaluator: FieldEvaluator?

    /// Whether two worlds' fields can share a batch: the same kind, region structure and bodies
    /// (custom fields may differ in their closures: the batch calls each lane's own).
    func sharesStructure(with other: WorldField) -> Bool {
        kind == other.kind && region.sharesStructure(with: other.region) && bodies == other.bodies
            && (evaluator == nil) == (other.evaluator == nil)
    }
}

extension WorldField {
    /// The rule for one body of one world at the start of its sub-step: whether the field acts
    /// (inside the region), and then either a force to add or (velocity field) a velocity to set.
    /// `c` is the centre of mass (m), `time` the world's time (s) for noise.
    func effect(c: Vec2, v: Vec2, mass: Float, charge: Float, h: Float, time: Float) -> FieldEffect {
        let d = c - parameters.position
        let s = EngineSettings.pointsPerMetre
        guard region.contains(x: d.x * s, y: d.y * s) else { return .none }
        let p = parameters
        switch kind {
        case .velocity:
            return .velocity(p.direction)
        case .noise, .turbulence:
            let f = noiseFieldForce(kind, dx: d.x, dy: d.y, vx: v.x, vy: v.y, mass: mass, strength: p.strength, falloff: p.falloff,
                                    minimumRadius: p.minimumRadius, smoothness: p.smoothness, animationSpeed: p.animationSpeed, time: time)
            return .force(Vec2(f.x, f.y))
        case .custom:
            let f = evaluator!.force(dx: d.x, dy: d.y, vx: v.x, vy: v.y, mass: mass, charge: charge, h: h)
            return .force(Vec2(f.x, f.y))
        default:
            let f = fieldForce(kind, dx: d.x, dy: d.y, vx: v.x, vy: v.y, mass: mass, charge: charge, strength: p.strength,
                               falloff: p.falloff, minimumRadius: p.minimumRadius, directionX: p.direction.x, directionY: p.direction.y)
            return .force(Vec2(f.x, f.y))
        }
    }
}

enum FieldEffect: Equatable {
    case none
    case force(Vec2)
    case velocity(Vec2)
}

extension PhysicsWorld {
    /// Every field's effect on body `b`, in field order: the velocity the body starts its
    /// integration with (velocity fields set it) and the force (its own, plus the fields') it
    /// integrates for this sub-step only. Only bodies being solved get here (asleep ones do not:
    /// a field, like gravity, neither wakes an item nor moves one that sleeps).
    func applyFields(toBody b: Int, velocity v: inout Vec2, force: inout Vec2, h: Float) {
        let time = Float(stepCount) * h
        for k in fieldsOfBody[b] {
            let field = fields[Int(k.field)]
            switch field.effect(c: bodies[b].sweep.c, v: v, mass: bodies[b].mass, charge: field.charges[Int(k.member)], h: h, time: time) {
            case .none: break
            case .force(let f): force = Vec2(force.x + f.x, force.y + f.y)
            case .velocity(let u): v = u
            }
        }
    }
}

/// A field acting on a body: the field's index and the body's place among its members.
struct FieldMembership: Sendable, Equatable {
    var field: Int32
    var member: Int32
}
