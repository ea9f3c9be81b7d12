// The world: bodies, the contacts of the pairs that may collide and whose boxes overlap, and the
// fixed sub-step (Box2D 2.3's order: update contacts, solve islands, find new contacts, time of
// impact). Each stage lives in its own file: ContactManager.swift (contact slots, the broad
// phase and the contact update), ContactLists.swift (each body's contacts, newest first),
// IslandSolve.swift (the islands and their solve) and WorldTimeOfImpact.swift.

final class PhysicsWorld: StepStages {
    @exclusivity(unchecked) var bodies: [Body] = []
    @exclusivity(unchecked) var gravity = Vec2.zero
    /// Which bodies may collide and in what order their contacts are made.
    @exclusivity(unchecked) private(set) var rule = CollisionRule()
    /// The contact slots, in pair order: each slot's pair (ordered for `Collide.manifold`), its
    /// place in the pair order, and its contact (nil once destroyed, until the next broad phase
    /// drops the slot). Only pairs whose boxes overlap have slots, as in Box2D's contact list.
    /// Internal so the batched engine can hand a world's contacts in and out for a
    /// time-of-impact pass.
    @exclusivity(unchecked) var pairs: [BodyPair] = []
    @exclusivity(unchecked) var pairOrders: [PairOrder] = []
    @exclusivity(unchecked) var contacts: [Contact?] = []
    /// Slots whose contact was destroyed, dropped at the next broad phase.
    @exclusivity(unchecked) var emptySlots = 0
    /// Joints in the order they were made (Box2D lists them newest first: the walk reads them
    /// from the last). Internal so the batched engine solves a lane's joints in its world.
    @exclusivity(unchecked) var joints: [Joint] = []
    /// Touching changes since the caller last emptied this list.
    @exclusivity(unchecked) var changes: [ContactChange] = []
    @exclusivity(unchecked) var nextSerial = 0
    @exclusivity(unchecked) var stepCount = 0
    @exclusivity(unchecked) var needsNewContacts = true
    @exclusivity(unchecked) var broadPhase = SortAndSweep()
    /// The pairs whose fat boxes overlap, kept between passes so that each tests only those
    /// (FatBoxPairs.swift).
    @exclusivity(unchecked) var fatBoxPairs = FatBoxPairs()
    /// The broad phase's new pairs of one pass (kept for its capacity).
    @exclusivity(unchecked) var fresh: [(order: PairOrder, pair: BodyPair)] = []
    /// A merge's new slot of each old slot (−1: dropped) and slots of the contacts it made
    /// (kept for their capacity).
    @exclusivity(unchecked) var newSlotOfSlot: [Int32] = []
    @exclusivity(unchecked) var madeSlots: [Int32] = []
    /// The pairs (`pairKey`) that have a contact, for the broad phase to skip them; while
    /// `livePairsKnown` (cleared when the slots are replaced wholesale).
    @exclusivity(unchecked) var livePairs = PairKeyTable()
    @exclusivity(unchecked) var livePairsKnown = false

    /// One key per unordered pair of bodies.
    @inline(__always) static func pairKey(_ a: Int, _ b: Int) -> UInt64 {
        UInt64(min(a, b)) << 32 | UInt64(max(a, b))
    }

    /// Bytes held for contacts and the broad phase: linear in the contacts and bodies (the
    /// memory regression test reads this).
    var contactByteCount: Int {
        pairs.capacity * MemoryLayout<BodyPair>.stride + pairOrders.capacity * MemoryLayout<PairOrder>.stride
            + contacts.capacity * MemoryLayout<Contact?>.stride
            + boxes.capacity * MemoryLayout<AABB>.stride + broadPhase.byteCount + fatBoxPairs.byteCount + rule.byteCount
            + contactLists.byteCount + livePairs.heldBytes + refreshedChanges.capacity * MemoryLayout<TouchChange>.stride
            + updateSteps.capacity * MemoryLayout<ContactUpdateStep>.stride
    }

    /// Fields (Fields.swift), in the animator's order; the bodies each acts on are listed per
    /// body in `fieldsOfBody`.
    @exclusivity(unchecked) var fields: [WorldField] = [] { didSet { listFieldsOfBodies() } }
    /// Per body: (field, member) of every field acting on it, in field order.
    @exclusivity(unchecked) private(set) var fieldsOfBody: [[FieldMembership]] = []

    private func listFieldsOfBodies() {
        fieldsOfBody = Array(repeating: [], count: bodies.count)
        for (f, field) in fields.enumerated() {
            for (m, b) in field.bodies.enumerated() { fieldsOfBody[b].append(FieldMembership(field: Int32(f), member: Int32(m))) }
        }
    }

    // MARK: Bodies and pairs

    func addBody(_ body: Body) -> Int {
        bodies.append(body)
        fatBoxPairs.forget()
        boxes.removeAll()          // recomputed for every body on the next pass
        contactLists.valid = false
        needsNewContacts = true
        return bodies.count - 1
    }

    /// Removes a body: its touching contacts end and it never moves again.
    func removeBody(_ index: Int) {
        for (i, p) in pairs.enumerated() where p.a == index || p.b == index { destroyContact(i) }
        bodies[index].alive = false
        fatBoxPairs.forget()
    }

    /// The pair as `Collide.manifold` takes it (edge, then polygon, then circle).
    func oriented(_ p: BodyPair) -> BodyPair {
        Collide.shapeAComesFirst(bodies[p.a].shape.kind, bodies[p.b].shape.kind) ? p : BodyPair(a: p.b, b: p.a)
    }

