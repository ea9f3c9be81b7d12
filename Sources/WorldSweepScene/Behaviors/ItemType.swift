import Foundation
import WorldSweep

/// An item behavior's keys (ItemProperty.all lists them): the API's properties as the API keeps
/// them (nil: unset; `spec.elasticity` reads and writes `spec.settings.elasticity`), and the
/// velocity changes it adds.
@dynamicMemberLookup
public struct ItemPropertiesSpec: Sendable, Hashable {
    public var settings = DynamicItemBehavior.Settings()

    public subscript<Value>(dynamicMember property: WritableKeyPath<DynamicItemBehavior.Settings, Value>) -> Value {
        get { settings[keyPath: property] }
        set { settings[keyPath: property] = newValue }
    }
    /// pt/s, added to each item's velocity.
    public var linearVelocity: Vector?
    /// rad/s, added to each item's angular velocity.
    public var angularVelocity: Double?

    /// Nothing set; `set` sets what it names (`ItemPropertiesSpec { $0.elasticity = 0.5 }`), so
    /// the properties are not listed here again.
    public init(_ set: (inout ItemPropertiesSpec) -> Void = { _ in }) { set(&self) }
}

/// One key of an item behavior (`type: item`, UIDynamicItemBehavior): its file key, where it
/// lives in `ItemPropertiesSpec`, the value it reads as when unset, its unit, the values it takes
/// and one line for the docs. `ItemProperty.all` is the one list of them: made from the API's
/// list of item properties (`DynamicItemBehavior.properties`: where each lives and its unset value,
/// which world plans merge over too) with each one's file terms, and the velocities; the parser
/// reads a behavior's keys from it, sweep paths and `--set` their numeric keys and unset values,
/// and docs/format.md's key table is checked against it (`FormatDocTests`). Unchecked Sendable:
/// key paths are immutable values.
struct ItemProperty: @unchecked Sendable {
    enum Value: @unchecked Sendable {
        /// A number checked against its rule; unset, it reads as `default`.
        case number(WritableKeyPath<ItemPropertiesSpec, Double?>, ValueRule, default: Double)
        case flag(WritableKeyPath<ItemPropertiesSpec, Bool?>, default: Bool)
        /// A pair `[a, b]` (labels name its parts in messages), swept as `KEY.x` and `KEY.y`.
        case vector(WritableKeyPath<ItemPropertiesSpec, Vector?>, labels: [String], default: Vector)
    }

    let key: String
    let value: Value
    let unit: String
    let doc: String

    /// The API's properties (their defaults are the shipping engine's, not what Apple's
    /// documentation says), then the velocities, additions from zero.
    static let all: [ItemProperty] = DynamicItemBehavior.properties.map(fileKey(for:)) + [
        ItemProperty(key: "linear_velocity", value: .vector(\.linearVelocity, labels: ["vx", "vy"], default: .zero),
                     unit: "pt/s", doc: "added to each item's velocity when the behavior joins"),
        ItemProperty(key: "angular_velocity", value: .number(\.angularVelocity, .any, default: 0),
                     unit: "rad/s", doc: "added to each item's angular velocity when the behavior joins"),
    ]

    /// The file's key for one of the API's properties: its name, the values it takes (numbers),
    /// its unit and doc line; where it lives and its unset value come with the property.
    private static func fileKey(for property: DynamicItemBehavior.Property) -> ItemProperty {
        // (Flags take true or false: no rule.)
        let (key, rule, unit, doc): (String, ValueRule?, String, String) = switch property.name {
        case "elasticity": ("elasticity", .nonNegative, "", "restitution; a contact uses the larger of its two items'")
        case "friction": ("friction", .nonNegative, "", "Coulomb friction coefficient; a contact uses the geometric mean")
        case "density": ("density", .density, "", "mass per area: a 100 × 100 pt item of density 1 weighs 1 kg")
        case "resistance": ("resistance", .nonNegative, "1/s", "linear damping, v *= 1 / (1 + h · resistance) per sub-step")
        case "angularResistance": ("angular_resistance", .nonNegative, "1/s", "angular damping, the same form")
        case "allowsRotation": ("allows_rotation", nil, "", "false fixes the item's rotation")
        case "anchored": ("anchored", nil, "", "true makes the item static: it does not move, others hit it")
        case "charge": ("charge", .any, "", "what electric and magnetic fields read")
        default: preconditionFailure("the item property '\(property.name)' has no file key (ItemProperty.fileKey)")
        }
        func inSpec<T>(_ path: WritableKeyPath<DynamicItemBehavior.Settings, T>) -> WritableKeyPath<ItemPropertiesSpec, T> {
            let settings: WritableKeyPath<ItemPropertiesSpec, DynamicItemBehavior.Settings> = \.settings
            return settings.appending(path: path)
        }
        let value: Value = switch property.value {
        case let .number(path, unset): .number(inSpec(path), rule!, default: unset)
        case let .flag(path, unset): .flag(inSpec(path), default: unset)
        }
        return ItemProperty(key: key, value: value, unit: unit, doc: doc)
    }

