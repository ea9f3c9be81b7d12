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

    /// A behavior: each type's plan value, declared beside its API behavior (`PlanBehavior`).
    public typealias Behavior = any PlanBehavior

    public var referenceBounds: Size
    public var items: [Item]
    public var behaviors: [Behavior]
    /// The gravity vector the world uses (the gravity behavior added or changed last); nil: none.
    public var gravity: Vector?

    public init(referenceBounds: Size, items: [Item], behaviors: [Behavior], gravity: Vector?) {
        self.referenceBounds = referenceBounds; self.items = items; self.behaviors = behaviors; self.gravity = gravity
    }

    public static func == (a: PlanInput, b: PlanInput) -> Bool {
        a.referenceBounds == b.referenceBounds && a.items == b.items && a.gravity == b.gravity
            && a.behaviors.count == b.behaviors.count && zip(a.behaviors, b.behaviors).allSatisfy { $0.isEqual(to: $1) }
    }
}
