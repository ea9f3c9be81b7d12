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
    @exclusivity(unchecked) public private(set) var elapsedTime: Double = 0
    /// False while paused (every item asleep) and before anything moves.
    public var isRunning: Bool { !paused && hasDynamicItems }

    let world = PhysicsWorld()
    /// What behaviors hold (weakly) instead of the animator (see AnimatorLink).
    private(set) lazy var link = AnimatorLink(self)
    @exclusivity(unchecked) private var accumulator: Double = 0
    @exclusivity(unchecked) private var needsConfiguration = false
    @exclusivity(unchecked) private var paused = false
    @exclusivity(unchecked) private var hasDynamicItems = false
    /// The gravity behavior added or changed last sets this; nil: no gravity.
    private var gravityDirection: Vector?
    /// What the behaviors asked for at the last configuration.
    package private(set) var plan: WorldPlan?

    private var itemOrder: [DynamicItem] = []
    private var bodyOfItem: [ObjectIdentifier: Int] = [:]
    private var itemOfBody: [Int: DynamicItem] = [:]
    private struct BoundaryKey: Hashable { var owner: ObjectIdentifier; var identifier: String?; var from: Point; var to: Point }
    private var boundaryBodies: [BoundaryKey: Int] = [:]
    private var boundaryOfBody: [Int: (behavior: CollisionBehavior, identifier: String?)] = [:]
    /// Who hears of an item pair's contacts: the world's collision rule and the behaviors its
    /// behavior indices name, now, and as configurations before it had them until their events
    /// are delivered (a pair a configuration drops ends, and its listeners hear that).
    private struct Listeners { var rule: CollisionRule; var behaviors: [CollisionBehavior?] }
    private var listeners = Listeners(rule: CollisionRule(), behaviors: [])
    private var retiredListeners: [Listeners] = []

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

    // MARK: Ticking

    /// Runs one display tick of `dt` seconds (ticks over 0.5 s count as 1/60).
    public func tick(_ dt: Double = 1.0 / 60.0) {
        guard let dt = beginTick(dt) else { return }
        SubStepClock.advance(by: dt, accumulator: &accumulator) { world.step(EngineSettings.subStep) }
        endTick()
    }

    /// The start of a tick: configuration, pause, time, and the behaviors' per-tick work (pushes
    /// apply their force, kept for every sub-step of this tick, or fire their impulse). Returns
    /// the tick length, or nil when paused. The batched engine calls this and `endTick` around
    /// its own sub-steps.
    func beginTick(_ dt: Double) -> Double? {
        let dt = Self.tickLength(dt)
        if needsConfiguration { configureWorld() }
        guard !paused else { return nil }
        elapsedTime += dt
        for push in pushPlans where push.behavior.active {
            applyPush(push)
        }
        return dt
    }

    /// Ticks over `EngineSettings.maxTick` count as 1/60 s.
    static func tickLength(_ dt: Double) -> Double { dt > EngineSettings.maxTick ? 1.0 / 60.0 : dt }

    /// The end of a tick: forces cleared, items moved, contact events delivered (all began, then
    /// all ended), behavior actions run, and a pause once everything sleeps.
    func endTick() {
        world.clearForces()
        writeBackItems()
        deliverContactEvents()
        for behavior in flattenedBehaviors { behavior.action?() }
        if !needsConfiguration && world.allDynamicBodiesAsleep && !paused {
            paused = true
            delegate?.dynamicAnimatorDidPause(self)
        }
    }

    /// The world as the first tick would configure it, not yet stepped (for the batched engine).
    func preparedWorld() -> PhysicsWorld {
        if needsConfiguration { configureWorld() }
        return world
    }

    /// Counts configurations, so the batched engine can tell that behaviors changed under it.
    package var configurationCount: Int { configurations }
    // Read through the getter above: another module reading the stored property directly gets
    // the dynamic exclusivity check back (the attribute does not cross modules).
    @exclusivity(unchecked) private var configurations = 0

    @exclusivity(unchecked) private var flattenedBehaviors: [DynamicBehavior] = []
    /// A push of the plan on this world's bodies. Everything here changes only through setters
    /// that reconfigure the animator, so it is worked out once per configuration. `active` is
    /// read each tick: an instantaneous push turns itself off without reconfiguring.
    private struct PushPlan {
        let behavior: PushBehavior
        let vector: Vec2
        /// Body and application point in the body's frame (metres).
        let targets: [(body: Int, localPoint: Vec2)]
    }
    @exclusivity(unchecked) private var pushPlans: [PushPlan] = []
    @exclusivity(unchecked) private var itemBodies: [(item: DynamicItem, body: Int)] = []

    private func applyPush(_ push: PushPlan) {
        let vector = push.vector
        world.bodies.withUnsafeMutableBufferPointer { bodies in
            for (b, localPoint) in push.targets { push.behavior.mode.act(vector, atLocalPoint: localPoint, on: &bodies[b]) }
        }
        push.behavior.didFire()
    }

    private func writeBackItems() {
        let s = EngineSettings.pointsPerMetre
        for (item, b) in itemBodies {
            let p = world.bodies[b].xf.p   // not the whole Body (see itemState)
            item.center = Point(x: Double(p.x * s), y: Double(p.y * s))
            item.angle = Double(world.bodies[b].sweep.a)
        }
    }

    private func deliverContactEvents() {
        defer { retiredListeners.removeAll() }
        if world.changes.isEmpty { return }
        // Taken out first: a delegate may act on the animator and so cause new changes. The
        // emptied list keeps its capacity for the next tick's changes.
        var changes: [ContactChange] = []
        swap(&changes, &world.changes)
        ContactChange.inDeliveryOrder(changes, deliver)
        changes.removeAll(keepingCapacity: true)
        if world.changes.isEmpty { swap(&changes, &world.changes) }
    }

    /// The collision behaviors to tell about items a and b (world bodies): those of the newest
    /// configuration that lets them collide.
    private func pairListeners(_ a: Int, _ b: Int) -> [CollisionBehavior] {
        for generation in [listeners] + retiredListeners.reversed() where generation.rule.allowedOrder(a, b) != nil {
            return generation.rule.listeners(a, b).compactMap { generation.behaviors[$0] }
        }
        return []
    }

    private func deliver(_ change: ContactChange) {
        let (a, b, point): (Int, Int, Vec2?) = switch change {
        case .began(let a, let b, let p): (a, b, p)
        case .ended(let a, let b): (a, b, nil)
        }
        let p = point.map { Point(x: Double($0.x * EngineSettings.pointsPerMetre), y: Double($0.y * EngineSettings.pointsPerMetre)) }
        if let itemA = itemOfBody[a], let itemB = itemOfBody[b] {
            // Report items in the order the animator first saw them.
            let (first, second) = itemOrderIndex(itemA) <= itemOrderIndex(itemB) ? (itemA, itemB) : (itemB, itemA)
            for behavior in pairListeners(a, b) {
                guard let d = behavior.collisionDelegate else { continue }
                if let p { d.collisionBehavior(behavior, beganContactFor: first, with: second, at: p) }
                else { d.collisionBehavior(behavior, endedContactFor: first, with: second) }
            }
        } else {
            let (itemBody, boundaryBody) = itemOfBody[a] != nil ? (a, b) : (b, a)
            guard let item = itemOfBody[itemBody], let boundary = boundaryOfBody[boundaryBody],
                  let d = boundary.behavior.collisionDelegate else { return }
            if let p { d.collisionBehavior(boundary.behavior, beganContactFor: item, withBoundaryIdentifier: boundary.identifier, at: p) }
            else { d.collisionBehavior(boundary.behavior, endedContactFor: item, withBoundaryIdentifier: boundary.identifier) }
        }
    }

    private func itemOrderIndex(_ item: DynamicItem) -> Int {
        itemOrder.firstIndex { $0 === item } ?? Int.max
    }

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

    private func applyVelocity(_ v: Vector, angular: Double, toBody b: Int) {
        WorldPlan.addVelocity(v, angular: angular, to: &world.bodies[b])
    }

    /// Rebuilds what the world needs from the behaviors: compiles them into a plan (bodies for
    /// items, materials with last-setter-wins, gravity, boundary edges, the pairs allowed to
    /// collide, pushes) and brings the world in line with it, keeping the bodies (and motion) of
    /// items and boundaries that stay.
    private func configureWorld() {
        needsConfiguration = false
        configurations += 1
        flattenedBehaviors = behaviors.flatMap(\.flattened)
        let all = flattenedBehaviors

        // Items, in order of first appearance.
        var indexOfItem: [ObjectIdentifier: Int] = [:]
        var order: [DynamicItem] = []
        for b in all {
            for item in b.worldItems where indexOfItem[ObjectIdentifier(item)] == nil {
                indexOfItem[ObjectIdentifier(item)] = order.count
                order.append(item)
            }
        }
        let plan = WorldPlan(compiling: planInput(all, order: order, indexOfItem: indexOfItem))
        self.plan = plan

        // Bodies for new items, none for dropped ones.
        for item in itemOrder where indexOfItem[ObjectIdentifier(item)] == nil {
            let id = ObjectIdentifier(item)
            // Body indices are never reused: itemOfBody keeps the entry so that the "ended" of a
            // contact the removal cut short still names the item.
            if let b = bodyOfItem.removeValue(forKey: id) { world.removeBody(b) }
        }
        itemOrder = order
        var worldBody = [Int](repeating: -1, count: plan.bodies.count)
        for (k, item) in order.enumerated() {
            let p = plan.bodyOfItem[k]!
            if let b = bodyOfItem[ObjectIdentifier(item)] {
                worldBody[p] = b
            } else {
                let b = world.addBody(plan.bodies[p].makeBody())
                bodyOfItem[ObjectIdentifier(item)] = b
                itemOfBody[b] = item
                worldBody[p] = b
            }
        }
        for k in order.indices {
            let p = plan.bodyOfItem[k]!, b = worldBody[p]
            plan.bodies[p].material!.apply(to: &world.bodies[b])
            for change in plan.velocityChanges where change.body == p {
                applyVelocity(change.linear, angular: change.angular, toBody: b)
            }
        }
        itemBodies = order.map { ($0, bodyOfItem[ObjectIdentifier($0)]!) }
        pushPlans = plan.pushes.map { push in
            PushPlan(behavior: all[push.behavior] as! PushBehavior, vector: push.vector,
                     targets: push.targets.map { (worldBody[$0.body], $0.localPoint) })
        }
        hasDynamicItems = order.contains { world.bodies[bodyOfItem[ObjectIdentifier($0)]!].isDynamic }
        world.gravity = plan.gravity

        configureCollisions(plan, worldBody: &worldBody, behaviors: all)
        world.fields = plan.fields.map { field in
            var f = field
            f.bodies = field.bodies.map { worldBody[$0] }
            return f
        }
        configureJoints(plan, worldBody: &worldBody, behaviors: all)
        // The rule last: it names the anchors' bodies too (joined bodies do not collide).
        let rule = plan.rule.renumbered(worldBody, bodyCount: world.bodies.count)
        // The old listeners stay until this tick's events are delivered, so that the last
        // "ended" of a pair that stops existing reaches them.
        retiredListeners.append(listeners)
        listeners = Listeners(rule: rule, behaviors: all.map { $0 as? CollisionBehavior })
        world.setRule(rule)
        world.wakeAll()
    }

    /// What a joint is across configurations: its behavior and its place there.
    private struct JointKey: Hashable { var owner: ObjectIdentifier; var part: Int }
    /// Static anchor bodies by the attachment or snap that owns them.
    private var anchorBodies: [ObjectIdentifier: Int] = [:]
    /// Parallel to `world.joints`.
    private var jointKeys: [JointKey] = []

    /// Anchors' ground bodies (one per anchor behavior, moved to where the plan puts the anchor)
    /// and joints. A joint that stays (same behavior, part, kind and bodies) keeps the geometry it
    /// was made with and its impulses, and takes the behavior's new settings (Box2D's setters).
    private func configureJoints(_ plan: WorldPlan, worldBody: inout [Int], behaviors all: [DynamicBehavior]) {
        var keep = Set<ObjectIdentifier>()
        for (p, body) in plan.bodies.enumerated() {
            guard let owner = body.anchorOf else { continue }
            let id = ObjectIdentifier(all[owner])
            keep.insert(id)
            if let b = anchorBodies[id] {
                world.bodies[b] = body.makeBody()   // static: nothing to keep but where it is
                worldBody[p] = b
            } else {
                let b = world.addBody(body.makeBody())
                anchorBodies[id] = b
                worldBody[p] = b
            }
        }
        for (id, b) in anchorBodies where !keep.contains(id) {
            world.removeBody(b)
            anchorBodies[id] = nil
        }
        var old: [JointKey: Joint] = [:]
        for (key, joint) in zip(jointKeys, world.joints) { old[key] = joint }
        var joints: [Joint] = [], keys: [JointKey] = []
        for planned in plan.joints {
            let key = JointKey(owner: ObjectIdentifier(all[planned.behavior]), part: planned.part)
            let a = worldBody[planned.bodyA], b = worldBody[planned.bodyB]
            if var joint = old[key], joint.kind == planned.kind, joint.bodyA == a, joint.bodyB == b {
                planned.definition.updateSettings(of: &joint.lanes)
                joints.append(joint)
            } else {
                joints.append(Joint(kind: planned.kind, bodyA: a, bodyB: b, lanes: planned.definition.makeLanes()))
            }
            keys.append(key)
        }
        world.joints = joints
        jointKeys = keys
    }

    /// The behaviors as plain values, for the plan (pending velocities are handed over here).
    private func planInput(_ all: [DynamicBehavior], order: [DynamicItem], indexOfItem: [ObjectIdentifier: Int]) -> PlanInput {
        func indices(_ b: ItemsBehavior) -> [Int] { b.items.map { indexOfItem[ObjectIdentifier($0)]! } }
        let described: [PlanInput.Behavior] = all.map { behavior in
            switch behavior {
            case let gravity as GravityBehavior:
                return .gravity(items: indices(gravity))
            case let collision as CollisionBehavior:
                return .collision(items: indices(collision), mode: collision.collisionMode,
                                  segments: collision.boundarySegments(referenceBounds: referenceBounds).map {
                                      PlanInput.Segment(identifier: $0.identifier, from: $0.from, to: $0.to)
                                  })
            case let item as DynamicItemBehavior:
                var velocities: [PlanInput.VelocityChange] = []
                for (k, target) in order.enumerated() {
                    if let (v, w) = item.takePendingVelocities(for: target) { velocities.append(.init(item: k, linear: v, angular: w)) }
                }
                return .item(items: indices(item), settings: item.settings, velocities: velocities)
            case let attachment as AttachmentBehavior:
                return .attachment(attachment.planAttachment { indexOfItem[ObjectIdentifier($0)]! })
            case let snap as SnapBehavior:
                return .snap(snap.planSnap { indexOfItem[ObjectIdentifier($0)]! })
            case let push as PushBehavior:
                return .push(items: indices(push), mode: push.mode, direction: push.pushDirection,
                             offsets: push.items.map(push.targetOffsetFromCenter(for:)), active: push.active)
            case let field as FieldBehavior:
                return .field(field.planField(items: indices(field)))
            case let other as ItemsBehavior:
                return .other(items: indices(other))
            default:
                return .other(items: [])
            }
        }
        return PlanInput(referenceBounds: referenceBounds, items: order.map(PlanInput.Item.init), behaviors: described,
                         gravity: gravityDirection)
    }

    /// Boundary edges (new ones added, dropped ones removed), pair listeners and allowed pairs
    /// from the plan; `worldBody` maps plan bodies to this world's.
    private func configureCollisions(_ plan: WorldPlan, worldBody: inout [Int], behaviors all: [DynamicBehavior]) {
        var keep = Set<BoundaryKey>()
        for (p, body) in plan.bodies.enumerated() {
            guard let boundary = body.boundary else { continue }
            let behavior = all[boundary.behavior] as! CollisionBehavior
            let key = BoundaryKey(owner: ObjectIdentifier(behavior), identifier: boundary.identifier, from: boundary.from, to: boundary.to)
            keep.insert(key)
            if let existing = boundaryBodies[key] {
                worldBody[p] = existing
            } else {
                let edgeBody = world.addBody(body.makeBody())
                boundaryBodies[key] = edgeBody
                boundaryOfBody[edgeBody] = (behavior, boundary.identifier)
                worldBody[p] = edgeBody
            }
        }
        for (key, body) in boundaryBodies where !keep.contains(key) {
            world.removeBody(body)   // boundaryOfBody keeps naming it for the "ended" this may cause
            boundaryBodies[key] = nil
        }
    }

    /// The collision shape of an item, in metres about its centre.
    static func shape(of item: DynamicItem) -> Shape { WorldPlan.shape(of: PlanInput.Item(item)) }
}

extension Vec2 {
    /// Points to metres: divided, as the engine converts (exact for whole points like 50 → 0.5).
    func dividedBy(_ s: Float) -> Vec2 { Vec2(x / s, y / s) }
}
