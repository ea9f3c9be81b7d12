// A world plan: everything the engine needs to build and drive one world, compiled from the
// behaviors once (bodies, materials, the collision rule, pushes, gravity, and which item or boundary
// each body stands for). DynamicAnimator compiles one per configuration and builds its world
// from it; a sweep compiles one per world straight from the scene file and loads it into lanes
// (PlanBatch), with no views, behaviors, delegates or animators. Worlds of one sweep share the
// structure (body kinds, static flags, pairs) and differ only in numbers.

/// The world one configuration of behaviors asks for, in engine units. Body order: items in
/// order of first appearance in the behaviors, then boundary edges in behavior and segment order.
public struct WorldPlan: Sendable, Equatable {
    /// A body and where it came from.
    struct BodyPlan: Sendable, Equatable {
        var shape: Shape
        var position: Vec2
        var angle: Float
        /// Items only (boundary edges keep the engine's defaults and are static).
        var material: Material?
        /// The item it stands for (an index into the input's items), or nil for a boundary edge.
        var item: Int?
        var boundary: Boundary?
        /// The attachment or snap (an index into the input's behaviors) whose static anchor this is.
        var anchorOf: Int? = nil

        /// A new body as the animator first adds it: an item dynamic until its material says
        /// otherwise, an edge static at the origin.
        func makeBody() -> Body {
            Body(shape: shape, position: position, angle: angle, isStatic: material == nil)
        }
    }

    /// An item's material and engine flags, after every item behavior had its say.
    struct Material: Sendable, Equatable {
        var restitution: Float, friction: Float, linearDamping: Float, angularDamping: Float
        var gravityScale: Float
        var usesTOI: Bool
        var density: Float
        var fixedRotation: Bool
        var isStatic: Bool

        /// Sets the material on `body`, recomputing its mass only when density, rotation or
        /// anchoring changed (so a reconfiguration leaves an unchanged body's motion alone).
        func apply(to body: inout Body) {
            body.restitution = restitution
            body.friction = friction
            body.linearDamping = linearDamping
            body.angularDamping = angularDamping
            body.gravityScale = gravityScale
            body.usesTOI = usesTOI
            if density != body.density || fixedRotation != body.fixedRotation || isStatic != body.isStatic {
                if isStatic && !body.isStatic { body.v = .zero; body.w = 0 }
                if fixedRotation && !body.fixedRotation { body.w = 0 }
                body.density = density
                body.fixedRotation = fixedRotation
                body.isStatic = isStatic
                body.resetMassData()
            }
        }
    }

    /// A boundary edge's owner (an index into the input's behaviors) and segment.
    struct Boundary: Sendable, Equatable {
        var behavior: Int
        var identifier: String?
        var from: Point, to: Point
    }

    /// A velocity added to a body once it exists, in the order the animator adds them.
    struct VelocityChange: Sendable, Equatable {
        var body: Int
        var linear: Vector
        var angular: Double
    }

    /// A push as the world sees it: its force (or impulse) and where on which bodies it acts.
    struct Push: Sendable, Equatable {
        /// Index into the input's behaviors.
        var behavior: Int
        var mode: PushBehavior.Mode
        var vector: Vec2
        /// Whether it acts on the first tick (an instantaneous push turns itself off after).
        var active: Bool
        /// Body and application point in the body's frame (metres).
        var targets: [Target]
        struct Target: Sendable, Equatable { var body: Int; var localPoint: Vec2 }
    }

    /// Who hears about a pair's contacts, and under which names.
    public enum ContactPartners: Sendable, Equatable {
        /// Two items (input item indices); every listed collision behavior (input behavior
        /// indices) that holds both reports it.
        case items(Int, Int, listeners: [Int])
        /// An item and a boundary of collision behavior `behavior` (identifier nil: the reference bounds).
        case boundary(item: Int, behavior: Int, identifier: String?)
    }

    var bodies: [BodyPlan]
    var velocityChanges: [VelocityChange]
    /// Which bodies may collide, and the engine's pair order (the order the behaviors allow
    /// pairs in), as a rule on the bodies rather than a list of every allowed pair.
    var rule: CollisionRule
    var pushes: [Push]
    /// Joints in the order they are made (behavior order; a snap's four in corner order).
    var joints: [JointPlan]
    var gravity: Vec2
    /// Fields in behavior order (the first `FieldBehavior.maximumCount`), on plan bodies.
    var fields: [WorldField] = []
    /// Per input item: its body, or nil when no behavior acts on it.
    public private(set) var bodyOfItem: [Int?]

