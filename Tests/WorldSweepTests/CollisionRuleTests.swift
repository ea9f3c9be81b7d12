import Testing
@testable import WorldSweep
import TestScratch

/// The collision rule against the list of allowed pairs the plan used to store (the old
/// compilation, kept here as the oracle): the same pairs, the same pair order, the same way
/// round and the same listeners, on seeded random behaviors that overlap, repeat segments and
/// mix modes. And the broad phase against testing every pair of boxes.
@Suite struct CollisionRuleTests {
    /// The pairs as `WorldPlan(compiling:)` listed them before the rule: each collision behavior
    /// allows its item pairs (i < j), then each segment's edge with its items; a pair allowed
    /// again keeps its place and gains the listener.
    static func pairListTheOldWay(_ input: PlanInput, _ plan: WorldPlan) -> [(pair: BodyPair, listeners: [Int])] {
        var pairs: [BodyPair] = [], listeners: [[Int]] = []
        var index: [BodyPair: Int] = [:]
        func allow(_ a: Int, _ b: Int, listener: Int?) {
            let key = BodyPair(a: min(a, b), b: max(a, b))
            let p: Int
            if let known = index[key] { p = known } else {
                p = pairs.count; index[key] = p
                pairs.append(BodyPair(a: a, b: b)); listeners.append([])
            }
            if let listener { listeners[p].append(listener) }
        }
        for (k, behavior) in input.behaviors.enumerated() {
            guard let collision = behavior as? PlanInput.Collision else { continue }
            let (items, mode, segments) = (collision.items, collision.mode, collision.segments)
            let members = items.map { plan.bodyOfItem[$0]! }
            if mode.contains(.items) {
                for i in members.indices { for j in members.indices where j > i { allow(members[i], members[j], listener: k) } }
            }
            for segment in segments {
                let edge = plan.bodies.firstIndex {
                    $0.boundary == WorldPlan.Boundary(behavior: k, identifier: segment.identifier, from: segment.from, to: segment.to)
                }!
                if mode.contains(.boundaries) { for b in members { allow(edge, b, listener: nil) } }
            }
        }
        return zip(pairs, listeners).map { ($0, $1) }
    }

