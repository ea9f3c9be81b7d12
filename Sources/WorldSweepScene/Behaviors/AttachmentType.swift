import WorldSweep

/// `type: attachment` (UIAttachmentBehavior) as the file gives it: its kind, and the numbers set;
/// an unset length is measured from where the items are placed, as UIKit measures it when made.
public struct AttachmentSpec: Sendable, Hashable {
    public var kind: AttachmentBehavior.Kind
    /// One item: the anchor point; two items of kind pin, sliding or fixed: the attachment
    /// anchor where they are joined. Nil for two items of kind distance or limit.
    public var anchor: Point?
    /// Attachment points from the items' centres, in their own frames (distance and limit); file order.
    public var offsets: [(item: String, offset: Offset)]
    public var length: Double?
    public var damping: Double?
    public var frequency: Double?
    /// Pin: angle limits (rad); sliding: translation limits (pt).
    public var range: FloatRange?
    public var frictionTorque: Double?
    /// Sliding: the axis of translation.
    public var axis: Vector?

    public init(kind: AttachmentBehavior.Kind = .distance, anchor: Point? = nil, offsets: [(item: String, offset: Offset)] = [],
                length: Double? = nil, damping: Double? = nil, frequency: Double? = nil, range: FloatRange? = nil,
                frictionTorque: Double? = nil, axis: Vector? = nil) {
        self.kind = kind; self.anchor = anchor; self.offsets = offsets; self.length = length; self.damping = damping
        self.frequency = frequency; self.range = range; self.frictionTorque = frictionTorque; self.axis = axis
    }

    /// Item `name`'s offset (zero when the file gives none).
    public func offset(of name: String) -> Offset { offsets.last { $0.item == name }?.offset ?? .zero }

    public static func == (a: AttachmentSpec, b: AttachmentSpec) -> Bool {
        a.kind == b.kind && a.anchor == b.anchor && a.offsets.map(\.item) == b.offsets.map(\.item)
            && a.offsets.map(\.offset) == b.offsets.map(\.offset) && a.length == b.length && a.damping == b.damping
            && a.frequency == b.frequency && a.range == b.range && a.frictionTorque == b.frictionTorque && a.axis == b.axis
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind); hasher.combine(anchor)
        for (item, offset) in offsets { hasher.combine(item); hasher.combine(offset) }
        hasher.combine(length); hasher.combine(damping); hasher.combine(frequency); hasher.combine(range)
        hasher.combine(frictionTorque); hasher.combine(axis)
    }
}

enum AttachmentType: BehaviorType {
    static let name = "attachment"
    static let itemsDoc = "one item (on an `anchor`: `distance` or `sliding`) or two"
    static let keys: [BehaviorKey] = [
        .other("kind", default: "`distance`", values: "`distance`, `pin`, `sliding`, `fixed`, `limit`",
               "a rod or spring, a hinge, a rail, a weld, a rope"),
        .pair("anchor", default: "required where taken", unit: "pt",
              "one item: the point it is attached to; two items, pin, sliding and fixed: where they are joined"),
        .pair("offset", default: "[0, 0]", unit: "pt", written: "`{ITEM: [dx, dy]}`", parts: [],
              "distance and limit: where it holds each item, from its centre in its own frame"),
        .number("length", default: "the distance when made", unit: "pt", .nonNegative, "distance: the rest length; limit: the longest"),
        .number("damping", default: "0", .nonNegative, "distance and fixed: the spring's damping ratio"),
        .number("frequency", default: "0 (rigid)", unit: "Hz", .frequency, "distance and fixed: the spring's frequency"),
        .pair("range", default: "none", unit: "rad, pt", written: "[min, max], min ≤ max", parts: ["min", "max"],
              "pin: angle limits; sliding: translation limits (UIKit resets it to none unless min ≤ 0 ≤ max)"),
        .number("friction_torque", default: "0", unit: "N·m, N", .nonNegative, "pin and sliding: a motor of speed 0 this strong"),
        .pair("axis", default: "required (sliding)", rule: .axis, "sliding: the axis of translation, non-zero"),
    ]
    static let apiFile = "API/AttachmentBehavior.swift"
    static let kernels = ["Core/Joints/JointModel.swift", "Core/Joints/DistanceJoint.swift", "Core/Joints/RevoluteJoint.swift",
                          "Core/Joints/PrismaticJoint.swift", "Core/Joints/WeldJoint.swift", "Core/Joints/RopeJoint.swift"]
    /// An unset length is measured from the items' places: only a compile makes it.
    static let plansByValue = false

    static func spec(of kind: BehaviorKind) -> AttachmentSpec? { if case .attachment(let a) = kind { a } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        .attachment(try parser.parseAttachment(fields, itemNames: itemNames))
    }

