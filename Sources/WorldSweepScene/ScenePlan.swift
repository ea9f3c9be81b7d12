import WorldSweep

// A scene straight to a world plan, with no views, behaviors or animator: the values
// `makeAnimator()`'s objects would hand the animator, worked out by the same rules (the
// behaviors' static `direction`, `vector`, `polar` and `boundarySegments`), so the plan is the
// one the animator compiles for the same scene (WorldPlanTests checks that on every example).

extension SceneFile {
    /// The world this scene describes, compiled for the engine.
    public func worldPlan() -> WorldPlan { WorldPlan(compiling: planInput()) }

    /// The scene's items and behaviors as the animator would describe them (items in file order).
    public func planInput() -> PlanInput { planInput(collisionsOf: nil) }

    /// `planInput()` for another world of a sweep: a collision behavior the same in `base`'s scene,
    /// with the same items and bounds, is taken from `base`'s input instead of worked out again
    /// (its boundary segments were most of the work; a sweep cannot change them).
    public func planInput(collisionsOf base: (scene: SceneFile, input: PlanInput)?) -> PlanInput {
        let base = base.flatMap { base in
            base.scene.world.bounds == world.bounds && base.scene.items.map(\.name) == items.map(\.name)
                && base.scene.behaviors.count == behaviors.count ? base : nil
        }
        var indexOfItem: [String: Int] = [:]
        for (i, item) in items.enumerated() { indexOfItem[item.name] = i }
        let planItems = items.map { item in
            PlanInput.Item(center: item.center, size: item.size, angle: item.angle, boundsType: Self.boundsType(item.shape),
                           path: item.shape == .path ? item.path : [])
        }
        var gravity: Vector?
        let planBehaviors: [PlanInput.Behavior] = behaviors.indices.map { k in
            let spec = behaviors[k]
            if case .collision = spec.kind, let base, base.scene.behaviors[k] == spec, case .collision = base.input.behaviors[k] {
                return base.input.behaviors[k]
            }
            // As ItemsBehavior keeps them: each item once, first mention first.
            let listed = spec.items.map { indexOfItem[$0]! }
            var members: [Int] = []
            for i in listed where !members.contains(i) { members.append(i) }
            switch spec.kind {
            case .gravity(let g):
                gravity = Self.direction(of: g)   // the behavior added last sets the world's gravity
                return .gravity(items: members)

            case .collision(let c):
                let mode: CollisionMode = switch c.mode {
                case .items: .items
                case .boundaries: .boundaries
                case .everything: .everything
                }
                let boundaries = c.boundaries.map { b -> (identifier: String, boundary: CollisionBehavior.Boundary) in
                    switch b.shape {
                    case let .segment(from, to): (b.identifier, .segment(from: from, to: to))
                    case .path(let points): (b.identifier, .path(points))
                    }
                }
                let segments = CollisionBehavior.boundarySegments(referenceBounds: world.bounds,
                                                                  referenceBoundsInsets: c.referenceBounds ? c.insets : nil,
                                                                  boundaries: boundaries)
                return .collision(items: members, mode: mode,
                                  segments: segments.map { PlanInput.Segment(identifier: $0.identifier, from: $0.from, to: $0.to) })

            case .item(let properties):
                // Pending until the item has a body, summed per item as addLinearVelocity and
                // addAngularVelocity sum them (from zero, once per listed mention).
                var linear: [Int: Vector] = [:], angular: [Int: Double] = [:]
                for i in listed {
                    if let v = properties.linearVelocity {
                        let old = linear[i] ?? Vector(dx: 0, dy: 0)
                        linear[i] = Vector(dx: old.dx + v.dx, dy: old.dy + v.dy)
                    }
                    if let w = properties.angularVelocity { angular[i, default: 0] += w }
                }
                let velocities = members.compactMap { i -> PlanInput.VelocityChange? in
                    if linear[i] == nil && angular[i] == nil { return nil }
                    return PlanInput.VelocityChange(item: i, linear: linear[i] ?? Vector(dx: 0, dy: 0), angular: angular[i] ?? 0)
                }
                return .item(items: members, settings: properties.settings, velocities: velocities)

            case .field(let field):
                return .field(field.planField(items: members))

            case .push(let push):
                var offsets: [Int: Offset] = [:]
                for (name, offset) in push.offsets {
                    if let i = indexOfItem[name], members.contains(i) { offsets[i] = offset }
                }
                return .push(items: members, mode: push.mode == .continuous ? .continuous : .instantaneous,
                             direction: Self.direction(of: push),
                             offsets: members.map { offsets[$0] ?? Offset(horizontal: 0, vertical: 0) }, active: push.active)

            case .attachment(let a):
                // What AttachmentBehavior's initializer and setters hand the plan (makeAttachment
                // sets the same numbers on the live behavior).
                var range = a.range ?? .infinite
                if a.kind == .sliding && !(range.minimum <= 0 && 0 <= range.maximum) { range = .infinite }
                return .attachment(PlanInput.Attachment(
                    kind: a.kind, items: listed, offsets: spec.items.map { a.offset(of: $0) }, anchor: a.anchor ?? Point(x: 0, y: 0),
                    axis: a.axis ?? Vector(dx: 0, dy: 0), length: a.length ?? measuredLength(of: spec), lengthIsSet: a.length != nil,
                    damping: a.damping ?? 0, frequency: a.frequency ?? 0, range: range, frictionTorque: a.frictionTorque ?? 0))

            case .snap(let snap):
                return .snap(PlanInput.Snap(item: listed[0], point: snap.point, damping: snap.damping))
            }
        }
        return PlanInput(referenceBounds: world.bounds, items: planItems, behaviors: planBehaviors, gravity: gravity)
    }

    /// A gravity behavior's direction (the behavior's `gravityDirection`).
    static func direction(of g: GravitySpec) -> Vector {
        if let d = g.force.direction { return d }
        if g.force.isDefault { return Vector(dx: 0, dy: 1) }
        return GravityBehavior.direction(angle: g.force.angle ?? GravitySpec.defaultAngle,
                                         magnitude: g.force.magnitude ?? GravitySpec.defaultMagnitude)
    }

    /// A push's vector as the behavior keeps it: through its angle and magnitude, whichever way
    /// the file gave it (a direction round-trips through polar form, as the behavior does).
    static func direction(of push: PushSpec) -> Vector {
        var polar = (angle: 0.0, magnitude: 0.0)
        if let d = push.force.direction {
            polar = PushBehavior.polar(d)
        } else if !push.force.isDefault {
            polar = (push.force.angle ?? PushSpec.defaultAngle, push.force.magnitude ?? PushSpec.defaultMagnitude)
        }
        return PushBehavior.vector(angle: polar.angle, magnitude: polar.magnitude)
    }

    /// The world's gravity direction: the last gravity behavior's (nil without one), as `planInput()` has it.
    func gravityDirection() -> Vector? {
        var gravity: Vector?
        for behavior in behaviors { if case .gravity(let g) = behavior.kind { gravity = Self.direction(of: g) } }
        return gravity
    }

    static func boundsType(_ shape: ItemShape) -> DynamicItemCollisionBoundsType {
        switch shape {
        case .rectangle: .rectangle
        case .ellipse: .ellipse
        case .path: .path
        }
    }
}