    /// The keys of the API's settings (what a world plan's materials are made from), not the velocities.
    private static let settingKeys = Set(DynamicItemBehavior.properties.map { fileKey(for: $0).key })

    /// Whether `key` is one of the API's settings: a number a world plan sets by value.
    static func isSetting(_ key: String) -> Bool { settingKeys.contains(key) }

    /// Every key an item behavior takes in a file.
    static var keys: [String] { all.map(\.key) }

    /// The numeric keys sweeps, jitter and `--set` address, with their rules: the numbers, then each
    /// pair as `KEY.x`, `KEY.y` (the order messages list them in).
    static let numericKeys: [(key: String, rule: ValueRule)] = all.flatMap { property -> [(key: String, rule: ValueRule)] in
        if case .number(_, let rule, _) = property.value { [(property.key, rule)] } else { [] }
    } + all.flatMap { property -> [(key: String, rule: ValueRule)] in
        if case .vector = property.value { [(property.key + ".x", .any), (property.key + ".y", .any)] } else { [] }
    }

    /// The property a numeric key names, and for a pair which part (nil: not a numeric key).
    private static func find(_ key: String) -> (property: ItemProperty, vertical: Bool)? {
        for property in all {
            switch property.value {
            case .number where property.key == key: return (property, false)
            case .vector where key == property.key + ".x": return (property, false)
            case .vector where key == property.key + ".y": return (property, true)
            default: continue
            }
        }
        return nil
    }

    /// The value at a numeric key, its default where unset.
    static func read(_ key: String, of spec: ItemPropertiesSpec) -> Double {
        guard let (property, vertical) = find(key) else { preconditionFailure("'\(key)' is not a numeric item property") }
        switch property.value {
        case let .number(path, _, defaultValue): return spec[keyPath: path] ?? defaultValue
        case let .vector(path, _, defaultValue):
            let v = spec[keyPath: path] ?? defaultValue
            return vertical ? v.dy : v.dx
        case .flag: preconditionFailure("'\(key)' is not a numeric item property")
        }
    }

    /// Sets a numeric key (one part of a pair keeps the other part, its default where unset).
    static func write(_ value: Double, _ key: String, to spec: inout ItemPropertiesSpec) {
        guard let (property, vertical) = find(key) else { preconditionFailure("'\(key)' is not a numeric item property") }
        switch property.value {
        case let .number(path, _, _): spec[keyPath: path] = value
        case let .vector(path, _, defaultValue):
            var v = spec[keyPath: path] ?? defaultValue
            if vertical { v.dy = value } else { v.dx = value }
            spec[keyPath: path] = v
        case .flag: preconditionFailure("'\(key)' is not a numeric item property")
        }
    }

    /// The key as docs/format.md's table shows it.
    var behaviorKey: BehaviorKey {
        let unit = unit.isEmpty ? "—" : unit
        switch value {
        case let .number(_, rule, defaultValue): return .number(key, default: formatNumber(defaultValue), unit: unit, rule, doc)
        case let .flag(_, defaultValue): return .other(key, default: String(defaultValue), unit: unit, values: "true, false", doc)
        case let .vector(_, _, defaultValue):
            return .pair(key, default: "[\(formatNumber(defaultValue.dx)), \(formatNumber(defaultValue.dy))]", unit: unit, doc)
        }
    }
}

extension ValueRule {
    /// The values a rule accepts, as the docs write them: "[0, 1e6]", "0 or [1e-6, 1e4]".
    var intervalText: String {
        func short(_ value: Double) -> String {
            abs(value) >= 1e4 || (value != 0 && abs(value) < 1e-2)
                ? (value < 0 ? "-" : "") + "1e\(Int(log10(abs(value)).rounded()))" : formatNumber(value)
        }
        switch sign {
        case .any: return "[\(short(-limit)), \(short(limit))]" + (smallest > 0 ? ", 0 or |x| ≥ \(short(smallest))" : "")
        case .nonNegative: return smallest > 0 ? "0 or [\(short(smallest)), \(short(limit))]" : "[0, \(short(limit))]"
        case .positive: return smallest > 0 ? "[\(short(smallest)), \(short(limit))]" : "(0, \(short(limit))]"
        }
    }
}

