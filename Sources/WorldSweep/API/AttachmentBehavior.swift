import Foundation

/// An attachment between an item and an anchor point, or between two items (UIKit's
/// UIAttachmentBehavior). Each is one Box2D 2.3 joint: distance (a rod, or a spring when
/// `frequency` > 0), pin (revolute), sliding (prismatic), fixed (weld) or limit (rope). Points
/// and offsets in the reference bounds' coordinates (y down); offsets in the item's own frame.
public final class AttachmentBehavior: DynamicBehavior {
    /// Which Box2D joint the attachment is (UIKit decides it by the initializer or factory used).
    public enum Kind: String, Sendable, CaseIterable {
        /// `init`: a distance joint — a rigid rod, or a spring when `frequency` > 0.
        case distance
        /// `pinAttachment`: a revolute joint at the anchor.
        case pin
        /// `slidingAttachment`: a prismatic joint along the axis of translation.
        case sliding
        /// `fixedAttachment`: a weld joint.
        case fixed
        /// `limitAttachment`: a rope joint (the distance may shrink, never grow past `length`).
        case limit
    }

    /// What the attachment holds on to (UIKit's UIAttachmentBehavior.AttachmentType).
    public enum AttachmentType: Sendable {
        case items
        case anchor
    }

    public let kind: Kind
    public let items: [DynamicItem]
    public var attachedBehaviorType: AttachmentType { items.count == 1 ? .anchor : .items }
    /// Offsets of the attachment points from the items' centres, parallel to `items`.
    let offsets: [Offset]
    /// Sliding only: the axis of translation.
    public let axisOfTranslation: Vector

    private var anchor_: Point
    private var length_: Double
    private var lengthIsSet = false
    private var damping_ = 0.0
    private var frequency_ = 0.0
    private var range_ = FloatRange.infinite
    private var frictionTorque_ = 0.0

    private init(kind: Kind, items: [DynamicItem], offsets: [Offset], anchor: Point, axis: Vector = .zero) {
        self.kind = kind
        self.items = items
        self.offsets = offsets
        self.anchor_ = anchor
        self.axisOfTranslation = axis
        // UIKit measures the length when the attachment is made, from where the items are now.
        self.length_ = PlanInput.Attachment.measuredLength(items: items.map(PlanInput.Item.init), offsets: offsets, anchor: anchor)
        super.init()
    }

    /// An item attached by its centre to an anchor point: a distance joint (a rod of the current
    /// distance; a pin when that is under 1 pt and neither length nor frequency is ever set).
    public convenience init(item: DynamicItem, attachedToAnchor anchor: Point) {
        self.init(item: item, offsetFromCenter: .zero, attachedToAnchor: anchor)
    }

    public convenience init(item: DynamicItem, offsetFromCenter offset: Offset, attachedToAnchor anchor: Point) {
        self.init(kind: .distance, items: [item], offsets: [offset], anchor: anchor)
    }

    /// Two items attached by their centres: a distance joint; the two may collide.
    public convenience init(item: DynamicItem, attachedTo other: DynamicItem) {
        self.init(item: item, offsetFromCenter: .zero, attachedTo: other, offsetFromCenter: .zero)
    }

    public convenience init(item: DynamicItem, offsetFromCenter offset: Offset, attachedTo other: DynamicItem,
                            offsetFromCenter otherOffset: Offset) {
        self.init(kind: .distance, items: [item, other], offsets: [offset, otherOffset], anchor: .zero)
    }

    /// Two items pinned together at a point (a revolute joint): they turn about it freely, within
    /// `attachmentRange` (radians of relative angle), against `frictionTorque`.
    public static func pinAttachment(with item: DynamicItem, attachedTo other: DynamicItem,
                                     attachmentAnchor anchor: Point) -> AttachmentBehavior {
        AttachmentBehavior(kind: .pin, items: [item, other], offsets: [.zero, .zero], anchor: anchor)
    }

