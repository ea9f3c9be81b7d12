import Foundation
import WorldSweep
import Yams

// The scene's behaviors: each type's allowed keys and its fields, checked against the items.
extension SceneParser {
    static let boundaryKeys = ["from", "to", "path"]
    static let behaviorTypes = ["gravity", "collision", "item", "push", "attachment", "snap", "field"]

    static func allowedKeys(forType type: String) -> [String] {
        let common = ["type", "items"]
        switch type {
        case "gravity": return common + ["angle", "magnitude", "direction"]
        case "collision": return common + ["mode", "reference_bounds", "boundaries"]
        case "item": return common + ItemProperty.keys
        case "field": return common + fieldKeys
        case "attachment": return common + ["kind", "anchor", "offset", "length", "damping", "frequency", "range",
                                            "friction_torque", "axis"]
        case "snap": return common + ["item", "point", "damping"]
        default: return common + ["mode", "magnitude", "angle", "direction", "active", "offset"]
        }
    }

    mutating func parseBehaviors(_ node: Node, items: [ItemSpec]) throws(SceneError) -> [BehaviorSpec] {
        let entries = try reader.namedEntries(node, what: "'behaviors'", expected: "a mapping of behavior names to behaviors")
        var behaviors: [BehaviorSpec] = []
        for entry in entries {
            let name = try reader.name(entry.keyNode, "a behavior name")
            try define(name, noun: "behavior", at: entry.keyNode)
            behaviors.append(try parseBehavior(entry, name: name, items: items))
            if case .field = behaviors.last!.kind, behaviors.count(where: { if case .field = $0.kind { true } else { false } }) > Self.maximumFields {
                throw reader.error(entry.keyNode, "field behavior '\(name)' is one too many: an animator holds at most "
                                   + "\(Self.maximumFields) fields (UIKit's limit)")
            }
        }
        return behaviors
    }

    private func parseBehavior(_ entry: MappingEntry, name: String, items: [ItemSpec]) throws(SceneError) -> BehaviorSpec {
        let types = Self.behaviorTypes.joined(separator: ", ")
        // The type decides which keys are allowed, so it is read before the keys are checked.
        guard case .mapping(let raw) = entry.value else {
            throw reader.error(entry.value, "expected a mapping with 'type' and 'items' for behavior '\(name)', "
                               + "got \(entry.value.shortDescription)")
        }
        guard let typeNode = raw["type"] else {
            throw reader.error(entry.keyNode, "missing required key 'type' in behavior '\(name)' (expected one of: \(types))")
        }
        guard case .scalar(let typeScalar) = typeNode, Self.behaviorTypes.contains(typeScalar.string) else {
            throw reader.error(typeNode, "unknown behavior type \(typeNode.shortDescription) for behavior '\(name)' "
                               + "(expected one of: \(types))"
                               + (typeNode.scalar.map { suggestion(for: $0.string, in: Self.behaviorTypes) } ?? ""))
        }
        let type = typeScalar.string
        let owner = "\(type) behavior '\(name)'"
        let fields = try reader.mapping(entry.value, owner: owner, ownerLocation: entry.keyNode.location,
                                        expected: "a mapping", allowed: Self.allowedKeys(forType: type))
        let itemNames: [String]
        if type == "snap", let single = fields.entry("item") {
            // UISnapBehavior(item:snapTo:) takes one item: `item: NAME` reads as UIKit does.
            if let both = fields.entry("items") {
                throw reader.error(both.keyNode, "give either 'item' or 'items' in \(owner), not both")
            }
            itemNames = try parseItemList(.sequence(Node.Sequence([single.value])), behavior: name, items: items)
        } else {
            itemNames = try parseItemList(try reader.required("items", in: fields, hint: type == "snap" ? " (or 'item')" : ""),
                                          behavior: name, items: items)
        }
        let kind: BehaviorKind
        switch type {
        case "gravity": kind = .gravity(GravitySpec(force: try parseDirection(fields)))
        case "collision": kind = .collision(try parseCollision(fields, items: items))
        case "item": kind = .item(try parseItemProperties(fields))
        case "field": kind = .field(try parseField(fields))
        case "attachment": kind = .attachment(try parseAttachment(fields, itemNames: itemNames))
        case "snap": kind = .snap(try parseSnap(fields, itemNames: itemNames))
        default: kind = .push(try parsePush(fields, itemNames: itemNames))
        }
        return BehaviorSpec(name: name, items: itemNames, kind: kind, location: entry.keyNode.location)
    }

    private func parseItemList(_ node: Node, behavior: String, items: [ItemSpec]) throws(SceneError) -> [String] {
        let elements = try reader.list(node, "'items'", expected: "a list of item names")
        guard !elements.isEmpty else { throw reader.error(node, "expected at least one item name in 'items' of behavior '\(behavior)'") }
        // Sets, not lists: a behavior over a thousand items made these look-ups quadratic.
        let known = Set(items.lazy.map(\.name))
        var names: [String] = [], listed = Set<String>()
        for element in elements {
            guard case .scalar(let scalar) = element, isValidName(scalar.string) else {
                throw reader.error(element, "expected an item name in 'items' of behavior '\(behavior)', "
                                   + "got \(element.shortDescription)")
            }
            let itemName = scalar.string
            guard known.contains(itemName) else {
                if definitions[itemName]?.noun == "behavior" {
                    throw reader.error(element, "behavior '\(behavior)' names '\(itemName)', which is a behavior, not an item")
                }
                throw reader.error(element, "behavior '\(behavior)' names unknown item '\(itemName)'"
                                   + suggestion(for: itemName, in: items.map(\.name)))
            }
            guard listed.insert(itemName).inserted else {
                throw reader.error(element, "behavior '\(behavior)' lists item '\(itemName)' more than once")
            }
            names.append(itemName)
        }
        return names
    }

