import Testing
@testable import WorldSweep
import TestScratch

/// The broad phase's kept pairs (`FatBoxPairs`, used by `PhysicsWorld.findNewContacts`): a pass
/// that keeps its list tests only the pairs whose fat boxes overlap, listing new fat neighbours
/// only of bodies whose box left its fat box, and the pairs whose contact parted since; a pass
/// that forgets everything lists every pair anew. Both must make the same contacts in the same
/// order, so the same bits. A pile whose columns land at different times has passes with every
/// box moving and passes with a few moving.
@Suite struct FatBoxPairsTests {
    /// 3 rows of 15 boxes of 10 × 10 pt, each column starting 25 pt higher than the last (so the
    /// columns land, come to rest and fall asleep one after another), elasticity 0.2.
    func pile() -> (items: [View], animator: DynamicAnimator) {
        var items: [View] = []
        for row in 0..<3 {
            for column in 0..<15 {
                let y = 400 + 20 * Double(row) - 25 * Double(column)
                items.append(View(name: "b\(row)-\(column)", center: Point(20 + 20 * Double(column), y),
                                  size: Size(width: 10, height: 10)))
            }
        }
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let bouncy = DynamicItemBehavior(items: items)
        bouncy.elasticity = 0.2
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(collision)
        animator.addBehavior(bouncy)
        return (items, animator)
    }

    @Test func keptListsMakeTheContactsOfPassesThatListEveryPair() {
        let remembering = pile(), forgetting = pile()
        // One tick through the animators builds their worlds; from then on the worlds step alone.
        remembering.animator.tick()
        forgetting.animator.tick()
        let a = remembering.animator.world, b = forgetting.animator.world
        var stepsWithFewMoving = 0, stepsWithAllMoving = 0
        for step in 0..<1_200 {
            let moving = a.bodies.filter { $0.alive && $0.isDynamic && $0.awake }.count
            let resting = a.bodies.filter { $0.alive && $0.isDynamic && !$0.awake }.count
            if moving > 0 && moving <= 16 { stepsWithFewMoving += 1 }
            if resting == 0 { stepsWithAllMoving += 1 }
            b.fatBoxPairs.forget()
            a.step(EngineSettings.subStep)
            b.step(EngineSettings.subStep)
            let livePairs = { (w: PhysicsWorld) in w.pairs.indices.filter { w.contacts[$0] != nil }.map { w.pairs[$0] } }
            let serials = { (w: PhysicsWorld) in w.contacts.compactMap { $0?.serial } }
            #expect(livePairs(a) == livePairs(b), "step \(step)")
            #expect(serials(a) == serials(b), "step \(step)")
            let same = zip(a.bodies, b.bodies).allSatisfy {
                $0.sweep.c.x.bitPattern == $1.sweep.c.x.bitPattern && $0.sweep.c.y.bitPattern == $1.sweep.c.y.bitPattern
                    && $0.sweep.a.bitPattern == $1.sweep.a.bitPattern && $0.awake == $1.awake
            }
            #expect(same, "step \(step)")
            if !same { return }
        }
        // Both kinds of pass ran in the world that keeps its list (most passes kept it), and the
        // pile moved both ways: every box moving, a few moving.
        #expect(a.fatBoxPairs.keptPasses > a.fatBoxPairs.listings && a.fatBoxPairs.listings > 0)
        #expect(b.fatBoxPairs.listings >= 1_200)
        #expect(stepsWithAllMoving > 0)
        #expect(stepsWithFewMoving > 0)
    }

