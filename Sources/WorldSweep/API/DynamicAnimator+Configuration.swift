// From the behaviors to the world: the plan compiled, bodies, boundaries and joints kept where they stay.
extension DynamicAnimator {

    /// Rebuilds what the world needs from the behaviors: compiles them into a plan (bodies for
    /// items, materials with last-setter-wins, gravity, boundary edges, the pairs allowed to
    /// collide, pushes) and brings the world in line with it, keeping the bodies (and motion) of
    /// items and boundaries that stay.
    func configureWorld() {
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

    /// The behaviors as plain values, for the plan: each describes itself (pending velocities are
    /// handed over here).
    private func planInput(_ all: [DynamicBehavior], order: [DynamicItem], indexOfItem: [ObjectIdentifier: Int]) -> PlanInput {
        let context = PlanDescription(indexOfItem: indexOfItem, order: order, referenceBounds: referenceBounds)
        return PlanInput(referenceBounds: referenceBounds, items: order.map(PlanInput.Item.init),
                         behaviors: all.map { $0.planBehavior(context) }, gravity: gravityDirection)
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
}
