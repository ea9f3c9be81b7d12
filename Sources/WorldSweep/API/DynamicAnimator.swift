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
    private var gravity = Vec2.zero

    private var itemOrder: [DynamicItem] = []
    private var bodyOfItem: [ObjectIdentifier: Int] = [:]
    private var itemOfBody: [Int: DynamicItem] = [:]
    private struct BoundaryKey: Hashable { var owner: ObjectIdentifier; var identifier: String?; var from: Point; var to: Point }
    private var boundaryBodies: [BoundaryKey: Int] = [:]
    private var boundaryOfBody: [Int: (behavior: CollisionBehavior, identifier: String?)] = [:]
    /// Collision behaviors to tell about each item pair's contacts.
    private var pairListeners: [BodyPair: [CollisionBehavior]] = [:]

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
        let s = EngineSettings.pointsPerMetre
        return world.bodies.withUnsafeBufferPointer { bodies in
            precondition(bodies.indices.contains(b), "no body \(b)")
            // Field by field: copying the whole Body would retain and release its shape's arrays.
            let body = bodies.baseAddress! + b
            let p = body.pointee.xf.p, v = body.pointee.v
            return ItemState(center: Point(x: Double(p.x * s), y: Double(p.y * s)),
                             angle: Double(body.pointee.sweep.a),
                             velocity: Vector(dx: Double(v.x * s), dy: Double(v.y * s)),
                             angularVelocity: Double(body.pointee.w), isAsleep: !body.pointee.awake)
        }
    }

    // MARK: Ticking

    /// Runs one display tick of `dt` seconds (ticks over 0.5 s count as 1/60).
    public func tick(_ dt: Double = 1.0 / 60.0) {
        guard let dt = beginTick(dt) else { return }
        accumulator += dt
        let h = Double(EngineSettings.subStep)
        while accumulator >= h {
            world.step(EngineSettings.subStep)
            accumulator -= h
        }
        endTick()
    }

    /// The start of a tick: configuration, pause, time, and the behaviors' per-tick work (pushes
    /// apply their force, kept for every sub-step of this tick, or fire their impulse). Returns
    /// the tick length, or nil when paused. The batched engine calls this and `endTick` around
    /// its own sub-steps.
    func beginTick(_ dt: Double) -> Double? {
        let dt = dt > EngineSettings.maxTick ? 1.0 / 60.0 : dt
        if needsConfiguration { configureWorld() }
        guard !paused else { return nil }
        elapsedTime += dt
        for push in pushPlans where push.behavior.active {
            applyPush(push)
        }
        return dt
    }

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
    /// A push as the world sees it: its force (or impulse) and where on which bodies it acts.
    /// Everything here changes only through setters that reconfigure the animator, so it is
    /// worked out once per configuration instead of once per tick (a cosine, a sine and two
    /// dictionary lookups per item, every tick, before). `active` is read each tick: an
    /// instantaneous push turns itself off without reconfiguring.
    private struct PushPlan {
        let behavior: PushBehavior
        let vector: Vec2
        /// Body and application point in the body's frame (metres).
        let targets: [(body: Int, localPoint: Vec2)]
    }
    @exclusivity(unchecked) private var pushPlans: [PushPlan] = []
    @exclusivity(unchecked) private var itemBodies: [(item: DynamicItem, body: Int)] = []

    private func pushPlan(_ push: PushBehavior) -> PushPlan {
        let d = push.pushDirection
        let targets = push.items.compactMap { item -> (body: Int, localPoint: Vec2)? in
            guard let b = bodyOfItem[ObjectIdentifier(item)] else { return nil }
            let offset = push.targetOffsetFromCenter(for: item)
            return (b, Vec2(Float(offset.horizontal), Float(offset.vertical)).dividedBy(EngineSettings.pointsPerMetre))
        }
        return PushPlan(behavior: push, vector: Vec2(Float(d.dx), Float(d.dy)), targets: targets)
    }

    private func applyPush(_ push: PushPlan) {
        let vector = push.vector
        world.bodies.withUnsafeMutableBufferPointer { bodies in
            for (b, localPoint) in push.targets {
                let point = bodies[b].xf.apply(localPoint)
                switch push.behavior.mode {
                case .continuous:
                    if vector != .zero { bodies[b].applyForce(vector, at: point) }
                case .instantaneous:
                    bodies[b].applyImpulse(vector, at: point)
                }
            }
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
        if world.changes.isEmpty { return }
        // Taken out first: a delegate may act on the animator and so cause new changes. Every
        // began, then every ended, each in the order they happened, in two passes (no arrays
        // built per tick); the emptied list keeps its capacity for the next tick's changes.
        var changes: [ContactChange] = []
        swap(&changes, &world.changes)
        for change in changes { if case .began = change { deliver(change) } }
        for change in changes { if case .ended = change { deliver(change) } }
        changes.removeAll(keepingCapacity: true)
        if world.changes.isEmpty { swap(&changes, &world.changes) }
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
            for behavior in pairListeners[BodyPair(a: min(a, b), b: max(a, b))] ?? [] {
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
        let d = behavior.gravityDirection
        gravity = Vec2(Float(d.dx) * EngineSettings.gravityPerUnit, Float(d.dy) * EngineSettings.gravityPerUnit)
        behaviorsDidChange()
    }

    func gravityBehaviorWasRemoved() {
        gravity = .zero
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
        guard world.bodies[b].isDynamic else { return }
        world.bodies[b].v += Vec2(Float(v.dx), Float(v.dy)).dividedBy(EngineSettings.pointsPerMetre)
        if world.bodies[b].invI > 0 { world.bodies[b].w += Float(angular) }
        world.bodies[b].setAwake(true)
    }

    /// Rebuilds what the world needs from the behaviors: bodies for items, their materials
    /// (last setter wins), gravity, boundaries and the pairs allowed to collide.
    private func configureWorld() {
        needsConfiguration = false
        configurations += 1
        flattenedBehaviors = behaviors.flatMap(\.flattened)
        let all = flattenedBehaviors
        let itemBehaviors = all.compactMap { $0 as? ItemsBehavior }

        // Items, in order of first appearance; bodies for new ones, none for dropped ones.
        var seen = Set<ObjectIdentifier>()
        var order: [DynamicItem] = []
        for b in itemBehaviors {
            for item in b.items where seen.insert(ObjectIdentifier(item)).inserted { order.append(item) }
        }
        for item in itemOrder where !seen.contains(ObjectIdentifier(item)) {
            let id = ObjectIdentifier(item)
            // Body indices are never reused: itemOfBody keeps the entry so that the "ended" of a
            // contact the removal cut short still names the item.
            if let b = bodyOfItem.removeValue(forKey: id) { world.removeBody(b) }
        }
        itemOrder = order
        for item in order where bodyOfItem[ObjectIdentifier(item)] == nil {
            let b = world.addBody(Body(shape: Self.shape(of: item),
                                       position: Vec2(Float(item.center.x), Float(item.center.y)).dividedBy(EngineSettings.pointsPerMetre),
                                       angle: Float(item.angle), isStatic: false))
            bodyOfItem[ObjectIdentifier(item)] = b
            itemOfBody[b] = item
        }

        // Materials: engine defaults, then every explicitly set property in behavior order.
        let gravityItems = Set(all.compactMap { $0 as? GravityBehavior }.flatMap { $0.items.map(ObjectIdentifier.init) })
        let pushItems = Set(all.compactMap { $0 as? PushBehavior }.flatMap { $0.items.map(ObjectIdentifier.init) })
        for item in order {
            let id = ObjectIdentifier(item)
            var s = DynamicItemBehavior.Settings()
            for case let ib as DynamicItemBehavior in all where ib.contains(item) {
                let t = ib.settings
                s.elasticity = t.elasticity ?? s.elasticity
                s.friction = t.friction ?? s.friction
                s.density = t.density ?? s.density
                s.resistance = t.resistance ?? s.resistance
                s.angularResistance = t.angularResistance ?? s.angularResistance
                s.allowsRotation = t.allowsRotation ?? s.allowsRotation
                s.anchored = t.anchored ?? s.anchored
                s.charge = t.charge ?? s.charge
            }
            let b = bodyOfItem[id]!
            var body = world.bodies[b]
            body.restitution = Float(s.elasticity ?? DynamicItemBehavior.Defaults.elasticity)
            body.friction = Float(s.friction ?? DynamicItemBehavior.Defaults.friction)
            body.linearDamping = Float(s.resistance ?? DynamicItemBehavior.Defaults.resistance)
            body.angularDamping = Float(s.angularResistance ?? DynamicItemBehavior.Defaults.angularResistance)
            body.gravityScale = gravityItems.contains(id) ? 1 : 0
            body.usesTOI = gravityItems.contains(id) || pushItems.contains(id)
            let density = Float(s.density ?? DynamicItemBehavior.Defaults.density)
            let fixedRotation = !(s.allowsRotation ?? true)
            let isStatic = s.anchored ?? false
            if density != body.density || fixedRotation != body.fixedRotation || isStatic != body.isStatic {
                if isStatic && !body.isStatic { body.v = .zero; body.w = 0 }
                if fixedRotation && !body.fixedRotation { body.w = 0 }
                body.density = density
                body.fixedRotation = fixedRotation
                body.isStatic = isStatic
                body.resetMassData()
            }
            world.bodies[b] = body
            for case let ib as DynamicItemBehavior in all {
                if let (v, w) = ib.takePendingVelocities(for: item) { applyVelocity(v, angular: w, toBody: b) }
            }
        }
        itemBodies = order.map { ($0, bodyOfItem[ObjectIdentifier($0)]!) }
        pushPlans = all.compactMap { $0 as? PushBehavior }.map(pushPlan)
        hasDynamicItems = order.contains { world.bodies[bodyOfItem[ObjectIdentifier($0)]!].isDynamic }
        world.gravity = gravity

        configureCollisions(all.compactMap { $0 as? CollisionBehavior })
        world.wakeAll()
    }

    private func configureCollisions(_ collisions: [CollisionBehavior]) {
        var keep = Set<BoundaryKey>()
        var pairs: [(Int, Int)] = []
        var pairIndex: [BodyPair: Int] = [:]
        // Listeners of pairs that stop existing stay, so their last "ended" reaches them.
        var listeners: [BodyPair: [CollisionBehavior]] = [:]
        func allow(_ a: Int, _ b: Int, listener: CollisionBehavior?) {
            let key = BodyPair(a: min(a, b), b: max(a, b))
            if pairIndex[key] == nil {
                pairIndex[key] = pairs.count
                pairs.append((a, b))
            }
            if let listener { listeners[key, default: []].append(listener) }
        }
        for behavior in collisions {
            let bodies = behavior.items.compactMap { bodyOfItem[ObjectIdentifier($0)] }
            if behavior.collisionMode.contains(.items) {
                for i in bodies.indices { for j in bodies.indices where j > i { allow(bodies[i], bodies[j], listener: behavior) } }
            }
            for segment in behavior.boundarySegments(referenceBounds: referenceBounds) {
                let key = BoundaryKey(owner: ObjectIdentifier(behavior), identifier: segment.identifier,
                                      from: segment.from, to: segment.to)
                keep.insert(key)
                let edgeBody: Int
                if let existing = boundaryBodies[key] {
                    edgeBody = existing
                } else {
                    let edge = Shape.edge(Vec2(Float(segment.from.x), Float(segment.from.y)).dividedBy(EngineSettings.pointsPerMetre),
                                          Vec2(Float(segment.to.x), Float(segment.to.y)).dividedBy(EngineSettings.pointsPerMetre))
                    edgeBody = world.addBody(Body(shape: edge, position: .zero, angle: 0, isStatic: true))
                    boundaryBodies[key] = edgeBody
                    boundaryOfBody[edgeBody] = (behavior, segment.identifier)
                }
                if behavior.collisionMode.contains(.boundaries) {
                    for b in bodies { allow(edgeBody, b, listener: nil) }
                }
            }
        }
        for (key, body) in boundaryBodies where !keep.contains(key) {
            world.removeBody(body)   // boundaryOfBody keeps naming it for the "ended" this may cause
            boundaryBodies[key] = nil
        }
        pairListeners.merge(listeners) { _, new in new }
        world.setPairs(pairs)
    }

    /// The collision shape of an item, in metres about its centre.
    static func shape(of item: DynamicItem) -> Shape {
        let w = Float(item.size.width) / EngineSettings.pointsPerMetre, h = Float(item.size.height) / EngineSettings.pointsPerMetre
        switch item.collisionBoundsType {
        case .rectangle:
            return .box(halfWidth: w / 2, halfHeight: h / 2)
        case .ellipse:
            if item.size.width == item.size.height { return .circle(center: .zero, radius: w / 2) }
            return .polygon(ShapeGeometry.ellipsePolygon(width: item.size.width, height: item.size.height)
                .map { Vec2(Float($0.x), Float($0.y)).dividedBy(EngineSettings.pointsPerMetre) })
        case .path:
            return .polygon(item.collisionBoundingPath.map { Vec2(Float($0.x), Float($0.y)).dividedBy(EngineSettings.pointsPerMetre) })
        }
    }
}

extension Vec2 {
    /// Points to metres: divided, as the engine converts (exact for whole points like 50 → 0.5).
    func dividedBy(_ s: Float) -> Vec2 { Vec2(x / s, y / s) }
}