    /// Random behaviors over `itemCount` items: a few collision behaviors with random members
    /// (in random order), modes and segments (some repeated), among gravity and item behaviors.
    static func randomInput(_ g: inout SeededNumbers, itemCount: Int) -> PlanInput {
        let items = (0..<itemCount).map { i in
            PlanInput.Item(center: Point(x: Double(10 + 20 * i), y: 50), size: Size(width: 10, height: 10), angle: 0,
                           boundsType: Int.random(in: 0..<3, using: &g) == 0 ? .ellipse : .rectangle, path: [])
        }
        var behaviors: [PlanInput.Behavior] = [PlanInput.Gravity(items: Array(0..<itemCount).shuffled(using: &g))]
        let segmentPool = (0..<4).map { s in
            let y = Double(100 * s)
            let name: String? = s == 0 ? nil : "wall\(s)"
            return PlanInput.Segment(identifier: name, from: Point(x: 0, y: y), to: Point(x: 300, y: y + 10))
        }
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let members = Array((0..<itemCount).shuffled(using: &g).prefix(Int.random(in: 0...itemCount, using: &g)))
            let mode: CollisionMode = [.items, .boundaries, .everything][Int.random(in: 0..<3, using: &g)]
            let segments = (0..<Int.random(in: 0...4, using: &g)).map { _ in segmentPool[Int.random(in: 0..<4, using: &g)] }
            behaviors.append(PlanInput.Collision(items: members, mode: mode, segments: segments))
            if Bool.random(using: &g) { behaviors.append(PlanInput.Other(items: [Int.random(in: 0..<itemCount, using: &g)])) }
        }
        return PlanInput(referenceBounds: Size(width: 320, height: 568), items: items, behaviors: behaviors, gravity: nil)
    }

    @Test func theRuleAllowsThePairsTheListAllowedInItsOrder() {
        var g = SeededNumbers(17)
        var nonEmpty = 0
        for trial in 0..<300 {
            let input = Self.randomInput(&g, itemCount: Int.random(in: 1...9, using: &g))
            let plan = WorldPlan(compiling: input)
            let old = Self.pairListTheOldWay(input, plan)
            if !old.isEmpty { nonEmpty += 1 }
            #expect(plan.rule.allowedPairsInOrder() == old.map(\.pair), "trial \(trial)")
            for (pair, listeners) in old {
                let partners = plan.contactPartners(pair.b, pair.a)
                switch partners {
                case .items(let a, let b, let heard):
                    #expect(plan.bodyOfItem[a] == pair.a && plan.bodyOfItem[b] == pair.b && heard == listeners, "trial \(trial)")
                case .boundary(let item, let behavior, _):
                    #expect(plan.bodyOfItem[item] == pair.b && plan.bodies[pair.a].boundary?.behavior == behavior, "trial \(trial)")
                case nil:
                    Issue.record("trial \(trial): \(pair) allowed by the list, not by the rule")
                }
            }
        }
        #expect(nonEmpty > 200)   // the trials do exercise pairs
    }

    /// The rule in the animator's numbering answers for world bodies what the plan's answers for
    /// plan bodies.
    @Test func aRenumberedRuleAnswersForTheNewNumbers() {
        var g = SeededNumbers(5)
        for _ in 0..<50 {
            let plan = WorldPlan(compiling: Self.randomInput(&g, itemCount: 6))
            let n = plan.bodyCount
            let index = Array((0..<(n + 3)).shuffled(using: &g).prefix(n))   // three world bodies outside the plan
            let rule = plan.rule.renumbered(index, bodyCount: n + 3)
            for a in 0..<n {
                for b in 0..<n {
                    let planned = plan.rule.allowedOrder(a, b), renumbered = rule.allowedOrder(index[a], index[b])
                    #expect(planned?.order == renumbered?.order)
                    #expect(planned.map { [index[$0.pair.a], index[$0.pair.b]] } == renumbered.map { [$0.pair.a, $0.pair.b] })
                }
            }
            let outside = Set(0..<(n + 3)).subtracting(index)
            for o in outside { for b in 0..<(n + 3) { #expect(rule.allowedOrder(o, b) == nil) } }
        }
    }

    /// Sort and sweep reports exactly the pairs whose boxes overlap by `AABB.overlaps`, on seeded
    /// random boxes (clustered so that many overlap, some touching exactly, some with NaN
    /// bounds), over several passes as the boxes move.
    @Test func theBroadPhaseFindsExactlyTheOverlappingPairs() {
        var g = SeededNumbers(42)
        var sweep = SortAndSweep()
        var total = 0
        for pass in 0..<200 {
            let n = pass % 50 == 0 ? Int.random(in: 0...3, using: &g) : Int.random(in: 20...120, using: &g)
            var boxes: [AABB] = (0..<n).map { _ in
                let x = Float(Int.random(in: 0...40, using: &g)) / 4, y = Float(Int.random(in: 0...40, using: &g)) / 4
                let w = Float(Int.random(in: 0...8, using: &g)) / 4, h = Float(Int.random(in: 0...8, using: &g)) / 4
                return AABB(lower: Vec2(x, y), upper: Vec2(x + w, y + h))   // quarter steps: many exact touches
            }
            if n > 5 && pass % 7 == 0 { boxes[3].lower.y = .nan; boxes[5].upper.x = .nan }
            let excluded = n > 10 ? Set([1, 9]) : []
            total += Self.checkSweep(&sweep, boxes, excluded: excluded, pass: pass)
        }
        #expect(total > 10_000)
    }

    /// The same over passes where the boxes drift a little (the order kept from the last pass is
    /// nearly right), a few jump far, one's bounds go NaN and come back, and which bodies are
    /// included changes: the kept order must never hide a pair.
    @Test func theBroadPhaseFindsExactlyTheOverlappingPairsAsBoxesDrift() {
        var g = SeededNumbers(7)
        var sweep = SortAndSweep()
        let n = 150
        var centers: [(x: Float, y: Float)] = (0..<n).map { _ in
            (Float(Int.random(in: 0...400, using: &g)) / 4, Float(Int.random(in: 0...40, using: &g)) / 4)
        }
        var total = 0
        for pass in 0..<300 {
            for i in centers.indices {
                centers[i].x += Float(Int.random(in: -2...2, using: &g)) / 4
                centers[i].y += Float(Int.random(in: -1...1, using: &g)) / 4
                if Int.random(in: 0..<100, using: &g) == 0 { centers[i].x = Float(Int.random(in: 0...400, using: &g)) / 4 }
            }
            var boxes = centers.map { AABB(lower: Vec2($0.x - 0.5, $0.y - 0.5), upper: Vec2($0.x + 0.5, $0.y + 0.5)) }
            if pass % 40 >= 30 { boxes[17].upper.y = .nan }
            let excluded: Set<Int> = pass % 3 == 0 ? [4, 40 + pass % 50] : []
            total += Self.checkSweep(&sweep, boxes, excluded: excluded, pass: pass)
        }
        #expect(total > 3_000)
    }

    /// One pass of `sweep` over `boxes` against every pair tested by brute force: the same pairs,
    /// each reported once. Returns how many overlap.
    static func checkSweep(_ sweep: inout SortAndSweep, _ boxes: [AABB], excluded: Set<Int>, pass: Int) -> Int {
        var found = Set<[Int]>(), reports = 0
        boxes.withUnsafeBufferPointer { boxes in
            sweep.forEachOverlap(boxes, include: { !excluded.contains($0) }) { a, b in
                found.insert([min(a, b), max(a, b)]); reports += 1
            }
        }
        var expected = Set<[Int]>()
        for a in boxes.indices where !excluded.contains(a) {
            for b in (a + 1)..<max(a + 1, boxes.count) where !excluded.contains(b) && boxes[a].overlaps(boxes[b]) { expected.insert([a, b]) }
        }
        #expect(found == expected, "pass \(pass)")
        #expect(reports == found.count, "pass \(pass): a pair reported twice")
        return expected.count
    }
}