    public var bodyCount: Int { bodies.count }

    /// Who hears of a contact between bodies a and b (either way round), or nil when the rule
    /// does not let them collide. Items are named in the order the behaviors allow the pair.
    public func contactPartners(_ a: Int, _ b: Int) -> ContactPartners? {
        guard let allowed = rule.allowedOrder(a, b) else { return nil }
        let first = bodies[allowed.pair.a], second = bodies[allowed.pair.b]
        if let itemA = first.item, let itemB = second.item {
            return .items(itemA, itemB, listeners: rule.listeners(a, b))
        }
        let (item, edge) = first.item != nil ? (first, second) : (second, first)
        return .boundary(item: item.item!, behavior: edge.boundary!.behavior, identifier: edge.boundary!.identifier)
    }

    /// Every allowed pair in the pair order (quadratic: for tests).
    var allowedPairs: [BodyPair] { rule.allowedPairsInOrder() }

    /// Bytes of the rule (linear in bodies), for the memory tests.
    public var ruleByteCount: Int { rule.byteCount }
}

extension WorldPlan {
    /// Compiles what the behaviors ask for (the translation DynamicAnimator.configureWorld used
    /// to do on live objects, rule for rule).
    public init(compiling input: PlanInput) {
        self = Self.compile(input, collisionsOf: nil)!.plan
    }

    /// `init(compiling:)` for another world of a sweep: the boundary edges and the collision rule
    /// (most of the compile's work) are taken from `template`, compiled from another world's
    /// input, where they must come out the same: the same collision behaviors (a sweep cannot
    /// change them: they have no numeric keys), items on the same bodies, joints keeping the
    /// same pairs apart. Anything else compiles in full; the plan is `init(compiling:)`'s either way.
    public init(compiling input: PlanInput, collisionsOf template: (input: PlanInput, plan: WorldPlan)) {
        self = (Self.compile(input, collisionsOf: template) ?? Self.compile(input, collisionsOf: nil)!).plan
    }

    /// Whether two inputs hold the same collision behaviors at the same places.
    private static func sameCollisions(_ a: PlanInput, _ b: PlanInput) -> Bool {
        guard a.behaviors.count == b.behaviors.count else { return false }
        for (x, y) in zip(a.behaviors, b.behaviors) where x is PlanInput.Collision || y is PlanInput.Collision {
            if !x.isEqual(to: y) { return false }
        }
        return true
    }

