// The world: bodies, the contacts of the pairs that may collide and whose boxes overlap, and the fixed sub-step
// (Box2D 2.3's order: update contacts, solve islands, find new contacts, time of impact).

/// A contact between the two bodies of an allowed pair. Fields are ordered to pack into 120
/// bytes: contacts are copied whole at every time-of-impact hand-off, and from 128 bytes on the
/// compiler copies them through `memcpy` and reads `Contact?` through an outlined function.
struct Contact: Sendable {
    var manifold = Manifold()
    var touching = false
    var enabled = true
    var islandFlag = false
    var hasTOI = false
    /// Whether `manifold` has been computed (at `manifoldTransforms`).
    var hasManifold = false
    var toi: Float = 1
    var toiCount: Int32 = 0
    /// Creation order: newer contacts come first in a body's contact list, as in Box2D.
    var serial: Int
    /// The transforms of A and B that `manifold` was computed at.
    var manifoldTransforms = (a: Transform.identity, b: Transform.identity)
}

/// How a manifold update changed a contact's touching state.
enum TouchChange: Equatable {
    case none
    case began(point: Vec2)
    case ended
}

extension Contact {
    /// Recomputes the manifold at the bodies' transforms, carrying impulses over by feature id;
    /// says whether touching began (with the first world point) or ended. Both engines call this.
    mutating func refresh(_ shapeA: Shape, _ xfA: Transform, _ shapeB: Shape, _ xfB: Transform) -> TouchChange {
        enabled = true
        if isCurrent(xfA, xfB) { return .none }
        let old = manifold
        let wasTouching = touching
        var m = Collide.manifold(shapeA, xfA, shapeB, xfB)
        for j in 0..<m.pointCount {
            var mp = m[j]
            let same0 = old.pointCount > 0 && old.point0.id.key == mp.id.key
            let same1 = old.pointCount > 1 && old.point1.id.key == mp.id.key
            mp.normalImpulse = carriedImpulse(sameAsOld0: same0, sameAsOld1: same1, old.point0.normalImpulse, old.point1.normalImpulse)
            mp.tangentImpulse = carriedImpulse(sameAsOld0: same0, sameAsOld1: same1, old.point0.tangentImpulse, old.point1.tangentImpulse)
            m[j] = mp
        }
        manifold = m
        manifoldTransforms = (xfA, xfB)
        hasManifold = true
        touching = m.pointCount > 0
        if touching && !wasTouching {
            return .began(point: WorldManifold(m, xfA, shapeA.radius, xfB, shapeB.radius).points.0)
        }
        return wasTouching && !touching ? .ended : .none
    }

    /// Whether `refresh` at these transforms would leave the contact as it is (but for `enabled`),
    /// so that it can be left out: a quarter of twin-drop's updates, bodies at rest or held by a
    /// push. The narrow phase is a function of the shapes (a body's never changes) and the
    /// transforms alone, so the same bits give the same manifold; each point then finds its own
    /// old impulses by feature id, unless two points share an id, when both would take the first's.
    @inline(__always) func isCurrent(_ xfA: Transform, _ xfB: Transform) -> Bool {
        manifoldIsCurrent(Float.self, hasManifold: hasManifold,
                          sameTransforms: manifoldTransforms.a.isIdentical(to: xfA) && manifoldTransforms.b.isIdentical(to: xfB),
                          twoPointsShareAnId: manifold.pointCount == 2 && manifold.point0.id.key == manifold.point1.id.key)
    }
}

/// `Contact.isCurrent`'s rule, written once for a contact and for lanes of them: a manifold made
/// at the same transforms, bit for bit, stays, unless two of its points share a feature id.
@inline(__always)
func manifoldIsCurrent<L: LaneReal>(_: L.Type, hasManifold: L.Mask, sameTransforms: L.Mask, twoPointsShareAnId: L.Mask) -> L.Mask {
    L.and(L.and(hasManifold, sameTransforms), L.not(twoPointsShareAnId))
}

extension Contact {
}

/// Warm starting across a manifold update: a new point takes the impulse of the first old point
/// with its feature id (`sameAsOld0`, `sameAsOld1`: that old point exists and has the new point's
/// id), else starts from none. Written once for `Contact.refresh` and the batch's lanes.
@inline(__always)
func carriedImpulse<L: LaneReal>(sameAsOld0: L.Mask, sameAsOld1: L.Mask, _ old0: L, _ old1: L) -> L {
    L.select(sameAsOld0, old0, L.select(sameAsOld1, old1, L(0)))
}