/// `type: item` (UIDynamicItemBehavior): its items' materials, and velocities added when it joins.
enum ItemType: BehaviorType {
    static let name = "item"
    static let itemsDoc = "the items it sets"
    static var keys: [BehaviorKey] { ItemProperty.all.map(\.behaviorKey) }
    static let apiFile = "API/DynamicItemBehavior.swift"
    static let kernels = ["Core/Settings.swift", "Core/Integrate.swift", "Batch/LaneIntegrator.swift"]
    static let plansByValue = true

    static func spec(of kind: BehaviorKind) -> ItemPropertiesSpec? { if case .item(let p) = kind { p } else { nil } }

    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind {
        var spec = ItemPropertiesSpec()
        for property in ItemProperty.all {
            guard let node = fields[property.key] else { continue }
            let what = "'\(property.key)'"
            switch property.value {
            case let .number(path, rule, _): spec[keyPath: path] = try parser.reader.number(node, what, rule)
            case let .flag(path, _): spec[keyPath: path] = try parser.reader.bool(node, what)
            case let .vector(path, labels, _): spec[keyPath: path] = try parser.reader.vector(node, what, labels: labels)
            }
        }
        return .item(spec)
    }

    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)] { ItemProperty.numericKeys }

    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double {
        ItemProperty.read(key, of: spec(of: behavior.kind)!)
    }

    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind) {
        var properties = spec(of: kind)!
        ItemProperty.write(value, key, to: &properties)
        kind = .item(properties)
    }

    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior {
        let properties = spec(of: behavior.kind)!
        // Pending until the item has a body, summed per item as addLinearVelocity and
        // addAngularVelocity sum them (from zero, once per listed mention).
        var linear: [Int: Vector] = [:], angular: [Int: Double] = [:]
        for i in context.listed {
            if let v = properties.linearVelocity {
                let old = linear[i] ?? Vector(dx: 0, dy: 0)
                linear[i] = Vector(dx: old.dx + v.dx, dy: old.dy + v.dy)
            }
            if let w = properties.angularVelocity { angular[i, default: 0] += w }
        }
        let velocities = context.members.compactMap { i -> PlanInput.VelocityChange? in
            if linear[i] == nil && angular[i] == nil { return nil }
            return PlanInput.VelocityChange(item: i, linear: linear[i] ?? Vector(dx: 0, dy: 0), angular: angular[i] ?? 0)
        }
        return PlanInput.ItemProperties(items: context.members, settings: properties.settings, velocities: velocities)
    }

    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior {
        let properties = spec(of: behavior.kind)!
        let made = DynamicItemBehavior(items: items)
        made.setProperties(properties.settings)
        // Added before the behavior joins the animator: they apply when it does.
        for item in items {
            if let v = properties.linearVelocity { made.addLinearVelocity(v, for: item) }
            if let w = properties.angularVelocity { made.addAngularVelocity(w, for: item) }
        }
        return made
    }

    /// The API's settings land in the items' materials (every item behavior's overlaid, one slot
    /// for all); the velocities only a compile applies.
    static func slot(forKey key: String, behavior index: Int) -> PlanSlot? {
        ItemProperty.isSetting(key) ? .behavior(type: name, index: nil) : nil
    }

    static func setValues(at slot: PlanSlot, of world: SceneFile, template: PlanInput, into plan: inout WorldPlan,
                          gravity: inout Vector?) {
        // Each item's settings overlaid by the compile's rule, members as the template's input
        // lists them (a sweep changes no item lists), settings as this world has them.
        let itemBehaviors = template.behaviors.indices.compactMap { k -> (items: [Int], settings: DynamicItemBehavior.Settings)? in
            guard case .item(let p) = world.behaviors[k].kind else { return nil }
            return (template.behaviors[k].items, p.settings)
        }
        for (item, set) in WorldPlan.overlaidSettings(itemCount: world.items.count, itemBehaviors).enumerated() {
            if let set { plan.setSettings(ofItem: item, set) }
        }
    }
}
