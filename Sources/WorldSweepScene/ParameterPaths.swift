import WorldSweep

// Parameter paths `NAME.KEY` address one number of an item or behavior. Sweeps, jitter and
// `--set` overrides all use them, so they share this one grammar.

/// A parameter path resolved against a scene.
struct ResolvedParameter: Sendable {
    enum Target: Sendable { case item(Int), behavior(Int), measure(Int) }
    let target: Target
    let key: String
    let rule: ValueRule
}

extension SceneFile {
    static let itemKeys: [(key: String, rule: ValueRule)] = [
        ("center.x", .any), ("center.y", .any), ("size.width", .length), ("size.height", .length), ("angle", .any),
    ]
    static let forceKeys: [(key: String, rule: ValueRule)] = [
        ("magnitude", .any), ("angle", .any), ("direction.x", .any), ("direction.y", .any),
    ]
    static var itemBehaviorKeys: [(key: String, rule: ValueRule)] { ItemProperty.numericKeys }

    static let snapKeys: [(key: String, rule: ValueRule)] = [("point.x", .any), ("point.y", .any), ("damping", .nonNegative)]

    /// An attachment's keys: those its kind takes (the parser's rule), `anchor` where it has one,
    /// each item's offset where the kind takes offsets.
    static func attachmentKeys(_ a: AttachmentSpec, items: [String]) -> [(key: String, rule: ValueRule)] {
        var keys: [(key: String, rule: ValueRule)] = a.anchor == nil ? [] : [("anchor.x", .any), ("anchor.y", .any)]
        switch a.kind {
        case .distance: keys += [("length", .nonNegative), ("damping", .nonNegative), ("frequency", .frequency)] + offsetKeys(items)
        case .limit: keys += [("length", .nonNegative)] + offsetKeys(items)
        case .fixed: keys += [("damping", .nonNegative), ("frequency", .frequency)]
        case .pin: keys += [("range.min", .any), ("range.max", .any), ("friction_torque", .nonNegative)]
        case .sliding:
            keys += [("axis.x", .axis), ("axis.y", .axis), ("range.min", .any), ("range.max", .any), ("friction_torque", .nonNegative)]
        }
        return keys
    }

