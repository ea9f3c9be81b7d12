/// Pulls an item to a point and turns it back to angle 0 with a damped overshoot (UIKit's
/// UISnapBehavior): a static anchor at the snap point and four distance joints (4 Hz springs of
/// rest length 50 pt, damping ratio `damping`) from the item's corners (−w/2, −h/2) and
/// (+w/2, +h/2) to points 50 pt beyond the anchor's matching corners along −x, −y, +x and +y.
public final class SnapBehavior: DynamicBehavior {
    public static let defaultDamping = 0.5
    /// The corner springs' frequency (Hz) and rest length (points).
    static let springFrequency = 4.0
    static let springLength = 50.0

    public let item: DynamicItem
    private var snapPoint_: Point
    private var damping_ = SnapBehavior.defaultDamping

    public init(item: DynamicItem, snapTo point: Point) {
        self.item = item
        self.snapPoint_ = point
        super.init()
    }

    /// Where the item is pulled to; setting it moves the anchor and wakes the item.
    public var snapPoint: Point {
        get { snapPoint_ }
        set { snapPoint_ = newValue; didChange() }
    }

    /// 0: the most oscillation, 1: the least; default 0.5.
    public var damping: Double {
        get { damping_ }
        set { damping_ = newValue; didChange() }
    }

    override var worldItems: [DynamicItem] { [item] }

    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        PlanInput.Snap(item: context.index(item), point: snapPoint_, damping: damping_)
    }
}

extension PlanInput {
    /// A snap as values (SnapBehavior's, or a scene file's): structure is `item`; the point and
    /// damping may differ from world to world.
    public struct Snap: PlanBehavior, Equatable {
        public var item: Int
        public var point: Point
        public var damping: Double
        public init(item: Int, point: Point, damping: Double = SnapBehavior.defaultDamping) {
            self.item = item; self.point = point; self.damping = damping
        }

        public var items: [Int] { [item] }

        /// A static anchor at the snap point and four corner springs to the item: corner
        /// (−w/2, −h/2) pulled along −x and −y, corner (+w/2, +h/2) along +x and +y.
        public func compile(into plan: inout PlanCompilation, index: Int) {
            let body = plan.body(ofItem: item)
            let anchor = plan.ground(at: point, behavior: index)
            let size = plan.input.items[item].size
            let hw = Float(size.width) / 2, hh = Float(size.height) / 2, reach = Float(SnapBehavior.springLength)
            let corners: [(corner: Vec2, beyond: Vec2)] = [
                (Vec2(-hw, -hh), Vec2(-hw - reach, -hh)), (Vec2(-hw, -hh), Vec2(-hw, -hh - reach)),
                (Vec2(hw, hh), Vec2(hw + reach, hh)), (Vec2(hw, hh), Vec2(hw, hh + reach)),
            ]
            for (part, c) in corners.enumerated() {
                var d = JointDefinition()
                d.localAnchorA = c.beyond.dividedBy(EngineSettings.pointsPerMetre)
                d.localAnchorB = c.corner.dividedBy(EngineSettings.pointsPerMetre)
                d.length = reach / EngineSettings.pointsPerMetre
                d.frequency = Float(SnapBehavior.springFrequency)
                d.dampingRatio = Float(damping)
                plan.joints.append(JointPlan(kind: .distance, bodyA: anchor, bodyB: body, collideConnected: false,
                                             behavior: index, part: part, definition: d))
            }
        }
    }
}
