/// A force field on its items (UIKit's UIFieldBehavior), made by the factories. It acts once per
/// 1/120 s sub-step, before the velocity solver, on the items added to it while they lie inside
/// its `region` (points about `position`). Forces are in SI units: positions in metres,
/// velocities in m/s, forces in N, so an item's acceleration in pt/s² is F/m × 100 (see each
/// factory for its formula). A field, like gravity, acts on awake items only: it neither wakes
/// nor moves an item that sleeps (adding or changing a field wakes the world, as any behavior
/// change does). At most `maximumCount` fields per animator: `addBehavior` of one more throws.
public final class FieldBehavior: ItemsBehavior {
    /// UIKit's ten field kinds and the custom one (`field(evaluationBlock:)`).
    public enum Kind: String, Sendable, CaseIterable {
        case linearGravity = "linear_gravity", radialGravity = "radial_gravity", spring, electric, magnetic, vortex, drag, velocity
        case noise, turbulence, custom

        /// The default falloff: 2 for radial gravity, −1 for spring, 1 for electric and magnetic, 0 else.
        public var defaultFalloff: Double {
            switch self {
            case .radialGravity: 2
            case .spring: -1
            case .electric, .magnetic: 1
            default: 0
            }
        }

        var engineKind: FieldKind {
            switch self {
            case .linearGravity: .linearGravity
            case .radialGravity: .radialGravity
            case .spring: .spring
            case .electric: .electric
            case .magnetic: .magnetic
            case .vortex: .vortex
            case .drag: .drag
            case .velocity: .velocity
            case .noise: .noise
            case .turbulence: .turbulence
            case .custom: .custom
            }
        }
    }

    /// At most this many fields act in one animator (UIKit's limit).
    public static let maximumCount = 32
    /// The default `minimumRadius`: 2⁻¹⁵ m.
    public static let defaultMinimumRadius = Double(FieldDefaults.minimumRadius)

    public let kind: Kind
    /// Where the field's centre is, points (default (0, 0)).
    public var position = Point(x: 0, y: 0) { didSet { didChange() } }
    /// Where it acts, about `position` (default everywhere).
    public var region = Region.infinite { didSet { didChange() } }
    /// Default 1.
    public var strength = 1.0 { didSet { didChange() } }
    /// The exponent of fall(r) = max(r, minimumRadius)^(−falloff), r in metres.
    public var falloff: Double { didSet { didChange() } }
    /// Metres (default 2⁻¹⁵ m).
    public var minimumRadius = FieldBehavior.defaultMinimumRadius { didSet { didChange() } }
    /// Linear gravity: m/s² per unit strength ((0, 1) is 100 pt/s²); velocity: m/s; drag: the
    /// velocity it drags towards (m/s).
    public var direction = Vector(dx: 0, dy: 0) { didSet { didChange() } }
    /// Noise and turbulence: 0 (rough) … 1 (smooth).
    public var smoothness = 0.0 { didSet { didChange() } }
    /// Noise and turbulence: how fast the noise changes in time.
    public var animationSpeed = 0.0 { didSet { didChange() } }
    /// The custom field's rule.
    public let evaluator: FieldEvaluator?

    init(kind: Kind, evaluator: FieldEvaluator? = nil) {
        self.kind = kind
        self.falloff = kind.defaultFalloff
        self.evaluator = evaluator
        super.init(items: [])
    }

