import Foundation

/// Gravity (UIKit's UIGravityBehavior). Gravity is world-wide: the behavior added or changed last
/// sets the one gravity vector; removing any gravity behavior sets gravity to zero. Per item it is
/// only on or off (items of any gravity behavior fall).
public final class GravityBehavior: ItemsBehavior {
    /// Direction and strength; (0, 1) is 1000 pt/s² downward.
    public var gravityDirection = Vector(dx: 0, dy: 1) {
        didSet {
            guard !updatingFromPolar else { return }
            magnitude_ = hypot(gravityDirection.dx, gravityDirection.dy)
            angle_ = magnitude_ == 0 ? 0 : atan2(gravityDirection.dy, gravityDirection.dx)
            gravityChanged()
        }
    }
    private var angle_ = Double.pi / 2
    private var magnitude_ = 1.0

    /// Radians, clockwise from +x. Default π/2 (down).
    public var angle: Double {
        get { angle_ }
        set { setAngle(newValue, magnitude: magnitude_) }
    }

    /// 1.0 = 1000 pt/s². Default 1.
    public var magnitude: Double {
        get { magnitude_ }
        set { setAngle(angle_, magnitude: newValue) }
    }

    public func setAngle(_ angle: Double, magnitude: Double) {
        // Set the vector without its observer recomputing angle and magnitude from it.
        angle_ = angle
        magnitude_ = magnitude
        updatingFromPolar = true
        gravityDirection = Self.direction(angle: angle, magnitude: magnitude)
        updatingFromPolar = false
        gravityChanged()
    }

    /// The gravity vector of an angle and magnitude (the rule scene plans use too).
    public static func direction(angle: Double, magnitude: Double) -> Vector {
        Vector(dx: cos(angle) * magnitude, dy: sin(angle) * magnitude)
    }
    private var updatingFromPolar = false

    private func gravityChanged() {
        dynamicAnimator?.gravityBehaviorDidSet(self)
    }

    override func didAttach(from old: DynamicAnimator?) {
        old?.gravityBehaviorWasRemoved()
        dynamicAnimator?.gravityBehaviorDidSet(self)
    }

    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior { PlanInput.Gravity(items: context.indices(items)) }
}

extension PlanInput {
    /// A gravity behavior: its items fall under the world's one gravity vector (`PlanInput.gravity`).
    public struct Gravity: PlanBehavior, Equatable {
        public var items: [Int]
        public init(items: [Int]) { self.items = items }
        public var drive: PlanItemDrive { .falls }
    }
}
