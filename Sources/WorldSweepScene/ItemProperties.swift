import Foundation
import WorldSweep

/// One key of an item behavior (`type: item`, UIDynamicItemBehavior): its file key, where it
/// lives in `ItemPropertiesSpec`, the value it reads as when unset, its unit, the values it takes
/// and one line for the docs. `ItemProperty.all` is the one list of them: the parser reads a
/// behavior's keys from it, sweep paths and `--set` their numeric keys and unset values, and
/// docs/format.md's key table is checked against it (`FormatDocTests`).
struct ItemProperty: Sendable {
    enum Value: Sendable {
        /// A number checked against its rule; unset, it reads as `default`.
        case number(WritableKeyPath<ItemPropertiesSpec, Double?> & Sendable, ValueRule, default: Double)
        case flag(WritableKeyPath<ItemPropertiesSpec, Bool?> & Sendable, default: Bool)
        /// A pair `[a, b]` (labels name its parts in messages), swept as `KEY.x` and `KEY.y`.
        case vector(WritableKeyPath<ItemPropertiesSpec, Vector?> & Sendable, labels: [String], default: Vector)
    }

    let key: String
    let value: Value
    let unit: String
    let doc: String

    /// The engine's defaults are the API's (`DynamicItemBehavior.Defaults`: what the shipping
    /// engine uses, not what Apple's documentation says); the velocities are additions, from zero.
    static let all: [ItemProperty] = [
        ItemProperty(key: "elasticity", value: .number(\.settings.elasticity, .nonNegative, default: DynamicItemBehavior.Defaults.elasticity),
                     unit: "", doc: "restitution; a contact uses the larger of its two items'"),
        ItemProperty(key: "friction", value: .number(\.settings.friction, .nonNegative, default: DynamicItemBehavior.Defaults.friction),
                     unit: "", doc: "Coulomb friction coefficient; a contact uses the geometric mean"),
        ItemProperty(key: "density", value: .number(\.settings.density, .density, default: DynamicItemBehavior.Defaults.density),
                     unit: "", doc: "mass per area: a 100 × 100 pt item of density 1 weighs 1 kg"),
        ItemProperty(key: "resistance", value: .number(\.settings.resistance, .nonNegative, default: DynamicItemBehavior.Defaults.resistance),
                     unit: "1/s", doc: "linear damping, v *= 1 / (1 + h · resistance) per sub-step"),
        ItemProperty(key: "angular_resistance",
                     value: .number(\.settings.angularResistance, .nonNegative, default: DynamicItemBehavior.Defaults.angularResistance),
                     unit: "1/s", doc: "angular damping, the same form"),
        ItemProperty(key: "allows_rotation", value: .flag(\.settings.allowsRotation, default: DynamicItemBehavior.Defaults.allowsRotation),
                     unit: "", doc: "false fixes the item's rotation"),
        ItemProperty(key: "anchored", value: .flag(\.settings.anchored, default: DynamicItemBehavior.Defaults.anchored),
                     unit: "", doc: "true makes the item static: it does not move, others hit it"),
        ItemProperty(key: "charge", value: .number(\.settings.charge, .any, default: DynamicItemBehavior.Defaults.charge),
                     unit: "", doc: "what electric and magnetic fields read"),
        ItemProperty(key: "linear_velocity", value: .vector(\.linearVelocity, labels: ["vx", "vy"], default: .zero),
                     unit: "pt/s", doc: "added to each item's velocity when the behavior joins"),
        ItemProperty(key: "angular_velocity", value: .number(\.angularVelocity, .any, default: 0),
                     unit: "rad/s", doc: "added to each item's angular velocity when the behavior joins"),
    ]

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

    /// The table row docs/format.md shows for this key: key, default, unit, values, meaning.
    var documentationRow: String {
        let (defaultText, values): (String, String) = switch value {
        case let .number(_, rule, defaultValue): (formatNumber(defaultValue), rule.intervalText)
        case let .flag(_, defaultValue): (String(defaultValue), "true, false")
        case let .vector(_, _, defaultValue):
            ("[\(formatNumber(defaultValue.dx)), \(formatNumber(defaultValue.dy))]", "[x, y], each " + ValueRule.any.intervalText)
        }
        return "| `\(key)` | \(defaultText) | \(unit.isEmpty ? "—" : unit) | \(values) | \(doc) |"
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
