import WorldSweep
import Yams

// `type: field` in a scene file: the model (FieldSpec), its declaration (FieldType), how its keys
// parse (regions included), and its numeric keys for sweeps and `--set`. Positions and regions in
// points; the rest in SI units, as FieldBehavior takes them.

/// The field kinds a file may name (the custom field is a Swift closure: API only).
public enum FieldKindSpec: String, Sendable, Hashable, CaseIterable {
    case linearGravity = "linear_gravity", radialGravity = "radial_gravity", spring, electric, magnetic, vortex, drag, velocity
    case noise, turbulence

    public var kind: FieldBehavior.Kind { FieldBehavior.Kind(rawValue: rawValue)! }
    /// Whether `direction` means something to this kind (and so may be given).
    var takesDirection: Bool { self == .linearGravity || self == .velocity || self == .drag }
    /// Linear gravity and velocity fields are made with their direction (UIKit's factories).
    var needsDirection: Bool { self == .linearGravity || self == .velocity }
    var takesNoise: Bool { self == .noise || self == .turbulence }
}

/// A field behavior as the file gives it; nil: the field's default.
public struct FieldSpec: Sendable, Hashable {
    public var kind: FieldKindSpec
    public var position: Point?
    public var strength: Double?
    public var falloff: Double?
    public var minimumRadius: Double?
    public var direction: Vector?
    public var smoothness: Double?
    public var animationSpeed: Double?
    public var region: Region

    public init(kind: FieldKindSpec, position: Point? = nil, strength: Double? = nil, falloff: Double? = nil,
                minimumRadius: Double? = nil, direction: Vector? = nil, smoothness: Double? = nil, animationSpeed: Double? = nil,
                region: Region = .infinite) {
        self.kind = kind; self.position = position; self.strength = strength; self.falloff = falloff
        self.minimumRadius = minimumRadius; self.direction = direction; self.smoothness = smoothness
        self.animationSpeed = animationSpeed; self.region = region
    }

    /// The field as a plan describes it (defaults filled in as the factories fill them).
    func planField(items: [Int]) -> PlanInput.Field {
        PlanInput.Field(kind: kind.kind, items: items, position: position ?? Point(x: 0, y: 0), region: region,
                        strength: strength ?? 1, falloff: falloff ?? kind.kind.defaultFalloff,
                        minimumRadius: minimumRadius ?? FieldBehavior.defaultMinimumRadius,
                        direction: direction ?? Vector(dx: 0, dy: 0), smoothness: smoothness ?? 0, animationSpeed: animationSpeed ?? 0)
    }

    /// The live behavior, through UIKit's factories.
    func makeBehavior(items: [View]) -> FieldBehavior {
        let p = planField(items: [])
        let field: FieldBehavior = switch kind {
        case .linearGravity: .linearGravityField(direction: p.direction)
        case .radialGravity: .radialGravityField(position: p.position)
        case .spring: .springField()
        case .electric: .electricField()
        case .magnetic: .magneticField()
        case .vortex: .vortexField()
        case .drag: .dragField()
        case .velocity: .velocityField(direction: p.direction)
        case .noise: .noiseField(smoothness: p.smoothness, animationSpeed: p.animationSpeed)
        case .turbulence: .turbulenceField(smoothness: p.smoothness, animationSpeed: p.animationSpeed)
        }
        field.position = p.position
        field.region = p.region
        field.strength = p.strength
        field.falloff = p.falloff
        field.minimumRadius = p.minimumRadius
        field.direction = p.direction
        field.smoothness = p.smoothness
        field.animationSpeed = p.animationSpeed
        for item in items { field.addItem(item) }
        return field
    }

    // MARK: numeric keys

    /// The keys `NAME.KEY` may set on a field of this kind.
    var numericKeys: [(key: String, rule: ValueRule)] {
        func rule(_ key: String) -> ValueRule { FieldType.rule(key) }
        var keys: [(key: String, rule: ValueRule)] = [("strength", rule("strength")), ("falloff", rule("falloff")),
                                                      ("minimum_radius", rule("minimum_radius")),
                                                      ("position.x", rule("position")), ("position.y", rule("position"))]
        if kind.takesDirection { keys += [("direction.x", rule("direction")), ("direction.y", rule("direction"))] }
        if kind.takesNoise { keys += [("smoothness", rule("smoothness")), ("animation_speed", rule("animation_speed"))] }
        // The region's size, where it is one circle or one rectangle (or the inverse of one):
        // sizes as the file's `region` takes them. A combination has no such keys (resolve says why).
        if region.circleRadius != nil { keys += [("region.radius", .length)] }
        if region.rectangleSize != nil { keys += [("region.width", .length), ("region.height", .length)] }
        return keys
    }