    /// `offset.ITEM.x` and `offset.ITEM.y` for each item (each once): where a push acts on it, or
    /// where an attachment holds it, from its centre in its own frame (points).
    static func offsetKeys(_ items: [String]) -> [(key: String, rule: ValueRule)] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }.flatMap { [("offset.\($0).x", ValueRule.any), ("offset.\($0).y", .any)] }
    }

    /// The item and axis of an `offset.ITEM.x` / `offset.ITEM.y` key (nil for any other key).
    static func offsetKey(_ key: String) -> (item: String, vertical: Bool)? {
        guard key.hasPrefix("offset."), key.hasSuffix(".x") || key.hasSuffix(".y"), key.count > 9 else { return nil }
        return (String(key.dropFirst(7).dropLast(2)), key.hasSuffix(".y"))
    }

    /// `offsets` with one item's offset set along one axis (the last entry for it, as the engine reads
    /// it; a new entry from (0, 0) when it has none).
    static func setting(_ value: Double, vertical: Bool, of item: String,
                        in offsets: [(item: String, offset: Offset)]) -> [(item: String, offset: Offset)] {
        var offsets = offsets
        if offsets.lastIndex(where: { $0.item == item }) == nil { offsets.append((item, .zero)) }
        let i = offsets.lastIndex { $0.item == item }!
        if vertical { offsets[i].offset.vertical = value } else { offsets[i].offset.horizontal = value }
        return offsets
    }

    /// Keys naming a pair of numbers, for jitter given as `[a, b]` (e.g. `top.center: [2, 2]`).
    static let vectorKeys: [String: (String, String)] = [
        "center": ("center.x", "center.y"), "size": ("size.width", "size.height"),
        "direction": ("direction.x", "direction.y"), "linear_velocity": ("linear_velocity.x", "linear_velocity.y"),
        "position": ("position.x", "position.y"),
        "anchor": ("anchor.x", "anchor.y"), "point": ("point.x", "point.y"), "axis": ("axis.x", "axis.y"),
        "range": ("range.min", "range.max"),
    ]

    /// The two keys a pair key names (`center`, …, and `offset.ITEM`), or nil.
    static func pairKeys(_ key: String) -> (String, String)? {
        if let pair = vectorKeys[key] { return pair }
        guard key.hasPrefix("offset."), key.count > 7 else { return nil }
        return ("\(key).x", "\(key).y")
    }

    /// The numeric keys `NAME.KEY` may use for the item or behavior called `name`, or nil when
    /// nothing has that name.
    public func numericKeys(of name: String) -> [String]? {
        keyTable(of: name)?.map(\.key)
    }

    func keyTable(of name: String) -> [(key: String, rule: ValueRule)]? {
        if item(named: name) != nil { return Self.itemKeys }
        if let measure = measures.first(where: { $0.name == name }) { return measure.numericKeys }
        return behavior(named: name).map(keyTable(ofBehavior:))
    }

    /// The numeric keys of `behavior` and their rules.
    func keyTable(ofBehavior behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] {
        switch behavior.kind {
        case .gravity: return Self.forceKeys
        case .push: return Self.forceKeys + Self.offsetKeys(behavior.items)
        case .item: return Self.itemBehaviorKeys
        case .collision: return []
        case .field(let field): return field.numericKeys
        case .attachment(let a): return Self.attachmentKeys(a, items: behavior.items)
        case .snap: return Self.snapKeys
        }
    }

    /// Where the entity named by a path's first part is defined, or `.none`.
    func location(ofEntityIn path: String) -> SceneLocation {
        let name = path.split(separator: ".", maxSplits: 1).first.map(String.init) ?? path
        return item(named: name)?.location ?? behavior(named: name)?.location ?? measures.first { $0.name == name }?.location ?? .none
    }

    /// Resolves `NAME.KEY`, or explains why it names nothing.
    func resolve(_ path: String) -> Result<ResolvedParameter, SceneError> {
        func failure(_ message: String) -> Result<ResolvedParameter, SceneError> {
            .failure(SceneError(path: sourcePath, at: location(ofEntityIn: path), message))
        }
        let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return failure("expected a parameter path NAME.KEY (e.g. 'bouncy.elasticity'), got '\(TextPosition.shown(path))'")
        }
        let (name, key) = (parts[0], parts[1])
        guard let table = keyTable(of: name) else {
            let names = items.map(\.name) + behaviors.map(\.name)
            return failure("unknown parameter '\(TextPosition.shown(path))': there is no item or behavior named '\(name)'"
                           + suggestion(for: name, in: names))
        }
        let noun = item(named: name) != nil ? "item" : behavior(named: name)?.kind.noun ?? "metric"
        guard !table.isEmpty else {
            return failure("unknown parameter '\(TextPosition.shown(path))': \(noun) '\(name)' has no numeric keys")
        }
        if case .field(let field) = behavior(named: name)?.kind, key.hasPrefix("region."), !table.contains(where: { $0.key == key }) {
            return failure("unknown parameter '\(TextPosition.shown(path))': " + field.regionKeyRefusal(name))
        }
        guard let found = table.first(where: { $0.key == key }) else {
            let keys = table.map(\.key)
            return failure("unknown parameter '\(TextPosition.shown(path))': \(noun) '\(name)' has no numeric key '\(key)' "
                           + "(expected one of: \(keys.joined(separator: ", ")))" + suggestion(for: key, in: keys))
        }
        let target: ResolvedParameter.Target = if let index = items.firstIndex(where: { $0.name == name }) {
            .item(index)
        } else if let index = measures.firstIndex(where: { $0.name == name }) {
            .measure(index)
        } else {
            .behavior(behaviors.firstIndex { $0.name == name }!)
        }
        return .success(ResolvedParameter(target: target, key: found.key, rule: found.rule))
    }

    /// The current value at `NAME.KEY`, defaults included (an unset elasticity reads as the
    /// engine's 0.2, an unset gravity magnitude as 1).
    public func value(at path: String) throws(SceneError) -> Double {
        value(of: try resolve(path).get())
    }

    /// The current value of a resolved path (`value(at:)` without the name look-ups).
    func value(of parameter: ResolvedParameter) -> Double {
        switch parameter.target {
        case .item(let index):
            let item = items[index]
            switch parameter.key {
            case "center.x": return item.center.x
            case "center.y": return item.center.y
            case "size.width": return item.size.width
            case "size.height": return item.size.height
            default: return item.angle
            }
        case .behavior(let index):
            switch behaviors[index].kind {
            case .gravity(let gravity):
                return Self.read(parameter.key, of: gravity.force, GravitySpec.defaultAngle, GravitySpec.defaultMagnitude)
            case .push(let push):
                if let (item, vertical) = Self.offsetKey(parameter.key) {
                    let offset = push.offsets.last { $0.item == item }?.offset ?? .zero
                    return vertical ? offset.vertical : offset.horizontal
                }
                return Self.read(parameter.key, of: push.force, PushSpec.defaultAngle, PushSpec.defaultMagnitude)
            case .item(let properties):
                return ItemProperty.read(parameter.key, of: properties)
            case .field(let field):
                return field.value(of: parameter.key)
            case .attachment(let a):
                if let (item, vertical) = Self.offsetKey(parameter.key) {
                    return vertical ? a.offset(of: item).vertical : a.offset(of: item).horizontal
                }
                switch parameter.key {
                case "anchor.x": return a.anchor!.x
                case "anchor.y": return a.anchor!.y
                case "length": return a.length ?? measuredLength(of: behaviors[index])
                case "damping": return a.damping ?? 0
                case "frequency": return a.frequency ?? 0
                case "range.min": return a.range?.minimum ?? -.infinity
                case "range.max": return a.range?.maximum ?? .infinity
                case "friction_torque": return a.frictionTorque ?? 0
                case "axis.x": return a.axis!.dx
                default: return a.axis!.dy
                }
            case .snap(let snap):
                switch parameter.key {
                case "point.x": return snap.point.x
                case "point.y": return snap.point.y
                default: return snap.damping
                }
            case .collision:
                fatalError("collision behaviors have no numeric keys")
            }
        case .measure(let index):
            return measures[index].value(of: parameter.key)
        }
    }

    /// The length an attachment measures when made (its length when the file sets none): the
    /// distance between its attachment points with the items where the file places them.
    public func measuredLength(of behavior: BehaviorSpec) -> Double {
        guard case .attachment(let a) = behavior.kind else { return 0 }
        let placed = behavior.items.map { name in
            let item = self.item(named: name)!
            return PlanInput.Item(center: item.center, size: item.size, angle: item.angle,
                                  boundsType: Self.boundsType(item.shape), path: item.shape == .path ? item.path : [])
        }
        return PlanInput.Attachment.measuredLength(items: placed, offsets: behavior.items.map { a.offset(of: $0) }, anchor: a.anchor ?? Point(x: 0, y: 0))
    }

    /// A copy with each `NAME.KEY` set to its value, in order. Unknown paths and values the key does
    /// not accept (a negative size, a NaN) throw; the error points at the named item or behavior.
    public func applying(_ overrides: [(path: String, value: Double)]) throws(SceneError) -> SceneFile {
        var scene = self
        var touched: [(index: Int, path: String)] = []
        for (path, value) in overrides {
            let parameter = try scene.resolve(path).get()
            try scene.setValue(value, at: parameter, path: path, checkRelations: false)
            if case .behavior(let index) = parameter.target { touched.append((index, path)) }
        }
        for (index, path) in touched { try scene.checkRelations(ofBehavior: index, path: path) }
        return scene
    }

    public mutating func setValue(_ value: Double, at path: String) throws(SceneError) {
        try setValue(value, at: resolve(path).get(), path: path)
    }

    /// `setValue(_:at:)` of a path resolved before (`path`, as written, names it in errors).
    /// `checkRelations: false` leaves the rules between an attachment's keys to the caller, who
    /// sets several keys and checks once all are set (`checkRelations(ofBehavior:path:)`):
    /// an axis set from [1, 0] to [0, 1] one part at a time passes through [0, 0].
    mutating func setValue(_ value: Double, at parameter: ResolvedParameter, path: String,
                           checkRelations: Bool = true) throws(SceneError) {
        if let problem = parameter.rule.problem(value, for: "'\(path)'") {
            throw SceneError(path: sourcePath, at: location(ofEntityIn: path), problem)
        }
        switch parameter.target {
        case .item(let index):
            switch parameter.key {
            case "center.x": items[index].center.x = value
            case "center.y": items[index].center.y = value
            case "size.width": items[index].size.width = value
            case "size.height": items[index].size.height = value
            default: items[index].angle = value
            }
        case .behavior(let index):
            switch behaviors[index].kind {
            case .gravity(var gravity):
                Self.write(value, parameter.key, to: &gravity.force, GravitySpec.defaultAngle, GravitySpec.defaultMagnitude)
                behaviors[index].kind = .gravity(gravity)
            case .push(var push):
                if let (item, vertical) = Self.offsetKey(parameter.key) {
                    push.offsets = Self.setting(value, vertical: vertical, of: item, in: push.offsets)
                } else {
                    Self.write(value, parameter.key, to: &push.force, PushSpec.defaultAngle, PushSpec.defaultMagnitude)
                }
                behaviors[index].kind = .push(push)
            case .item(var properties):
                ItemProperty.write(value, parameter.key, to: &properties)
                behaviors[index].kind = .item(properties)
            case .field(var field):
                field.set(parameter.key, value)
                behaviors[index].kind = .field(field)
            case .attachment(var a):
                if let (item, vertical) = Self.offsetKey(parameter.key) {
                    a.offsets = Self.setting(value, vertical: vertical, of: item, in: a.offsets)
                    behaviors[index].kind = .attachment(a)
                    return
                }
                switch parameter.key {
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
                behaviors[index].kind = .attachment(a)
                if checkRelations { try self.checkRelations(ofBehavior: index, path: path) }
            case .snap(var snap):
                switch parameter.key {
                case "point.x": snap.point.x = value
                case "point.y": snap.point.y = value
                default: snap.damping = value
                }
                behaviors[index].kind = .snap(snap)
            case .collision:
                fatalError("collision behaviors have no numeric keys")
            }
        case .measure(let index):
            measures[index].set(parameter.key, value)
        }
    }

    private static func read(_ key: String, of force: DirectionSpec, _ defaultAngle: Double,
                             _ defaultMagnitude: Double) -> Double {
        switch key {
        case "magnitude": return force.effectiveMagnitude(default: defaultMagnitude)
        case "angle": return force.effectiveAngle(default: defaultAngle)
        case "direction.x": return force.effectiveDirection(defaultAngle: defaultAngle, defaultMagnitude: defaultMagnitude).dx
        default: return force.effectiveDirection(defaultAngle: defaultAngle, defaultMagnitude: defaultMagnitude).dy
        }
    }

    /// Setting angle or magnitude of a force given as a vector (or the reverse) converts it to the
    /// other form first, keeping the part not being set.
    private static func write(_ value: Double, _ key: String, to force: inout DirectionSpec, _ defaultAngle: Double,
                              _ defaultMagnitude: Double) {
        switch key {
        case "magnitude", "angle":
            if force.direction != nil {
                force.angle = force.effectiveAngle(default: defaultAngle)
                force.magnitude = force.effectiveMagnitude(default: defaultMagnitude)
                force.direction = nil
            }
            if key == "magnitude" { force.magnitude = value } else { force.angle = value }
        default:
            var direction = force.effectiveDirection(defaultAngle: defaultAngle, defaultMagnitude: defaultMagnitude)
            if key == "direction.x" { direction.dx = value } else { direction.dy = value }
            force = DirectionSpec(direction: direction)
        }
    }
}

