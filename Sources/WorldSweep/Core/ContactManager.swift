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
        let changed = broadPhaseMemory.changedBodies(boxes)
        if !livePairsKnown { listLivePairs() }
        // The rule and the bodies are read through locals: through `self`, reads of the rule's
        // arrays and of a body in this hot loop came with retains.
        let rule = self.rule
        bodies.withUnsafeBufferPointer { bodies in
            // A local function, not a closure value: passed on as non-escaping, it allocates nothing.
            func consider(_ a: Int, _ b: Int) {
                // Most overlapping pairs have their contact: that look-up first, the rule after.
                guard !bodies[a].isStatic || !bodies[b].isStatic, livePairs[Self.pairKey(a, b)] == nil,
                      let allowed = rule.allowedOrder(a, b) else { return }
                fresh.append(allowed)
            }
            boxes.withUnsafeBufferPointer { boxes in
                if let changed {
                    broadPhaseMemory.forEachChangedOverlap(changed, boxes, alive: { bodies[$0].alive }, consider)
                } else {
                    broadPhase.forEachOverlap(boxes, include: { bodies[$0].alive }, consider)
                }
            }
        }
        broadPhaseMemory.remember(boxes)
        if fresh.isEmpty && emptySlots == 0 { return }
        fresh.sort { $0.order < $1.order }
        // Merge the new contacts into the slots (dropping empty ones), both in pair order.
        var newPairs: [BodyPair] = [], newOrders: [PairOrder] = [], newContacts: [Contact?] = []
        let total = pairs.count - emptySlots + fresh.count
        newPairs.reserveCapacity(total); newOrders.reserveCapacity(total); newContacts.reserveCapacity(total)
        // Where each old slot went (−1: dropped) and where the new contacts went, for the
        // contact lists to keep their order without a sort.
        newSlotOfSlot.removeAll(keepingCapacity: true)
        madeSlots.removeAll(keepingCapacity: true)
        var i = 0
        func keepOld() {
            if contacts[i] != nil {
                newSlotOfSlot.append(Int32(newPairs.count))
                newPairs.append(pairs[i]); newOrders.append(pairOrders[i]); newContacts.append(contacts[i])
            } else {
                newSlotOfSlot.append(-1)
            }
            i += 1
        }
        for f in fresh {
            while i < pairs.count && pairOrders[i] < f.order { keepOld() }
            madeSlots.append(Int32(newPairs.count))
            livePairs[Self.pairKey(f.pair.a, f.pair.b)] = 0
            newPairs.append(oriented(f.pair)); newOrders.append(f.order)
            newContacts.append(Contact(serial: nextSerial))
            nextSerial += 1
        }
        while i < pairs.count { keepOld() }
        pairs = newPairs; pairOrders = newOrders; contacts = newContacts
        emptySlots = 0
        contactLists.slotsMerged(newSlot: newSlotOfSlot, made: madeSlots)
    }

    /// `livePairs` made anew from the slots (after they were replaced wholesale).
    func listLivePairs() {
        livePairs.removeAll()
        for i in pairs.indices where contacts[i] != nil { livePairs[Self.pairKey(pairs[i].a, pairs[i].b)] = 0 }
        livePairsKnown = true
    }

    func destroyContact(_ i: Int) {
        guard let c = contacts[i] else { return }
        if c.touching { changes.append(.ended(a: pairs[i].a, b: pairs[i].b)) }
        contacts[i] = nil
        if livePairsKnown { livePairs[Self.pairKey(pairs[i].a, pairs[i].b)] = nil }
        broadPhaseMemory.parted(pairs[i])
        emptySlots += 1
        contactLists.valid = false
    }

    /// Recomputes pair i's manifold at the bodies' current transforms, carrying impulses over by
    /// feature id, and records began/ended.
    func updateContact(_ i: Int) {
        guard var c = contacts[i] else { return }
        let p = pairs[i]
        // Through pointers: `bodies[p.a].shape` copied the whole Body (and retained its shape's
        // arrays) for each of the two reads; the shapes are lent as they lie.
        let change = bodies.withUnsafeMutableBufferPointer { bodies in
            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
            return Contact.refresh(&c, lending: &a.pointee.shape, a.pointee.xf, &b.pointee.shape, b.pointee.xf)
        }
        contacts[i] = c
        touchChanged(change, p)
    }

    /// What pair p's touching change does, in slot order: both bodies woken, the change recorded.
    func touchChanged(_ change: TouchChange, _ p: BodyPair) {
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
        if threads.splits(pairs.count, least: Self.leastSlotsToSplit) { updateContactsOverThreads(); return }
        if updatesContactsInPairLanes && pairs.count >= Self.leastSlotsForPairLanes { updateContactsInTwoPasses(chunks: 1); return }
        // One pair at a time, in one pass.
        for i in pairs.indices where contacts[i] != nil {
            let p = pairs[i]
            if !bodies[p.a].isActive && !bodies[p.b].isActive { continue }   // asleep against static or asleep: keep as is
            if !boxes[p.a].overlaps(boxes[p.b]) { destroyContact(i); continue }
            updateContact(i)
        }
    }

    func other(_ pair: Int, _ body: Int) -> Int {
        pairs[pair].a == body ? pairs[pair].b : pairs[pair].a
    }
}