    /// The compile, and whether it took `template`'s collisions; nil when they turned out not to
    /// be this input's after all (its joints keep other pairs apart).
    package static func compile(_ input: PlanInput, collisionsOf template: (input: PlanInput, plan: WorldPlan)?)
        -> (plan: WorldPlan, reusedCollisions: Bool)? {
        let behaviors = input.behaviors
        // Items, in order of first appearance.
        var bodyOfItem = [Int?](repeating: nil, count: input.items.count)
        var order: [Int] = []
        for behavior in behaviors {
            for item in behavior.items where bodyOfItem[item] == nil {
                bodyOfItem[item] = order.count
                order.append(item)
            }
        }
        // Items that fall or are driven use time of impact against boundaries.
        var falls = [Bool](repeating: false, count: input.items.count), driven = falls
        for behavior in behaviors {
            switch behavior.drive {
            case .falls: for i in behavior.items { falls[i] = true }
            case .driven: for i in behavior.items { driven[i] = true }
            case .none: break
            }
        }

        // Bodies of items: engine defaults, then every explicitly set property in behavior order.
        var bodies: [BodyPlan] = []
        var velocityChanges: [VelocityChange] = []
        var chargeOfBody: [Float] = []
        let itemBehaviors = behaviors.compactMap { b -> (items: [Int], settings: DynamicItemBehavior.Settings)? in
            guard let properties = b as? PlanInput.ItemProperties else { return nil }
            return (properties.items, properties.settings)
        }
        let settings = Self.overlaidSettings(itemCount: input.items.count, itemBehaviors)
        // Each item's velocity changes, in behavior order.
        var changesOf = [[PlanInput.VelocityChange]](repeating: [], count: input.items.count)
        for case let properties as PlanInput.ItemProperties in behaviors {
            for change in properties.velocities { changesOf[change.item].append(change) }
        }
        for item in order {
            let s = settings[item] ?? DynamicItemBehavior.Settings()
            let material = Material(s, gravityScale: falls[item] ? 1 : 0, usesTOI: falls[item] || driven[item])
            let spec = input.items[item]
            chargeOfBody.append(Float(s.charge ?? DynamicItemBehavior.Defaults.charge))
            bodies.append(BodyPlan(shape: Self.shape(of: spec), position: Self.position(ofCenter: spec.center),
                                   angle: Float(spec.angle), material: material, item: item, boundary: nil))
            for change in changesOf[item] {
                velocityChanges.append(VelocityChange(body: bodyOfItem[item]!, linear: change.linear, angular: change.angular))
            }
        }

        // Collisions: each behavior allows its item pairs, then its items against its edges.
        struct EdgeKey: Hashable { var behavior: Int; var identifier: String?; var from: Point; var to: Point }
        var edges: [EdgeKey: Int] = [:]
        var rule = CollisionRule.Builder()
        var templateRule: CollisionRule?
        if let template, template.plan.bodyOfItem == bodyOfItem, sameCollisions(input, template.input) {
            // The template's edges follow the same items, in the same order.
            bodies += template.plan.bodies.filter { $0.boundary != nil }
            templateRule = template.plan.rule
        }
        for (k, behavior) in behaviors.enumerated() where templateRule == nil {
            guard let collision = behavior as? PlanInput.Collision else { continue }
            rule.setModes(group: k, items: collision.mode.contains(.items), boundaries: collision.mode.contains(.boundaries))
            for (position, item) in collision.items.enumerated() { rule.addMember(bodyOfItem[item]!, group: k, position: position) }
            for segment in collision.segments {
                let key = EdgeKey(behavior: k, identifier: segment.identifier, from: segment.from, to: segment.to)
                guard edges[key] == nil else { continue }
                let edge = bodies.count
                edges[key] = edge
                let from = Vec2(Float(segment.from.x), Float(segment.from.y)).dividedBy(EngineSettings.pointsPerMetre)
                let to = Vec2(Float(segment.to.x), Float(segment.to.y)).dividedBy(EngineSettings.pointsPerMetre)
                bodies.append(BodyPlan(shape: .edge(from, to), position: .zero, angle: 0, material: nil, item: nil,
                                       boundary: Boundary(behavior: k, identifier: segment.identifier, from: segment.from, to: segment.to)))
                rule.addEdge(edge, group: k)
            }
        }
        // What each behavior adds, in behavior order: anchors' ground bodies come after the edges,
        // then joints, pushes and fields; joined bodies stop colliding unless allowed.
        var compilation = PlanCompilation(input: input, bodies: bodies, bodyOfItem: bodyOfItem, chargeOfBody: chargeOfBody)
        for (k, behavior) in behaviors.enumerated() { behavior.compile(into: &compilation, index: k) }
        bodies = compilation.bodies
        let joints = compilation.joints
        if let template, templateRule != nil {
            func apart(_ joints: [JointPlan]) -> [BodyPair] { joints.filter { !$0.collideConnected }.map { BodyPair(a: $0.bodyA, b: $0.bodyB) } }
            guard bodies.count == template.plan.bodies.count, apart(joints) == apart(template.plan.joints) else { return nil }
        }
        for joint in joints where templateRule == nil && !joint.collideConnected { rule.separate(joint.bodyA, joint.bodyB) }

        let plan = WorldPlan(bodies: bodies, velocityChanges: velocityChanges,
                             rule: templateRule ?? rule.rule(bodyCount: bodies.count), pushes: compilation.pushes, joints: joints,
                             gravity: Self.gravity(input.gravity), fields: compilation.fields, bodyOfItem: bodyOfItem)
        return (plan, templateRule != nil)
    }

    /// A fresh world as an animator with these behaviors configures it before its first tick.
    func makeWorld() -> PhysicsWorld {
        let world = PhysicsWorld()
        world.bodies.reserveCapacity(bodies.count)   // (growing it body by body was a quarter of a batch's makeWorld)
        for body in bodies { _ = world.addBody(body.makeBody()) }
        world.bodies.withUnsafeMutableBufferPointer { worldBodies in
            for (b, body) in bodies.enumerated() { body.material?.apply(to: &worldBodies[b]) }
            for change in velocityChanges { Self.addVelocity(change.linear, angular: change.angular, to: &worldBodies[change.body]) }
        }
        world.gravity = gravity
        world.fields = fields
        world.setRule(rule)
        world.joints = joints.map { Joint(kind: $0.kind, bodyA: $0.bodyA, bodyB: $0.bodyB, lanes: $0.definition.makeLanes()) }
        world.wakeAll()
        return world
    }

