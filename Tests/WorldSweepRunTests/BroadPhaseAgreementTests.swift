import Testing
@testable import WorldSweep
import WorldSweepScene

/// The broad phase of one big world against brute force, pass by pass: a pile of boxes in
/// columns, some resting from the start (they sleep), the rest falling onto them and tumbling,
/// stepped stage by stage. After every broad phase the contact slots must be exactly the slots
/// before it with the destroyed ones dropped, plus a contact for every allowed pair of alive
/// bodies (not both static) whose boxes overlap and which had none, all in pair order, the new
/// ones numbered in pair order after the last serial.
@Suite struct BroadPhaseAgreementTests {
    /// `columns` × `rows` boxes of 10 pt on a 14 pt grid (columns close enough that falling
    /// boxes spill onto their neighbours); the lowest row rests on the floor.
    static func pile(columns: Int, rows: Int) -> String {
        var items = "", names: [String] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let name = "b\(r * columns + c)"
                names.append(name)
                // Rows above the first start staggered by a few points, so the columns topple.
                let x = 20 + 14 * c + (r == 0 ? 0 : (r * 3 + c) % 5), y = r == 0 ? 295 : 280 - 16 * r
                items += "  \(name): {center: [\(x), \(y)], size: [10, 10]}\n"
            }
        }
        let list = names.joined(separator: ", ")
        return """
            name: pile
            world: {bounds: [\(40 + 14 * columns), 300], tick: 1/60, ticks: 120}
            items:
            \(items)behaviors:
              fall: {type: gravity, items: [\(list)]}
              walls: {type: collision, items: [\(list)], mode: everything, reference_bounds: true}
              bouncy: {type: item, items: [\(list)], elasticity: 0.3}
            """
    }

    @Test func newContactsAreThoseOfBruteForceInPairOrder() throws {
        let scene = try SceneFile.parse(yaml: Self.pile(columns: 24, rows: 8), path: "pile.yaml")
        let world = scene.worldPlan().makeWorld()
        let seen = checkedSteps(world, ticks: 120) { _ in }
        // The pile did what the test needs: contacts came and went, and some bodies slept.
        #expect(seen.made > 500 && seen.dropped > 50 && seen.asleep > 0, "\(seen)")
        // Most passes kept the fat boxes' pairs; some listed them anew.
        #expect(world.fatBoxPairs.keptPasses > world.fatBoxPairs.listings && world.fatBoxPairs.listings > 0)
    }

    /// A world of few bodies tests every pair and keeps no fat boxes: the same contacts.
    @Test func aSmallWorldTestsEveryPairAndFindsTheSameContacts() throws {
        // 4 × 2 boxes and the four boundary edges: 12 bodies, the most that test every pair.
        let scene = try SceneFile.parse(yaml: Self.pile(columns: 4, rows: 2), path: "pile.yaml")
        let world = scene.worldPlan().makeWorld()
        #expect(world.bodies.count == PhysicsWorld.mostBodiesToTestEveryPair)
        let seen = checkedSteps(world, ticks: 120) { _ in }
        #expect(seen.made > 8, "\(seen)")
        #expect(world.fatBoxPairs.listings == 0 && world.fatBoxPairs.keptPasses == 0)
    }

    /// The same with the world changed from outside between sub-steps, as an app changes it: a
    /// body (sleeping where one sleeps) moved into the pile and one moved far away (their boxes
    /// jump; the broad phase is not told), half the bodies put to sleep and then every body
    /// woken, a body removed.
    @Test func newContactsFollowBodiesMovedWokenAndRemoved() throws {
        let scene = try SceneFile.parse(yaml: Self.pile(columns: 24, rows: 8), path: "pile.yaml")
        let world = scene.worldPlan().makeWorld()
        var moves = 0
        let seen = checkedSteps(world, ticks: 120) { tick in
            switch tick {
            case 50, 100:
                let dynamic = world.bodies.indices.filter { world.bodies[$0].alive && world.bodies[$0].isDynamic }
                let asleep = dynamic.filter { !world.bodies[$0].awake }
                let chosen = asleep.count >= 2 ? asleep : dynamic
                Self.move(world, chosen[0], to: world.bodies[dynamic[dynamic.count / 2]].sweep.c + Vec2(0.02, 0))
                Self.move(world, chosen[1], to: Vec2(0.3, 0.3))
                moves += 2
            case 60:
                // Half the boxes put to sleep (the island walk wakes those that touch awake ones).
                for b in world.bodies.indices where b % 2 == 0 && world.bodies[b].isDynamic { world.bodies[b].setAwake(false) }
            case 70:
                world.wakeAll()
            case 85:
                world.removeBody(world.bodies.count - 3)
            default: break
            }
        }
        #expect(seen.made > 500 && seen.dropped > 50 && moves == 4 && seen.asleep > 0, "\(seen)")
        #expect(world.fatBoxPairs.keptPasses > world.fatBoxPairs.listings && world.fatBoxPairs.listings > 1)
    }

    /// Moves a body as `DynamicAnimator.updateItem(usingCurrentState:)` does: placed at rest.
    static func move(_ world: PhysicsWorld, _ b: Int, to center: Vec2) {
        var body = world.bodies[b]
        body.xf = Transform(p: center, q: Rot(0))
        body.sweep.a = 0; body.sweep.a0 = 0
        body.sweep.c = body.xf.apply(body.sweep.localCenter); body.sweep.c0 = body.sweep.c
        body.v = .zero; body.w = 0
        world.bodies[b] = body
    }

    /// Steps `world` stage by stage, `disturb(tick)` before each tick, every broad phase checked.
    private func checkedSteps(_ world: PhysicsWorld, ticks: Int, disturb: (Int) -> Void)
        -> (passes: Int, made: Int, dropped: Int, asleep: Int) {
        var passes = 0, made = 0, dropped = 0, asleep = 0
        for tick in 0..<ticks {
            disturb(tick)
            let h: Float = 1 / 60
            let step = StepContext(h: h, dtRatio: tick == 0 ? 0 : 1)
            if world.needsNewContacts { checkedBroadPhase(world, &made, &dropped); world.needsNewContacts = false }
            world.updateContacts()
            world.solveIslands(step)
            checkedBroadPhase(world, &made, &dropped)
            world.solveTimeOfImpact(step)
            world.stepCount += 1
            passes += 1
            asleep = max(asleep, world.bodies.filter { $0.isDynamic && !$0.awake }.count)
        }
        return (passes, made, dropped, asleep)
    }

    /// One broad phase, checked against brute force over every pair of bodies.
    private func checkedBroadPhase(_ world: PhysicsWorld, _ made: inout Int, _ dropped: inout Int) {
        var kept: [(pair: BodyPair, order: PairOrder, serial: Int)] = []
        for i in world.pairs.indices { if let c = world.contacts[i] { kept.append((world.pairs[i], world.pairOrders[i], c.serial)) } }
        dropped += world.pairs.count - kept.count
        let firstSerial = world.nextSerial
        world.findNewContacts()
        let n = world.bodies.count
        let had = Set(kept.map { PhysicsWorld.pairKey($0.pair.a, $0.pair.b) })
        var fresh: [(order: PairOrder, pair: BodyPair)] = []
        for a in 0..<n {
            for b in (a + 1)..<max(a + 1, n) where world.bodies[a].alive && world.bodies[b].alive
                && (!world.bodies[a].isStatic || !world.bodies[b].isStatic) && world.boxes[a].overlaps(world.boxes[b])
                && !had.contains(PhysicsWorld.pairKey(a, b)) {
                if let allowed = world.rule.allowedOrder(a, b) { fresh.append(allowed) }
            }
        }
        fresh.sort { $0.order < $1.order }
        var expected = kept
        for (k, f) in fresh.enumerated() { expected.append((world.oriented(f.pair), f.order, firstSerial + k)) }
        expected.sort { $0.order < $1.order }
        made += fresh.count
        #expect(world.pairs.count == expected.count && world.emptySlots == 0)
        guard world.pairs.count == expected.count else { return }
        for (i, e) in expected.enumerated() {
            #expect(world.pairs[i] == e.pair && world.pairOrders[i] == e.order && world.contacts[i]?.serial == e.serial, "slot \(i)")
        }
        #expect(world.nextSerial == firstSerial + fresh.count)
        // The contact lists (time of impact walks them) agree with the slots: newest first.
        let newestFirst = world.contactsNewestFirst()
        #expect(newestFirst == world.contacts.indices.sorted { world.contacts[$0]!.serial > world.contacts[$1]!.serial })
    }
}
