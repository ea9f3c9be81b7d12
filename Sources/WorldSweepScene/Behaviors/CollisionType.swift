import WorldSweep
import Yams

public enum CollisionModeSpec: String, Sendable, Hashable, CaseIterable {
    case items, boundaries, everything

    var mode: CollisionMode {
        switch self {
        case .items: .items
        case .boundaries: .boundaries
        case .everything: .everything
        }
    }
}

/// `type: collision` (UICollisionBehavior): which items collide, and the boundaries they hit.
public struct CollisionSpec: Sendable, Hashable {
    public var mode: CollisionModeSpec
    /// Whether the reference bounds (inset by `insets`) are a boundary.
    public var referenceBounds: Bool
    public var insets: EdgeInsets
    /// In file order.
    public var boundaries: [BoundarySpec]

    public init(mode: CollisionModeSpec = .everything, referenceBounds: Bool = false, insets: EdgeInsets = .zero,
                boundaries: [BoundarySpec] = []) {
        self.mode = mode
        self.referenceBounds = referenceBounds
        self.insets = insets
        self.boundaries = boundaries
    }
}

public struct BoundarySpec: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        case segment(from: Point, to: Point)
        /// A closed edge loop through the points.
        case path([Point])
    }

    public var identifier: String
    public var shape: Shape

    public init(identifier: String, shape: Shape) {
        self.identifier = identifier
        self.shape = shape
    }

    var boundary: CollisionBehavior.Boundary {
        switch shape {
        case let .segment(from, to): .segment(from: from, to: to)
        case .path(let points): .path(points)
        }
    }
}

enum CollisionType: BehaviorType {
    static let name = "collision"
    static let itemsDoc = "the items that collide with one another and with its boundaries"
    static let keys: [BehaviorKey] = [
        .other("mode", default: "`everything`", values: "`items`, `boundaries`, `everything`", "what collides: items with items, with boundaries, or both"),
        .other("reference_bounds", default: "false", values: "true, false, `{insets: [top, left, bottom, right]}`",
               "the reference bounds (inset) as a boundary, 1 pt outside them"),
        .other("boundaries", default: "none", unit: "pt",
               values: "identifier → `{from: [x, y], to: [x, y]}` or `{path: [[x, y], ...]}`; a bare list is a path",
               "segments and closed loops the items hit"),
    ]
    static let apiFile = "API/CollisionBehavior.swift"
    static let kernels = ["Core/Collide.swift", "Core/ContactSolver.swift", "Batch/LaneContacts.swift"]
    static let plansByValue = true

    static func spec(of kind: BehaviorKind) -> CollisionSpec? { if case .collision(let c) = kind { c } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        .collision(try parser.parseCollision(fields, items: items))
    }

    /// A collision has no numbers a sweep may set.
    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] { [] }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        preconditionFailure("collision behaviors have no numeric keys")
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        preconditionFailure("collision behaviors have no numeric keys")
    }

    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        let c = spec(of: behavior.kind)!
        let segments = CollisionBehavior.boundarySegments(referenceBounds: context.scene.world.bounds,
                                                          referenceBoundsInsets: c.referenceBounds ? c.insets : nil,
                                                          boundaries: c.boundaries.map { ($0.identifier, $0.boundary) })
        return PlanInput.Collision(items: context.members, mode: c.mode.mode,
                                   segments: segments.map { PlanInput.Segment(identifier: $0.identifier, from: $0.from, to: $0.to) })
    }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let collision = spec(of: behavior.kind)!
        let made = CollisionBehavior(items: items)
        made.collisionMode = collision.mode.mode
        if collision.referenceBounds {
            made.setTranslatesReferenceBoundsIntoBoundary(with: collision.insets)
        }
        for boundary in collision.boundaries {
            switch boundary.shape {
            case let .segment(from, to): made.addBoundary(withIdentifier: boundary.identifier, from: from, to: to)
            case .path(let points): made.addBoundary(withIdentifier: boundary.identifier, for: points)
            }
        }
        return made
    }
}

