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
    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        PlanInput.Attachment(kind: kind, items: context.indices(items), offsets: offsets, anchor: anchor_, axis: axisOfTranslation,
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

extension PlanInput {
    /// An attachment as values (AttachmentBehavior's, or a scene file's). Structure — what worlds
    /// of one sweep must share — is `kind` and `items`; every other field is a number that may
    /// differ from world to world.
    public struct Attachment: PlanBehavior, Equatable {
        public var kind: AttachmentBehavior.Kind
        /// One item (attached to `anchor`) or two (attached to each other).
        public var items: [Int]
        /// Parallel to `items`: each attachment point from its item's centre, in the item's own
        /// frame (points). Pin, sliding and fixed attachments between two items join them at
        /// `anchor` instead and ignore these.
        public var offsets: [Offset]
        /// One item: the anchor point in the reference bounds. Two items, pin / sliding / fixed:
        /// the attachment anchor (points), where the joint is made.
        public var anchor: Point
        /// Sliding only: the axis of translation (need not be unit length).
        public var axis: Vector
        /// Distance: the rest length; limit: the maximum length (points).
        public var length: Double
        /// Whether `length` was set rather than measured (the anchor-under-1-pt rule applies only
        /// to a measured length).
        public var lengthIsSet: Bool
        /// Damping ratio of a spring (distance with frequency > 0, fixed with frequency > 0).
        public var damping: Double
        /// Hz; 0 is rigid.
        public var frequency: Double
        /// Pin: angle limits (rad); sliding: translation limits (points); infinite: none.
        public var range: FloatRange
        /// Pin: the friction torque (N·m), a motor of speed 0 with this maximum torque; sliding:
        /// the friction force (N), a motor of speed 0 with this maximum force.
        public var frictionTorque: Double

        public init(kind: AttachmentBehavior.Kind, items: [Int], offsets: [Offset], anchor: Point, axis: Vector = .zero,
                    length: Double, lengthIsSet: Bool = false, damping: Double = 0, frequency: Double = 0,
                    range: FloatRange = .infinite, frictionTorque: Double = 0) {
            self.kind = kind; self.items = items; self.offsets = offsets; self.anchor = anchor; self.axis = axis
            self.length = length; self.lengthIsSet = lengthIsSet; self.damping = damping; self.frequency = frequency
            self.range = range; self.frictionTorque = frictionTorque
        }

        /// The distance between the attachment points of `items` placed as given (the length an
        /// attachment measures when made): item ↔ anchor, or item ↔ item.
        public static func measuredLength(items: [Item], offsets: [Offset], anchor: Point) -> Double {
            let points = zip(items, offsets).map { AttachmentBehavior.attachmentPoint(center: $0.center, angle: $0.angle, offset: $1) }
            let other = points.count > 1 ? points[1] : anchor
            return hypot(points[0].x - other.x, points[0].y - other.y)
        }

        /// One Box2D joint between its items, or its item and a static ground body at the anchor.
        public func compile(into plan: inout PlanCompilation, index: Int) {
            let bodies = items.map(plan.body(ofItem:))
            var d = JointDefinition()
            let onAnchor = bodies.count == 1
            let (bodyA, bodyB) = onAnchor ? (plan.ground(at: anchor, behavior: index), bodies[0]) : (bodies[0], bodies[1])
            d.referenceAngle = plan.bodies[bodyB].angle - plan.bodies[bodyA].angle
            var joint: JointKind
            switch kind {
            case .distance:
                // A short anchor attachment, never given a length or a spring, is a pin (UIKit).
                if onAnchor && length < 1 && frequency == 0 && !lengthIsSet {
                    joint = .revolute
                    d.localAnchorB = plan.local(anchor, bodyB)
                } else {
                    joint = .distance
                    d.localAnchorA = onAnchor ? .zero : WorldPlan.metres(offsets[0])
                    d.localAnchorB = WorldPlan.metres(offsets[onAnchor ? 0 : 1])
                    d.length = Float(length) / EngineSettings.pointsPerMetre
                    d.frequency = Float(frequency); d.dampingRatio = Float(damping)
                }
            case .limit:
                joint = .rope
                d.localAnchorA = onAnchor ? .zero : WorldPlan.metres(offsets[0])
                d.localAnchorB = WorldPlan.metres(offsets[onAnchor ? 0 : 1])
                d.length = Float(length) / EngineSettings.pointsPerMetre
            case .pin, .fixed, .sliding:
                joint = kind == .pin ? .revolute : kind == .fixed ? .weld : .prismatic
                d.localAnchorA = onAnchor ? .zero : plan.local(anchor, bodyA)
                d.localAnchorB = plan.local(anchor, bodyB)
                if kind == .fixed { d.frequency = Float(frequency); d.dampingRatio = Float(damping) }
                if kind == .sliding {
                    let axisA = Rot(plan.bodies[bodyA].angle).applyInverse(Vec2(Float(axis.dx), Float(axis.dy)))
                    d.localAxisA = axisA.normalized
                }
            }
            if joint == .revolute || joint == .prismatic {
                // Pin: radians; sliding: points along the axis.
                let scale: Float = joint == .revolute ? 1 : EngineSettings.pointsPerMetre
                d.enableLimit = !range.isInfinite
                d.lower = Float(range.minimum) / scale; d.upper = Float(range.maximum) / scale
                d.enableMotor = frictionTorque > 0
                d.maxMotor = Float(frictionTorque)
            }
            plan.joints.append(JointPlan(kind: joint, bodyA: bodyA, bodyB: bodyB, collideConnected: joint == .distance && !onAnchor,
                                         behavior: index, part: 0, definition: d))
        }
    }
}
