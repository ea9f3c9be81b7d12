/// Material and motion properties of items (UIKit's UIDynamicItemBehavior).
///
/// Only properties that are set explicitly apply; with several item behaviors on one item, the
/// last one in behavior order that set a property wins. Unset properties read as the values the
/// shipping engine really uses: elasticity 0.2, friction 0.2, density 1, resistance 0.1,
/// angular resistance 0.1 (Apple's documentation says 0, 0, 1, 0).
public final class DynamicItemBehavior: ItemsBehavior {
    /// Defaults of the shipping engine for properties nobody set.
    public enum Defaults {
        public static let elasticity = 0.2
        public static let friction = 0.2
        public static let density = 1.0
        public static let resistance = 0.1
        public static let angularResistance = 0.1
        public static let allowsRotation = true
        public static let anchored = false
        public static let charge = 0.0
    }

    /// The properties set explicitly (nil: not set); world plans carry them as values.
    public struct Settings: Hashable, Sendable {
        public var elasticity: Double?
        public var friction: Double?
        public var density: Double?
        public var resistance: Double?
        public var angularResistance: Double?
        public var allowsRotation: Bool?
        public var anchored: Bool?
        public var charge: Double?
        public init() {}

        /// These settings with `later`'s set properties in place of theirs: a later item behavior
        /// wins (`properties` lists what there is to set).
        public func overlaid(by later: Settings) -> Settings {
            var merged = self
            for property in DynamicItemBehavior.properties {
                switch property.value {
                case let .number(path, _): if let value = later[keyPath: path] { merged[keyPath: path] = value }
                case let .flag(path, _): if let value = later[keyPath: path] { merged[keyPath: path] = value }
                }
            }
            return merged
        }
    }

    /// One property an item behavior may set: its name in this API, where `Settings` keeps it
    /// and what it reads as unset.
    public struct Property: Sendable {
        public enum Value: Sendable {
            case number(WritableKeyPath<Settings, Double?> & Sendable, default: Double)
            case flag(WritableKeyPath<Settings, Bool?> & Sendable, default: Bool)
        }
        public let name: String
        public let value: Value
    }

    /// Every property of `Settings`, the one list: world plans merge item behaviors over it, and
    /// the scene file's key table (its keys, ranges, units and doc lines) is made from it.
    public static let properties: [Property] = [
        Property(name: "elasticity", value: .number(\.elasticity, default: Defaults.elasticity)),
        Property(name: "friction", value: .number(\.friction, default: Defaults.friction)),
        Property(name: "density", value: .number(\.density, default: Defaults.density)),
        Property(name: "resistance", value: .number(\.resistance, default: Defaults.resistance)),
        Property(name: "angularResistance", value: .number(\.angularResistance, default: Defaults.angularResistance)),
        Property(name: "allowsRotation", value: .flag(\.allowsRotation, default: Defaults.allowsRotation)),
        Property(name: "anchored", value: .flag(\.anchored, default: Defaults.anchored)),
        Property(name: "charge", value: .number(\.charge, default: Defaults.charge)),
    ]
    /// The explicitly set properties; setting it replaces them all (a scene file's item behavior
    /// arrives this way).
    public internal(set) var settings = Settings()

    /// Replaces the explicitly set properties with `settings`'s.
    public func setProperties(_ settings: Settings) {
        update { $0 = settings }
    }

    private func update(_ change: (inout Settings) -> Void) {
        change(&settings)
        didChange()
    }