extension SceneParser {
    static let boundaryKeys = ["from", "to", "path"]

    func parseCollision(_ fields: CheckedMapping, items: [ItemSpec]) throws(SceneError) -> CollisionSpec {
        var spec = CollisionSpec()
        if let mode = fields["mode"] {
            spec.mode = try reader.choice(mode, "'mode' of \(fields.owner)", CollisionModeSpec.self)
        }
        if let bounds = fields.entry("reference_bounds") {
            if case .mapping = bounds.value {
                let insets = try reader.mapping(bounds.value, owner: "'reference_bounds'", ownerLocation: bounds.keyNode.location,
                                                expected: "true, false or {insets: [top, left, bottom, right]}",
                                                allowed: ["insets"])
                let values = try reader.numbers(try reader.required("insets", in: insets), "'insets'",
                                                labels: ["top", "left", "bottom", "right"])
                spec.referenceBounds = true
                spec.insets = EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
            } else {
                guard case .scalar = bounds.value, bounds.value.tagName == .bool, let flag = bounds.value.bool else {
                    throw reader.error(bounds.value, "expected true, false or {insets: [top, left, bottom, right]} for "
                                       + "'reference_bounds', got \(bounds.value.shortDescription)")
                }
                spec.referenceBounds = flag
            }
        }
        if let boundaries = fields["boundaries"] {
            let entries = try reader.namedEntries(boundaries, what: "'boundaries'",
                                                  expected: "a mapping of identifiers to {from: [x, y], to: [x, y]} or {path: [[x, y], ...]}")
            for entry in entries {
                spec.boundaries.append(try parseBoundary(entry, items: items))
            }
        }
        return spec
    }

    private func parseBoundary(_ entry: MappingEntry, items: [ItemSpec]) throws(SceneError) -> BoundarySpec {
        let identifier = try reader.name(entry.keyNode, "a boundary identifier")
        // Identifiers name contact partners in the results, next to item names and `bounds`.
        if identifier == SceneFile.referenceBoundsPartner {
            throw reader.error(entry.keyNode, "the identifier '\(identifier)' is reserved for the reference-bounds boundary")
        }
        if items.contains(where: { $0.name == identifier }) {
            throw reader.error(entry.keyNode, "boundary identifier '\(identifier)' is also an item name; "
                               + "contact partners would be ambiguous")
        }
        let owner = "boundary '\(identifier)'"
        // A bare list of points is shorthand for {path: [...]}.
        if case .sequence = entry.value {
            return BoundarySpec(identifier: identifier, shape: .path(try parseBoundaryPath(entry.value, owner: owner)))
        }
        let fields = try reader.mapping(entry.value, owner: owner, ownerLocation: entry.keyNode.location,
                                        expected: "{from: [x, y], to: [x, y]} or {path: [[x, y], ...]}",
                                        allowed: Self.boundaryKeys)
        if let path = fields.entry("path") {
            if let extra = fields.entry("from") ?? fields.entry("to") {
                throw reader.error(extra.keyNode, "give either 'from'/'to' or 'path' in \(owner), not both")
            }
            return BoundarySpec(identifier: identifier, shape: .path(try parseBoundaryPath(path.value, owner: owner)))
        }
        let hint = " (a segment needs 'from' and 'to'; a closed loop needs 'path')"
        let from = try reader.point(try reader.required("from", in: fields, hint: hint), "'from'")
        let to = try reader.point(try reader.required("to", in: fields, hint: hint), "'to'")
        if from == to {
            throw reader.error(fields["to"]!, "expected 'to' to differ from 'from' in \(owner), got the same point")
        }
        return BoundarySpec(identifier: identifier, shape: .segment(from: from, to: to))
    }

    private func parseBoundaryPath(_ node: Node, owner: String) throws(SceneError) -> [Point] {
        let points = try parsePointList(node, "'path'")
        guard points.count >= 2 else {
            throw reader.error(node, "expected at least 2 points in the 'path' of \(owner), got \(points.count)")
        }
        return points
    }
}