    /// `angle`/`magnitude`, or `direction: [x, y]`, for gravity and push.
    private func parseDirection(_ fields: CheckedMapping) throws(SceneError) -> DirectionSpec {
        var spec = DirectionSpec()
        spec.angle = try fields["angle"].map { node throws(SceneError) in try reader.number(node, "'angle'") }
        spec.magnitude = try fields["magnitude"].map { node throws(SceneError) in try reader.number(node, "'magnitude'") }
        if let direction = fields.entry("direction") {
            if spec.angle != nil || spec.magnitude != nil {
                throw reader.error(direction.keyNode, "give either 'direction' or 'angle'/'magnitude' in "
                                   + "\(fields.owner), not both")
            }
            spec.direction = try reader.vector(direction.value, "'direction'", labels: ["x", "y"])
        }
        return spec
    }

    private func parseCollision(_ fields: CheckedMapping, items: [ItemSpec]) throws(SceneError) -> CollisionSpec {
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

    private func parseItemProperties(_ fields: CheckedMapping) throws(SceneError) -> ItemPropertiesSpec {
        var spec = ItemPropertiesSpec()
        for property in ItemProperty.all {
            guard let node = fields[property.key] else { continue }
            let what = "'\(property.key)'"
            switch property.value {
            case let .number(path, rule, _): spec[keyPath: path] = try reader.number(node, what, rule)
            case let .flag(path, _): spec[keyPath: path] = try reader.bool(node, what)
            case let .vector(path, labels, _): spec[keyPath: path] = try reader.vector(node, what, labels: labels)
            }
        }
        return spec
    }

    /// Per-item offsets `{item: [dx, dy]}` (push and attachment), each naming one of the behavior's items.
    private func parseOffsets(_ node: Node, _ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> [(item: String, offset: Offset)] {
        let entries = try reader.namedEntries(node, what: "'offset'", expected: "a mapping of item names to [dx, dy]")
        var offsets: [(item: String, offset: Offset)] = []
        for entry in entries {
            guard itemNames.contains(entry.key) else {
                throw reader.error(entry.keyNode, "\(fields.owner) sets an offset for '\(entry.key)', which is not "
                                   + "one of its items (\(itemNames.joined(separator: ", ")))"
                                   + suggestion(for: entry.key, in: itemNames))
            }
            let v = try reader.numbers(entry.value, "the offset of '\(entry.key)'", labels: ["dx", "dy"])
            offsets.append((entry.key, Offset(horizontal: v[0], vertical: v[1])))
        }
        return offsets
    }

    /// Which keys each attachment kind takes, as UIKit's initializers and factories allow them:
    /// an anchor attachment is a distance (rod or spring) or a sliding one; two items may be
    /// joined by any kind, pin, sliding and fixed at an attachment anchor.
    private func parseAttachment(_ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> AttachmentSpec {
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
        func number(_ key: String, _ rule: ValueRule, kinds: [AttachmentBehavior.Kind]) throws(SceneError) -> Double? {
            guard let entry = fields.entry(key) else { return nil }
            guard kinds.contains(spec.kind) else {
                throw reader.error(entry.keyNode, "'\(key)' applies to \(kinds.map(\.rawValue).joined(separator: " and ")) "
                                   + "attachments, not \(kind), in \(owner)")
            }
            return try reader.number(entry.value, "'\(key)'", rule)
        }
        spec.length = try number("length", .nonNegative, kinds: [.distance, .limit])
        spec.damping = try number("damping", .nonNegative, kinds: [.distance, .fixed])
        spec.frequency = try number("frequency", .frequency, kinds: [.distance, .fixed])
        spec.frictionTorque = try number("friction_torque", .nonNegative, kinds: [.pin, .sliding])
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
            let v = try reader.numbers(node, "'axis'", labels: ["x", "y"], .axis)
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

    private func parseSnap(_ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> SnapSpec {
        guard itemNames.count == 1 else {
            throw reader.error(fields["items"]!, "expected exactly one item in 'items' of \(fields.owner) (a snap moves "
                               + "one item), got \(itemNames.count)")
        }
        var spec = SnapSpec(point: try reader.point(try reader.required("point", in: fields, hint: " (where the item snaps to)"),
                                                    "'point'"))
        if let damping = fields["damping"] { spec.damping = try reader.number(damping, "'damping'", .nonNegative) }
        return spec
    }

    private func parsePush(_ fields: CheckedMapping, itemNames: [String]) throws(SceneError) -> PushSpec {
        let mode = try reader.choice(try reader.required("mode", in: fields, hint: " (continuous or instantaneous)"),
                                     "'mode' of \(fields.owner)", PushModeSpec.self)
        var spec = PushSpec(mode: mode, force: try parseDirection(fields))
        if let active = fields["active"] { spec.active = try reader.bool(active, "'active'") }
        if let offsets = fields["offset"] { spec.offsets = try parseOffsets(offsets, fields, itemNames: itemNames) }
        return spec
    }
}
