// The contact manager (Box2D's b2ContactManager): contact slots only for pairs whose boxes
// overlap, in pair order — new ones from the broad phase (sort and sweep over the bodies' boxes,
// merged in by `PairOrder`), destroyed ones dropped at the next merge — and the contact update.

extension PhysicsWorld {
    /// The most bodies for which the broad phase tests every pair rather than keep fat boxes.
    static let mostBodiesToTestEveryPair = 12

    func computeBoxes(swept: Bool) {
        if boxes.count != bodies.count {
            boxes = bodies.map { $0.shape.broadPhaseBox($0.xf) }
        }
        if threads.splits(bodies.count, least: Self.leastBodiesToSplit) { return computeBoxesOverThreads(swept: swept) }
        bodies.withUnsafeBufferPointer { bodies in
            boxes.withUnsafeMutableBufferPointer { boxes in Self.computeBoxes(bodies.indices, of: bodies, into: boxes, swept: swept) }
        }
    }

    /// The boxes of the dynamic bodies in `range` (static bodies never move): each box is a
    /// function of its own body alone, written to its own place, so ranges may run on any thread.
    @inline(__always)
    static func computeBoxes(_ range: Range<Int>, of bodies: UnsafeBufferPointer<Body>, into boxes: UnsafeMutableBufferPointer<AABB>,
                             swept: Bool) {
        for i in range {
            let body = bodies.baseAddress! + i   // (not a copy of the whole Body)
            guard body.pointee.isDynamic else { continue }
            boxes[i] = body.pointee.shape.broadPhaseBox(body.pointee.xf, sweptFrom: swept ? body.pointee.sweep : nil)
        }
    }

    /// The broad phase: contacts exist for allowed pairs whose boxes, grown by the margin and
    /// by the last sub-step's motion, overlap. The pairs found are made contacts in pair order,
    /// so serials follow it as when every allowed pair was tested in turn.
    ///
    /// Only pairs whose fat boxes overlap are tested (`FatBoxPairs`): the list of such pairs
    /// without a contact is kept from pass to pass, and changes only for bodies whose box left
    /// its fat box and for pairs whose contact was destroyed. A box with a NaN bound (it overlaps
    /// everything) makes the pass sort and sweep every box instead. A world of at most
    /// `mostBodiesToTestEveryPair` bodies tests every pair, keeping no list (a batch's lane
    /// world hands over for one time-of-impact pass, where making the list cost more than the
    /// pass's tests). All three find the same pairs (`AABB.overlaps`, NaN bounds included).
    func findNewContacts() {
        computeBoxes(swept: true)
        fresh.removeAll(keepingCapacity: true)
        if !livePairsKnown { listLivePairs() }
        // The rule and the bodies are read through locals: through `self`, reads of the rule's
        // arrays and of a body in this hot loop came with retains.
        let rule = self.rule
        bodies.withUnsafeBufferPointer { bodies in
            // Local functions, not closure values: passed on as non-escaping, they allocate nothing.
            func candidate(_ a: Int, _ b: Int) -> FatBoxPairs.Candidate? {
                // Most pairs met have their contact: that look-up first (before reading the
                // bodies), the rule after.
                guard !livePairs.contains(Self.pairKey(a, b)), !bodies[a].isStatic || !bodies[b].isStatic else { return nil }
                return rule.allowedOrder(a, b)
            }
            func consider(_ a: Int, _ b: Int) {
                if let allowed = candidate(a, b) { fresh.append(allowed) }
            }
            func found(_ c: FatBoxPairs.Candidate) { fresh.append(c) }
            boxes.withUnsafeBufferPointer { boxes in
                if boxes.count <= Self.mostBodiesToTestEveryPair {
                    for a in boxes.indices where bodies[a].alive {
                        for b in (a + 1)..<boxes.count where bodies[b].alive && boxes[a].overlaps(boxes[b]) { consider(a, b) }
                    }
                } else if !fatBoxPairs.forEachNewOverlap(boxes, alive: { bodies[$0].alive }, candidate: candidate, found) {
                    broadPhase.forEachOverlap(boxes, include: { bodies[$0].alive }, consider)
                }
            }
        }
        if fresh.isEmpty && emptySlots == 0 { return }
        fresh.sort { $0.order < $1.order }
        mergeFresh()
        contactLists.slotsMerged(newSlot: newSlotOfSlot, made: madeSlots)
    }

