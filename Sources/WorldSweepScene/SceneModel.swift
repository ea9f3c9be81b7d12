import WorldSweep
import WorldSweepResults

/// A validated scene file: the world, its items and behaviors in file order, and the optional sweep.
/// Built only by `SceneFile.parse` / `SceneFile.load`, so every value in it has been checked.
public struct SceneFile: Sendable, Hashable {
    /// `[A-Za-z0-9_-]+`; names the run directory.
    public var name: String
    public var description: String
    public var world: WorldSpec
    public var items: [ItemSpec]
    /// In file order, which is the order behaviors are added to the animator.
    public var behaviors: [BehaviorSpec]
    public var sweep: SweepSpec?
    /// What `worldsweep tune` searches for (TuneSpec.swift); `run` ignores it.
    public var tune: TuneSpec?
    /// Metric names from `SceneFile.allMetrics`, in file order (all of them when the file gives none).
    public var metrics: [String]
    /// The metrics the file writes itself (`measure:`), in file order.
    public var measures: [WrittenMetric] = []
    /// The path the file was loaded from, used as the prefix of every error.
    public var sourcePath: String

    /// For scenes made in code; `parse`/`load` are the checked way in.
    public init(name: String, description: String = "", world: WorldSpec, items: [ItemSpec], behaviors: [BehaviorSpec] = [],
                sweep: SweepSpec? = nil, metrics: [String] = SceneFile.allMetrics, sourcePath: String = "<scene>") {
        self.name = name
        self.description = description
        self.world = world
        self.items = items
        self.behaviors = behaviors
        self.sweep = sweep
        self.metrics = metrics
        self.sourcePath = sourcePath
    }

    /// The `metrics:` entries a run can record, in their canonical order (`MetricGroup`). The
    /// spring metrics have columns only for items with a rest target (a snap, a spring, a pendulum).
    public static let allMetrics = MetricGroup.all.map(\.name)

    /// Per item, the declarations of the metrics the file writes for it (`measure:`), in file
    /// order: the columns it adds after the item's built-in ones.
    public var writtenDeclarations: [[MetricDeclaration]] {
        var out = items.map { _ in [MetricDeclaration]() }
        for (rank, m) in measures.enumerated() {
            out[m.item].append(m.declaration(index: out[m.item].count, rank: MetricDeclaration.writtenRank + rank))
        }
        return out
    }

    /// The file's metrics: the built-in ones and those it writes.
    public var metricCatalog: MetricCatalog { MetricCatalog(written: writtenDeclarations.flatMap { $0 }) }

    /// Contact partner name for the reference-bounds boundary; no item or boundary may take it.
    public static let referenceBoundsPartner = "bounds"

    public func item(named name: String) -> ItemSpec? { items.first { $0.name == name } }
    public func behavior(named name: String) -> BehaviorSpec? { behaviors.first { $0.name == name } }

    /// How many worlds a run of this file makes: the sweep's count, or 1 without a sweep.
    public var worldCount: Int { sweep?.worldCount ?? 1 }
    /// How many points: the sweep's count, or 1 without a sweep.
    public var pointCount: Int { sweep?.pointCount ?? 1 }

    /// The swept values of a point, in file order (none without a sweep).
    public func parameters(ofPoint point: Int) -> [Double] {
        sweep?.parameterValues(atPoint: point) ?? []
    }
}

public struct WorldSpec: Sendable, Hashable {
    /// Reference bounds in points.
    public var bounds: Size
    /// Seconds per animator tick (default 1/60).
    public var tick: Double
    /// How many ticks a world runs: given as `ticks`, or `Int((duration / tick).rounded())`.
    public var ticks: Int

    public init(bounds: Size, tick: Double, ticks: Int) {
        self.bounds = bounds
        self.tick = tick
        self.ticks = ticks
    }

    /// The most ticks a world may run (46 hours at 60 ticks a second), for files, `trace --ticks`
    /// and `bench` alike: a typo cannot start a run that never ends.
    public static let maxTicks = 10_000_000

    /// Simulated seconds covered by `ticks`.
    public var duration: Double { Double(ticks) * tick }
}

public enum ItemShape: String, Sendable, Hashable, CaseIterable {
    case rectangle, ellipse, path
}

public struct ItemSpec: Sendable, Hashable {
    public var name: String
    public var center: Point
    public var size: Size
    /// Radians, clockwise positive.
    public var angle: Double
    public var shape: ItemShape
    /// Convex outline relative to the centre; only with `shape == .path`.
    public var path: [Point]
    /// Where the item's name appears in the file.
    public var location: SceneLocation