    /// Whether worlds of these two plans can share a plan batch as far as the plans go: the same
    /// bodies and collision rule, pushes of the same modes on the same bodies; numbers (and shapes)
    /// may differ. The lanes check the rest as they load the worlds (static and TOI flags). Joints
    /// must be of the same kinds between the same bodies; their definitions may differ.
    public func sharesStructure(with other: WorldPlan) -> Bool {
        guard bodies.count == other.bodies.count, rule == other.rule, pushes.count == other.pushes.count,
              fields.count == other.fields.count, zip(fields, other.fields).allSatisfy({ $0.sharesStructure(with: $1) })
        else { return false }
        guard joints.map(\.kind) == other.joints.map(\.kind), joints.map(\.bodyA) == other.joints.map(\.bodyA),
              joints.map(\.bodyB) == other.joints.map(\.bodyB) else { return false }
        for (a, b) in zip(pushes, other.pushes) {
            guard a.mode == b.mode, a.targets.map(\.body) == b.targets.map(\.body) else { return false }
        }
        return true
    }

    /// Adds a velocity (pt/s, rad/s) to a dynamic body and wakes it (DynamicItemBehavior's
    /// addLinearVelocity / addAngularVelocity, once the item has a body).
    static func addVelocity(_ v: Vector, angular: Double, to body: inout Body) {
        guard body.isDynamic else { return }
        body.v += Vec2(Float(v.dx), Float(v.dy)).dividedBy(EngineSettings.pointsPerMetre)
        if body.invI > 0 { body.w += Float(angular) }
        body.setAwake(true)
    }

    /// The collision shape of an item, in metres about its centre.
    static func shape(of item: PlanInput.Item) -> Shape {
        let w = Float(item.size.width) / EngineSettings.pointsPerMetre, h = Float(item.size.height) / EngineSettings.pointsPerMetre
        switch item.boundsType {
        case .rectangle:
            return .box(halfWidth: w / 2, halfHeight: h / 2)
        case .ellipse:
            if item.size.width == item.size.height { return .circle(center: .zero, radius: w / 2) }
            return .polygon(ShapeGeometry.ellipsePolygon(width: item.size.width, height: item.size.height)
                .map { Vec2(Float($0.x), Float($0.y)).dividedBy(EngineSettings.pointsPerMetre) })
        case .path:
            return .polygon(item.path.map { Vec2(Float($0.x), Float($0.y)).dividedBy(EngineSettings.pointsPerMetre) })
        }
    }
}

extension Shape: Equatable {
    static func == (a: Shape, b: Shape) -> Bool {
        a.kind == b.kind && a.vertices == b.vertices && a.normals == b.normals && a.radius == b.radius && a.centroid == b.centroid
    }
}

extension ContactChange {
    /// Hands a tick's contact changes over as the animator delivers them: every began, then
    /// every ended, each in the order they happened (the sweep's metrics fold them the same way).
    static func inDeliveryOrder(_ changes: [ContactChange], _ deliver: (ContactChange) -> Void) {
        for change in changes { if case .began = change { deliver(change) } }
        for change in changes { if case .ended = change { deliver(change) } }
    }
}

extension ItemState {
    /// An item's state from its body's engine numbers (metres → points): the one conversion
    /// the animator and the plan batch both report through.
    init(position p: Vec2, angle: Float, velocity v: Vec2, angularVelocity w: Float, awake: Bool) {
        let s = EngineSettings.pointsPerMetre
        self.init(center: Point(x: Double(p.x * s), y: Double(p.y * s)), angle: Double(angle),
                  velocity: Vector(dx: Double(v.x * s), dy: Double(v.y * s)), angularVelocity: Double(w), isAsleep: !awake)
    }
}

extension ItemStateLanes {
    /// The same conversion for eight lanes (`awake`: −1 or 0 per lane).
    init(x: SIMD8<Float>, y: SIMD8<Float>, angle: SIMD8<Float>, vx: SIMD8<Float>, vy: SIMD8<Float>, angularVelocity w: SIMD8<Float>,
         awake: SIMD8<Int32>) {
        let s = SIMD8<Float>(repeating: EngineSettings.pointsPerMetre)
        self.init(x: SIMD8<Double>(x * s), y: SIMD8<Double>(y * s), angle: SIMD8<Double>(angle),
                  vx: SIMD8<Double>(vx * s), vy: SIMD8<Double>(vy * s), angularVelocity: SIMD8<Double>(w),
                  awake: SIMD8<Int64>(truncatingIfNeeded: awake))
    }
}
