// Each body's contacts, newest first (Box2D's contact edges, which the islands and time of impact
// walk), and the world's contact list newest first, kept between sub-steps and rebuilt only when
// contacts were made or destroyed.

/// The contact lists of one world, in one array: body b's contacts are
/// `items[start[b] ..< start[b + 1]]` (one array rather than one per body, so a rebuild allocates
/// nothing once the arrays have grown).
struct ContactLists {
    private var start: [Int] = []
    private var items: [Int] = []
    /// Every contact, newest first: Box2D's world contact list, which time of impact walks.
    private(set) var newestFirst: [Int] = []
    /// Serial of each slot's contact when the lists were built (−1: none).
    private var serials: [Int] = []
    /// Whether the lists match the contacts (cleared when contacts are made or destroyed).
    var valid = false
    /// Whether the lists were checked against `serials` since the contacts were last replaced
    /// wholesale (the batch's time-of-impact hand-over usually brings back the contacts it took,
    /// and then the lists stay).
    var checked = true

    var byteCount: Int { newestFirst.heldBytes + serials.heldBytes + start.heldBytes + items.heldBytes }

    /// Body `body`'s contacts, newest first (valid until the contacts change).
    @inline(__always) func list(of body: Int) -> ArraySlice<Int> { items[start[body] ..< start[body + 1]] }

    /// Brings the lists in line with `contacts` (slot → contact) and their `pairs`.
    mutating func rebuild(_ contacts: [Contact?], _ pairs: [BodyPair], bodyCount: Int) {
        if valid && !checked {
            checked = true
            if serials.count != contacts.count {
                valid = false
            } else {
                for i in contacts.indices where (contacts[i]?.serial ?? -1) != serials[i] {
                    valid = false
                    break
                }
            }
        }
        if valid { return }
        // In place, keeping the arrays' storage: a time-of-impact hand-off replaces the contacts,
        // so the batch's hand-overs rebuild these small lists often. Serials are unique, so the
        // order is the same as a fresh sort's.
        newestFirst.removeAll(keepingCapacity: true)
        for i in contacts.indices where contacts[i] != nil { newestFirst.append(i) }
        newestFirst.sort { contacts[$0]!.serial > contacts[$1]!.serial }
        // Each body's list, newest first: counted, then filled in that order (a counting sort).
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
        serials.removeAll(keepingCapacity: true)
        for c in contacts { serials.append(c?.serial ?? -1) }
        valid = true
        checked = true
    }
}

extension PhysicsWorld {
    /// For the batched engine, after it set `contacts` wholesale: the lists stay if the same
    /// pairs have the same contacts (serials).
    func contactsWereReplaced() { contactLists.checked = false }

    /// The contacts of `body`, newest first (valid until the contacts change).
    func contactList(of body: Int) -> ArraySlice<Int> {
        contactLists.rebuild(contacts, pairs, bodyCount: bodies.count)
        return contactLists.list(of: body)
    }

    /// Every contact, newest first: Box2D's world contact list, which time of impact walks.
    func contactsNewestFirst() -> [Int] {
        contactLists.rebuild(contacts, pairs, bodyCount: bodies.count)
        return contactLists.newestFirst
    }
}