    /// The keys its kind takes (the parser's rule), `anchor` where it has one, each item's offset
    /// where the kind takes offsets.
    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] {
        let a = spec(of: behavior.kind)!
        func keys(_ names: String...) -> [(key: String, rule: ValueRule)] { names.map { ($0, rule($0)) } }
        let range = [("range.min", rule("range")), ("range.max", rule("range"))]
        var out = a.anchor == nil ? [] : [("anchor.x", rule("anchor")), ("anchor.y", rule("anchor"))]
        switch a.kind {
        case .distance: out += keys("length", "damping", "frequency") + OffsetKeys.numeric(behavior.items)
        case .limit: out += keys("length") + OffsetKeys.numeric(behavior.items)
        case .fixed: out += keys("damping", "frequency")
        case .pin: out += range + keys("friction_torque")
        case .sliding: out += [("axis.x", rule("axis")), ("axis.y", rule("axis"))] + range + keys("friction_torque")
        }
        return out
    }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        let a = spec(of: behavior.kind)!
        if let (item, vertical) = OffsetKeys.parse(key) { return OffsetKeys.read(item, vertical: vertical, in: a.offsets) }
        switch key {
        case "anchor.x": return a.anchor!.x
        case "anchor.y": return a.anchor!.y
        case "length": return a.length ?? scene.measuredLength(of: behavior)
        case "damping": return a.damping ?? 0
        case "frequency": return a.frequency ?? 0
        case "range.min": return a.range?.minimum ?? -.infinity
        case "range.max": return a.range?.maximum ?? .infinity
        case "friction_torque": return a.frictionTorque ?? 0
        case "axis.x": return a.axis!.dx
        default: return a.axis!.dy
        }
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var a = spec(of: kind)!
        if let (item, vertical) = OffsetKeys.parse(key) {
            a.offsets = OffsetKeys.setting(value, vertical: vertical, of: item, in: a.offsets)
        } else {
            switch key {
            case "anchor.x": a.anchor!.x = value
            case "anchor.y": a.anchor!.y = value
            case "length": a.length = value
            case "damping": a.damping = value
            case "frequency": a.frequency = value
            case "range.min": a.range = FloatRange(minimum: value, maximum: a.range?.maximum ?? .infinity)
            case "range.max": a.range = FloatRange(minimum: a.range?.minimum ?? -.infinity, maximum: value)
            case "friction_torque": a.frictionTorque = value
            case "axis.x": a.axis!.dx = value
            default: a.axis!.dy = value
            }
        }
        kind = .attachment(a)
    }

    /// The rules between its keys, as the parser checks them: a range's min ≤ max, a non-zero axis.
    static func relationProblem(of kind: BehaviorKind, path: String) -> String? {
        let a = spec(of: kind)!
        if let r = a.range, r.minimum > r.maximum {
            return "expected 'range' min ≤ max for '\(path)', got [\(formatNumber(r.minimum)), \(formatNumber(r.maximum))]"
        }
        if let axis = a.axis, axis.dx == 0 && axis.dy == 0 { return "expected a non-zero 'axis' of translation for '\(path)', got [0, 0]" }
        return nil
    }

    /// What AttachmentBehavior's initializer and setters hand the plan (`makeBehavior` sets the
    /// same numbers on the live behavior).
    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        let a = spec(of: behavior.kind)!
        var range = a.range ?? .infinite
        if a.kind == .sliding && !(range.minimum <= 0 && 0 <= range.maximum) { range = .infinite }
        return PlanInput.Attachment(
            kind: a.kind, items: context.listed, offsets: behavior.items.map { a.offset(of: $0) }, anchor: a.anchor ?? Point(x: 0, y: 0),
            axis: a.axis ?? Vector(dx: 0, dy: 0), length: a.length ?? context.scene.measuredLength(of: behavior), lengthIsSet: a.length != nil,
            damping: a.damping ?? 0, frequency: a.frequency ?? 0, range: range, frictionTorque: a.frictionTorque ?? 0)
    }

    /// Through UIKit's initializer or factory for its kind and items (the parser allows only the
    /// combinations UIKit has), then the numbers the file sets.
    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let a = spec(of: behavior.kind)!
        let made: AttachmentBehavior
        let offsets = items.map { a.offset(of: $0.name) }
        let anchor = a.anchor ?? Point(x: 0, y: 0), axis = a.axis ?? Vector(dx: 0, dy: 0)
        if items.count == 1 {
            made = a.kind == .sliding
                ? AttachmentBehavior.slidingAttachment(with: items[0], attachmentAnchor: anchor, axisOfTranslation: axis)
                : AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedToAnchor: anchor)
        } else {
            switch a.kind {
            case .distance:
                made = AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedTo: items[1], offsetFromCenter: offsets[1])
            case .pin:
                made = AttachmentBehavior.pinAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case .sliding:
                made = AttachmentBehavior.slidingAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor,
                                                            axisOfTranslation: axis)
            case .fixed:
                made = AttachmentBehavior.fixedAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case .limit:
                made = AttachmentBehavior.limitAttachment(with: items[0], offsetFromCenter: offsets[0], attachedTo: items[1],
                                                          offsetFromCenter: offsets[1])
            }
        }
        if let v = a.length { made.length = v }
        if let v = a.damping { made.damping = v }
        if let v = a.frequency { made.frequency = v }
        if let v = a.range { made.attachmentRange = v }
        if let v = a.frictionTorque { made.frictionTorque = v }
        return made
    }
}

