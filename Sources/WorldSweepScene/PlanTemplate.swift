import WorldSweep

// A sweep's worlds differ from one another only in numbers, so a batch compiles one world's plan
// in full and makes the others from it by setting their values (WorldPlan+Values): an item's
// pose, an item behavior's material settings, a push's or gravity's force. A world that differs
// in anything else (a size, a shape, an attachment's keys, a velocity, a field) is compiled,
// taking the template's collisions where they are the same. Either way the plan is the one
// `WorldPlan(compiling: world.planInput())` gives (PlanTemplateTests checks that world by world).

/// One world's scene, input and plan, to make other worlds of the same sweep from.
public struct PlanTemplate: Sendable {
    public let scene: SceneFile
    public let input: PlanInput
    public let plan: WorldPlan
    /// Whether values can make other worlds: no behavior whose compiled form reads more than its
    /// own numbers (attachments and snaps measure items; fields copy charges onto the plan).
    private let settable: Bool

    public init(_ scene: SceneFile) {
        self.scene = scene
        input = scene.planInput()
        plan = WorldPlan(compiling: input)
        settable = scene.behaviors.allSatisfy {
            switch $0.kind {
            case .gravity, .collision, .item, .push: true
            case .field, .attachment, .snap: false
            }
        }
    }

    /// `world`'s plan and gravity direction (`planInput().gravity`): by values where it differs
    /// from the template's scene only in numbers that can be set, else compiled.
    public func plan(for world: SceneFile) -> (plan: WorldPlan, gravity: Vector?) {
        if let made = planByValues(world) { return made }
        let input = world.planInput(collisionsOf: (scene, self.input))
        return (WorldPlan(compiling: input, collisionsOf: (self.input, plan)), input.gravity)
    }

    /// The template's plan with `world`'s values set, or nil when `world` differs in anything else.
    /// (Unchanged specs share storage with the template's, so comparing them is cheap.)
    package func planByValues(_ world: SceneFile) -> (plan: WorldPlan, gravity: Vector?)? {
        guard settable, world.world == scene.world, world.items.count == scene.items.count,
              world.behaviors.count == scene.behaviors.count else { return nil }
        var plan = self.plan
        for (i, item) in world.items.enumerated() where item != scene.items[i] {
            var moved = scene.items[i]
            moved.center = item.center
            moved.angle = item.angle
            guard moved == item else { return nil }
            plan.setPose(ofItem: i, center: item.center, angle: item.angle)
        }
        var gravity = input.gravity, settingsChanged = false
        for (k, now) in world.behaviors.enumerated() where now != scene.behaviors[k] {
            var expected = scene.behaviors[k]
            switch (expected.kind, now.kind) {
            case (.gravity(var g), .gravity(let n)):
                g.force = n.force
                expected.kind = .gravity(g)
                gravity = world.gravityDirection()
            case (.item(var p), .item(let n)):
                p.settings = n.settings
                expected.kind = .item(p)
                settingsChanged = true
            case (.push(var p), .push(let n)):
                p.force = n.force
                expected.kind = .push(p)
                plan.setPush(behavior: k, direction: SceneFile.direction(of: n))
            default:
                return nil
            }
            guard expected == now else { return nil }
        }
        plan.setGravity(gravity)
        if settingsChanged {
            // Each item's settings overlaid by the compile's rule, members as the template's input
            // lists them (the sweep changed no item lists), settings as this world has them.
            let itemBehaviors = input.behaviors.indices.compactMap { k -> (items: [Int], settings: DynamicItemBehavior.Settings)? in
                guard case .item(let members, _, _) = input.behaviors[k], case .item(let p) = world.behaviors[k].kind else { return nil }
                return (members, p.settings)
            }
            for item in world.items.indices {
                if let set = WorldPlan.overlaidSettings(ofItem: item, itemBehaviors) { plan.setSettings(ofItem: item, set) }
            }
        }
        return (plan, gravity)
    }
}