    /// Replaces the collision rule, keeping the contacts (and warm-start impulses) of pairs it
    /// still allows the same way round.
    func setRule(_ newRule: CollisionRule) {
        rule = newRule
        fatBoxPairs.forget()
        var kept: [(order: PairOrder, pair: BodyPair, contact: Contact)] = []
        var dropped: [(pair: BodyPair, contact: Contact)] = []
        for i in pairs.indices {
            guard let c = contacts[i] else { continue }
            let p = pairs[i]
            if let allowed = rule.allowedOrder(p.a, p.b), oriented(allowed.pair) == p {
                kept.append((allowed.order, p, c))
            } else {
                dropped.append((p, c))
            }
        }
        kept.sort { $0.order < $1.order }
        pairs = kept.map(\.pair); pairOrders = kept.map(\.order); contacts = kept.map(\.contact)
        emptySlots = 0
        boxes.removeAll()   // a body may have become static (anchored) or dynamic
        contactLists.valid = false
        contactLists.ordered = false
        livePairsKnown = false
        for (p, c) in dropped.sorted(by: { $0.contact.serial < $1.contact.serial }) where c.touching {
            changes.append(.ended(a: p.a, b: p.b))
        }
        needsNewContacts = true
    }

    /// Empties the contact slots for the batched engine to hand a lane's contacts over, in pair
    /// order (`handOver`), around a time-of-impact pass; the slots keep their capacity.
    func beginHandOver(capacity: Int) {
        pairs.removeAll(keepingCapacity: true); pairOrders.removeAll(keepingCapacity: true)
        contacts.removeAll(keepingCapacity: true)
        // Room for every contact the caller may hand over, made at once rather than by doubling.
        if contacts.capacity < capacity {
            pairs.reserveCapacity(capacity); pairOrders.reserveCapacity(capacity); contacts.reserveCapacity(capacity)
        }
        emptySlots = 0
        contactLists.checked = false
        livePairsKnown = false
        fatBoxPairs.forget()
    }

    @inline(__always) func handOver(_ pair: BodyPair, _ order: PairOrder, _ contact: Contact) {
        pairs.append(pair); pairOrders.append(order); contacts.append(contact)
    }

    func wakeAll() {
        for i in bodies.indices where bodies[i].alive && bodies[i].isDynamic { bodies[i].setAwake(true) }
    }

    /// Forces and torques last one tick; the animator clears them after its sub-steps.
    func clearForces() {
        bodies.withUnsafeMutableBufferPointer { bodies in
            for i in bodies.indices { bodies[i].force = .zero; bodies[i].torque = 0 }
        }
    }

    var allDynamicBodiesAsleep: Bool {
        // Field by field: `contains` would hand the closure a copy of each Body, retaining its
        // shape's arrays (this runs every tick of every world).
        bodies.withUnsafeBufferPointer { bodies in
            for i in bodies.indices where bodies[i].alive && bodies[i].isDynamic && bodies[i].awake { return false }
            return true
        }
    }

    // MARK: The sub-step

    /// Advances the world by one fixed sub-step of `h` seconds (StepStages.swift).
    func step(_ h: Float) { runStages(h) }

    /// Each body's box grown by the margin (and, swept, by the last sub-step's motion), computed

    /// Each body's box grown by the margin (and, swept, by the last sub-step's motion), computed
    /// once per pass rather than once per pair. Readable so tests can compare them with the batch's.
    @exclusivity(unchecked) var boxes: [AABB] = []
    /// Each body's contacts and every contact, newest first (ContactLists.swift).
    @exclusivity(unchecked) var contactLists = ContactLists()
    /// Island-local index of each body during a time-of-impact island's solve (reused, not reallocated).
    @exclusivity(unchecked) var localIndex: [Int] = []
    /// The threads the sub-step's contact update and islands may split over (WorldThreads.swift).
    @exclusivity(unchecked) var threads = WorldThreads()
    /// Stages run over threads so far (tests read it).
    @exclusivity(unchecked) var stagesSplit = 0
    /// Per contact slot, while the update runs in two passes (ContactUpdateThreads.swift): what
    /// pass two does, and the touching change pass one found (where the step is `.changed`).
    /// Kept for their capacity.
    @exclusivity(unchecked) var updateSteps: [ContactUpdateStep] = []
    @exclusivity(unchecked) var refreshedChanges: [TouchChange] = []
    /// Whether the contact update refreshes box–box contacts eight per lane kernel call
    /// (ContactUpdateLanes.swift) or one pair at a time; the same bits either way (tests compare).
    @exclusivity(unchecked) var updatesContactsInPairLanes = true
    /// Contacts the lane kernel has refreshed so far (tests read it).
    @exclusivity(unchecked) var contactsRefreshedInLanes = 0
    /// The island walk's flags, stack and edge lists (IslandSolve.swift), grown with the world;
    /// made by the first walk: a batch's lane worlds never walk (their lanes do), and making an
    /// empty one for each of them cost more than their time-of-impact passes' own set-up.
    @exclusivity(unchecked) var walkScratch: IslandWalkScratch?
    /// What the discrete solve keeps from one island to the next, one per thread that solves
    /// islands (IslandSolve.swift); the first is the calling thread's.
    @exclusivity(unchecked) var islandScratches: [IslandSolveScratch] = []
    /// What a time-of-impact pass keeps from one impact to the next (WorldTimeOfImpact.swift).
    @exclusivity(unchecked) var toiScratch = TimeOfImpactScratch()
}

extension PhysicsWorld {
    // The stages of the sub-step (StepStages.swift), one world's way.
    /// The broad phase always takes the swept boxes here (the boxes at a start are the same).
    func findNewContacts(afterSolve _: Bool) { findNewContacts() }
    func solveIslands(_ step: StepContext) { solve(step.h, dtRatio: step.dtRatio) }
    func solveTimeOfImpact(_ step: StepContext) { solveTOI(step.h) }
}
