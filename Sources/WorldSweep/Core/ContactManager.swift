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
                boxes[i] = bodies[i].shape.broadPhaseBox(bodies[i].xf, sweptFrom: swept ? bodies[i].sweep : nil)
            }
        }
    }

    /// The broad phase: contacts exist for allowed pairs whose boxes, grown by the margin and
    /// by the last sub-step's motion, overlap. The pairs sort and sweep finds are made contacts
    /// in pair order, so serials follow it as when every allowed pair was tested in turn.
    func findNewContacts() {
        computeBoxes(swept: true)
        fresh.removeAll(keepingCapacity: true)
        boxes.withUnsafeBufferPointer { boxes in
            broadPhase.forEachOverlap(boxes, include: { bodies[$0].alive }) { a, b in
                guard bodies[a].isDynamic || bodies[b].isDynamic, let allowed = rule.allowedOrder(a, b),
                      !hasContact(allowed.order) else { return }
                fresh.append(allowed)
            }
        }
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
        emptySlots += 1
        contactLists.valid = false
    }

    /// Recomputes pair i's manifold at the bodies' current transforms, carrying impulses over by
    /// feature id, and records began/ended.
    func updateContact(_ i: Int) {
        guard var c = contacts[i] else { return }
        let p = pairs[i]
        let change = c.refresh(bodies[p.a].shape, bodies[p.a].xf, bodies[p.b].shape, bodies[p.b].xf)
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
