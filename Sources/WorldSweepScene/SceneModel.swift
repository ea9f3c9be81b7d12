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

    var boundsType: DynamicItemCollisionBoundsType {
        switch self {
        case .rectangle: .rectangle
        case .ellipse: .ellipse
        case .path: .path
        }
    }
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

/// A behavior as the file gives it: one case per behavior type, each declared in Behaviors/
/// (`type` is its declaration).
public enum BehaviorKind: Sendable, Hashable {
    case gravity(GravitySpec)
    case collision(CollisionSpec)
    case item(ItemPropertiesSpec)
    case push(PushSpec)
    case field(FieldSpec)
    case attachment(AttachmentSpec)
    case snap(SnapSpec)

    public var typeName: String { type.name }

    /// "item behavior", "push behavior", ...: how messages refer to a behavior of this kind.
    var noun: String { "\(typeName) behavior" }
}

/// Every behavior type, in the order messages list them.
enum BehaviorTypes {
    static var all: [any BehaviorType.Type] { [
        GravityType.self, CollisionType.self, ItemType.self, PushType.self, AttachmentType.self, SnapType.self, FieldType.self,
    ] }

    static var names: [String] { all.map { $0.name } }

    static func named(_ name: String) -> (any BehaviorType.Type)? { all.first { $0.name == name } }
}

extension BehaviorKind {
    /// The declaration of this behavior's type (Behaviors/).
    var type: any BehaviorType.Type {
        switch self {
        case .gravity: GravityType.self
        case .collision: CollisionType.self
        case .item: ItemType.self
        case .push: PushType.self
        case .field: FieldType.self
        case .attachment: AttachmentType.self
        case .snap: SnapType.self
        }
    }
}
