import Foundation
import Testing
@testable import WorldSweep
import TestScratch

/// One world's contact update with its box–box contacts eight per lane kernel call
/// (ContactUpdateLanes.swift) against the same world updated one pair at a time: after every
/// tick every contact slot (its pair, serial, manifold, impulses, ids, touching state and the
/// transforms it was made at), every body and every delegate call, bit for bit; on one thread and
/// with the update split over two. The scene has what the lanes must leave alone or keep in
/// order: circles and triangles beside the boxes (refreshed one pair at a time), box–wall pairs,
/// a pile that rests and sleeps, boxes dropped onto it later that wake it within a pass, and
/// boxes that bounce off (contacts ended and destroyed).
@Suite struct ContactUpdateLanesTests {
    struct Scene {
        let animator: DynamicAnimator
        let views: [View]
        let log = EventLog()
    }

    /// Columns of boxes (`columns` × `rows`, a few sizes and angles) resting on the floor of a
    /// tall world, each column its own island, topped by a circle, a triangle or a box, and a
    /// dozen items dropped from high that land after the columns have slept.
    static func scene(columns: Int = 30, rows: Int = 5) -> Scene {
        let width = 24.0 * Double(columns) + 20, height = 900.0
        var views: [View] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let i = r * columns + c
                let center = Point(x: 20 + 24 * Double(c), y: height - 10.5 - 21 * Double(r))
                if r == rows - 1 && c % 3 == 0 {
                    views.append(View(name: "ball\(i)", center: center, size: Size(width: 20, height: 20), collisionBoundsType: .ellipse))
                } else if r == rows - 1 && c % 3 == 1 {
                    views.append(View(name: "tri\(i)", center: center, size: Size(width: 20, height: 20), collisionBoundsType: .path,
                                      collisionBoundingPath: [Point(x: -10, y: 10), Point(x: 10, y: 10), Point(x: 0, y: -10)]))
                } else {
                    let w = 16 + 2 * Double(i % 3), tilt = i % 5 == 0 ? 0.02 : 0
                    views.append(View(name: "box\(i)", center: center, size: Size(width: w, height: 20), angle: tilt))
                }
            }
        }
        for d in 0..<12 {
            let center = Point(x: 30 + (width - 60) * Double(d) / 11, y: 40 - 15 * Double(d % 3))
            views.append(View(name: "drop\(d)", center: center, size: Size(width: 22, height: 16), angle: 0.2 * Double(d % 4),
                              collisionBoundsType: d % 6 == 5 ? .ellipse : .rectangle))
        }
        let animator = DynamicAnimator(referenceBounds: Size(width: width, height: height))
        let walls = CollisionBehavior(items: views)
        walls.translatesReferenceBoundsIntoBoundary = true
        let bouncy = DynamicItemBehavior(items: Array(views[(rows * columns)...]))
        bouncy.elasticity = 0.7
        let scene = Scene(animator: animator, views: views)
        walls.collisionDelegate = scene.log
        for b in [GravityBehavior(items: views), walls, bouncy] as [DynamicBehavior] { animator.addBehavior(b) }
        return scene
    }

    /// Every number of every contact slot as bits.
    static func contactBits(_ world: PhysicsWorld) -> [[UInt32]] {
        zip(world.pairs, world.contacts).map { pair, contact in
            guard let c = contact else { return [UInt32(pair.a), UInt32(pair.b)] }
            let m = c.manifold, t = c.manifoldTransforms
            var bits = [UInt32(pair.a), UInt32(pair.b), UInt32(c.serial), c.touching ? 1 : 0, c.enabled ? 1 : 0,
                        c.hasManifold ? 1 : 0, c.hasTOI ? 1 : 0, c.toi.bitPattern, UInt32(bitPattern: c.toiCount),
                        m.kind == .circles ? 0 : m.kind == .faceA ? 1 : 2, UInt32(m.pointCount)]
            for v in [m.localNormal, m.localPoint, m.point0.localPoint, m.point1.localPoint, t.a.p, t.b.p] { bits += [v.x.bitPattern, v.y.bitPattern] }
            for p in [m.point0, m.point1] { bits += [p.normalImpulse.bitPattern, p.tangentImpulse.bitPattern, p.id.key] }
            bits += [t.a.q.s.bitPattern, t.a.q.c.bitPattern, t.b.q.s.bitPattern, t.b.q.c.bitPattern]
            return bits
        }
    }

    /// Every body's state as bits.
    static func bodyBits(_ world: PhysicsWorld) -> [[UInt32]] {
        world.bodies.map { b in
            [b.xf.p.x, b.xf.p.y, b.xf.q.s, b.xf.q.c, b.sweep.c.x, b.sweep.c.y, b.sweep.a, b.v.x, b.v.y, b.w, b.sleepTime]
                .map(\.bitPattern) + [b.awake ? 1 : 0]
        }
    }

    static func events(_ log: EventLog) -> [String] {
        log.entries.map { e in "\(e.tick) \(e.kind) \(e.item) \(e.other) \(e.point.map { "\($0.x.bitPattern),\($0.y.bitPattern)" } ?? "")" }
    }

    @Test func pairLanesGiveTheBitsOfOnePairAtATimeOnOneAndTwoThreads() {
        let onePair = Self.scene(), lanes = Self.scene(), lanesOnTwo = Self.scene()
        onePair.animator.world.updatesContactsInPairLanes = false
        lanesOnTwo.animator.world.threads.count = 2
        let scenes = [onePair, lanes, lanesOnTwo]
        var mostSlots = 0, asleepAtSomeTick = 0, wokenBodies = 0
        var wasAsleep = Array(repeating: false, count: onePair.animator.world.bodies.count)
        for tick in 1...150 {
            for s in scenes {
                s.log.tick = tick
                s.animator.tick(1.0 / 60)
            }
            let worlds = scenes.map { $0.animator.world }
            let contacts = worlds.map(Self.contactBits), bodies = worlds.map(Self.bodyBits), events = scenes.map { Self.events($0.log) }
            #expect(contacts[1] == contacts[0] && contacts[2] == contacts[0], "tick \(tick): contact slots differ")
            #expect(bodies[1] == bodies[0] && bodies[2] == bodies[0], "tick \(tick): bodies differ")
            #expect(events[1] == events[0] && events[2] == events[0], "tick \(tick): delegate calls differ")
            if contacts[0] != contacts[1] || bodies[0] != bodies[1] { break }
            mostSlots = max(mostSlots, worlds[0].pairs.count)
            let asleep = worlds[0].bodies.map { $0.isDynamic && !$0.awake }
            if asleep.contains(true) { asleepAtSomeTick += 1 }
            wokenBodies += zip(wasAsleep, asleep).filter { $0 && !$1 }.count
            wasAsleep = asleep
        }
        let worlds = scenes.map { $0.animator.world }
        // The scene did what it is for: the lanes ran, the update split over two threads, part
        // of the pile slept and was woken, touching began and ended.
        #expect(worlds[0].contactsRefreshedInLanes == 0)
        #expect(worlds[1].contactsRefreshedInLanes > 10_000, "\(worlds[1].contactsRefreshedInLanes) contacts refreshed in lanes")
        // (Not the same count: a chunk's lone last box pair is refreshed on its own.)
        #expect(worlds[2].contactsRefreshedInLanes > 10_000, "\(worlds[2].contactsRefreshedInLanes) contacts refreshed in lanes")
        #expect(worlds[1].stagesSplit == 0 && worlds[2].stagesSplit > 0, "stages split: \(worlds[2].stagesSplit)")
        #expect(mostSlots >= PhysicsWorld.leastSlotsToSplit)
        #expect(asleepAtSomeTick > 10 && wokenBodies > 10, "ticks with a body asleep: \(asleepAtSomeTick), bodies woken: \(wokenBodies)")
        #expect(onePair.log.kinds(.began).count > 200 && onePair.log.kinds(.ended).count > 10,
                "began \(onePair.log.kinds(.began).count), ended \(onePair.log.kinds(.ended).count)")
    }

    /// `count` boxes of random sizes, four to a row `spacing` apart (jittered and turned at
    /// random, so neighbours overlap in many ways), and every ordered pair of them.
    static func boxesOnAGrid(_ count: Int, spacing: Float, seed: UInt64) -> ([Shape], [Transform], [(Int, Int)]) {
        var rng = SeededNumbers(seed)
        let boxes = (0..<count).map { _ in Shape.box(halfWidth: Float(rng.uniform(0.2, 0.6)), halfHeight: Float(rng.uniform(0.2, 0.6))) }
        let transforms = (0..<count).map { k in
            Transform(p: Vec2(Float(k % 4) * spacing + Float(rng.uniform(-0.1, 0.1)), Float(k / 4) * spacing), q: Rot(Float(rng.uniform(-1, 1))))
        }
        var pairs: [(Int, Int)] = []
        for a in 0..<count { for b in 0..<count where a != b { pairs.append((a, b)) } }
        return (boxes, transforms, pairs)
    }

    /// The lane kernel's lanes do not see each other: a contact refreshed in any lane, beside any
    /// seven others, gets the manifold `Collide.polygons` makes for it alone.
    @Test func eachLaneIsThePairAlone() {
        let (boxes, transforms, pairs) = Self.boxesOnAGrid(16, spacing: 0.7, seed: 7)
        var touching = 0
        for first in stride(from: 0, to: pairs.count, by: 8) {
            let group = Array(pairs[first..<min(first + 8, pairs.count)])
            let lanes = BoxPairLanes.collide(group.map { (boxes[$0.0], transforms[$0.0], boxes[$0.1], transforms[$0.1]) })
            for (k, (a, b)) in group.enumerated() {
                let alone = Collide.polygons(boxes[a], transforms[a], boxes[b], transforms[b])
                #expect(Self.bits(lanes[k]) == Self.bits(alone), "pair \(a)-\(b) in lane \(k)")
                if alone.pointCount > 0 { touching += 1 }
            }
        }
        #expect(touching > 20, "only \(touching) pairs touch")
    }

    /// The update takes its rows once for a whole range of slots: each kernel call writes every
    /// row it reads. Groups of 2 … 8 pairs, one after the other in one set of rows (first filled
    /// with NaN, then left as the group before left them), each give `Collide.polygons`' manifold,
    /// the points past a manifold's count included (all zero, as `Manifold()` has them).
    @Test func sharedRowsCarryNothingOver() {
        let (boxes, transforms, pairs) = Self.boxesOnAGrid(12, spacing: 0.6, seed: 11)
        var touching = 0, onePoint = 0, groups = 0
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: BoxPairLanes.scratchRowCount) { rows in
            rows.initialize(repeating: SIMD8(repeating: .nan))
            var first = 0
            while first < pairs.count {
                let size = 2 + groups % 7
                let group = Array(pairs[first..<min(first + size, pairs.count)])
                let lanes = BoxPairLanes.collide(group.map { (boxes[$0.0], transforms[$0.0], boxes[$0.1], transforms[$0.1]) },
                                                 rows: rows.baseAddress!)
                for (k, (a, b)) in group.enumerated() {
                    let alone = Collide.polygons(boxes[a], transforms[a], boxes[b], transforms[b])
                    #expect(Self.bits(lanes[k]) == Self.bits(alone), "pair \(a)-\(b) in lane \(k) of a group of \(group.count)")
                    if alone.pointCount > 0 { touching += 1 }
                    if alone.pointCount == 1 { onePoint += 1 }
                }
                first += size; groups += 1
            }
        }
        #expect(touching > 20 && onePoint > 0, "\(touching) pairs touch, \(onePoint) with one point")
    }

    /// A lane the kernel finds apart (no reference face) holds `Manifold()` in every row, so
    /// the update may take that constant for it: over pairs near and far, every apart lane's
    /// manifold read back is `Manifold()`'s bits, and the pair alone is apart too; lanes that are
    /// not apart include touching pairs and pairs near enough to be clipped without points.
    @Test func anApartLaneHoldsTheEmptyManifold() {
        let (boxes, transforms, pairs) = Self.boxesOnAGrid(16, spacing: 0.9, seed: 5)
        var apart = 0, near = 0
        for first in stride(from: 0, to: pairs.count, by: 8) {
            let group = Array(pairs[first..<min(first + 8, pairs.count)])
            let lanes = BoxPairLanes.collideMarkingApart(group.map { (boxes[$0.0], transforms[$0.0], boxes[$0.1], transforms[$0.1]) })
            for (k, (a, b)) in group.enumerated() {
                let alone = Collide.polygons(boxes[a], transforms[a], boxes[b], transforms[b])
                #expect(Self.bits(lanes[k].manifold) == Self.bits(alone), "pair \(a)-\(b) in lane \(k)")
                if lanes[k].apart {
                    apart += 1
                    #expect(Self.bits(lanes[k].manifold) == Self.bits(Manifold()), "pair \(a)-\(b) in lane \(k)")
                } else {
                    near += 1
                    #expect(alone.kind != .circles, "pair \(a)-\(b): not apart, so a reference face")
                }
            }
        }
        #expect(apart > 100 && near > 20, "\(apart) lanes apart, \(near) not")
    }

    /// A box pair found apart on one of A's faces, alone, is one the kernel makes `Manifold()`
    /// for (so the update takes that without a lane): never a pair that touches or is clipped;
    /// and the test finds most pairs that are apart.
    @Test func apartOnFacesOfAIsTheKernelsEmptyManifold() {
        let (boxes, transforms, pairs) = Self.boxesOnAGrid(16, spacing: 0.9, seed: 9)
        var found = 0, apartInKernel = 0
        for (a, b) in pairs {
            var shapeA = boxes[a], shapeB = boxes[b]
            let alone = Collide.polygons(boxes[a], transforms[a], boxes[b], transforms[b])
            let isEmpty = Self.bits(alone) == Self.bits(Manifold())
            if isEmpty { apartInKernel += 1 }
            if BoxPairLanes.apartOnFacesOfA(&shapeA, transforms[a], &shapeB, transforms[b]) {
                found += 1
                #expect(isEmpty, "pair \(a)-\(b) found apart, but the kernel gives \(alone.pointCount) points")
            }
        }
        #expect(found > apartInKernel / 2 && apartInKernel < pairs.count, "\(found) found apart alone of \(apartInKernel) apart")
    }

    /// The lanes' ids reach the contacts as keys worked out in the vector: each lane's key is
    /// `ContactFeature.key` of the id its fields make, and `ContactFeature(key:)` gives that id back.
    @Test func featureKeysInLanesAreTheIdsKeys() {
        var ids: [ContactFeature] = []
        for indexA in [0, 1, 2, 3, 7, 128, 255] as [UInt8] {
            for indexB in [0, 1, 3, 200, 255] as [UInt8] {
                for typeA in [ContactFeature.vertex, ContactFeature.face] {
                    for typeB in [ContactFeature.vertex, ContactFeature.face] {
                        ids.append(ContactFeature(indexA: indexA, indexB: indexB, typeA: typeA, typeB: typeB))
                    }
                }
            }
        }
        for first in stride(from: 0, to: ids.count, by: 8) {
            let group = (0..<8).map { ids[min(first + $0, ids.count - 1)] }
            func lanes(_ field: (ContactFeature) -> UInt8) -> SIMD8<Float> { SIMD8(group.map { Float(field($0)) }) }
            let keys = FeatureLanes(indexA: lanes(\.indexA), indexB: lanes(\.indexB), typeA: lanes(\.typeA), typeB: lanes(\.typeB)).keys
            for k in 0..<8 {
                #expect(keys[k] == group[k].key, "\(group[k])")
                #expect(ContactFeature(key: keys[k]) == group[k])
            }
        }
    }

    static func bits(_ m: Manifold) -> [UInt32] {
        [m.kind == .circles ? 0 : m.kind == .faceA ? 1 : 2, UInt32(m.pointCount), m.localNormal.x.bitPattern, m.localNormal.y.bitPattern,
         m.localPoint.x.bitPattern, m.localPoint.y.bitPattern, m.point0.localPoint.x.bitPattern, m.point0.localPoint.y.bitPattern,
         m.point1.localPoint.x.bitPattern, m.point1.localPoint.y.bitPattern, m.point0.id.key, m.point1.id.key]
    }
}

