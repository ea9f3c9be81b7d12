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
        /// A behavior that asks nothing of the world beyond bodies for its items, if it has any
        /// (a plain `DynamicBehavior` with an action, a custom `ItemsBehavior`).
        case other(items: [Int])
        case field(Field)

        public var items: [Int] {
            switch self {
            case .gravity(let items), .collision(let items, _, _), .item(let items, _, _), .push(let items, _, _, _, _),
                 .other(let items): items
            case .field(let field): field.items
            }
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