    /// Two items that slide along an axis relative to each other (a prismatic joint), within
    /// `attachmentRange` (points along the axis from where they are now).
    public static func slidingAttachment(with item: DynamicItem, attachedTo other: DynamicItem, attachmentAnchor anchor: Point,
                                         axisOfTranslation axis: Vector) -> AttachmentBehavior {
        AttachmentBehavior(kind: .sliding, items: [item, other], offsets: [.zero, .zero], anchor: anchor, axis: axis)
    }

    /// An item that slides along an axis through an anchor point (a prismatic joint to the anchor).
    public static func slidingAttachment(with item: DynamicItem, attachmentAnchor anchor: Point,
                                         axisOfTranslation axis: Vector) -> AttachmentBehavior {
        AttachmentBehavior(kind: .sliding, items: [item], offsets: [.zero], anchor: anchor, axis: axis)
    }

    /// Two items welded together at a point (a weld joint).
    public static func fixedAttachment(with item: DynamicItem, attachedTo other: DynamicItem,
                                       attachmentAnchor anchor: Point) -> AttachmentBehavior {
        AttachmentBehavior(kind: .fixed, items: [item, other], offsets: [.zero, .zero], anchor: anchor)
    }

    /// Two items on a rope (a rope joint) as long as the distance between the points now.
    public static func limitAttachment(with item: DynamicItem, offsetFromCenter offset: Offset, attachedTo other: DynamicItem,
                                       offsetFromCenter otherOffset: Offset) -> AttachmentBehavior {
        AttachmentBehavior(kind: .limit, items: [item, other], offsets: [offset, otherOffset], anchor: .zero)
    }

    /// The anchor point (anchor attachments; for pin, sliding and fixed attachments of two items,
    /// the attachment anchor they were made at). Setting it moves the anchor and wakes the item.
    public var anchorPoint: Point {
        get { anchor_ }
        set {
            guard attachedBehaviorType == .anchor else { return }
            anchor_ = newValue
            didChange()
        }
    }

    /// Distance: the rest length; limit: the maximum length (points). Defaults to the distance
    /// between the attachment points when the attachment was made.
    public var length: Double {
        get { length_ }
        set { length_ = newValue; lengthIsSet = true; didChange() }
    }

    /// The spring's damping ratio (0: none, 1: critical); default 0.
    public var damping: Double {
        get { damping_ }
        set { damping_ = newValue; didChange() }
    }

    /// The spring's frequency in Hz; default 0: rigid.
    public var frequency: Double {
        get { frequency_ }
        set { frequency_ = newValue; didChange() }
    }

    /// Pin: limits of the relative angle (radians); sliding: limits of the translation (points),
    /// which must hold minimum ≤ 0 ≤ maximum, else the range resets to infinite. Default infinite.
    public var attachmentRange: FloatRange {
        get { range_ }
        set {
            range_ = kind == .sliding && !(newValue.minimum <= 0 && 0 <= newValue.maximum) ? .infinite : newValue
            didChange()
        }
    }

    /// Pin: the torque (N·m) it takes to turn the joint; sliding: the force (N) it takes to slide
    /// it. Default 0.
    public var frictionTorque: Double {
        get { frictionTorque_ }
        set { frictionTorque_ = newValue; didChange() }
    }

    override var worldItems: [DynamicItem] { items }

    /// The attachment as plain values, with its items as indices.
    func planAttachment(indexOf index: (DynamicItem) -> Int) -> PlanInput.Attachment {
        PlanInput.Attachment(kind: kind, items: items.map(index), offsets: offsets, anchor: anchor_, axis: axisOfTranslation,
                             length: length_, lengthIsSet: lengthIsSet, damping: damping_, frequency: frequency_,
                             range: range_, frictionTorque: frictionTorque_)
    }

    /// Where an offset from an item's centre lies in the reference bounds (the offset turns with
    /// the item).
    static func attachmentPoint(center: Point, angle: Double, offset: Offset) -> Point {
        let c = cos(angle), s = sin(angle)
        return Point(x: center.x + c * offset.horizontal - s * offset.vertical,
                     y: center.y + s * offset.horizontal + c * offset.vertical)
    }
}
