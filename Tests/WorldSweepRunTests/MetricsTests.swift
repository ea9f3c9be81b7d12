import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

func scene(_ yaml: String) throws -> SceneFile { try SceneFile.parse(yaml: yaml, path: "test.yaml") }

/// A 40×40 box dropped from rest, no rotation, no air resistance, onto the bottom of the bounds.
func dropScene(elasticity: Double, y: Double = 100, ticks: Int = 600) -> String {
    """
    name: drop
    world: {bounds: [320, 568], ticks: \(ticks)}
    items:
      box: {center: [160, \(y)], size: [40, 40]}
    behaviors:
      fall: {type: gravity, items: [box]}
      walls: {type: collision, items: [box], reference_bounds: true}
      stuff: {type: item, items: [box], elasticity: \(elasticity), resistance: 0, allows_rotation: false}
    """
}

@Suite struct MetricsTests {
    @Test func bounceHeightsFallByESquared() throws {
        let e = 0.8
        let r = WorldRunner(scene: try scene(dropScene(elasticity: e))).run(world: 0)
        let box = r.items[0]
        #expect(!r.failed)
        // The box rests with its centre about 548 − 1 pt (skins) above; it falls H ≈ 447 pt.
        let H = 548.0 - 100.0
        #expect(box.bounceHeights.count >= 4)
        for (k, h) in box.bounceHeights.prefix(4).enumerated() {
            let expected = H * pow(e, 2 * Double(k + 1))
            #expect(abs(h - expected) / expected < 0.05, "bounce \(k + 1): \(h) vs \(expected)")
        }
        // Each bounce keeps e² of the one before (apexes are sampled once a tick: a few % of noise).
        for k in 1..<box.bounceHeights.count where box.bounceHeights[k] > 50 {
            let ratio = box.bounceHeights[k] / box.bounceHeights[k - 1]
            #expect(abs(ratio - e * e) < 0.06 * e * e, "ratio \(k): \(ratio)")
        }
        #expect(box.bounceHeights.count == 8)
        #expect(box.contacts == box.contactsByPartner["bounds"])
        #expect(box.contacts >= box.bounceHeights.count)
    }

    @Test func aFlightCutShortByTheEndCountsOnceItsApexIsPassed() throws {
        // e = 0.8 from y = 100: it lands after √(2·4.48 m / 10 m/s²) ≈ 0.95 s (57 ticks), rises
        // for e·0.95 ≈ 0.76 s (apex near tick 102) and lands again near tick 148.
        let e = 0.8, H = 548.0 - 100.0
        let afterApex = WorldRunner(scene: try scene(dropScene(elasticity: e, ticks: 125))).run(world: 0).items[0]
        #expect(afterApex.bounceHeights.count == 1)
        if let h = afterApex.bounceHeights.first { #expect(abs(h - H * e * e) / (H * e * e) < 0.05, "rise \(h)") }
        let beforeApex = WorldRunner(scene: try scene(dropScene(elasticity: e, ticks: 90))).run(world: 0).items[0]
        #expect(beforeApex.bounceHeights.isEmpty)   // still rising: its height is not known yet
    }

    @Test func aBoxAtRestTouchesOnceAndSleepsHalfASecondLater() throws {
        // Dropped from just above the floor with no bounce: one contact, at rest at once.
        let r = WorldRunner(scene: try scene(dropScene(elasticity: 0, y: 546, ticks: 300))).run(world: 0)
        let box = r.items[0]
        #expect(box.contacts == 1)
        #expect(box.contactsByPartner == ["bounds": 1])
        #expect(box.bounceHeights.isEmpty)
        let rest = try #require(box.restTime)
        // It touches within a few ticks and sleeps after 0.5 s without motion.
        #expect(rest >= 0.5 && rest <= 0.65, "rest time \(rest)")
        #expect(abs(box.y - 547) < 1.5)
        #expect(box.vx == 0 && box.vy == 0)
    }

    @Test func twoItemsCountTheirContactWithEachOther() throws {
        let yaml = """
            name: stack
            world: {bounds: [320, 568], ticks: 300}
            items:
              low: {center: [160, 546], size: [40, 40]}
              high: {center: [160, 400], size: [40, 40]}
            behaviors:
              fall: {type: gravity, items: [low, high]}
              walls: {type: collision, items: [low, high], reference_bounds: true}
              dead: {type: item, items: [low, high], elasticity: 0, allows_rotation: false}
            """
        let r = WorldRunner(scene: try scene(yaml)).run(world: 0)
        #expect(r.items[0].contactsByPartner == ["bounds": 1, "high": 1])
        #expect(r.items[1].contactsByPartner == ["low": 1])
        #expect(r.items[0].contacts == 2 && r.items[1].contacts == 1)
        #expect(r.items[1].restTime != nil)
    }

    @Test func anItemPairInTwoCollisionBehaviorsCountsOnce() throws {
        let yaml = """
            name: twice
            world: {bounds: [320, 568], ticks: 300}
            items:
              low: {center: [160, 546], size: [40, 40]}
              high: {center: [160, 400], size: [40, 40]}
            behaviors:
              fall: {type: gravity, items: [low, high]}
              walls: {type: collision, items: [low, high], reference_bounds: true}
              again: {type: collision, items: [low, high], mode: items}
              dead: {type: item, items: [low, high], elasticity: 0, allows_rotation: false}
            """
        let r = WorldRunner(scene: try scene(yaml)).run(world: 0)
        #expect(r.items[1].contactsByPartner == ["low": 1])
        #expect(r.items[0].contactsByPartner["high"] == 1)
    }

    @Test func bouncesAreMeasuredAgainstGravity() throws {
        // Gravity to the right: the box "falls" onto the right edge and bounces back leftwards.
        let yaml = """
            name: sideways
            world: {bounds: [568, 320], ticks: 600}
            items:
              box: {center: [100, 160], size: [40, 40]}
            behaviors:
              fall: {type: gravity, items: [box], angle: 0}
              walls: {type: collision, items: [box], reference_bounds: true}
              stuff: {type: item, items: [box], elasticity: 0.8, resistance: 0, allows_rotation: false}
            """
        let r = WorldRunner(scene: try scene(yaml)).run(world: 0)
        let H = 548.0 - 100.0
        let h1 = try #require(r.items[0].bounceHeights.first)
        #expect(abs(h1 - H * 0.64) / (H * 0.64) < 0.05, "\(h1)")
    }

    @Test func aBlowUpFailsTheWorld() throws {
        let yaml = """
            name: fast
            world: {bounds: [320, 568], ticks: 10}
            items:
              box: {center: [160, 300], size: [40, 40]}
            behaviors:
              kick: {type: item, items: [box], linear_velocity: [30000, 0]}
            """
        // The engine clamps speed at 2 m per sub-step (24000 pt/s): test the check with a lower cap.
        var runner = WorldRunner(scene: try scene(yaml))
        #expect(!runner.run(world: 0).failed)
        runner.speedLimit = 10_000
        let r = runner.run(world: 0)
        #expect(r.failed)
        #expect(r.items == [ItemResult()])
    }
}