/// A began/ended change of a pair's touching state, in the order it happened. `a` and `b` are
/// body indices; the point is in metres.
enum ContactChange: Sendable, Equatable {
    case began(a: Int, b: Int, point: Vec2)
    case ended(a: Int, b: Int)
}

struct BodyPair: Hashable, Sendable {
    /// Ordered so that `Collide.manifold(a, b)` accepts it (edge, then polygon, then circle).
    var a: Int
    var b: Int
}

final class PhysicsWorld {
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
    @exclusivity(unchecked) private var emptySlots = 0
    /// Joints in the order they were made (Box2D lists them newest first: the walk reads them
    /// from the last). Internal so the batched engine solves a lane's joints in its world.
    @exclusivity(unchecked) var joints: [Joint] = []
    /// Touching changes since the caller last emptied this list.
    @exclusivity(unchecked) var changes: [ContactChange] = []
    @exclusivity(unchecked) var nextSerial = 0
    @exclusivity(unchecked) var stepCount = 0
    @exclusivity(unchecked) var needsNewContacts = true
    @exclusivity(unchecked) private var broadPhase = SortAndSweep()
    /// The broad phase's new pairs of one pass (kept for its capacity).
    @exclusivity(unchecked) private var fresh: [(order: PairOrder, pair: BodyPair)] = []

    /// One key per unordered pair of bodies.
    @inline(__always) static func pairKey(_ a: Int, _ b: Int) -> UInt64 {
        UInt64(min(a, b)) << 32 | UInt64(max(a, b))
    }

    /// Bytes held for contacts and the broad phase: linear in the contacts and bodies (the
    /// memory regression test reads this).
    var contactByteCount: Int {
        pairs.capacity * MemoryLayout<BodyPair>.stride + pairOrders.capacity * MemoryLayout<PairOrder>.stride
            + contacts.capacity * MemoryLayout<Contact?>.stride
            + boxes.capacity * MemoryLayout<AABB>.stride + broadPhase.byteCount + rule.byteCount
            + cachedNewestFirst.capacity * 8 + cachedSerials.capacity * 8
            + (contactListStart.capacity + contactListItems.capacity) * 8
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
        boxes.removeAll()          // recomputed for every body on the next pass
        contactListsValid = false
        needsNewContacts = true
        return bodies.count - 1
    }

    /// Removes a body: its touching contacts end and it never moves again.
    func removeBody(_ index: Int) {
        for (i, p) in pairs.enumerated() where p.a == index || p.b == index { destroyContact(i) }
        bodies[index].alive = false
    }

    /// The pair as `Collide.manifold` takes it (edge, then polygon, then circle).
    private func oriented(_ p: BodyPair) -> BodyPair {
        Collide.shapeAComesFirst(bodies[p.a].shape.kind, bodies[p.b].shape.kind) ? p : BodyPair(a: p.b, b: p.a)
    }

