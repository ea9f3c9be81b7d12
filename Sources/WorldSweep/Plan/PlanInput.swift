import Foundation

// What an animator's behaviors ask of the world, written down as plain values. Both the
// animator (from its behavior objects) and a scene file (from its specs, with no objects at all)
// describe themselves this way, and `WorldPlan(compiling:)` turns either into the one plan the
// engines run from: the translation from behaviors to bodies, materials and pairs exists once.

/// Items and behaviors as values, in the animator's order (behaviors flattened depth first).
public struct PlanInput: Sendable, Equatable {
    /// An item: where the file (or the app) put it and the outline it collides with.
    public struct Item: Sendable, Equatable {
        public var center: Point
        public var size: Size
        public var angle: Double
        public var boundsType: DynamicItemCollisionBoundsType
        /// The convex outline about the centre, for `.path`.
        public var path: [Point]

        public init(center: Point, size: Size, angle: Double, boundsType: DynamicItemCollisionBoundsType, path: [Point]) {
            self.center = center; self.size = size; self.angle = angle; self.boundsType = boundsType; self.path = path
        }

        init(_ item: DynamicItem) {
            self.init(center: item.center, size: item.size, angle: item.angle, boundsType: item.collisionBoundsType,
                      path: item.collisionBoundsType == .path ? item.collisionBoundingPath : [])
        }
    }

    /// One boundary segment of a collision behavior (identifier nil: the reference bounds).
    public struct Segment: Sendable, Equatable {
        public var identifier: String?
        public var from: Point
        public var to: Point
        public init(identifier: String?, from: Point, to: Point) { self.identifier = identifier; self.from = from; self.to = to }
    }

    /// A velocity an item behavior adds to an item when it gets its body (pt/s, rad/s).
    public struct VelocityChange: Sendable, Equatable {
        public var item: Int
        public var linear: Vector
        public var angular: Double
        public init(item: Int, linear: Vector, angular: Double) { self.item = item; self.linear = linear; self.angular = angular }
    }

    /// A field behavior's kind, numbers and region (position in points, the rest in SI units).
    public struct Field: Sendable, Equatable {
        public var kind: FieldBehavior.Kind
        public var items: [Int]
        public var position: Point
        public var region: Region
        public var strength: Double
        public var falloff: Double
        public var minimumRadius: Double
        public var direction: Vector
        public var smoothness: Double
        public var animationSpeed: Double
        public var evaluator: FieldEvaluator?

        public init(kind: FieldBehavior.Kind, items: [Int], position: Point = Point(x: 0, y: 0), region: Region = .infinite,
                    strength: Double = 1, falloff: Double? = nil, minimumRadius: Double = FieldBehavior.defaultMinimumRadius,
                    direction: Vector = Vector(dx: 0, dy: 0), smoothness: Double = 0, animationSpeed: Double = 0,
                    evaluator: FieldEvaluator? = nil) {
            self.kind = kind; self.items = items; self.position = position; self.region = region; self.strength = strength
            self.falloff = falloff ?? kind.defaultFalloff; self.minimumRadius = minimumRadius; self.direction = direction
            self.smoothness = smoothness; self.animationSpeed = animationSpeed; self.evaluator = evaluator
        }
    }

    /// A behavior; `items` are indices into `PlanInput.items`, in the behavior's order.
    public enum Behavior: Sendable, Equatable {
        case gravity(items: [Int])
        case collision(items: [Int], mode: CollisionMode, segments: [Segment])
        case item(items: [Int], settings: DynamicItemBehavior.Settings, velocities: [VelocityChange])
        /// `direction` as `PushBehavior.pushDirection` reads it; `offsets` parallel to `items`.
        case push(items: [Int], mode: PushBehavior.Mode, direction: Vector, offsets: [Offset], active: Bool)
        /// An attachment (one Box2D joint between its items, or its item and a static anchor).
        case attachment(Attachment)
        /// A snap (a static anchor at the snap point and four corner springs to the item).
        case snap(Snap)
        /// A behavior that asks nothing of the world beyond bodies for its items, if it has any
        /// (a plain `DynamicBehavior` with an action, a custom `ItemsBehavior`).
        case other(items: [Int])
        case field(Field)

        public var items: [Int] {
            switch self {
            case .gravity(let items), .collision(let items, _, _), .item(let items, _, _), .push(let items, _, _, _, _),
                 .other(let items): items
            case .field(let field): field.items
            case .attachment(let attachment): attachment.items
            case .snap(let snap): [snap.item]
            }
        }
    }

    /// An attachment as values (AttachmentBehavior's, or a scene file's). Structure — what worlds
    /// of one sweep must share — is `kind` and `items`; every other field is a number that may
    /// differ from world to world.
    public struct Attachment: Sendable, Equatable {
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
    }

    /// A snap as values (SnapBehavior's, or a scene file's): structure is `item`; the point and
    /// damping may differ from world to world.
    public struct Snap: Sendable, Equatable {
        public var item: Int
        public var point: Point
        public var damping: Double
        public init(item: Int, point: Point, damping: Double = SnapBehavior.defaultDamping) {
            self.item = item; self.point = point; self.damping = damping
        }
    }

    public var referenceBounds: Size
    public var items: [Item]
    public var behaviors: [Behavior]
    /// The gravity vector the world uses (the gravity behavior added or changed last); nil: none.
    public var gravity: Vector?

    public init(referenceBounds: Size, items: [Item], behaviors: [Behavior], gravity: Vector?) {
        self.referenceBounds = referenceBounds; self.items = items; self.behaviors = behaviors; self.gravity = gravity
    }

    /// How many field behaviors there are (at most `FieldBehavior.maximumCount` act).
    public var fieldCount: Int { behaviors.count { if case .field = $0 { true } else { false } } }
}
