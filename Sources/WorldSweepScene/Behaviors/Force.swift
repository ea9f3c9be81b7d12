import WorldSweep

// A force given by angle and magnitude or by a vector: gravity's and push's shared keys, how they
// parse, read and are set.

/// A force direction given either as a vector or as angle and/or magnitude (never both ways);
/// unset parts take the behavior's defaults. Kept as written so the animator gets exactly the
/// numbers in the file, not a round trip through cos/sin.
public struct DirectionSpec: Sendable, Hashable {
    public var angle: Double?
    public var magnitude: Double?
    public var direction: Vector?

    public init(angle: Double? = nil, magnitude: Double? = nil, direction: Vector? = nil) {
        self.angle = angle
        self.magnitude = magnitude
        self.direction = direction
    }

    public var isDefault: Bool { angle == nil && magnitude == nil && direction == nil }

    func effectiveAngle(default defaultAngle: Double) -> Double {
        if let direction { return direction.dx == 0 && direction.dy == 0 ? 0 : atan2(direction.dy, direction.dx) }
        return angle ?? defaultAngle
    }

    public func effectiveMagnitude(default defaultMagnitude: Double) -> Double {
        if let direction { return (direction.dx * direction.dx + direction.dy * direction.dy).squareRoot() }
        return magnitude ?? defaultMagnitude
    }

    func effectiveDirection(defaultAngle: Double, defaultMagnitude: Double) -> Vector {
        if let direction { return direction }
        let a = angle ?? defaultAngle, m = magnitude ?? defaultMagnitude
        return Vector(dx: m * cos(a), dy: m * sin(a))
    }
}

/// The numeric keys of a force, and how they read and write a `DirectionSpec`.
enum ForceKeys {
    static let numeric: [(key: String, rule: ValueRule)] = [
        ("magnitude", .any), ("angle", .any), ("direction.x", .any), ("direction.y", .any),
    ]

    static func read(_ key: String, of force: DirectionSpec, _ defaultAngle: Double, _ defaultMagnitude: Double) -> Double {
        switch key {
        case "magnitude": return force.effectiveMagnitude(default: defaultMagnitude)
        case "angle": return force.effectiveAngle(default: defaultAngle)
        case "direction.x": return force.effectiveDirection(defaultAngle: defaultAngle, defaultMagnitude: defaultMagnitude).dx
        default: return force.effectiveDirection(defaultAngle: defaultAngle, defaultMagnitude: defaultMagnitude).dy
        }
    }

    /// Setting angle or magnitude of a force given as a vector (or the reverse) converts it to the
    /// other form first, keeping the part not being set.
    static func write(_ value: Double, _ key: String, to force: inout DirectionSpec, _ defaultAngle: Double,
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

extension SceneParser {
    /// `angle`/`magnitude`, or `direction: [x, y]`, for gravity and push.
    func parseDirection(_ fields: CheckedMapping) throws(SceneError) -> DirectionSpec {
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
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