/// A `--set NAME.KEY=VALUE` argument.
public struct ParameterAssignment: Sendable, Hashable {
    public var path: String
    public var value: Double

    public init(path: String, value: Double) {
        self.path = path
        self.value = value
    }

    /// Parses `NAME.KEY=VALUE`; the message says what was expected. Whether the path exists is
    /// checked by `SceneFile.applying(_:)`.
    public static func parse(_ text: String) -> Result<ParameterAssignment, ParameterAssignmentError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return .failure(ParameterAssignmentError(message: "expected NAME.KEY=VALUE, got '\(text)'"))
        }
        let path = parts[0].trimmingCharacters(in: .whitespaces)
        let valueText = parts[1].trimmingCharacters(in: .whitespaces)
        guard path.contains("."), !path.hasPrefix("."), !path.hasSuffix(".") else {
            return .failure(ParameterAssignmentError(message: "expected NAME.KEY=VALUE, got '\(text)' (no NAME.KEY before '=')"))
        }
        guard let value = Double(valueText), value.isFinite else {
            return .failure(ParameterAssignmentError(message: "expected a finite number after '=' in '\(text)', got '\(valueText)'"))
        }
        return .success(ParameterAssignment(path: path, value: value))
    }
}

public struct ParameterAssignmentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

import Foundation
