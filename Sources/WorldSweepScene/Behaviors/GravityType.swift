import WorldSweep

/// `type: gravity` (UIGravityBehavior): one direction for the world; the behavior added last sets it.
public struct GravitySpec: Sendable, Hashable {
    /// UIKit's defaults: pointing down (angle π/2) at magnitude 1 (1000 pt/s²).
    public static let defaultAngle = Double.pi / 2
    public static let defaultMagnitude = 1.0

    public var force: DirectionSpec

    public init(force: DirectionSpec = DirectionSpec()) { self.force = force }

    /// The behavior's `gravityDirection`.
    var direction: Vector {
        if let d = force.direction { return d }
        if force.isDefault { return Vector(dx: 0, dy: 1) }
        return GravityBehavior.direction(angle: force.angle ?? Self.defaultAngle, magnitude: force.magnitude ?? Self.defaultMagnitude)
    }
}

enum GravityType: BehaviorType {
    static let name = "gravity"
    static let itemsDoc = "the items it acts on (gravity itself is world-wide: the last gravity behavior wins)"
    static let keys: [BehaviorKey] = [
        .number("angle", default: "π/2", unit: "rad", .any, "direction, clockwise from +x (y points down)"),
        .number("magnitude", default: "1", .any, "1 is 1000 pt/s²"),
        .pair("direction", default: "none", "instead of angle and magnitude: the vector, 1 per 1000 pt/s²"),
    ]
    static let apiFile = "API/GravityBehavior.swift"
    static let kernels = ["Core/Integrate.swift", "Batch/LaneIntegrator.swift"]
    static let plansByValue = true

    static func spec(of kind: BehaviorKind) -> GravitySpec? { if case .gravity(let g) = kind { g } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        .gravity(GravitySpec(force: try parser.parseDirection(fields)))
    }

    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] { ForceKeys.numeric }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        ForceKeys.read(key, of: spec(of: behavior.kind)!.force, GravitySpec.defaultAngle, GravitySpec.defaultMagnitude)
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var gravity = spec(of: kind)!
        ForceKeys.write(value, key, to: &gravity.force, GravitySpec.defaultAngle, GravitySpec.defaultMagnitude)
        kind = .gravity(gravity)
    }

    /// The world's gravity is `SceneFile.gravityDirection()` (the last gravity behavior's).
    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior { PlanInput.Gravity(items: context.members) }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let gravity = spec(of: behavior.kind)!
        let made = GravityBehavior(items: items)
        if let direction = gravity.force.direction {
            made.gravityDirection = direction
        } else if !gravity.force.isDefault {
            made.setAngle(gravity.force.angle ?? GravitySpec.defaultAngle, magnitude: gravity.force.magnitude ?? GravitySpec.defaultMagnitude)
        }
        return made
    }

    /// Every gravity number lands in the world's one gravity.
    static func slot(forKey key: String, behavior index: Int) -> PlanSlot? { .behavior(type: name, index: nil) }

    static func setValues(at slot: PlanSlot, of world: SceneFile, template: PlanInput, into plan: inout WorldPlan,
                          gravity: inout Vector?) {
        gravity = world.gravityDirection()
    }
}

extension SceneFile {
    /// The world's gravity direction: the last gravity behavior's (nil without one), as `planInput()` has it.
    func gravityDirection() -> Vector? {
        var gravity: Vector?
        for behavior in behaviors { if case .gravity(let g) = behavior.kind { gravity = g.direction } }
        return gravity
    }
}