    /// Restitution, 0 ... 1 (a contact uses the larger of its two items').
    public var elasticity: Double {
        get { settings.elasticity ?? Defaults.elasticity }
        set { update { $0.elasticity = newValue } }
    }
    /// Coulomb friction coefficient (a contact uses the geometric mean).
    public var friction: Double {
        get { settings.friction ?? Defaults.friction }
        set { update { $0.friction = newValue } }
    }
    /// Mass per area: a 100×100 item of density 1 weighs 1 kg.
    public var density: Double {
        get { settings.density ?? Defaults.density }
        set { update { $0.density = newValue } }
    }
    /// Linear damping: `v *= 1 / (1 + h·resistance)` per sub-step (1.0 does not stop motion).
    public var resistance: Double {
        get { settings.resistance ?? Defaults.resistance }
        set { update { $0.resistance = newValue } }
    }
    /// Angular damping, same form as `resistance`.
    public var angularResistance: Double {
        get { settings.angularResistance ?? Defaults.angularResistance }
        set { update { $0.angularResistance = newValue } }
    }
    public var allowsRotation: Bool {
        get { settings.allowsRotation ?? Defaults.allowsRotation }
        set { update { $0.allowsRotation = newValue } }
    }
    /// An anchored item is static: it does not move, and others collide with it.
    public var isAnchored: Bool {
        get { settings.anchored ?? Defaults.anchored }
        set { update { $0.anchored = newValue } }
    }
    /// For field behaviors; stored, no field acts on it yet.
    public var charge: Double {
        get { settings.charge ?? Defaults.charge }
        set { update { $0.charge = newValue } }
    }

    /// Velocity changes asked for before the item had a body in an animator: applied when it does.
    private(set) var pendingLinear: [ObjectIdentifier: Vector] = [:]
    private(set) var pendingAngular: [ObjectIdentifier: Double] = [:]

    /// Adds `velocity` (pt/s) to the item's current velocity.
    public func addLinearVelocity(_ velocity: Vector, for item: DynamicItem) {
        if let animator = dynamicAnimator, animator.addVelocity(velocity, angular: 0, to: item) { return }
        let old = pendingLinear[ObjectIdentifier(item)] ?? .zero
        pendingLinear[ObjectIdentifier(item)] = Vector(dx: old.dx + velocity.dx, dy: old.dy + velocity.dy)
        didChange()
    }

    /// Adds `velocity` (rad/s, clockwise positive) to the item's current angular velocity.
    public func addAngularVelocity(_ velocity: Double, for item: DynamicItem) {
        if let animator = dynamicAnimator, animator.addVelocity(.zero, angular: velocity, to: item) { return }
        pendingAngular[ObjectIdentifier(item), default: 0] += velocity
        didChange()
    }

    /// The item's velocity in pt/s (zero when it is not in this behavior's animator).
    public func linearVelocity(for item: DynamicItem) -> Vector {
        dynamicAnimator?.itemState(for: item)?.velocity ?? pendingLinear[ObjectIdentifier(item)] ?? .zero
    }

    /// The item's angular velocity in rad/s.
    public func angularVelocity(for item: DynamicItem) -> Double {
        dynamicAnimator?.itemState(for: item)?.angularVelocity ?? pendingAngular[ObjectIdentifier(item)] ?? 0
    }

    /// Hands the pending velocity changes to the animator once items have bodies.
    func takePendingVelocities(for item: DynamicItem) -> (Vector, Double)? {
        let id = ObjectIdentifier(item)
        let l = pendingLinear.removeValue(forKey: id), a = pendingAngular.removeValue(forKey: id)
        if l == nil && a == nil { return nil }
        return (l ?? .zero, a ?? 0)
    }

    /// Its settings, and the pending velocity changes handed over here.
    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        var velocities: [PlanInput.VelocityChange] = []
        for (k, target) in context.order.enumerated() {
            if let (v, w) = takePendingVelocities(for: target) { velocities.append(.init(item: k, linear: v, angular: w)) }
        }
        return PlanInput.ItemProperties(items: context.indices(items), settings: settings, velocities: velocities)
    }
}

extension PlanInput {
    /// An item behavior: the properties it sets (the compile overlays every item behavior's, last
    /// setter winning, into the items' materials) and the velocities it adds.
    public struct ItemProperties: PlanBehavior, Equatable {
        public var items: [Int]
        public var settings: DynamicItemBehavior.Settings
        public var velocities: [VelocityChange]
        public init(items: [Int], settings: DynamicItemBehavior.Settings, velocities: [VelocityChange]) {
            self.items = items; self.settings = settings; self.velocities = velocities
        }
    }

    /// A velocity an item behavior adds to an item when it gets its body (pt/s, rad/s).
    public struct VelocityChange: Sendable, Equatable {
        public var item: Int
        public var linear: Vector
        public var angular: Double
        public init(item: Int, linear: Vector, angular: Double) { self.item = item; self.linear = linear; self.angular = angular }
    }
}
