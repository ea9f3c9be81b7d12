// The numbers a sweep may change in a compiled plan, each set by the rule the compile uses, so a
// world's plan can be its template's plan with the world's values set (WorldSweepScene's
// PlanTemplate) instead of a compile from scratch: a sweep's worlds differ only in numbers.

extension WorldPlan {
    /// Where an item centred at `center` (points) starts, in metres.
    static func position(ofCenter center: Point) -> Vec2 {
        Vec2(Float(center.x), Float(center.y)).dividedBy(EngineSettings.pointsPerMetre)
    }

    /// A push's vector in engine units from its direction (the behavior's `vector`).
    static func pushVector(_ direction: Vector) -> Vec2 { Vec2(Float(direction.dx), Float(direction.dy)) }

    /// The world's gravity from the last gravity behavior's direction (none: no gravity).
    static func gravity(_ direction: Vector?) -> Vec2 {
        direction.map { Vec2(Float($0.dx) * EngineSettings.gravityPerUnit, Float($0.dy) * EngineSettings.gravityPerUnit) } ?? .zero
    }

    /// Puts item `item`'s body (if it has one) at `center` (points), turned by `angle`.
    package mutating func setPose(ofItem item: Int, center: Point, angle: Double) {
        guard let b = bodyOfItem[item] else { return }
        bodies[b].position = Self.position(ofCenter: center)
        bodies[b].angle = Float(angle)
    }

    /// Each item's settings (of `itemCount`): those of every item behavior that lists it, overlaid
    /// in behavior order (the first is what overlaying it on none gives), each behavior once
    /// however often it lists the item; nil when none lists it. The compile and a template's
    /// worlds (WorldSweepScene's PlanTemplate) both take an item's material from it. One pass
    /// over the lists: asking each item's behaviors in turn grew with the items squared.
    package static func overlaidSettings(itemCount: Int, _ itemBehaviors: [(items: [Int], settings: DynamicItemBehavior.Settings)])
        -> [DynamicItemBehavior.Settings?] {
        var set = [DynamicItemBehavior.Settings?](repeating: nil, count: itemCount)
        var lastBehavior = [Int](repeating: -1, count: itemCount)
        for (k, b) in itemBehaviors.enumerated() {
            for item in b.items where lastBehavior[item] != k {
                lastBehavior[item] = k
                set[item] = set[item]?.overlaid(by: b.settings) ?? b.settings
            }
        }
        return set
    }

    /// Gives item `item`'s body (if it has one) the material of `settings`, every item behavior's
    /// settings overlaid in order; whether it falls and uses time of impact stays as compiled.
    /// Charges are not kept on bodies (fields copy them): a plan with fields is compiled instead.
    package mutating func setSettings(ofItem item: Int, _ settings: DynamicItemBehavior.Settings) {
        guard let b = bodyOfItem[item], let old = bodies[b].material else { return }
        bodies[b].material = Material(settings, gravityScale: old.gravityScale, usesTOI: old.usesTOI)
    }

    /// Sets the vector of the push made by input behavior `behavior` from its direction.
    package mutating func setPush(behavior: Int, direction: Vector) {
        for p in pushes.indices where pushes[p].behavior == behavior { pushes[p].vector = Self.pushVector(direction) }
    }

    /// Sets the world's gravity from the last gravity behavior's direction (nil: none).
    package mutating func setGravity(_ direction: Vector?) { gravity = Self.gravity(direction) }
}

extension WorldPlan.Material {
    /// An item's material from its overlaid settings (unset: the behavior's defaults).
    init(_ s: DynamicItemBehavior.Settings, gravityScale: Float, usesTOI: Bool) {
        self.init(restitution: Float(s.elasticity ?? DynamicItemBehavior.Defaults.elasticity),
                  friction: Float(s.friction ?? DynamicItemBehavior.Defaults.friction),
                  linearDamping: Float(s.resistance ?? DynamicItemBehavior.Defaults.resistance),
                  angularDamping: Float(s.angularResistance ?? DynamicItemBehavior.Defaults.angularResistance),
                  gravityScale: gravityScale, usesTOI: usesTOI,
                  density: Float(s.density ?? DynamicItemBehavior.Defaults.density),
                  fixedRotation: !(s.allowsRotation ?? DynamicItemBehavior.Defaults.allowsRotation),
                  isStatic: s.anchored ?? DynamicItemBehavior.Defaults.anchored)
    }
}
