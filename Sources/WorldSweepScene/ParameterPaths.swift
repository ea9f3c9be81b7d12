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
    /// Keys naming a pair of numbers, for jitter given as `[a, b]` (e.g. `top.center: [2, 2]`).
    /// An item's, and each behavior type's pairs as its declaration names their parts.
    static let vectorKeys: [String: (String, String)] = {
        var keys = ["center": ("center.x", "center.y"), "size": ("size.width", "size.height")]
        for type in BehaviorTypes.all {
            for key in type.keys where key.parts.count == 2 { keys[key.key] = ("\(key.key).\(key.parts[0])", "\(key.key).\(key.parts[1])") }
        }
        return keys
    }()

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
        behavior.kind.type.numericKeys(of: behavior)
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
            return behaviors[index].kind.type.value(parameter.key, of: behaviors[index], in: self)
        case .measure(let index):
            return measures[index].value(of: parameter.key)
        }
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
            behaviors[index].kind.type.set(value, parameter.key, of: &behaviors[index].kind)
            if checkRelations { try self.checkRelations(ofBehavior: index, path: path) }
        case .measure(let index):
            measures[index].set(parameter.key, value)
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
