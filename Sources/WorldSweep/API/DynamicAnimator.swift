/// Told when the animator stops because every item is at rest, and when it starts again.
public protocol DynamicAnimatorDelegate: AnyObject {
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
}

/// An item's motion as the engine has it, in points, radians and per-second units.
public struct ItemState: Hashable, Sendable {
    public var center: Point
    /// Running total, clockwise positive, never wrapped.
    public var angle: Double
    public var velocity: Vector
    public var angularVelocity: Double
    public var isAsleep: Bool
}

/// Runs behaviors on items (UIKit's UIDynamicAnimator). Drive it with `tick(_:)`, the display
/// tick: each tick adds its length to an accumulator from which the world takes fixed sub-steps
/// of Float(1/120) s, so n ticks of 1/60 s run 2n − 1 sub-steps.
public final class DynamicAnimator {
    public let referenceBounds: Size
    public weak var delegate: DynamicAnimatorDelegate?
    public private(set) var behaviors: [DynamicBehavior] = []
    /// The sum of the lengths of the ticks the animator ran (paused ticks do not count).
    @exclusivity(unchecked) public internal(set) var elapsedTime: Double = 0
    /// False while paused (every item asleep) and before anything moves.
    public var isRunning: Bool { !paused && hasDynamicItems }

    let world = PhysicsWorld()
    /// What behaviors hold (weakly) instead of the animator (see AnimatorLink).
    private(set) lazy var link = AnimatorLink(self)
    @exclusivity(unchecked) var accumulator: Double = 0
    @exclusivity(unchecked) var needsConfiguration = false
    @exclusivity(unchecked) var paused = false
    @exclusivity(unchecked) var hasDynamicItems = false
    /// The gravity behavior added or changed last sets this; nil: no gravity.
    var gravityDirection: Vector?
    /// What the behaviors asked for at the last configuration.
    package internal(set) var plan: WorldPlan?

    var itemOrder: [DynamicItem] = []
    var bodyOfItem: [ObjectIdentifier: Int] = [:]
    var itemOfBody: [Int: DynamicItem] = [:]
    struct BoundaryKey: Hashable { var owner: ObjectIdentifier; var identifier: String?; var from: Point; var to: Point }
    var boundaryBodies: [BoundaryKey: Int] = [:]
    var boundaryOfBody: [Int: (behavior: CollisionBehavior, identifier: String?)] = [:]
    /// Who hears of an item pair's contacts: the world's collision rule and the behaviors its
    /// behavior indices name, now, and as configurations before it had them until their events
    /// are delivered (a pair a configuration drops ends, and its listeners hear that).
    struct Listeners { var rule: CollisionRule; var behaviors: [CollisionBehavior?] }
    var listeners = Listeners(rule: CollisionRule(), behaviors: [])
    var retiredListeners: [Listeners] = []

    public init(referenceBounds: Size) {
        self.referenceBounds = referenceBounds
    }

    public func addBehavior(_ behavior: DynamicBehavior) {
        guard !behaviors.contains(where: { $0 === behavior }) else { return }
        behavior.parent?.removeChildBehavior(behavior)
        behavior.dynamicAnimator?.removeBehavior(behavior)
        behaviors.append(behavior)
        behavior.attach(to: self)
        behaviorsDidChange()
    }

    /// Adds a field behavior, or throws `FieldLimitError` (and adds nothing) when the animator
    /// already holds `FieldBehavior.maximumCount` fields. (Fields that come in as children of
    /// another behavior are not refused: past the limit, they do not act.)
    public func addBehavior(_ field: FieldBehavior) throws {
        let count = behaviors.flatMap(\.flattened).count { $0 is FieldBehavior }
        if !behaviors.contains(where: { $0 === field }) && count >= FieldBehavior.maximumCount {
            throw FieldLimitError(count: count + 1)
        }
        addBehavior(field as DynamicBehavior)
    }

    public func removeBehavior(_ behavior: DynamicBehavior) {
        guard let i = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behaviors.remove(at: i)
        behavior.attach(to: nil)
        behaviorsDidChange()
    }

    public func removeAllBehaviors() {
        for b in behaviors { removeBehavior(b) }
    }

    /// The items any behavior of this animator acts on, in the order they were first seen.
    public var items: [DynamicItem] { itemOrder }