extension SceneFile {
    /// The length an attachment measures when made (its length when the file sets none): the
    /// distance between its attachment points with the items where the file places them.
    public func measuredLength(of behavior: BehaviorSpec) -> Double {
        guard case .attachment(let a) = behavior.kind else { return 0 }
        let placed = behavior.items.map { name in
            let item = self.item(named: name)!
            return PlanInput.Item(center: item.center, size: item.size, angle: item.angle,
                                  boundsType: item.shape.boundsType, path: item.shape == .path ? item.path : [])
        }
        return PlanInput.Attachment.measuredLength(items: placed, offsets: behavior.items.map { a.offset(of: $0) }, anchor: a.anchor ?? Point(x: 0, y: 0))
    }
}

extension SceneParser {
    /// Which keys each attachment kind takes, as UIKit's initializers and factories allow them:
    /// an anchor attachment is a distance (rod or spring) or a sliding one; two items may be
    /// joined by any kind, pin, sliding and fixed at an attachment anchor.
    func parseAttachment(_ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> AttachmentSpec {
        let owner = fields.owner
        var spec = AttachmentSpec()
        if let kind = fields["kind"] { spec.kind = try reader.choice(kind, "'kind' of \(owner)", AttachmentBehavior.Kind.self) }
        let kind = spec.kind.rawValue
        guard itemNames.count <= 2 else {
            throw reader.error(fields["items"]!, "expected one item (attached to 'anchor') or two (attached to each other) "
                               + "in 'items' of \(owner), got \(itemNames.count)")
        }
        func refuse(_ key: String, _ why: String) throws(SceneError) {
            if let entry = fields.entry(key) { throw reader.error(entry.keyNode, "'\(key)' \(why) in \(owner)") }
        }
        if itemNames.count == 1 {
            guard spec.kind == .distance || spec.kind == .sliding else {
                throw reader.error(fields["kind"]!, "a \(kind) attachment joins two items (UIKit has no \(kind) to an anchor); "
                                   + "an item on an anchor is a distance attachment (a rod, or a spring with 'frequency') or "
                                   + "a sliding one, in \(owner)")
            }
            spec.anchor = try reader.point(try reader.required("anchor", in: fields, hint: " (the point its one item is attached to)"),
                                           "'anchor'")
        } else if [.pin, .sliding, .fixed].contains(spec.kind) {
            spec.anchor = try reader.point(try reader.required("anchor", in: fields,
                                                               hint: " (the point where a \(kind) attachment joins its two items)"),
                                           "'anchor'")
        } else {
            try refuse("anchor", "is for an item on an anchor, or for pin, sliding and fixed attachments; a \(kind) attachment "
                       + "of two items joins them at their 'offset' points")
        }
        if let offsets = fields["offset"] {
            guard spec.kind == .distance || spec.kind == .limit else {
                throw reader.error(fields.entry("offset")!.keyNode, "'offset' applies to distance and limit attachments "
                                   + "(a \(kind) attachment joins at 'anchor') in \(owner)")
            }
            spec.offsets = try parseOffsets(offsets, fields, itemNames: itemNames)
        }
        func number(_ key: String, kinds: [AttachmentBehavior.Kind]) throws(SceneError) -> Double? {
            guard let entry = fields.entry(key) else { return nil }
            guard kinds.contains(spec.kind) else {
                throw reader.error(entry.keyNode, "'\(key)' applies to \(kinds.map(\.rawValue).joined(separator: " and ")) "
                                   + "attachments, not \(kind), in \(owner)")
            }
            return try reader.number(entry.value, "'\(key)'", AttachmentType.rule(key))
        }
        spec.length = try number("length", kinds: [.distance, .limit])
        spec.damping = try number("damping", kinds: [.distance, .fixed])
        spec.frequency = try number("frequency", kinds: [.distance, .fixed])
        spec.frictionTorque = try number("friction_torque", kinds: [.pin, .sliding])
        if let entry = fields.entry("range") {
            guard spec.kind == .pin || spec.kind == .sliding else {
                throw reader.error(entry.keyNode, "'range' applies to pin and sliding attachments, not \(kind), in \(owner)")
            }
            let v = try reader.numbers(entry.value, "'range'", labels: ["min", "max"])
            guard v[0] <= v[1] else {
                throw reader.error(entry.value, "expected 'range' [min, max] with min ≤ max in \(owner), got [\(formatNumber(v[0])), "
                                   + "\(formatNumber(v[1]))]")
            }
            spec.range = FloatRange(minimum: v[0], maximum: v[1])
        }
        if spec.kind == .sliding {
            let node = try reader.required("axis", in: fields, hint: " (the axis of translation [x, y])")
            let v = try reader.numbers(node, "'axis'", labels: ["x", "y"], AttachmentType.rule("axis"))
            let axis = Vector(dx: v[0], dy: v[1])
            guard axis.dx != 0 || axis.dy != 0 else {
                throw reader.error(node, "expected a non-zero 'axis' of translation in \(owner), got [0, 0]")
            }
            spec.axis = axis
        } else {
            try refuse("axis", "applies to sliding attachments only")
        }
        return spec
    }
}