    /// F = direction · strength · m · fall (direction in m/s²).
    public static func linearGravityField(direction: Vector) -> FieldBehavior {
        let f = FieldBehavior(kind: .linearGravity); f.direction = direction; return f
    }
    /// F = −m · strength · fall · r̂ towards `position` (none within √1e−5 m); falloff 2.
    public static func radialGravityField(position: Point) -> FieldBehavior {
        let f = FieldBehavior(kind: .radialGravity); f.position = position; return f
    }
    /// F = −strength · fall · r̂; with the default falloff −1, Hooke's −strength · r.
    public static func springField() -> FieldBehavior { FieldBehavior(kind: .spring) }
    /// F = charge · strength · fall · r̂; falloff 1.
    public static func electricField() -> FieldBehavior { FieldBehavior(kind: .electric) }
    /// F = strength · fall · (v_y, −v_x) on charged items (the charge only gates); falloff 1.
    public static func magneticField() -> FieldBehavior { FieldBehavior(kind: .magnetic) }
    /// F = −strength · fall · (r̂_y, −r̂_x) / m: the acceleration goes as 1/m².
    public static func vortexField() -> FieldBehavior { FieldBehavior(kind: .vortex) }
    /// F = −strength · |u| · u · fall with u = v − direction.
    public static func dragField() -> FieldBehavior { FieldBehavior(kind: .drag) }
    /// Sets the item's velocity to `direction` (m/s) at the start of each sub-step.
    public static func velocityField(direction: Vector) -> FieldBehavior {
        let f = FieldBehavior(kind: .velocity); f.direction = direction; return f
    }
    /// The gradient of simplex noise × strength × fall, at frequency
    /// 1.25 / (max(smoothness, 0) + 1/12) − 1 per metre, moving in time by t · animationSpeed.
    public static func noiseField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        let f = FieldBehavior(kind: .noise); f.smoothness = smoothness; f.animationSpeed = animationSpeed; return f
    }
    /// The noise force × m × |v|².
    public static func turbulenceField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        let f = FieldBehavior(kind: .turbulence); f.smoothness = smoothness; f.animationSpeed = animationSpeed; return f
    }
    /// A custom field: `evaluation` gets the item's position in field-local points, its velocity
    /// (m/s), mass (kg), charge and the time step (s), and returns the force in N.
    public static func field(evaluationBlock evaluation: @escaping (_ position: Point, _ velocity: Vector, _ mass: Double,
                                                                    _ charge: Double, _ timeStep: Double) -> Vector) -> FieldBehavior {
        FieldBehavior(kind: .custom, evaluator: FieldEvaluator(evaluation))
    }

    /// The field as a plan describes it.
    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        PlanInput.Field(kind: kind, items: context.indices(items), position: position, region: region, strength: strength,
                        falloff: falloff, minimumRadius: minimumRadius, direction: direction, smoothness: smoothness,
                        animationSpeed: animationSpeed, evaluator: evaluator)
    }
}

extension PlanInput {
    /// A field behavior's kind, numbers and region (position in points, the rest in SI units).
    public struct Field: PlanBehavior, Equatable {
        public var kind: FieldBehavior.Kind
        public var items: [Int]
        public var position: Point
        public var region: Region
        public var strength: Double
        public var falloff: Double
        public var minimumRadius: Double
        public var direction: Vector
        public var smoothness: Double
        public var animationSpeed: Double
        public var evaluator: FieldEvaluator?

        public init(kind: FieldBehavior.Kind, items: [Int], position: Point = Point(x: 0, y: 0), region: Region = .infinite,
                    strength: Double = 1, falloff: Double? = nil, minimumRadius: Double = FieldBehavior.defaultMinimumRadius,
                    direction: Vector = Vector(dx: 0, dy: 0), smoothness: Double = 0, animationSpeed: Double = 0,
                    evaluator: FieldEvaluator? = nil) {
            self.kind = kind; self.items = items; self.position = position; self.region = region; self.strength = strength
            self.falloff = falloff ?? kind.defaultFalloff; self.minimumRadius = minimumRadius; self.direction = direction
            self.smoothness = smoothness; self.animationSpeed = animationSpeed; self.evaluator = evaluator
        }

        public var drive: PlanItemDrive { .driven }

        /// The field on its items' bodies with their charges (the first `FieldBehavior.maximumCount` act).
        public func compile(into plan: inout PlanCompilation, index: Int) {
            guard plan.fields.count < FieldBehavior.maximumCount else { return }
            let members = items.map(plan.body(ofItem:))
            plan.fields.append(WorldField(self, bodies: members, charges: members.map { plan.chargeOfBody[$0] }))
        }
    }
}

/// Adding a field past `FieldBehavior.maximumCount` in one animator.
public struct FieldLimitError: Error, CustomStringConvertible, Equatable {
    public var count: Int
    public var description: String {
        "an animator holds at most \(FieldBehavior.maximumCount) field behaviors; this would make \(count)"
    }
}

extension WorldField {
    /// A field of the plan in engine units: position points → metres, region in points.
    init(_ field: PlanInput.Field, bodies: [Int], charges: [Float]) {
        let p = FieldParameters(strength: Float(field.strength), falloff: Float(field.falloff), minimumRadius: Float(field.minimumRadius),
                                position: Vec2(Float(field.position.x), Float(field.position.y)).dividedBy(EngineSettings.pointsPerMetre),
                                direction: Vec2(Float(field.direction.dx), Float(field.direction.dy)),
                                smoothness: Float(field.smoothness), animationSpeed: Float(field.animationSpeed))
        self.init(kind: field.kind.engineKind, parameters: p, region: field.region.engineForm, bodies: bodies, charges: charges,
                  evaluator: field.evaluator)
    }
}