    /// Reads an item's `center` and `angle` anew (after the app moved it), zeroing its velocity.
    public func updateItem(usingCurrentState item: DynamicItem) {
        guard let b = bodyOfItem[ObjectIdentifier(item)] else { return }
        var body = world.bodies[b]
        body.xf = Transform(p: Vec2(Float(item.center.x) / EngineSettings.pointsPerMetre,
                                    Float(item.center.y) / EngineSettings.pointsPerMetre), q: Rot(Float(item.angle)))
        body.sweep.a = Float(item.angle)
        body.sweep.c = body.xf.apply(body.sweep.localCenter)
        body.sweep.c0 = body.sweep.c
        body.sweep.a0 = body.sweep.a
        body.v = .zero
        body.w = 0
        world.bodies[b] = body
        behaviorsDidChange()
    }

    public func itemState(for item: DynamicItem) -> ItemState? {
        bodyIndex(of: item).map(itemState(ofBody:))
    }

    /// The engine body that stands for `item`, for readers that look items up every tick (the
    /// sweep's metrics): valid while `configurationCount` stays the same.
    package func bodyIndex(of item: DynamicItem) -> Int? { bodyOfItem[ObjectIdentifier(item)] }

    /// `itemState(for:)` of the item that body `b` stands for.
    package func itemState(ofBody b: Int) -> ItemState {
        world.bodies.withUnsafeBufferPointer { bodies in
            precondition(bodies.indices.contains(b), "no body \(b)")
            // Field by field: copying the whole Body would retain and release its shape's arrays.
            let body = bodies.baseAddress! + b
            return ItemState(position: body.pointee.xf.p, angle: body.pointee.sweep.a, velocity: body.pointee.v,
                             angularVelocity: body.pointee.w, awake: body.pointee.awake)
        }
    }

    // MARK: State the ticks and configurations share

    /// Counts configurations, so the batched engine can tell that behaviors changed under it.
    package var configurationCount: Int { configurations }
    // Read through the getter above: another module reading the stored property directly gets
    // the dynamic exclusivity check back (the attribute does not cross modules).
    @exclusivity(unchecked) var configurations = 0

    @exclusivity(unchecked) var flattenedBehaviors: [DynamicBehavior] = []
    /// A push of the plan on this world's bodies. Everything here changes only through setters
    /// that reconfigure the animator, so it is worked out once per configuration. `active` is
    /// read each tick: an instantaneous push turns itself off without reconfiguring.
    struct PushPlan {
        let behavior: PushBehavior
        let vector: Vec2
        /// Body and application point in the body's frame (metres).
        let targets: [(body: Int, localPoint: Vec2)]
    }
    @exclusivity(unchecked) var pushPlans: [PushPlan] = []
    @exclusivity(unchecked) var itemBodies: [(item: DynamicItem, body: Int)] = []

    /// What a joint is across configurations: its behavior and its place there.
    struct JointKey: Hashable { var owner: ObjectIdentifier; var part: Int }
    /// Static anchor bodies by the attachment or snap that owns them.
    var anchorBodies: [ObjectIdentifier: Int] = [:]
    /// Parallel to `world.joints`.
    var jointKeys: [JointKey] = []

    // MARK: From behaviors to the world

    func behaviorsDidChange() {
        needsConfiguration = true
        if paused {
            paused = false
            delegate?.dynamicAnimatorWillResume(self)
        }
    }

    func gravityBehaviorDidSet(_ behavior: GravityBehavior) {
        gravityDirection = behavior.gravityDirection
        behaviorsDidChange()
    }

    func gravityBehaviorWasRemoved() {
        gravityDirection = nil
        behaviorsDidChange()
    }

    /// Adds velocity to an item that already has a body; false when it has none yet.
    func addVelocity(_ v: Vector, angular: Double, to item: DynamicItem) -> Bool {
        guard let b = bodyOfItem[ObjectIdentifier(item)] else { return false }
        applyVelocity(v, angular: angular, toBody: b)
        behaviorsDidChange()
        return true
    }

    func applyVelocity(_ v: Vector, angular: Double, toBody b: Int) {
        WorldPlan.addVelocity(v, angular: angular, to: &world.bodies[b])
    }

    /// The collision shape of an item, in metres about its centre.
    static func shape(of item: DynamicItem) -> Shape { WorldPlan.shape(of: PlanInput.Item(item)) }
}

extension Vec2 {
    /// Points to metres: divided, as the engine converts (exact for whole points like 50 → 0.5).
    func dividedBy(_ s: Float) -> Vec2 { Vec2(x / s, y / s) }
}
