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

    func planSnap(indexOf index: (DynamicItem) -> Int) -> PlanInput.Snap {
        PlanInput.Snap(item: index(item), point: snapPoint_, damping: damping_)
    }
}