extension BoxPairLanes {
    /// The lane kernel on up to eight box pairs (A, its transform, B, its transform), lanes past
    /// them repeating the first, as the contact update gathers them.
    static func collide(_ group: [(Shape, Transform, Shape, Transform)]) -> [Manifold] {
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: scratchRowCount) { collide(group, rows: $0.baseAddress!) }
    }

    /// The same in the given `scratchRowCount` rows, whatever they hold.
    static func collide(_ group: [(Shape, Transform, Shape, Transform)], rows: UnsafeMutablePointer<SIMD8<Float>>) -> [Manifold] {
        for k in 0..<width {
            var (a, xfA, b, xfB) = group[k < group.count ? k : 0]
            gather(&a, xfA, into: rows, lane: k, asB: false)
            gather(&b, xfB, into: rows, lane: k, asB: true)
        }
        let manifolds = ManifoldRows(collide(rows), into: rows + rowCount)
        return group.indices.map { manifolds.manifold(lane: $0) }
    }

    /// `collide`, with whether each lane was found apart.
    static func collideMarkingApart(_ group: [(Shape, Transform, Shape, Transform)]) -> [(manifold: Manifold, apart: Bool)] {
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: scratchRowCount) { scratch in
            let rows = scratch.baseAddress!
            for k in 0..<width {
                var (a, xfA, b, xfB) = group[k < group.count ? k : 0]
                gather(&a, xfA, into: rows, lane: k, asB: false)
                gather(&b, xfB, into: rows, lane: k, asB: true)
            }
            let manifolds = ManifoldRows(collide(rows), into: rows + rowCount)
            return group.indices.map { (manifolds.manifold(lane: $0), manifolds.isApart(lane: $0)) }
        }
    }
}

private extension SeededNumbers {
    mutating func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low..<high, using: &self) }
}