    /// Merges `fresh` (sorted) into the slots as new contacts, dropping empty slots, both in pair
    /// order, in place: the kept slots close up, then the merge runs from the back, so each slot
    /// moves at most twice. Notes where each old slot went (−1: dropped) and the slots made.
    private func mergeFresh() {
        let old = pairs.count
        newSlotOfSlot.removeAll(keepingCapacity: true)
        newSlotOfSlot.append(contentsOf: repeatElement(-1, count: old))
        madeSlots.removeAll(keepingCapacity: true)
        madeSlots.append(contentsOf: repeatElement(-1, count: fresh.count))
        // Through buffer pointers: element by element through `self`, each write checked uniqueness.
        let kept = pairs.withUnsafeMutableBufferPointer { pairs in
            pairOrders.withUnsafeMutableBufferPointer { orders in
                contacts.withUnsafeMutableBufferPointer { contacts in
                    newSlotOfSlot.withUnsafeMutableBufferPointer { newSlot in
                        Self.closeUp(pairs, orders, contacts, newSlot)
                    }
                }
            }
        }
        let total = kept + fresh.count
        if total > old {
            pairs.append(contentsOf: repeatElement(BodyPair(a: 0, b: 0), count: total - old))
            pairOrders.append(contentsOf: repeatElement(PairOrder(major: 0, minor: 0), count: total - old))
            contacts.append(contentsOf: repeatElement(nil, count: total - old))
        } else if total < old {
            pairs.removeLast(old - total); pairOrders.removeLast(old - total); contacts.removeLast(old - total)
        }
        // Where each kept slot ends up, by its place among the kept.
        var finalSlot = [Int32](repeating: 0, count: kept)
        pairs.withUnsafeMutableBufferPointer { pairs in
            pairOrders.withUnsafeMutableBufferPointer { orders in
                contacts.withUnsafeMutableBufferPointer { contacts in
                    finalSlot.withUnsafeMutableBufferPointer { finalSlot in
                        mergeFromTheBack(pairs, orders, contacts, kept: kept, finalSlot)
                    }
                }
            }
        }
        newSlotOfSlot.withUnsafeMutableBufferPointer { newSlot in
            for i in newSlot.indices where newSlot[i] >= 0 { newSlot[i] = finalSlot[Int(newSlot[i])] }
        }
        for f in fresh { livePairs[Self.pairKey(f.pair.a, f.pair.b)] = 0 }
        nextSerial += fresh.count
        emptySlots = 0
    }

    /// Moves the slots with a contact to the front, in order; `newSlot[i]`: old slot i's place
    /// among them (left −1 for an empty one). Returns how many were kept.
    private static func closeUp(_ pairs: UnsafeMutableBufferPointer<BodyPair>, _ orders: UnsafeMutableBufferPointer<PairOrder>,
                                _ contacts: UnsafeMutableBufferPointer<Contact?>, _ newSlot: UnsafeMutableBufferPointer<Int32>) -> Int {
        var kept = 0
        for i in contacts.indices where contacts[i] != nil {
            if kept != i { pairs[kept] = pairs[i]; orders[kept] = orders[i]; contacts[kept] = contacts[i] }
            newSlot[i] = Int32(kept)
            kept += 1
        }
        return kept
    }

    /// The `kept` slots at the front and `fresh` merged into all the slots by pair order, from the
    /// last: `finalSlot[k]` is where kept slot k went, `madeSlots[f]` where fresh pair f's contact is.
    private func mergeFromTheBack(_ pairs: UnsafeMutableBufferPointer<BodyPair>, _ orders: UnsafeMutableBufferPointer<PairOrder>,
                                  _ contacts: UnsafeMutableBufferPointer<Contact?>, kept: Int, _ finalSlot: UnsafeMutableBufferPointer<Int32>) {
        var r = kept - 1, w = pairs.count - 1
        for f in fresh.indices.reversed() {
            let order = fresh[f].order
            while r >= 0 && order < orders[r] {
                pairs[w] = pairs[r]; orders[w] = orders[r]; contacts[w] = contacts[r]
                finalSlot[r] = Int32(w)
                r -= 1; w -= 1
            }
            pairs[w] = oriented(fresh[f].pair); orders[w] = order
            contacts[w] = Contact(serial: nextSerial + f)
            madeSlots[f] = Int32(w)
            w -= 1
        }
        while r >= 0 { finalSlot[r] = Int32(r); r -= 1 }
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
        fatBoxPairs.parted(pairs[i])
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
