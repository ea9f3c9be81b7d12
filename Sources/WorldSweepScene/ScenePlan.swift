import WorldSweep

// A scene straight to a world plan, with no views, behaviors or animator: the values
// `makeAnimator()`'s objects would hand the animator, worked out by the same rules (each type's
// `planBehavior`, through the behaviors' static `direction`, `vector`, `polar` and
// `boundarySegments`), so the plan is the one the animator compiles for the same scene
// (WorldPlanTests checks that on every example).

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
            PlanInput.Item(center: item.center, size: item.size, angle: item.angle, boundsType: item.shape.boundsType,
                           path: item.shape == .path ? item.path : [])
        }
        let planBehaviors: [PlanInput.Behavior] = behaviors.indices.map { k in
            let spec = behaviors[k]
            if case .collision = spec.kind, let base, base.scene.behaviors[k] == spec, base.input.behaviors[k] is PlanInput.Collision {
                return base.input.behaviors[k]
            }
            // As ItemsBehavior keeps them: each item once, first mention first.
            let listed = spec.items.map { indexOfItem[$0]! }
            var members: [Int] = [], isMember = [Bool](repeating: false, count: items.count)
            for i in listed where !isMember[i] { isMember[i] = true; members.append(i) }
            return spec.kind.type.planBehavior(spec, PlanContext(scene: self, listed: listed, members: members, indexOfItem: indexOfItem))
        }
        // The behavior added last sets the world's gravity.
        let gravity = gravityDirection()
        return PlanInput(referenceBounds: world.bounds, items: planItems, behaviors: planBehaviors, gravity: gravity)
    }
}
