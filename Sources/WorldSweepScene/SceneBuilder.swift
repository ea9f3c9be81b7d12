import WorldSweep

/// A scene turned into live WorldSweep objects, ready to tick `tickCount` times by `tick` seconds.
/// Holds reference types, so each world (and thread) builds its own.
public struct BuiltScene {
    public let scene: SceneFile
    public let animator: DynamicAnimator
    /// One view per item, in file order.
    public let views: [View]
    /// One behavior per scene behavior, in file (and animator) order.
    public let behaviors: [(name: String, behavior: DynamicBehavior)]
    /// Seconds per tick.
    public let tick: Double
    public let tickCount: Int

    private let viewIndex: [String: Int]
    private let behaviorIndex: [String: Int]
    private let nameOfItem: [ObjectIdentifier: String]

    init(scene: SceneFile, animator: DynamicAnimator, views: [View], behaviors: [(name: String, behavior: DynamicBehavior)]) {
        self.scene = scene
        self.animator = animator
        self.views = views
        self.behaviors = behaviors
        self.tick = scene.world.tick
        self.tickCount = scene.world.ticks
        self.viewIndex = Dictionary(uniqueKeysWithValues: views.enumerated().map { ($1.name, $0) })
        self.behaviorIndex = Dictionary(uniqueKeysWithValues: behaviors.enumerated().map { ($1.name, $0) })
        self.nameOfItem = Dictionary(uniqueKeysWithValues: views.map { (ObjectIdentifier($0), $0.name) })
    }

    public func view(named name: String) -> View? { viewIndex[name].map { views[$0] } }

    public func behavior(named name: String) -> DynamicBehavior? { behaviorIndex[name].map { behaviors[$0].behavior } }

    /// The scene name of an item the animator reports (e.g. in a collision delegate call).
    public func name(of item: DynamicItem) -> String? { nameOfItem[ObjectIdentifier(item)] }

    /// The collision behaviors, in file order, for attaching contact delegates.
    public var collisionBehaviors: [(name: String, behavior: CollisionBehavior)] {
        behaviors.compactMap { entry in (entry.behavior as? CollisionBehavior).map { (entry.name, $0) } }
    }
}

extension SceneFile {
    /// Creates the views and behaviors and adds the behaviors to a new animator in file order.
    /// Item behaviors set only the properties the file sets, so the engine's defaults (and earlier
    /// behaviors' settings) stay in force for the rest.
    public func makeAnimator() -> BuiltScene {
        let animator = DynamicAnimator(referenceBounds: world.bounds)
        let views = items.map(Self.makeView)
        let viewByName = Dictionary(uniqueKeysWithValues: views.map { ($0.name, $0) })
        var built: [(name: String, behavior: DynamicBehavior)] = []
        for spec in behaviors {
            let behavior = spec.kind.type.makeBehavior(spec, items: spec.items.map { viewByName[$0]! })
            animator.addBehavior(behavior)
            built.append((spec.name, behavior))
        }
        return BuiltScene(scene: self, animator: animator, views: views, behaviors: built)
    }

    private static func makeView(_ item: ItemSpec) -> View {
        View(name: item.name, center: item.center, size: item.size, angle: item.angle,
             collisionBoundsType: item.shape.boundsType, collisionBoundingPath: item.shape == .path ? item.path : [])
    }
}
