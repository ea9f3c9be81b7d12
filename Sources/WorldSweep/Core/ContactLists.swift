// Each body's contacts, newest first (Box2D's contact edges, which the islands and time of impact
// walk), and the world's contact list newest first, kept between sub-steps. The world list is kept
// in order as contacts are made and destroyed (Box2D prepends a new contact to its lists), so a
// rebuild after that only drops destroyed slots: no sort. The per-body lists are counted out of
// the world list when first asked for after a rebuild (only time of impact asks, after an impact).

/// The contact lists of one world, in one array: body b's contacts are
/// `items[start[b] ..< start[b + 1]]` (one array rather than one per body, so a rebuild allocates
/// nothing once the arrays have grown).
struct ContactLists {
    private var start: [Int] = []
    private var items: [Int] = []
    /// Every contact, newest first: Box2D's world contact list, which time of impact walks.
    private(set) var newestFirst: [Int] = []
    /// Serial of each slot's contact when the lists were built (−1: none), kept once the
    /// contacts have been replaced wholesale (`recordsSerials`): a world stepped on its own never
    /// checks them.
    private var serials: [Int] = []
    private var recordsSerials = false
    /// `slotsMerged`'s scratch (kept for its capacity).
    private var reordered: [Int] = []
    /// Whether the lists match the contacts (cleared when contacts are made or destroyed).
    var valid = false
    /// Whether `start` and `items` were counted out of `newestFirst` since its last rebuild.
    private var bodyListsMade = false
    /// Whether `newestFirst` holds every slot with a contact, newest first, in the slots'
    /// current numbering, and perhaps slots whose contact was destroyed since (a rebuild drops
    /// them). Cleared when the slots are replaced other than by `slotsMerged`.
    var ordered = false
    /// Whether the lists were checked against `serials` since the contacts were last replaced
    /// wholesale (the batch's time-of-impact hand-over usually brings back the contacts it took,
    /// and then the lists stay).
    var checked = true

    var byteCount: Int {
        newestFirst.heldBytes + serials.heldBytes + start.heldBytes + items.heldBytes + reordered.heldBytes
    }

    /// Body `body`'s contacts, newest first (valid until the contacts change), of the lists as
    /// last rebuilt with these `pairs`.
    mutating func list(of body: Int, _ pairs: [BodyPair], bodyCount: Int) -> ArraySlice<Int> {
        if !bodyListsMade { makeBodyLists(pairs, bodyCount: bodyCount) }
        return items[start[body] ..< start[body + 1]]
    }

    /// Brings the lists in line with `contacts` (slot → contact) and their `pairs`.
    mutating func rebuild(_ contacts: [Contact?], _ pairs: [BodyPair], bodyCount: Int) {
        if !checked {
            checked = true
            var same = valid && recordsSerials && serials.count == contacts.count
            recordsSerials = true
            if same {
                for i in contacts.indices where (contacts[i]?.serial ?? -1) != serials[i] {
                    same = false
                    break
                }
            }
            if !same { valid = false; ordered = false }
        }
        if valid { return }
        // In place, keeping the arrays' storage: a time-of-impact hand-off replaces the contacts,
        // so the batch's hand-overs rebuild these small lists often.
        if ordered {
            let kept = contacts.withUnsafeBufferPointer { contacts in
                newestFirst.withUnsafeMutableBufferPointer { list in
                    var kept = 0
                    for k in list.indices where contacts[list[k]] != nil { list[kept] = list[k]; kept += 1 }
                    return kept
                }
            }
            newestFirst.removeLast(newestFirst.count - kept)
        } else {
            // Serials are unique, so the order is the same as any other sort's.
            newestFirst.removeAll(keepingCapacity: true)
            for i in contacts.indices where contacts[i] != nil { newestFirst.append(i) }
            newestFirst.sort { contacts[$0]!.serial > contacts[$1]!.serial }
            ordered = true
        }
        bodyListsMade = false
        if recordsSerials {
            serials.removeAll(keepingCapacity: true)
            for c in contacts { serials.append(c?.serial ?? -1) }
        }
        valid = true
    }

    /// Each body's list, newest first, out of `newestFirst`: counted, then filled in that order
    /// (a counting sort).
    private mutating func makeBodyLists(_ pairs: [BodyPair], bodyCount: Int) {
        start.removeAll(keepingCapacity: true)
        start.append(contentsOf: repeatElement(0, count: bodyCount + 1))
        for i in newestFirst { start[pairs[i].a + 1] += 1; start[pairs[i].b + 1] += 1 }
        for b in 0..<bodyCount { start[b + 1] += start[b] }
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: repeatElement(0, count: start[bodyCount]))
        for i in newestFirst {
            let a = pairs[i].a, b = pairs[i].b
            items[start[a]] = i; start[a] += 1
            items[start[b]] = i; start[b] += 1
        }
        // Filling moved each start to the next body's: shift them back.
        for b in stride(from: bodyCount, to: 0, by: -1) { start[b] = start[b - 1] }
        start[0] = 0
        bodyListsMade = true
    }

    /// The slots were merged into a new numbering: old slot i is now `newSlot[i]` (−1: dropped,
    /// its contact destroyed), and `made` are the new numbers of the contacts just made, oldest
    /// first. Newer than every contact before them, they lead the list, newest first.
    mutating func slotsMerged(newSlot: [Int32], made: [Int32]) {
        valid = false
        guard ordered else { return }
        reordered.removeAll(keepingCapacity: true)
        for k in made.reversed() { reordered.append(Int(k)) }
        for i in newestFirst where newSlot[i] >= 0 { reordered.append(Int(newSlot[i])) }
        swap(&newestFirst, &reordered)
    }
}

extension PhysicsWorld {
    /// For the batched engine, after it set `contacts` wholesale: the lists stay if the same
    /// pairs have the same contacts (serials).
    func contactsWereReplaced() { contactLists.checked = false }

    /// The contacts of `body`, newest first (valid until the contacts change).
    func contactList(of body: Int) -> ArraySlice<Int> {
        contactLists.rebuild(contacts, pairs, bodyCount: bodies.count)
        return contactLists.list(of: body, pairs, bodyCount: bodies.count)
    }

    /// Every contact, newest first: Box2D's world contact list, which time of impact walks.
    func contactsNewestFirst() -> [Int] {
        contactLists.rebuild(contacts, pairs, bodyCount: bodies.count)
        return contactLists.newestFirst
    }
}
