import Foundation

/// A force or an impulse (UIKit's UIPushBehavior). Magnitude 1 is 1 N: on a 100×100 item of
/// density 1 (1 kg) a continuous push accelerates it at 100 pt/s²; an instantaneous one changes
/// its velocity by `magnitude × 100 / mass` pt/s.
public final class PushBehavior: ItemsBehavior {
    public enum Mode: String, Sendable {
        /// A force on every tick while active.
        case continuous
        /// One impulse on the next tick; then `active` turns itself off.
        case instantaneous
    }

    public let mode: Mode
    /// Default true. Setting an instantaneous push active again fires it again.
    public var active: Bool {
        get { active_ }
        set {
            let changed = newValue != active_
            active_ = newValue
            if changed { didChange() }
        }
    }
    private var active_ = true

    private var angle_ = 0.0
    private var magnitude_ = 0.0

    public init(items: [DynamicItem], mode: Mode) {
        self.mode = mode
        super.init(items: items)
    }

    /// Radians, clockwise from +x.
    public var angle: Double {
        get { angle_ }
        set { setAngle(newValue, magnitude: magnitude_) }
    }

    /// Negative magnitudes push the opposite way.
    public var magnitude: Double {
        get { magnitude_ }
        set { setAngle(angle_, magnitude: newValue) }
    }

    /// The force vector (magnitude × (cos angle, sin angle)); default zero.
    public var pushDirection: Vector {
        get { Self.vector(angle: angle_, magnitude: magnitude_) }
        set {
            (angle_, magnitude_) = Self.polar(newValue)
            didChange()
        }
    }

    /// The force vector of an angle and magnitude, as `pushDirection` reads it.
    public static func vector(angle: Double, magnitude: Double) -> Vector {
        Vector(dx: cos(angle) * magnitude, dy: sin(angle) * magnitude)
    }

    /// Angle and magnitude of a force vector, as `pushDirection` stores it (so a vector set
    /// reads back through cos and sin, not necessarily to the same bits).
    public static func polar(_ v: Vector) -> (angle: Double, magnitude: Double) {
        let magnitude = hypot(v.dx, v.dy)
        return (magnitude == 0 ? 0 : atan2(v.dy, v.dx), magnitude)
    }

    public func setAngle(_ angle: Double, magnitude: Double) {
        angle_ = angle
        magnitude_ = magnitude
        didChange()
    }

    private var offsets: [ObjectIdentifier: Offset] = [:]

    /// Where on the item the push acts, relative to its centre in the item's own frame; an
    /// off-centre push also spins the item.
    public func setTargetOffsetFromCenter(_ offset: Offset, for item: DynamicItem) {
        offsets[ObjectIdentifier(item)] = offset
        didChange()
    }

    public func targetOffsetFromCenter(for item: DynamicItem) -> Offset {
        offsets[ObjectIdentifier(item)] ?? .zero
    }

    /// Turns an instantaneous push off after it fired, without waking the world.
    func didFire() {
        if mode == .instantaneous { active_ = false }
    }

    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        PlanInput.Push(items: context.indices(items), mode: mode, direction: pushDirection,
                       offsets: items.map(targetOffsetFromCenter(for:)), active: active)
    }
}

extension PlanInput {
    /// A push: `direction` as `PushBehavior.pushDirection` reads it; `offsets` parallel to `items`.
    public struct Push: PlanBehavior, Equatable {
        public var items: [Int]
        public var mode: PushBehavior.Mode
        public var direction: Vector
        public var offsets: [Offset]
        public var active: Bool
        public init(items: [Int], mode: PushBehavior.Mode, direction: Vector, offsets: [Offset], active: Bool) {
            self.items = items; self.mode = mode; self.direction = direction; self.offsets = offsets; self.active = active
        }

        public var drive: PlanItemDrive { .driven }

        /// The push on its items' bodies, each at its offset (metres in the body's frame).
        public func compile(into plan: inout PlanCompilation, index: Int) {
            let targets = zip(items, offsets).map { item, offset in
                WorldPlan.Push.Target(body: plan.body(ofItem: item), localPoint: WorldPlan.metres(offset))
            }
            plan.pushes.append(WorldPlan.Push(behavior: index, mode: mode, vector: WorldPlan.pushVector(direction), active: active,
                                              targets: targets))
        }
    }
}