    func value(of key: String) -> Double {
        let p = planField(items: [])
        switch key {
        case "strength": return p.strength
        case "falloff": return p.falloff
        case "minimum_radius": return p.minimumRadius
        case "position.x": return p.position.x
        case "position.y": return p.position.y
        case "direction.x": return p.direction.dx
        case "direction.y": return p.direction.dy
        case "smoothness": return p.smoothness
        case "region.radius": return region.circleRadius!
        case "region.width": return region.rectangleSize!.width
        case "region.height": return region.rectangleSize!.height
        default: return p.animationSpeed
        }
    }

    mutating func set(_ key: String, _ value: Double) {
        switch key {
        case "strength": strength = value
        case "falloff": falloff = value
        case "minimum_radius": minimumRadius = value
        case "position.x": position = Point(x: value, y: position?.y ?? 0)
        case "position.y": position = Point(x: position?.x ?? 0, y: value)
        case "direction.x": direction = Vector(dx: value, dy: direction?.dy ?? 0)
        case "direction.y": direction = Vector(dx: direction?.dx ?? 0, dy: value)
        case "smoothness": smoothness = value
        case "region.radius": region = region.withCircleRadius(value)
        case "region.width": region = region.withRectangleSize(Size(width: value, height: region.rectangleSize!.height))
        case "region.height": region = region.withRectangleSize(Size(width: region.rectangleSize!.width, height: value))
        default: animationSpeed = value
        }
    }
}

/// The field's declaration: its keys, plan and live behavior (its numeric keys depend on its kind
/// and region: `FieldSpec.numericKeys`).
enum FieldType: BehaviorType {
    static let name = "field"
    static let itemsDoc = "the items it acts on"
    static let keys: [BehaviorKey] = [
        .other("kind", default: "required", values: FieldKindSpec.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "),
               "which field (UIFieldBehavior's factories)"),
        .pair("position", default: "[0, 0]", unit: "pt", "the field's centre"),
        .number("strength", default: "1", .any, "scales the force"),
        .number("falloff", default: "2 radial gravity, −1 spring, 1 electric and magnetic, else 0", .falloff,
                "the force scales as distance^−falloff"),
        .number("minimum_radius", default: "2⁻¹⁵", unit: "m", .minimumRadius, "distances below it count as it"),
        .pair("direction", default: "none", unit: "m/s², m/s",
              "required for linear gravity (m/s²) and velocity (m/s), optional for drag (m/s), refused elsewhere"),
        .number("smoothness", default: "0", .nonNegative, "noise and turbulence only"),
        .number("animation_speed", default: "0", .any, "noise and turbulence only"),
        // Its sizes are swept as `region.radius`, `region.width`, `region.height`.
        BehaviorKey(key: "region", defaultValue: "`infinite`", unit: "pt", values: "`infinite` or a region (below), sizes "
                    + ValueRule.length.intervalText, doc: "where it acts, about `position`", rule: .length),
    ]
    static let apiFile = "API/FieldBehavior.swift"
    static let kernels = ["Core/Fields.swift", "Batch/LaneFields.swift"]
    /// A field's plan copies its items' charges: only a compile makes it.
    static let plansByValue = false

    static func spec(of kind: BehaviorKind) -> FieldSpec? { if case .field(let f) = kind { f } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        .field(try parser.parseField(fields))
    }

    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] { spec(of: behavior.kind)!.numericKeys }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double { spec(of: behavior.kind)!.value(of: key) }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var field = spec(of: kind)!
        field.set(key, value)
        kind = .field(field)
    }

    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        spec(of: behavior.kind)!.planField(items: context.members)
    }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior { spec(of: behavior.kind)!.makeBehavior(items: items) }
}

extension FieldSpec {
    /// Why field `name` has no such `region.` key: which sizes its region has, if any.
    func regionKeyRefusal(_ name: String) -> String {
        if region.circleRadius != nil { return "field '\(name)' has a circle region; its size key is 'region.radius'" }
        if region.rectangleSize != nil { return "field '\(name)' has a rectangle region; its size keys are 'region.width' and 'region.height'" }
        if region.isCombination {
            return "field '\(name)' has a combined region (union, difference or intersection); only a region that is one circle "
                + "or one rectangle (or its inverse) has size keys"
        }
        return "field '\(name)' has no region (it acts everywhere), so no region size to set"
    }
}

