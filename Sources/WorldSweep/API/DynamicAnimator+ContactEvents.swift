// Contact events to the collision behaviors' delegates, in the order UIKit delivers them.
extension DynamicAnimator {
    func deliverContactEvents() {
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
        let p = point.map(ContactChange.pointInPoints)
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
}
