// A behavior as the plan sees it. Each behavior type's plan value (a struct nested in
// `PlanInput`) is declared beside its API behavior and says for itself what it asks of
// the world: its items, whether they fall or are driven, and what it adds to the plan once the
// items' bodies and the boundaries exist (joints with their anchors, pushes, fields). The compile
// and the animator go through this protocol only, so a new behavior type edits no switch here.
// Item properties and collisions are the plan's core (materials, the collision rule) and the
// compile reads them by type.

/// How a behavior moves its items: `falls` under the world's gravity, `driven` by a force of its
/// own (such items use time of impact against boundaries).
public enum PlanItemDrive: Sendable, Equatable {
    case none, falls, driven
}

/// One behavior of a `PlanInput`; `items` are indices into `PlanInput.items`, in its order.
public protocol PlanBehavior: Sendable {
    var items: [Int] { get }
    var drive: PlanItemDrive { get }
    /// Adds what it asks of the world to `plan`; `index` is its place among the input's behaviors.
    /// Called in behavior order, after the items' bodies and the boundary edges.
    func compile(into plan: inout PlanCompilation, index: Int)
    func isEqual(to other: any PlanBehavior) -> Bool
}

extension PlanBehavior {
    public var drive: PlanItemDrive { .none }
    public func compile(into plan: inout PlanCompilation, index: Int) {}
}

extension PlanBehavior where Self: Equatable {
    public func isEqual(to other: any PlanBehavior) -> Bool { (other as? Self) == self }
}

extension PlanInput {
    /// A behavior that asks nothing of the world beyond bodies for its items, if it has any
    /// (a plain `DynamicBehavior` with an action, a custom `ItemsBehavior`).
    public struct Other: PlanBehavior, Equatable {
        public var items: [Int]
        public init(items: [Int]) { self.items = items }
    }
}

/// What a behavior's compile sees and adds to: the input, the bodies so far (items, then
/// boundary edges, then anchors' ground bodies as behaviors add them) and the plan's joints,
/// pushes and fields, each in behavior order.
public struct PlanCompilation {
    let input: PlanInput
    var bodies: [WorldPlan.BodyPlan]
    let bodyOfItem: [Int?]
    /// Per item body: its charge (only fields read it).
    let chargeOfBody: [Float]
    var joints: [JointPlan] = []
    var pushes: [WorldPlan.Push] = []
    var fields: [WorldField] = []

    /// The body of input item `item` (every behavior's items have one).
    func body(ofItem item: Int) -> Int { bodyOfItem[item]! }

    /// Adds a static ground body at `point` for behavior `index`'s anchor; returns it.
    mutating func ground(at point: Point, behavior index: Int) -> Int {
        bodies.append(WorldPlan.BodyPlan(shape: .circle(center: .zero, radius: 0), position: WorldPlan.metres(point), angle: 0,
                                         material: nil, item: nil, boundary: nil, anchorOf: index))
        return bodies.count - 1
    }

    /// A world point in a body's frame, as the body stands in the plan (b2Body::GetLocalPoint).
    func local(_ p: Point, _ body: Int) -> Vec2 {
        Transform(p: bodies[body].position, q: Rot(bodies[body].angle)).applyInverse(WorldPlan.metres(p))
    }
}