extension ValueRule {
    /// A field's falloff: fall(r) = max(r, minimum radius)^(−falloff) stays inside Float for
    /// every radius from 1e−5 m to 1e4 m (10 km: the largest position) and strength up to 1e6.
    static let falloff = ValueRule(sign: .any, limit: 4, smallest: 0)
    /// A field's minimum radius, metres (default 2⁻¹⁵ ≈ 3.1e−5).
    static let minimumRadius = ValueRule(sign: .positive, limit: 1e4, smallest: 1e-5)
}

extension SceneParser {
    /// At most this many field behaviors in a scene (UIKit's limit per animator).
    static let maximumFields = FieldBehavior.maximumCount

    func parseField(_ fields: CheckedMapping) throws(SceneError) -> FieldSpec {
        let kind = try reader.choice(try reader.required("kind", in: fields, hint: " (linear_gravity, radial_gravity, ...)"),
                                     "'kind' of \(fields.owner)", FieldKindSpec.self)
        func number(_ key: String) throws(SceneError) -> Double? {
            try fields[key].map { node throws(SceneError) in try reader.number(node, "'\(key)'", FieldType.rule(key)) }
        }
        var spec = FieldSpec(kind: kind)
        spec.position = try fields["position"].map { node throws(SceneError) in try reader.point(node, "'position'") }
        spec.strength = try number("strength")
        spec.falloff = try number("falloff")
        spec.minimumRadius = try number("minimum_radius")
        if let entry = fields.entry("direction") {
            guard kind.takesDirection else {
                throw reader.error(entry.keyNode, "'direction' applies only to linear_gravity, velocity and drag fields, "
                                   + "not to \(kind.rawValue) (\(fields.owner))")
            }
            spec.direction = try reader.vector(entry.value, "'direction'", labels: ["x", "y"])
        } else if kind.needsDirection {
            throw reader.error(at: fields.ownerLocation, "missing required key 'direction' in \(fields.owner) "
                               + "(a \(kind.rawValue) field's [x, y], m/s\(kind == .velocity ? "" : "²"))")
        }
        for key in ["smoothness", "animation_speed"] {
            if let entry = fields.entry(key), !kind.takesNoise {
                throw reader.error(entry.keyNode, "'\(key)' applies only to noise and turbulence fields, not to "
                                   + "\(kind.rawValue) (\(fields.owner))")
            }
        }
        spec.smoothness = try number("smoothness")
        spec.animationSpeed = try number("animation_speed")
        if let node = fields["region"] { spec.region = try parseRegion(node, "'region'", depth: 0) }
        return spec
    }

    static let regionKeys = ["circle", "rectangle", "inverse", "union", "difference", "intersection"]
    static let regionExpectation = "infinite or a mapping with one key: {circle: RADIUS}, {rectangle: [width, height]}, "
        + "{inverse: REGION}, {union: [REGION, REGION]}, {difference: [REGION, REGION]} or {intersection: [REGION, REGION]}"

    /// A region: `infinite`, `{circle: r}`, `{rectangle: [w, h]}`, `{inverse: R}`, or
    /// `{union | difference | intersection: [R, R]}` (points; nested at most 16 deep).
    func parseRegion(_ node: Node, _ what: String, depth: Int) throws(SceneError) -> Region {
        if case .scalar(let scalar) = node, scalar.string == "infinite" { return .infinite }
        guard depth < 16 else { throw reader.error(node, "regions nest at most 16 deep (\(what))") }
        let mapping = try reader.mapping(node, owner: what, expected: Self.regionExpectation, allowed: Self.regionKeys)
        guard mapping.entries.count == 1, let entry = mapping.entries.first else {
            throw reader.error(node, "expected \(Self.regionExpectation) for \(what), got \(mapping.entries.count) keys")
        }
        switch entry.key {
        case "circle":
            return Region(radius: try reader.number(entry.value, "the 'circle' radius", .length))
        case "rectangle":
            let v = try reader.numbers(entry.value, "'rectangle'", labels: ["width", "height"], .length)
            return Region(size: Size(width: v[0], height: v[1]))
        case "inverse":
            return try parseRegion(entry.value, "'inverse'", depth: depth + 1).inverse()
        default:
            let operands = try reader.list(entry.value, "'\(entry.key)'", expected: "[REGION, REGION]")
            guard operands.count == 2 else {
                throw reader.error(entry.value, "expected [REGION, REGION] for '\(entry.key)', got a list of \(operands.count)")
            }
            let a = try parseRegion(operands[0], "the first region of '\(entry.key)'", depth: depth + 1)
            let b = try parseRegion(operands[1], "the second region of '\(entry.key)'", depth: depth + 1)
            switch entry.key {
            case "union": return a.union(with: b)
            case "difference": return a.difference(from: b)
            default: return a.intersection(with: b)
            }
        }
    }
}
