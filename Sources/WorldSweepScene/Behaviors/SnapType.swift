import WorldSweep

/// `type: snap` (UISnapBehavior): one item pulled to a point; the damping is UIKit's 0.5 unless set.
public struct SnapSpec: Sendable, Hashable {
    public var point: Point
    public var damping: Double

    public init(point: Point, damping: Double = SnapBehavior.defaultDamping) {
        self.point = point
        self.damping = damping
    }
}

enum SnapType: BehaviorType {
    static let name = "snap"
    static let itemsDoc = "exactly one item"
    static let keys: [BehaviorKey] = [
        .other("item", default: "none", values: "an item name", "the one item, as UIKit's initializer takes it (instead of `items`)"),
        .pair("point", default: "required", unit: "pt", "where the item snaps to"),
        .number("damping", default: formatNumber(SnapBehavior.defaultDamping), .nonNegative, "0 oscillates most"),
    ]
    static let apiFile = "API/SnapBehavior.swift"
    static let kernels = ["Core/Joints/JointModel.swift", "Core/Joints/DistanceJoint.swift"]
    /// A snap's springs are placed from its item's corners: only a compile makes them.
    static let plansByValue = false

    static func spec(of kind: BehaviorKind) -> SnapSpec? { if case .snap(let s) = kind { s } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        let reader = parser.reader
        guard itemNames.count == 1 else {
            throw reader.error(fields["items"]!, "expected exactly one item in 'items' of \(fields.owner) (a snap moves "
                               + "one item), got \(itemNames.count)")
        }
        var spec = SnapSpec(point: try reader.point(try reader.required("point", in: fields, hint: " (where the item snaps to)"),
                                                    "'point'"))
        if let damping = fields["damping"] { spec.damping = try reader.number(damping, "'damping'", rule("damping")) }
        return .snap(spec)
    }

    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] {
        [("point.x", rule("point")), ("point.y", rule("point")), ("damping", rule("damping"))]
    }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        let snap = spec(of: behavior.kind)!
        switch key {
        case "point.x": return snap.point.x
        case "point.y": return snap.point.y
        default: return snap.damping
        }
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var snap = spec(of: kind)!
        switch key {
        case "point.x": snap.point.x = value
        case "point.y": snap.point.y = value
        default: snap.damping = value
        }
        kind = .snap(snap)
    }

    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        let snap = spec(of: behavior.kind)!
        return PlanInput.Snap(item: context.listed[0], point: snap.point, damping: snap.damping)
    }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let snap = spec(of: behavior.kind)!
        let made = SnapBehavior(item: items[0], snapTo: snap.point)
        made.damping = snap.damping
        return made
    }
}