    public init(name: String, center: Point, size: Size, angle: Double = 0, shape: ItemShape = .rectangle,
                path: [Point] = [], location: SceneLocation = .none) {
        self.name = name
        self.center = center
        self.size = size
        self.angle = angle
        self.shape = shape
        self.path = path
        self.location = location
    }
}

public struct BehaviorSpec: Sendable, Hashable {
    public var name: String
    /// Item names, in the order given.
    public var items: [String]
    public var kind: BehaviorKind
    /// Where the behavior's name appears in the file.
    public var location: SceneLocation

    public init(name: String, items: [String], kind: BehaviorKind, location: SceneLocation = .none) {
        self.name = name
        self.items = items
        self.kind = kind
        self.location = location
    }

    /// The `type:` value of the behavior in a file.
    public var typeName: String { kind.typeName }
}

public enum BehaviorKind: Sendable, Hashable {
    case gravity(GravitySpec)
    case collision(CollisionSpec)
    case item(ItemPropertiesSpec)
    case push(PushSpec)
    case field(FieldSpec)
    case attachment(AttachmentSpec)
    case snap(SnapSpec)

    public var typeName: String {
        switch self {
        case .gravity: "gravity"
        case .collision: "collision"
        case .item: "item"
        case .push: "push"
        case .field: "field"
        case .attachment: "attachment"
        case .snap: "snap"
        }
    }

    /// "item behavior", "push behavior", ...: how messages refer to a behavior of this kind.
    var noun: String { "\(typeName) behavior" }
}

/// A force direction given either as a vector or as angle and/or magnitude (never both ways);
/// unset parts take the behavior's defaults. Kept as written so the animator gets exactly the
/// numbers in the file, not a round trip through cos/sin.
public struct DirectionSpec: Sendable, Hashable {
    public var angle: Double?
    public var magnitude: Double?
    public var direction: Vector?

    public init(angle: Double? = nil, magnitude: Double? = nil, direction: Vector? = nil) {
        self.angle = angle
        self.magnitude = magnitude
        self.direction = direction
    }

    public var isDefault: Bool { angle == nil && magnitude == nil && direction == nil }

    func effectiveAngle(default defaultAngle: Double) -> Double {
        if let direction { return direction.dx == 0 && direction.dy == 0 ? 0 : atan2(direction.dy, direction.dx) }
        return angle ?? defaultAngle
    }

    public func effectiveMagnitude(default defaultMagnitude: Double) -> Double {
        if let direction { return (direction.dx * direction.dx + direction.dy * direction.dy).squareRoot() }
        return magnitude ?? defaultMagnitude
    }

    func effectiveDirection(defaultAngle: Double, defaultMagnitude: Double) -> Vector {
        if let direction { return direction }
        let a = angle ?? defaultAngle, m = magnitude ?? defaultMagnitude
        return Vector(dx: m * cos(a), dy: m * sin(a))
    }
}

public struct GravitySpec: Sendable, Hashable {
    /// UIKit's defaults: pointing down (angle π/2) at magnitude 1 (1000 pt/s²).
    public static let defaultAngle = Double.pi / 2
    public static let defaultMagnitude = 1.0

    public var force: DirectionSpec

    public init(force: DirectionSpec = DirectionSpec()) { self.force = force }
}

public enum CollisionModeSpec: String, Sendable, Hashable, CaseIterable {
    case items, boundaries, everything
}

public struct CollisionSpec: Sendable, Hashable {
    public var mode: CollisionModeSpec
    /// Whether the reference bounds (inset by `insets`) are a boundary.
    public var referenceBounds: Bool
    public var insets: EdgeInsets
    /// In file order.
    public var boundaries: [BoundarySpec]

    public init(mode: CollisionModeSpec = .everything, referenceBounds: Bool = false, insets: EdgeInsets = .zero,
                boundaries: [BoundarySpec] = []) {
        self.mode = mode
        self.referenceBounds = referenceBounds
        self.insets = insets
        self.boundaries = boundaries
    }
}

public struct BoundarySpec: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        case segment(from: Point, to: Point)
        /// A closed edge loop through the points.
        case path([Point])
    }

    public var identifier: String
    public var shape: Shape

    public init(identifier: String, shape: Shape) {
        self.identifier = identifier
        self.shape = shape
    }
}

/// The properties an item behavior sets; nil = not set in the file, so the engine keeps its default
/// (or what an earlier behavior set).
/// An item behavior's keys (ItemProperty.all lists them): the API's properties as the API keeps
/// them (nil: unset; `spec.elasticity` reads and writes `spec.settings.elasticity`), and the
/// velocity changes it adds.
@dynamicMemberLookup
public struct ItemPropertiesSpec: Sendable, Hashable {
    public var settings = DynamicItemBehavior.Settings()