    /// Replaces the collision rule, keeping the contacts (and warm-start impulses) of pairs it
    /// still allows the same way round.
    func setRule(_ newRule: CollisionRule) {
        rule = newRule
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
        contactListsValid = false
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
        contactListsChecked = false
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

    /// Advances the world by one fixed sub-step of `h` seconds.
    func step(_ h: Float) {
        let dtRatio: Float = stepCount == 0 ? 0 : 1   // no impulses to carry on the first step
        if needsNewContacts { findNewContacts(); needsNewContacts = false }
        updateContacts()
        if h > 0 {
            solve(h, dtRatio: dtRatio)
            findNewContacts()
            solveTOI(h)
        }
        stepCount += 1
    }

    /// Each body's box grown by the margin (and, swept, by the last sub-step's motion), computed
    /// once per pass rather than once per pair. Readable so tests can compare them with the batch's.
    @exclusivity(unchecked) private(set) var boxes: [AABB] = []

    private func computeBoxes(swept: Bool) {
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
    private func findNewContacts() {
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
        contactListsValid = false
    }

    /// Whether the pair at `order` has a contact (the slots are in pair order; each pair has one
    /// place in it).
    @inline(__always) private func hasContact(_ order: PairOrder) -> Bool {
        var lo = 0, hi = pairOrders.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pairOrders[mid] < order { lo = mid + 1 } else { hi = mid }
        }
        return lo < pairOrders.count && pairOrders[lo] == order && contacts[lo] != nil
    }

    private func destroyContact(_ i: Int) {
        guard let c = contacts[i] else { return }
        if c.touching { changes.append(.ended(a: pairs[i].a, b: pairs[i].b)) }
        contacts[i] = nil
        emptySlots += 1
        contactListsValid = false
    }

    /// Recomputes pair i's manifold at the bodies' current transforms, carrying impulses over by
    /// feature id, and records began/ended.
    private func updateContact(_ i: Int) {
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

    private func updateContacts() {
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

    /// Contact indices of each body, newest first (the order islands are traversed in); rebuilt
    /// only when contacts were created or destroyed.
    /// For the batched engine, after it set `contacts` wholesale.
    /// The lists stay if the same pairs have the same contacts (serials): a time-of-impact
    /// hand-off usually brings back the contacts it took.
    func contactsWereReplaced() { contactListsChecked = false }

    /// Each body's contacts, newest first, in one array: body b's are
    /// `contactListItems[contactListStart[b] ..< contactListStart[b + 1]]` (one array rather
    /// than one per body, so a rebuild allocates nothing once the arrays have grown).
    @exclusivity(unchecked) private var contactListStart: [Int] = []
    @exclusivity(unchecked) private var contactListItems: [Int] = []
    @exclusivity(unchecked) private var contactListsValid = false

    @exclusivity(unchecked) private var cachedNewestFirst: [Int] = []
    /// Serial of each pair's contact when the lists were built (−1: none), and whether the
    /// contacts were replaced since (then the lists are checked against these before use).
    @exclusivity(unchecked) private var cachedSerials: [Int] = []
    @exclusivity(unchecked) private var contactListsChecked = true

    /// The contacts of `body`, newest first (valid until the contacts change).
    private func contactList(of body: Int) -> ArraySlice<Int> {
        rebuildContactLists()
        return contactListItems[contactListStart[body] ..< contactListStart[body + 1]]
    }

    /// Every contact, newest first: Box2D's world contact list, which time of impact walks.
    private func contactsNewestFirst() -> [Int] {
        rebuildContactLists()
        return cachedNewestFirst
    }

    private func rebuildContactLists() {
        if contactListsValid && !contactListsChecked {
            contactListsChecked = true
            if cachedSerials.count != contacts.count {
                contactListsValid = false
            } else {
                for i in contacts.indices where (contacts[i]?.serial ?? -1) != cachedSerials[i] {
                    contactListsValid = false
                    break
                }
            }
        }
        if contactListsValid { return }
        // In place, keeping the arrays' storage: a time-of-impact hand-off replaces the contacts,
        // so the batch's hand-overs rebuild these small lists often. Serials are unique, so the
        // order is the same as a fresh sort's.
        cachedNewestFirst.removeAll(keepingCapacity: true)
        for i in contacts.indices where contacts[i] != nil { cachedNewestFirst.append(i) }
        cachedNewestFirst.sort { contacts[$0]!.serial > contacts[$1]!.serial }
        // Each body's list, newest first: counted, then filled in that order (a counting sort).
        contactListStart.removeAll(keepingCapacity: true)
        contactListStart.append(contentsOf: repeatElement(0, count: bodies.count + 1))
        for i in cachedNewestFirst { contactListStart[pairs[i].a + 1] += 1; contactListStart[pairs[i].b + 1] += 1 }
        for b in 0..<bodies.count { contactListStart[b + 1] += contactListStart[b] }
        contactListItems.removeAll(keepingCapacity: true)
        contactListItems.append(contentsOf: repeatElement(0, count: contactListStart[bodies.count]))
        for i in cachedNewestFirst {
            let a = pairs[i].a, b = pairs[i].b
            contactListItems[contactListStart[a]] = i; contactListStart[a] += 1
            contactListItems[contactListStart[b]] = i; contactListStart[b] += 1
        }
        // Filling moved each start to the next body's: shift them back.
        for b in stride(from: bodies.count, to: 0, by: -1) { contactListStart[b] = contactListStart[b - 1] }
        contactListStart[0] = 0
        cachedSerials.removeAll(keepingCapacity: true)
        for c in contacts { cachedSerials.append(c?.serial ?? -1) }
        contactListsValid = true
        contactListsChecked = true
    }

    private func other(_ pair: Int, _ body: Int) -> Int {
        pairs[pair].a == body ? pairs[pair].b : pairs[pair].a
    }

    // MARK: Discrete solve

    /// Islands in Box2D 2.x's order (`Islands.walk`), each solved as the walk completes it, its
    /// contacts in the order the walk met them.
    private func solve(_ h: Float, dtRatio: Float) {
        let touching = contactsNewestFirst().compactMap { ci -> Int32? in
            guard let c = contacts[ci], c.enabled, c.touching else { return nil }
            return Int32(ci)
        }
        var bodyFlag = [Bool](repeating: false, count: bodies.count)
        var contactFlag = [Bool](repeating: false, count: touching.count)
        var stack = [Int32](repeating: 0, count: bodies.count)
        var jointFlag = [Bool](repeating: false, count: joints.count)
        var islandBodies: [Int] = [], islandContacts: [Int] = [], islandJoints: [Int] = []
        touching.withUnsafeBufferPointer { touching in
            bodyFlag.withUnsafeMutableBufferPointer { bodyFlag in
                contactFlag.withUnsafeMutableBufferPointer { contactFlag in
                    stack.withUnsafeMutableBufferPointer { stack in
                        jointFlag.withUnsafeMutableBufferPointer { jointFlag in
                            Islands.walk(bodyCount: bodies.count, contacts: touching, pair: { pairs[$0] },
                                         isStatic: { bodies[$0].isStatic }, canSeed: { bodies[$0].alive && bodies[$0].awake },
                                         bodyFlag: bodyFlag.baseAddress!, contactFlag: contactFlag.baseAddress!,
                                         stack: stack.baseAddress!,
                                         jointCount: joints.count, jointBodies: { BodyPair(a: joints[$0].bodyA, b: joints[$0].bodyB) },
                                         jointFlag: jointFlag.baseAddress, joint: { islandJoints.append($0) },
                                         body: { b in islandBodies.append(b); bodies[b].setAwake(true) },
                                         contact: { islandContacts.append($0) },
                                         endIsland: {
                                             solveIsland(islandBodies, islandContacts, islandJoints, h, dtRatio: dtRatio)
                                             islandBodies.removeAll(keepingCapacity: true)
                                             islandContacts.removeAll(keepingCapacity: true)
                                             islandJoints.removeAll(keepingCapacity: true)
                                         })
                        }
                    }
                }
            }
        }
    }

    /// Island-local index of each body during an island solve (reused, not reallocated).
    @exclusivity(unchecked) private var localIndex: [Int] = []

    /// What a time-of-impact pass reuses from one impact to the next instead of allocating it
    /// again: each island's bodies and contacts, and its solver and body states.
    private struct TimeOfImpactScratch {
        var islandBodies: [Int] = [], islandContacts: [Int] = []
        var positions: [BodyPosition] = [], velocities: [BodyVelocity] = []
        var solver = ContactSolver()
    }
    @exclusivity(unchecked) private var toiScratch = TimeOfImpactScratch()

    private func setLocalIndices(_ islandBodies: [Int]) {
        if localIndex.count < bodies.count { localIndex = Array(repeating: -1, count: bodies.count) }
        for (k, bi) in islandBodies.enumerated() { localIndex[bi] = k }
    }

    private func contactInputs(_ islandContacts: [Int]) -> [ContactInput] {
        var inputs: [ContactInput] = []
        inputs.reserveCapacity(islandContacts.count)
        contactInputs(islandContacts, into: &inputs)
        return inputs
    }

    /// `contactInputs` into `inputs` (emptied first, its storage kept).
    private func contactInputs(_ islandContacts: [Int], into inputs: inout [ContactInput]) {
        inputs.removeAll(keepingCapacity: true)
        for ci in islandContacts {
            let p = pairs[ci]
            inputs.append(ContactInput(
                manifold: contacts[ci]!.manifold, indexA: localIndex[p.a], indexB: localIndex[p.b],
                invMassA: bodies[p.a].invMass, invMassB: bodies[p.b].invMass,
                invIA: bodies[p.a].invI, invIB: bodies[p.b].invI,
                localCenterA: bodies[p.a].sweep.localCenter, localCenterB: bodies[p.b].sweep.localCenter,
                radiusA: bodies[p.a].shape.radius, radiusB: bodies[p.b].shape.radius,
                friction: mixedFriction(bodies[p.a].friction, bodies[p.b].friction),
                restitution: mixedRestitution(bodies[p.a].restitution, bodies[p.b].restitution)))
        }
    }

    private func solveIsland(_ islandBodies: [Int], _ islandContacts: [Int], _ islandJoints: [Int], _ h: Float, dtRatio: Float) {
        var positions: [BodyPosition] = []
        var velocities: [BodyVelocity] = []
        positions.reserveCapacity(islandBodies.count)
        velocities.reserveCapacity(islandBodies.count)
        setLocalIndices(islandBodies)
        for bi in islandBodies {
            bodies[bi].sweep.c0 = bodies[bi].sweep.c
            bodies[bi].sweep.a0 = bodies[bi].sweep.a
            var state = BodyVelocity(v: bodies[bi].v, w: bodies[bi].w)
            if bodies[bi].isDynamic {
                if bi < fieldsOfBody.count && !fieldsOfBody[bi].isEmpty {
                    var force = bodies[bi].force
                    applyFields(toBody: bi, velocity: &state.v, force: &force, h: h)
                    integrateVelocity(&state, bodies[bi], gravity: gravity, force: force, h: h)
                } else {
                    integrateVelocity(&state, bodies[bi], gravity: gravity, h: h)
                }
            }
            positions.append(BodyPosition(c: bodies[bi].sweep.c, a: bodies[bi].sweep.a))
            velocities.append(state)
        }

        var solver = ContactSolver(contactInputs(islandContacts), warmStarting: true, dtRatio: dtRatio)
        solver.initializeVelocityConstraints(positions, velocities)
        solver.warmStart(&velocities)
        // Box2D 2.3's island order: joints set up after the contacts' warm start, and in each
        // iteration every joint before the contacts.
        var jointSolver = JointIslandSolver(joints: islandJoints.map { joints[$0] }, localIndex: localIndex)
        jointSolver.initializeVelocityConstraints(bodies, positions, &velocities, h: h, dtRatio: dtRatio)
        for _ in 0..<EngineSettings.velocityIterations {
            jointSolver.solveVelocityConstraints(&velocities, h: h)
            solver.solveVelocityConstraints(&velocities)
        }
        for (k, j) in islandJoints.enumerated() { joints[j] = jointSolver.joints[k] }
        var manifolds = islandContacts.map { contacts[$0]!.manifold }
        solver.storeImpulses(into: &manifolds)
        for (k, ci) in islandContacts.enumerated() { contacts[ci]!.manifold = manifolds[k] }

        for k in positions.indices { integratePosition(&positions[k], &velocities[k], h: h) }

        var positionSolved = false
        for _ in 0..<EngineSettings.positionIterations {
            let contactsOkay = solver.solvePositionConstraints(&positions)
            let jointsOkay = jointSolver.solvePositionConstraints(&positions)
            if contactsOkay && jointsOkay { positionSolved = true; break }
        }

        for (k, bi) in islandBodies.enumerated() {
            bodies[bi].sweep.c = positions[k].c
            bodies[bi].sweep.a = positions[k].a
            bodies[bi].v = velocities[k].v
            bodies[bi].w = velocities[k].w
            bodies[bi].synchronizeTransform()
        }

        // Sleep: the island sleeps when all its bodies have been slow for long enough.
        var minSleepTime = Float.greatestFiniteMagnitude
        for bi in islandBodies where bodies[bi].isDynamic {
            bodies[bi].sleepTime = sleepTimeAfterStep(bodies[bi].sleepTime, vx: bodies[bi].v.x, vy: bodies[bi].v.y,
                                                      w: bodies[bi].w, h: h)
            minSleepTime = min(minSleepTime, bodies[bi].sleepTime)
        }
        if islandFallsAsleep(minSleepTime: minSleepTime, positionSolved: positionSolved) {
            for bi in islandBodies { bodies[bi].setAwake(false) }
        }
    }

    // MARK: Time of impact

    /// `toiMayTouch` for a pair, reading its bodies where they lie (passing them would copy two
    /// whole bodies, retaining their shapes' arrays).
    private func toiMayTouch(_ p: BodyPair) -> Bool {
        bodies.withUnsafeBufferPointer { bodies in
            let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
            guard a.pointee.isStatic || b.pointee.isStatic else { return true }   // only a static side can rule it out
            let (fixed, moving) = a.pointee.isStatic ? (a, b) : (b, a)
            return WorldSweep.toiMayTouch(staticShape: fixed.pointee.shape, fixed.pointee.xf,
                                          moving: moving.pointee.shape, moving.pointee.sweep)
        }
    }

    /// Moves items that would pass through a static body within this sub-step back to their
    /// first time of impact, resolves that contact and lets them finish the sub-step.
    /// `firstRoundTimesGiven`: the caller has set each contact's `hasTOI` (and then `toi`) to
    /// what the first round would find for it, or `hasTOI` false to let the search find it (the
    /// batch, which ran that round on the lane: `timeOfImpactAlpha` on the same sweeps, and in the
    /// first round every sweep starts at alpha0 = 0 and none is advanced, so the time is the same).
    func solveTOI(_ h: Float, firstRoundTimesGiven: Bool = false) {
        for i in bodies.indices { bodies[i].islandFlag = false; bodies[i].sweep.alpha0 = 0 }
        for i in contacts.indices where contacts[i] != nil {
            contacts[i]!.islandFlag = false
            contacts[i]!.toiCount = 0
            if !firstRoundTimesGiven {
                contacts[i]!.hasTOI = false
                contacts[i]!.toi = 1
            }
        }
        while true {
            var minContact = -1
            var minAlpha: Float = 1
            // Box2D's contact list order, newest first: the first of equal times wins, and
            // each advances its bodies' sweeps for the ones after it.
            for ci in contactsNewestFirst() {
                guard let c = contacts[ci], c.enabled, Int(c.toiCount) <= EngineSettings.maxSubSteps else { continue }
                var alpha: Float = 1
                if c.hasTOI {
                    alpha = c.toi
                } else {
                    let p = pairs[ci]
                    let activeA = bodies[p.a].awake && bodies[p.a].isDynamic
                    let activeB = bodies[p.b].awake && bodies[p.b].isDynamic
                    if !activeA && !activeB { continue }
                    // Continuous collision only between a static body and an item that uses it.
                    guard (bodies[p.a].isStatic && bodies[p.b].usesTOI) || (bodies[p.b].isStatic && bodies[p.a].usesTOI)
                    else { continue }
                    let alphaA = bodies[p.a].sweep.alpha0, alphaB = bodies[p.b].sweep.alpha0
                    var alpha0 = alphaA
                    if alphaA < alphaB {
                        alpha0 = alphaB
                        bodies[p.a].sweep.advance(to: alpha0)
                    } else if alphaB < alphaA {
                        alpha0 = alphaA
                        bodies[p.b].sweep.advance(to: alpha0)
                    }
                    if toiMayTouch(p) {
                        alpha = timeOfImpactAlpha(bodies[p.a].shape, bodies[p.a].sweep, bodies[p.b].shape, bodies[p.b].sweep, from: alpha0)
                    }
                    contacts[ci]!.toi = alpha
                    contacts[ci]!.hasTOI = true
                }
                if alpha < minAlpha { minContact = ci; minAlpha = alpha }
            }
            // (minAlpha is never NaN: it starts at 1 and only takes smaller values.)
            if minContact < 0 || !timeOfImpactIsResolved(minAlpha) { return }

            let pa = pairs[minContact].a, pb = pairs[minContact].b
            let backupA = bodies[pa].sweep, backupB = bodies[pb].sweep
            bodies[pa].advance(to: minAlpha)
            bodies[pb].advance(to: minAlpha)
            updateContact(minContact)
            contacts[minContact]!.hasTOI = false
            contacts[minContact]!.toiCount += 1
            if !contacts[minContact]!.enabled || !contacts[minContact]!.touching {
                contacts[minContact]!.enabled = false
                bodies[pa].sweep = backupA; bodies[pa].synchronizeTransform()
                bodies[pb].sweep = backupB; bodies[pb].synchronizeTransform()
                continue
            }
            bodies[pa].setAwake(true)
            bodies[pb].setAwake(true)

            // The island: the two bodies and their touching contacts with static bodies (in
            // lists kept from the last impact: taken out here, put back after the island).
            var islandBodies: [Int] = [], islandContacts: [Int] = []
            swap(&islandBodies, &toiScratch.islandBodies); swap(&islandContacts, &toiScratch.islandContacts)
            defer { swap(&islandBodies, &toiScratch.islandBodies); swap(&islandContacts, &toiScratch.islandContacts) }
            islandBodies.removeAll(keepingCapacity: true); islandContacts.removeAll(keepingCapacity: true)
            islandBodies.append(pa); islandBodies.append(pb)
            islandContacts.append(minContact)
            bodies[pa].islandFlag = true
            bodies[pb].islandFlag = true
            contacts[minContact]!.islandFlag = true
            for body in (0..<2).lazy.map({ $0 == 0 ? pa : pb }) where bodies[body].isDynamic {
                for ci in contactList(of: body) {
                    guard let c = contacts[ci], !c.islandFlag else { continue }
                    let o = other(ci, body)
                    if bodies[o].isDynamic { continue }
                    let backup = bodies[o].sweep
                    if !bodies[o].islandFlag { bodies[o].advance(to: minAlpha) }
                    updateContact(ci)
                    if !contacts[ci]!.enabled || !contacts[ci]!.touching {
                        bodies[o].sweep = backup
                        bodies[o].synchronizeTransform()
                        continue
                    }
                    contacts[ci]!.islandFlag = true
                    islandContacts.append(ci)
                    if bodies[o].islandFlag { continue }
                    bodies[o].islandFlag = true
                    islandBodies.append(o)
                }
            }
            solveTOIIsland(islandBodies, islandContacts, (1 - minAlpha) * h)

            for bi in islandBodies {
                bodies[bi].islandFlag = false
                if bodies[bi].isStatic { continue }
                for ci in contactList(of: bi) where contacts[ci] != nil {
                    contacts[ci]!.hasTOI = false
                    contacts[ci]!.islandFlag = false
                }
            }
            findNewContacts()
        }
    }

    private func solveTOIIsland(_ islandBodies: [Int], _ islandContacts: [Int], _ h: Float) {
        // The pass's solver and arrays, taken out of the world for the island and put back after
        // (so they stay uniquely held and keep their storage from one impact to the next).
        var positions: [BodyPosition] = [], velocities: [BodyVelocity] = [], solver = ContactSolver()
        swap(&positions, &toiScratch.positions); swap(&velocities, &toiScratch.velocities); swap(&solver, &toiScratch.solver)
        defer {
            swap(&positions, &toiScratch.positions); swap(&velocities, &toiScratch.velocities); swap(&solver, &toiScratch.solver)
        }
        positions.removeAll(keepingCapacity: true); velocities.removeAll(keepingCapacity: true)
        setLocalIndices(islandBodies)
        for bi in islandBodies {
            positions.append(BodyPosition(c: bodies[bi].sweep.c, a: bodies[bi].sweep.a))
            velocities.append(BodyVelocity(v: bodies[bi].v, w: bodies[bi].w))
        }
        contactInputs(islandContacts, into: &solver.inputs)
        solver.prepare(warmStarting: false, dtRatio: 1)
        for _ in 0..<EngineSettings.toiPositionIterations {
            if solver.solvePositionConstraints(&positions, toiBodies: (0, 1)) { break }
        }
        // The two bodies' sweeps now start from this safe state.
        for k in 0..<2 {
            bodies[islandBodies[k]].sweep.c0 = positions[k].c
            bodies[islandBodies[k]].sweep.a0 = positions[k].a
        }
        // No warm start: the discrete solve already applied this sub-step's impulses.
        solver.initializeVelocityConstraints(positions, velocities)
        for _ in 0..<EngineSettings.velocityIterations { solver.solveVelocityConstraints(&velocities) }
        for (k, bi) in islandBodies.enumerated() {
            integratePosition(&positions[k], &velocities[k], h: h)
            bodies[bi].sweep.c = positions[k].c
            bodies[bi].sweep.a = positions[k].a
            bodies[bi].v = velocities[k].v
            bodies[bi].w = velocities[k].w
            bodies[bi].synchronizeTransform()
        }
    }
}
