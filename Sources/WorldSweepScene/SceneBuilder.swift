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
            let behavior = Self.makeBehavior(spec, items: spec.items.map { viewByName[$0]! })
            animator.addBehavior(behavior)
            built.append((spec.name, behavior))
        }
        return BuiltScene(scene: self, animator: animator, views: views, behaviors: built)
    }

    private static func makeView(_ item: ItemSpec) -> View {
        View(name: item.name, center: item.center, size: item.size, angle: item.angle,
             collisionBoundsType: boundsType(item.shape), collisionBoundingPath: item.shape == .path ? item.path : [])
    }

    private static func makeBehavior(_ spec: BehaviorSpec, items: [View]) -> DynamicBehavior {
        switch spec.kind {
        case .gravity(let gravity):
            let behavior = GravityBehavior(items: items)
            if let direction = gravity.force.direction {
                behavior.gravityDirection = direction
            } else if !gravity.force.isDefault {
                behavior.setAngle(gravity.force.angle ?? GravitySpec.defaultAngle,
                                  magnitude: gravity.force.magnitude ?? GravitySpec.defaultMagnitude)
            }
            return behavior

        case .collision(let collision):
            let behavior = CollisionBehavior(items: items)
            behavior.collisionMode = switch collision.mode {
            case .items: .items
            case .boundaries: .boundaries
            case .everything: .everything
            }
            if collision.referenceBounds {
                behavior.setTranslatesReferenceBoundsIntoBoundary(with: collision.insets)
            }
            for boundary in collision.boundaries {
                switch boundary.shape {
                case let .segment(from, to): behavior.addBoundary(withIdentifier: boundary.identifier, from: from, to: to)
                case .path(let points): behavior.addBoundary(withIdentifier: boundary.identifier, for: points)
                }
            }
            return behavior

        case .item(let properties):
            let behavior = DynamicItemBehavior(items: items)
            behavior.setProperties(properties.settings)
            // Added before the behavior joins the animator: they apply when it does.
            for item in items {
                if let v = properties.linearVelocity { behavior.addLinearVelocity(v, for: item) }
                if let w = properties.angularVelocity { behavior.addAngularVelocity(w, for: item) }
            }
            return behavior

        case .field(let field):
            return field.makeBehavior(items: items)

        case .push(let push):
            let behavior = PushBehavior(items: items, mode: push.mode == .continuous ? .continuous : .instantaneous)
            if let direction = push.force.direction {
                behavior.pushDirection = direction
            } else if !push.force.isDefault {
                behavior.setAngle(push.force.angle ?? PushSpec.defaultAngle,
                                  magnitude: push.force.magnitude ?? PushSpec.defaultMagnitude)
            }
            for (name, offset) in push.offsets {
                if let item = items.first(where: { $0.name == name }) {
                    behavior.setTargetOffsetFromCenter(offset, for: item)
                }
            }
            behavior.active = push.active
            return behavior

        case .attachment(let a):
            return makeAttachment(a, items: items)

        case .snap(let snap):
            let behavior = SnapBehavior(item: items[0], snapTo: snap.point)
            behavior.damping = snap.damping
            return behavior
        }
    }

    /// The attachment through UIKit's initializer or factory for its kind and items (the parser
    /// allows only the combinations UIKit has), then the numbers the file sets.
    private static func makeAttachment(_ a: AttachmentSpec, items: [View]) -> AttachmentBehavior {
        let behavior: AttachmentBehavior
        let offsets = items.map { a.offset(of: $0.name) }
        let anchor = a.anchor ?? Point(x: 0, y: 0), axis = a.axis ?? Vector(dx: 0, dy: 0)
        if items.count == 1 {
            behavior = a.kind == .sliding
                ? AttachmentBehavior.slidingAttachment(with: items[0], attachmentAnchor: anchor, axisOfTranslation: axis)
                : AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedToAnchor: anchor)
        } else {
            switch a.kind {
            case .distance:
                behavior = AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedTo: items[1], offsetFromCenter: offsets[1])
            case .pin:
                behavior = AttachmentBehavior.pinAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case .sliding:
                behavior = AttachmentBehavior.slidingAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor,
                                                                axisOfTranslation: axis)
            case .fixed:
                behavior = AttachmentBehavior.fixedAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case .limit:
                behavior = AttachmentBehavior.limitAttachment(with: items[0], offsetFromCenter: offsets[0], attachedTo: items[1],
                                                              offsetFromCenter: offsets[1])
            }
        }
        if let v = a.length { behavior.length = v }
        if let v = a.damping { behavior.damping = v }
        if let v = a.frequency { behavior.frequency = v }
        if let v = a.range { behavior.attachmentRange = v }
        if let v = a.frictionTorque { behavior.frictionTorque = v }
        return behavior
    }
}