    public subscript<Value>(dynamicMember property: WritableKeyPath<DynamicItemBehavior.Settings, Value>) -> Value {
        get { settings[keyPath: property] }
        set { settings[keyPath: property] = newValue }
    }
    /// pt/s, added to each item's velocity.
    public var linearVelocity: Vector?
    /// rad/s, added to each item's angular velocity.
    public var angularVelocity: Double?

    /// Nothing set; `set` sets what it names (`ItemPropertiesSpec { $0.elasticity = 0.5 }`), so
    /// the properties are not listed here again.
    public init(_ set: (inout ItemPropertiesSpec) -> Void = { _ in }) { set(&self) }
}

public enum PushModeSpec: String, Sendable, Hashable, CaseIterable {
    case continuous, instantaneous
}

public struct PushSpec: Sendable, Hashable {
    /// UIKit's defaults: a zero vector (angle 0, magnitude 0).
    public static let defaultAngle = 0.0
    public static let defaultMagnitude = 0.0

    public var mode: PushModeSpec
    public var force: DirectionSpec
    public var active: Bool
    /// Where the force acts on each item, in the item's frame; file order.
    public var offsets: [(item: String, offset: Offset)]

    public init(mode: PushModeSpec, force: DirectionSpec = DirectionSpec(), active: Bool = true,
                offsets: [(item: String, offset: Offset)] = []) {
        self.mode = mode
        self.force = force
        self.active = active
        self.offsets = offsets
    }

    public static func == (a: PushSpec, b: PushSpec) -> Bool {
        a.mode == b.mode && a.force == b.force && a.active == b.active
            && a.offsets.map(\.item) == b.offsets.map(\.item) && a.offsets.map(\.offset) == b.offsets.map(\.offset)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mode)
        hasher.combine(force)
        hasher.combine(active)
        for (item, offset) in offsets {
            hasher.combine(item)
            hasher.combine(offset)
        }
    }
}

/// An attachment as the file gives it (UIAttachmentBehavior): its kind, and the numbers set; an
/// unset length is measured from where the items are placed, as UIKit measures it when made.
public struct AttachmentSpec: Sendable, Hashable {
    public var kind: AttachmentBehavior.Kind
    /// One item: the anchor point; two items of kind pin, sliding or fixed: the attachment
    /// anchor where they are joined. Nil for two items of kind distance or limit.
    public var anchor: Point?
    /// Attachment points from the items' centres, in their own frames (distance and limit); file order.
    public var offsets: [(item: String, offset: Offset)]
    public var length: Double?
    public var damping: Double?
    public var frequency: Double?
    /// Pin: angle limits (rad); sliding: translation limits (pt).
    public var range: FloatRange?
    public var frictionTorque: Double?
    /// Sliding: the axis of translation.
    public var axis: Vector?

    public init(kind: AttachmentBehavior.Kind = .distance, anchor: Point? = nil, offsets: [(item: String, offset: Offset)] = [],
                length: Double? = nil, damping: Double? = nil, frequency: Double? = nil, range: FloatRange? = nil,
                frictionTorque: Double? = nil, axis: Vector? = nil) {
        self.kind = kind; self.anchor = anchor; self.offsets = offsets; self.length = length; self.damping = damping
        self.frequency = frequency; self.range = range; self.frictionTorque = frictionTorque; self.axis = axis
    }

    /// Item `name`'s offset (zero when the file gives none).
    public func offset(of name: String) -> Offset { offsets.last { $0.item == name }?.offset ?? .zero }

    public static func == (a: AttachmentSpec, b: AttachmentSpec) -> Bool {
        a.kind == b.kind && a.anchor == b.anchor && a.offsets.map(\.item) == b.offsets.map(\.item)
            && a.offsets.map(\.offset) == b.offsets.map(\.offset) && a.length == b.length && a.damping == b.damping
            && a.frequency == b.frequency && a.range == b.range && a.frictionTorque == b.frictionTorque && a.axis == b.axis
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind); hasher.combine(anchor)
        for (item, offset) in offsets { hasher.combine(item); hasher.combine(offset) }
        hasher.combine(length); hasher.combine(damping); hasher.combine(frequency); hasher.combine(range)
        hasher.combine(frictionTorque); hasher.combine(axis)
    }
}

/// A snap as the file gives it (UISnapBehavior): the point, and the damping (UIKit's default 0.5).
public struct SnapSpec: Sendable, Hashable {
    public var point: Point
    public var damping: Double

    public init(point: Point, damping: Double = SnapBehavior.defaultDamping) {
        self.point = point
        self.damping = damping
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
