import Foundation
import Testing
@testable import WorldSweep

/// The contact update with one world's contacts gathered into the lanes (`NarrowPhaseLayout
/// .pairLanes`, the layout of big worlds) against the layout of many worlds (`.worldLanes`, a
/// row's eight worlds per kernel call) and against each world's own animator: every item's state
/// after every tick, the contact changes in their order, and every contact column of the batch
/// bit for bit. The scenes have what the gathered update must keep in Box2D's order: boxes that
/// rest and sleep, boxes dropped onto them later that wake them within a pass (touch began), boxes
/// that bounce off (contacts destroyed, touching ended), circles (no lane kernel: lane by lane),
/// and box–box and box–wall pairs (both kernels).
@Suite struct PairLaneNarrowPhaseTests {
    struct Scene {
        let animator: DynamicAnimator
        let views: [View]
    }

    /// World `k` of a family: resting boxes on the floor, a resting circle, and boxes and a circle
    /// dropped from high so they land after the resting ones sleep (positions and sizes vary with `k`).
    static func scene(_ k: Int) -> Scene {
        let height = 1_200.0, floorY = height
        var views: [View] = []
        for i in 0..<6 {
            let size = 24 + 2 * Double((i + k) % 3)
            views.append(View(name: "rest\(i)", center: Point(30 + 48 * Double(i), floorY - size / 2 - 0.25), size: Size(width: size, height: size)))
        }
        views.append(View(name: "ball", center: Point(300, floorY - 10.5), size: Size(width: 20, height: 20), collisionBoundsType: .ellipse))
        for i in 0..<5 {
            let x = 28 + 49 * Double(i) + 3 * Double(k)
            views.append(View(name: "drop\(i)", center: Point(x, 60 - 25 * Double(i)), size: Size(width: 20, height: 16), angle: 0.1 * Double(i - k)))
        }
        views.append(View(name: "dropBall", center: Point(150 + 7 * Double(k), 30), size: Size(width: 18, height: 18), collisionBoundsType: .ellipse))
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: height))
        let walls = CollisionBehavior(items: views)
        walls.translatesReferenceBoundsIntoBoundary = true
        let bouncy = DynamicItemBehavior(items: Array(views[7...]))
        bouncy.elasticity = 0.6
        let dull = DynamicItemBehavior(items: Array(views[..<7]))
        dull.elasticity = 0
        for b in [GravityBehavior(items: views), walls, bouncy, dull] as [DynamicBehavior] { animator.addBehavior(b) }
        return Scene(animator: animator, views: views)
    }

    static func batch(_ scenes: [Scene], _ layout: NarrowPhaseLayout) throws -> PlanBatch {
        for s in scenes { _ = s.animator.preparedWorld() }
        let batch = try PlanBatch(scenes.map { $0.animator.plan! }, layout: .lanes)
        batch.lanes.narrowPhaseLayout = layout
        return batch
    }

    /// Every contact column of rows in use, bit for bit.
    static func sameContacts(_ x: LaneWorld, _ y: LaneWorld) -> Bool {
        guard x.rows.count == y.rows.count, x.rows.pair == y.rows.pair else { return false }
        let n = x.rows.count * x.lanes, c = x.contacts, d = y.contacts
        let ints = [(c.exists, d.exists), (c.touching, d.touching), (c.enabled, d.enabled), (c.faceA, d.faceA), (c.faceB, d.faceB),
                    (c.pointCount, d.pointCount), (c.hasManifold, d.hasManifold)]
        let floats = [(c.normalX, d.normalX), (c.normalY, d.normalY), (c.pointX, d.pointX), (c.pointY, d.pointY),
                      (c.point0X, d.point0X), (c.point0Y, d.point0Y), (c.point1X, d.point1X), (c.point1Y, d.point1Y),
                      (c.normalImpulse0, d.normalImpulse0), (c.tangentImpulse0, d.tangentImpulse0),
                      (c.normalImpulse1, d.normalImpulse1), (c.tangentImpulse1, d.tangentImpulse1), (c.id0, d.id0), (c.id1, d.id1),
                      (c.transformAX, d.transformAX), (c.transformAY, d.transformAY), (c.transformAS, d.transformAS),
                      (c.transformAC, d.transformAC), (c.transformBX, d.transformBX), (c.transformBY, d.transformBY),
                      (c.transformBS, d.transformBS), (c.transformBC, d.transformBC)]
        return ints.allSatisfy { memcmp($0.0, $0.1, n * 4) == 0 } && floats.allSatisfy { memcmp($0.0, $0.1, n * 4) == 0 }
    }

    /// Runs `count` worlds alone and as two batches, one per layout, for `ticks` ticks.
    func agree(worlds count: Int, ticks: Int) throws -> LanePairNarrowPhase {
        let alone = (0..<count).map(Self.scene), viaPairs = (0..<count).map(Self.scene), viaWorlds = (0..<count).map(Self.scene)
        let pairs = try Self.batch(viaPairs, .pairLanes), worlds = try Self.batch(viaWorlds, .worldLanes)
        let bodies = viaPairs[0].views.map { viaPairs[0].animator.bodyIndex(of: $0)! }
        var changes = 0
        for tick in 1...ticks {
            for s in alone { s.animator.tick() }
            pairs.tick()
            worlds.tick()
            for k in 0..<count {
                for (v, b) in zip(alone[k].views, bodies) {
                    let expected = alone[k].animator.itemState(for: v)!
                    #expect(pairs.itemState(k, body: b) == expected, "world \(k) tick \(tick) \(v.name): pair lanes differ from the world alone")
                    #expect(worlds.itemState(k, body: b) == expected, "world \(k) tick \(tick) \(v.name): world lanes differ from the world alone")
                }
                var fromPairs: [String] = [], fromWorlds: [String] = []
                pairs.takeContactChanges(k) { a, b, began in fromPairs.append("\(a)-\(b) \(began)") }
                worlds.takeContactChanges(k) { a, b, began in fromWorlds.append("\(a)-\(b) \(began)") }
                #expect(fromPairs == fromWorlds, "world \(k) tick \(tick): contact changes differ")
                changes += fromPairs.count
                if pairs.isRunning(k) && pairs.isAsleep(k) { pairs.stop(k); worlds.stop(k) }
            }
            #expect(Self.sameContacts(pairs.lanes, worlds.lanes), "tick \(tick): contact columns differ")
        }
        #expect(changes > 20, "only \(changes) contact changes")
        return pairs.lanes.pairNarrowPhase
    }

    @Test func oneWorldGatheredAgreesWithWorldLanesAndTheWorldAlone() throws {
        let pairs = try agree(worlds: 1, ticks: 240)
        // The scene does what it is for: contacts went through gathered kernels, and sleeping
        // contacts were woken by a touch earlier in the same pass and updated in order.
        #expect(pairs.gatheredCount > 1_000, "\(pairs.gatheredCount) contacts gathered")
        #expect(pairs.wokenInPassCount > 0, "no sleeping contact woken within a pass")
    }

    @Test func fiveWorldsGatheredTogetherAgree() throws {
        // Five worlds in one group: gathered lanes hold different worlds' contacts side by side.
        let pairs = try agree(worlds: 5, ticks: 240)
        #expect(pairs.gatheredCount > 5_000, "\(pairs.gatheredCount) contacts gathered")
        #expect(pairs.wokenInPassCount > 0, "no sleeping contact woken within a pass")
    }

    @Test func byMeasureTakesPairLanesForAtMostTwoRunningWorlds() throws {
        let two = try Self.batch([Self.scene(0), Self.scene(1)], .byMeasure)
        let three = try Self.batch([Self.scene(0), Self.scene(1), Self.scene(2)], .byMeasure)
        #expect(two.lanes.rows.count >= LanePairNarrowPhase.fewestRows)
        for _ in 0..<30 { two.tick(); three.tick() }
        #expect(two.lanes.pairNarrowPhase.gatheredCount > 0)
        #expect(three.lanes.pairNarrowPhase.gatheredCount == 0)
    }
}
