import WorldSweep

public enum PushModeSpec: String, Sendable, Hashable, CaseIterable {
    case continuous, instantaneous

    var mode: PushBehavior.Mode { self == .continuous ? .continuous : .instantaneous }
}

/// `type: push` (UIPushBehavior): one force on each of its items, continuous or one impulse.
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

    /// The vector as the behavior keeps it: through its angle and magnitude, whichever way the
    /// file gave it (a direction round-trips through polar form, as the behavior does).
    var direction: Vector {
        var polar = (angle: 0.0, magnitude: 0.0)
        if let d = force.direction {
            polar = PushBehavior.polar(d)
        } else if !force.isDefault {
            polar = (force.angle ?? Self.defaultAngle, force.magnitude ?? Self.defaultMagnitude)
        }
        return PushBehavior.vector(angle: polar.angle, magnitude: polar.magnitude)
    }
}

enum PushType: BehaviorType {
    static let name = "push"
    static let itemsDoc = "every item gets the same force"
    static let keys: [BehaviorKey] = [
        .other("mode", default: "required", values: "`continuous`, `instantaneous`",
               "a force every tick while active, or one impulse"),
        .number("magnitude", default: "0", unit: "UIKit N", .any, "1 accelerates 100 × 100 pt at density 1 by 100 pt/s²"),
        .number("angle", default: "0", unit: "rad", .any, "direction, clockwise from +x (y points down)"),
        .pair("direction", default: "none", unit: "UIKit N", "instead of angle and magnitude: the force as a vector"),
        .other("active", default: "true", values: "true, false", "whether it pushes"),
        .pair("offset", default: "[0, 0]", unit: "pt", written: "`{ITEM: [dx, dy]}`", parts: [],
              "where the force acts on each item, from its centre in its own frame"),
    ]
    static let apiFile = "API/PushBehavior.swift"
    static let kernels = ["Core/PushRule.swift", "Batch/LanePushes.swift"]
    static let plansByValue = true

    static func spec(of kind: BehaviorKind) -> PushSpec? { if case .push(let p) = kind { p } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        let reader = parser.reader
        let mode = try reader.choice(try reader.required("mode", in: fields, hint: " (continuous or instantaneous)"),
                                     "'mode' of \(fields.owner)", PushModeSpec.self)
        var spec = PushSpec(mode: mode, force: try parser.parseDirection(fields))
        if let active = fields["active"] { spec.active = try reader.bool(active, "'active'") }
        if let offsets = fields["offset"] { spec.offsets = try parser.parseOffsets(offsets, fields, itemNames: itemNames) }
        return .push(spec)
    }

    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] {
        ForceKeys.numeric + OffsetKeys.numeric(behavior.items)
    }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        let push = spec(of: behavior.kind)!
        if let (item, vertical) = OffsetKeys.parse(key) { return OffsetKeys.read(item, vertical: vertical, in: push.offsets) }
        return ForceKeys.read(key, of: push.force, PushSpec.defaultAngle, PushSpec.defaultMagnitude)
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var push = spec(of: kind)!
        if let (item, vertical) = OffsetKeys.parse(key) {
            push.offsets = OffsetKeys.setting(value, vertical: vertical, of: item, in: push.offsets)
        } else {
            ForceKeys.write(value, key, to: &push.force, PushSpec.defaultAngle, PushSpec.defaultMagnitude)
        }
        kind = .push(push)
    }

    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        let push = spec(of: behavior.kind)!
        var offsets: [Int: Offset] = [:]
        for (name, offset) in push.offsets {
            if let i = context.indexOfItem[name], context.members.contains(i) { offsets[i] = offset }
        }
        return PlanInput.Push(items: context.members, mode: push.mode.mode, direction: push.direction,
                              offsets: context.members.map { offsets[$0] ?? Offset(horizontal: 0, vertical: 0) }, active: push.active)
    }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let push = spec(of: behavior.kind)!
        let made = PushBehavior(items: items, mode: push.mode.mode)
        if let direction = push.force.direction {
            made.pushDirection = direction
        } else if !push.force.isDefault {
            made.setAngle(push.force.angle ?? PushSpec.defaultAngle, magnitude: push.force.magnitude ?? PushSpec.defaultMagnitude)
        }
        for (name, offset) in push.offsets {
            if let item = items.first(where: { $0.name == name }) { made.setTargetOffsetFromCenter(offset, for: item) }
        }
        made.active = push.active
        return made
    }

    /// The force lands in the push's vector; an offset only a compile places.
    static func slot(forKey key: String, behavior index: Int) -> PlanSlot? {
        OffsetKeys.parse(key) == nil ? .behavior(type: name, index: index) : nil
    }

    static func setValues(at slot: PlanSlot, of world: SceneFile, template: PlanInput, into plan: inout WorldPlan,
                          gravity: inout Vector?) {
        guard case .behavior(_, let k?) = slot, let push = spec(of: world.behaviors[k].kind) else { return }
        plan.setPush(behavior: k, direction: push.direction)
    }
}