    /// `FatBoxPairs` on its own against brute force, pass by pass, with contacts kept as a world
    /// keeps them: boxes that drift a little, fall steadily (their fat boxes reach ahead), jump
    /// far, stop; a NaN bound coming and going (the caller's own pass then); contacts destroyed
    /// when their boxes part and at random (`parted`); bodies dying (`forget`); a rule that
    /// refuses some pairs and a few static bodies. Each pass must find exactly the pairs that
    /// overlap, are allowed and have no contact, each once.
    @Test func eachPassFindsWhatBruteForceFinds() {
        var g = SeededNumbers(11)
        var pairs = FatBoxPairs()
        let n = 120, statics = 3
        var centers: [Vec2] = (0..<n).map { _ in
            Vec2(Float(Int.random(in: 0...300, using: &g)) / 8, Float(Int.random(in: 0...80, using: &g)) / 8)
        }
        var falling = Set<Int>(), alive = Array(repeating: true, count: n)
        var contacts = Set<UInt64>()
        var found = 0, nanPasses = 0, partedCount = 0
        for pass in 0..<400 {
            for i in statics..<n {
                if falling.contains(i) {
                    centers[i].y += 0.05
                    if centers[i].y > 12 { falling.remove(i) }
                } else {
                    centers[i].x += Float(Int.random(in: -1...1, using: &g)) / 256
                    centers[i].y += Float(Int.random(in: -1...1, using: &g)) / 256
                }
                let roll = Int.random(in: 0..<300, using: &g)
                if roll == 0 { centers[i] = Vec2(Float(Int.random(in: 0...300, using: &g)) / 8, 0) }
                if roll == 1 { falling.insert(i) }
            }
            var boxes = centers.map { AABB(lower: Vec2($0.x - 0.25, $0.y - 0.25), upper: Vec2($0.x + 0.25, $0.y + 0.25)) }
            if pass % 50 >= 45 { boxes[20].lower.x = .nan; nanPasses += 1 }
            if pass % 97 == 96 {
                let dying = Int.random(in: statics..<n, using: &g)
                alive[dying] = false
                for key in contacts where Int(key >> 32) == dying || Int(key & 0xffff_ffff) == dying { contacts.remove(key) }
                pairs.forget()
            }
            // Contacts part when their boxes do (and a few at random), as the contact update does.
            for key in contacts {
                let a = Int(key >> 32), b = Int(key & 0xffff_ffff)
                if !boxes[a].overlaps(boxes[b]) || Int.random(in: 0..<200, using: &g) == 0 {
                    contacts.remove(key); pairs.parted(BodyPair(a: b, b: a)); partedCount += 1
                }
            }
            func allowed(_ a: Int, _ b: Int) -> Bool { (a + b) % 7 != 3 && (a >= statics || b >= statics) }
            var expected = Set<UInt64>()
            for a in 0..<n where alive[a] {
                for b in (a + 1)..<n where alive[b] && allowed(a, b) && boxes[a].overlaps(boxes[b]) {
                    let key = PhysicsWorld.pairKey(a, b)
                    if !contacts.contains(key) { expected.insert(key) }
                }
            }
            var got: [UInt64] = []
            let kept = boxes.withUnsafeBufferPointer { boxes in
                pairs.forEachNewOverlap(boxes, alive: { alive[$0] }, candidate: { a, b in
                    guard !contacts.contains(PhysicsWorld.pairKey(a, b)), allowed(a, b) else { return nil }
                    return (PairOrder(major: 0, minor: PhysicsWorld.pairKey(a, b)), BodyPair(a: min(a, b), b: max(a, b)))
                }) { c in
                    got.append(PhysicsWorld.pairKey(c.pair.a, c.pair.b))
                }
            }
            if !kept {
                // The caller's own pass: every pair by brute force.
                #expect(got.isEmpty && boxes.contains { $0.hasNaN })
                got = Array(expected)
            }
            #expect(Set(got) == expected, "pass \(pass)")
            #expect(got.count == Set(got).count, "pass \(pass): a pair found twice")
            contacts.formUnion(got)
            found += got.count
        }
        #expect(found > 300 && partedCount > 300 && nanPasses > 0, "found \(found), parted \(partedCount)")
        #expect(pairs.keptPasses > 250 && pairs.listings > 5, "kept \(pairs.keptPasses), listings \(pairs.listings)")
    }
}
