import WorldSweep

// A sweep's worlds differ from one another only in the numbers its paths name, so a batch
// compiles one world's plan in full and makes the others from it by setting their values
// (WorldPlan+Values) at the plan slots those paths resolve to, once per sweep: an item's pose, or
// a slot a behavior type declares (`BehaviorType.slot`: the items' material settings, a push's or
// gravity's force). A sweep with a path that has no slot (a size, a shape, an attachment's keys, a
// velocity, a field) compiles its worlds, taking the template's collisions. Either way the plan is the one `WorldPlan(compiling: world.planInput())`
// gives (PlanTemplateTests checks that world by world).

/// Where one of a sweep's numbers lands in a compiled plan.
package enum PlanSlot: Hashable, Sendable {
    /// Item `item`'s centre and angle.
    case pose(item: Int)
    /// A number of behavior type `type` (its `name`) sets: of behavior `index`, or nil where the
    /// type's behaviors share one slot (every item behavior's settings overlaid; the one gravity).
    case behavior(type: String, index: Int?)

    /// The slot a resolved path sets in `scene`'s plan, or nil when only a compile makes it.
    static func of(_ parameter: ResolvedParameter, in scene: SceneFile) -> PlanSlot? {
        switch parameter.target {
        case .item(let i):
            return ["center.x", "center.y", "angle"].contains(parameter.key) ? .pose(item: i) : nil
        case .behavior(let k):
            return scene.behaviors[k].kind.type.slot(forKey: parameter.key, behavior: k)
        case .measure:
            // A written metric's number is not in the plan at all; a world that differs in one is
            // compiled, as for any key without a slot (rare: it is swept only to compare metrics).
            return nil
        }
    }
}

/// One world's scene, input and plan, and the slots its sweep's numbers land in, to make the
/// sweep's other worlds from.
public struct PlanTemplate: Sendable {
    public let scene: SceneFile
    public let input: PlanInput
    public let plan: WorldPlan
    /// The slots of the sweep's parameters and jitter, each once; nil when some number has none,
    /// or the scene has a behavior whose compiled form reads more than its own numbers
    /// (attachments and snaps measure items; fields copy charges onto the plan).
    package let slots: [PlanSlot]?

    /// `first`, a world of `sweep`, as the template of the sweep's worlds.
    public init(_ first: SceneFile, of sweep: SweepWorlds) {
        self.init(first, paths: sweep.valuePaths)
    }

    /// `scene` as a template whose worlds are compiled (no paths known to set).
    public init(_ scene: SceneFile) { self.init(scene, paths: nil) }

    private init(_ scene: SceneFile, paths: [ResolvedParameter]?) {
        self.scene = scene
        input = scene.planInput()
        plan = WorldPlan(compiling: input)
        let settable = scene.behaviors.allSatisfy { $0.kind.type.plansByValue }
        var slots: [PlanSlot]? = settable ? [] : nil
        for path in paths ?? [] {
            guard let slot = PlanSlot.of(path, in: scene) else { slots = nil; break }
            if slots?.contains(slot) == false { slots?.append(slot) }
        }
        self.slots = paths == nil ? nil : slots
    }

    /// Whether the sweep's worlds are made by setting values (else each is compiled).
    public var setsValues: Bool { slots != nil }

    /// `world`'s plan and gravity direction (`planInput().gravity`): the template's plan with the
    /// world's numbers set at the sweep's slots, or compiled where the sweep has a number without one.
    public func plan(for world: SceneFile) -> (plan: WorldPlan, gravity: Vector?) {
        if let slots { return plan(for: world, setting: slots) }
        let input = world.planInput(collisionsOf: (scene, self.input))
        return (WorldPlan(compiling: input, collisionsOf: (self.input, plan)), input.gravity)
    }

    private func plan(for world: SceneFile, setting slots: [PlanSlot]) -> (plan: WorldPlan, gravity: Vector?) {
        var plan = self.plan
        var gravity = input.gravity
        for slot in slots {
            switch slot {
            case .pose(let i):
                plan.setPose(ofItem: i, center: world.items[i].center, angle: world.items[i].angle)
            case .behavior(let type, _):
                BehaviorTypes.named(type)!.setValues(at: slot, of: world, template: input, into: &plan, gravity: &gravity)
            }
        }
        plan.setGravity(gravity)
        return (plan, gravity)
    }
}
