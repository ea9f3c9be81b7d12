// The contact manager (Box2D's b2ContactManager): contact slots only for pairs whose boxes
// overlap, in pair order — new ones from the broad phase (sort and sweep over the bodies' boxes,
// merged in by `PairOrder`), destroyed ones dropped at the next merge — and the contact update.

extension PhysicsWorld {
    func computeBoxes(swept: Bool) {
        if boxes.count != bodies.count {
            boxes = bodies.map { $0.shape.broadPhaseBox($0.xf) }
        }
        bodies.withUnsafeBufferPointer { bodies in
            for i in bodies.indices where bodies[i].isDynamic {   // static bodies never move
                let body = bodies.baseAddress! + i   // (not a copy of the whole Body)
                boxes[i] = body.pointee.shape.broadPhaseBox(body.pointee.xf, sweptFrom: swept ? body.pointee.sweep : nil)
            }
        }
    }

    /// The broad phase: contacts exist for allowed pairs whose boxes, grown by the margin and
    /// by the last sub-step's motion, overlap. The pairs found are made contacts in pair order,
    /// so serials follow it as when every allowed pair was tested in turn.
    ///
    /// A pair can newly need a contact only if one of its boxes changed since the last pass, or
    /// its contact was destroyed since (a pair that overlapped then either got a contact or is
    /// not allowed, and the rule has not changed: `BroadPhaseMemory.forget` otherwise). So when
    /// few boxes changed (a time-of-impact pass moves an island's bodies), only their pairs and
    /// the parted ones are tested; else sort and sweep tests them all. Both find the same pairs.
    func findNewContacts() {
        computeBoxes(swept: true)
        fresh.removeAll(keepingCapacity: true)
        // A local function, not a closure value: passed on as non-escaping, it allocates nothing.
        func consider(_ a: Int, _ b: Int) {
            guard bodies[a].isDynamic || bodies[b].isDynamic, let allowed = rule.allowedOrder(a, b),
                  !hasContact(allowed.order) else { return }
            fresh.append(allowed)
        }
        let changed = broadPhaseMemory.changedBodies(boxes)
        if let changed {
            boxes.withUnsafeBufferPointer { boxes in
                bodies.withUnsafeBufferPointer { bodies in
                    broadPhaseMemory.forEachChangedOverlap(changed, boxes, alive: { bodies[$0].alive }, consider)
                }
            }
        } else {
            boxes.withUnsafeBufferPointer { boxes in
                broadPhase.forEachOverlap(boxes, include: { bodies[$0].alive }, consider)
            }
        }
        broadPhaseMemory.remember(boxes)
        if fresh.isEmpty && emptySlots == 0 { return }
        fresh.sort { $0.order < $1.order }
        // Merge the new contacts into the slots (dropping empty ones), both in pair order.
        var newPairs: [BodyPair] = [], newOrders: [PairOrder] = [], newContacts: [Contact?] = []
        let total = pairs.count - emptySlots + fresh.count
        newPairs.reserveCapacity(total); newOrders.reserveCapacity(total); newContacts.reserveCapacity(total)
        var i = 0
        for f in fresh {
            while i < pairs.count && pairOrders[i] < f.order {
                if contacts[i] != nil { newPairs.append(pairs[i]); newOrders.append(pairOrders[i]); newContacts.append(contacts[i]) }
                i += 1
            }
            newPairs.append(oriented(f.pair)); newOrders.append(f.order)
            newContacts.append(Contact(serial: nextSerial))
            nextSerial += 1
        }
        while i < pairs.count {
            if contacts[i] != nil { newPairs.append(pairs[i]); newOrders.append(pairOrders[i]); newContacts.append(contacts[i]) }
            i += 1
        }
        pairs = newPairs; pairOrders = newOrders; contacts = newContacts
        emptySlots = 0
        contactLists.valid = false
    }

    /// Whether the pair at `order` has a contact (the slots are in pair order; each pair has one
    /// place in it).
    @inline(__always) func hasContact(_ order: PairOrder) -> Bool {
        var lo = 0, hi = pairOrders.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pairOrders[mid] < order { lo = mid + 1 } else { hi = mid }
        }
        return lo < pairOrders.count && pairOrders[lo] == order && contacts[lo] != nil
    }

    func destroyContact(_ i: Int) {
        guard let c = contacts[i] else { return }
        if c.touching { changes.append(.ended(a: pairs[i].a, b: pairs[i].b)) }
        contacts[i] = nil
        broadPhaseMemory.parted(pairs[i])
        emptySlots += 1
        contactLists.valid = false
    }

    /// Recomputes pair i's manifold at the bodies' current transforms, carrying impulses over by
    /// feature id, and records began/ended.
    func updateContact(_ i: Int) {
        guard var c = contacts[i] else { return }
        let p = pairs[i]
        // Through a pointer: `bodies[p.a].shape` copied the whole Body (and retained its shape's
        // arrays) for each of the two reads.
        let change = bodies.withUnsafeBufferPointer { bodies in
            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
            return c.refresh(a.pointee.shape, a.pointee.xf, b.pointee.shape, b.pointee.xf)
        }
        contacts[i] = c
        switch change {
        case .none: break
        case .began(let point):
            bodies[p.a].setAwake(true); bodies[p.b].setAwake(true)
            changes.append(.began(a: p.a, b: p.b, point: point))
        case .ended:
            bodies[p.a].setAwake(true); bodies[p.b].setAwake(true)
            changes.append(.ended(a: p.a, b: p.b))
        }
    }

    func updateContacts() {
        computeBoxes(swept: false)
        for i in pairs.indices where contacts[i] != nil {
            let p = pairs[i]
            let activeA = bodies[p.a].awake && bodies[p.a].isDynamic
            let activeB = bodies[p.b].awake && bodies[p.b].isDynamic
            if !activeA && !activeB { continue }   // asleep against static or asleep: keep as is
            if !boxes[p.a].overlaps(boxes[p.b]) { destroyContact(i); continue }
            updateContact(i)
        }
    }

    func other(_ pair: Int, _ body: Int) -> Int {
        pairs[pair].a == body ? pairs[pair].b : pairs[pair].a
    }
}
