import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

@Suite("Parsing valid scenes")
struct SceneParsingTests {
    let twinDropPath = packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path

    @Test("the contract's example parses into the expected model")
    func contractExample() throws {
        let scene = try SceneFile.load(path: twinDropPath)
        #expect(scene.name == "twin-drop")
        #expect(scene.description == "two views fall; the bottom one is far more elastic")
        #expect(scene.sourcePath == twinDropPath)
        #expect(scene.world.bounds == Size(width: 320, height: 568))
        #expect(scene.world.tick == 1.0 / 60.0)
        #expect(scene.world.ticks == 300)

        #expect(scene.items.map(\.name) == ["top", "bottom"])
        #expect(scene.items[0].center == Point(x: 60, y: 30))
        #expect(scene.items[1].center == Point(x: 220, y: 50))
        #expect(scene.items.allSatisfy { $0.size == Size(width: 50, height: 50) && $0.angle == 0 && $0.shape == .rectangle })
        #expect(scene.items[0].location == SceneLocation(line: 8, column: 3))

        #expect(scene.behaviors.map(\.name) == ["fall", "walls", "bouncy", "stiff", "shove"])
        #expect(scene.behaviors.map(\.typeName) == ["gravity", "collision", "item", "item", "push"])
        #expect(scene.behaviors[0].kind == .gravity(GravitySpec()))
        #expect(scene.behaviors[0].items == ["top", "bottom"])
        let walls = CollisionSpec(mode: .everything, referenceBounds: true, insets: .zero, boundaries: [
            BoundarySpec(identifier: "ledge", shape: .segment(from: Point(x: 0, y: 468), to: Point(x: 320, y: 468))),
        ])
        #expect(scene.behaviors[1].kind == .collision(walls))
        #expect(scene.behaviors[2].kind == .item(ItemPropertiesSpec { $0.elasticity = 0.9 }))
        #expect(scene.behaviors[2].items == ["bottom"])
        #expect(scene.behaviors[3].kind == .item(ItemPropertiesSpec { $0.elasticity = 0.1 }))
        #expect(scene.behaviors[4].kind == .push(PushSpec(mode: .continuous, force: DirectionSpec(angle: 0, magnitude: 0.5))))

        let sweep = try #require(scene.sweep)
        #expect(sweep.kind == .grid)
        #expect(sweep.parameters.map(\.path) == ["bouncy.elasticity", "bouncy.density", "shove.magnitude"])
        #expect(sweep.parameters[0].range == .linspace(from: 0, to: 1, count: 16))
        #expect(sweep.parameters[1].range == .values([0.5, 1, 2]))
        #expect(sweep.parameters[2].range == .range(start: 0, stop: 1.5, step: 0.1))
        #expect(sweep.parameters[2].range.count == 16)
        #expect(sweep.samples == 1000)
        #expect(sweep.seed == 42)
        #expect(sweep.replicas == 1)
        #expect(sweep.jitter == [JitterSpec(path: "top.center.x", amplitude: 2, location: SceneLocation(line: 38, column: 12)),
                                 JitterSpec(path: "top.center.y", amplitude: 2, location: SceneLocation(line: 38, column: 12))])
        #expect(sweep.worldCount == 16 * 3 * 16)
        #expect(scene.worldCount == 768)
        #expect(scene.metrics == ["bounce_heights", "contact_counts", "rest_time", "final_state"])
    }

    @Test("defaults: tick 1/60, no behaviors needed, all metrics, no sweep")
    func defaults() throws {
        let scene = try parse("""
            name: plain
            world: {bounds: [100, 200], ticks: 10}
            items:
              box: {center: [50, 50], size: [10, 20]}
            """)
        #expect(scene.world.tick == 1.0 / 60.0)
        #expect(scene.world.ticks == 10)
        #expect(scene.behaviors.isEmpty)
        #expect(scene.sweep == nil)
        #expect(scene.worldCount == 1)
        // All of them: the spring metrics too (columns only for items with a rest target).
        #expect(scene.metrics == ["bounce_heights", "contact_counts", "rest_time", "final_state", "overshoot", "settle_time", "oscillations"])
        #expect(scene.description == "")
    }

    @Test("tick as a number or a fraction; duration is rounded to whole ticks")
    func ticks() throws {
        let fraction = try parse(minimalScene.replacingOccurrences(of: "  duration: 1", with: "  tick: 1/120\n  duration: 0.5"))
        #expect(fraction.world.tick == 1.0 / 120.0)
        #expect(fraction.world.ticks == 60)
        let number = try parse(minimalScene.replacingOccurrences(of: "  duration: 1", with: "  tick: 0.03\n  duration: 1"))
        #expect(number.world.tick == 0.03)
        #expect(number.world.ticks == 33)  // 33.33 rounds down
        let rounded = try parse(minimalScene.replacingOccurrences(of: "  duration: 1", with: "  duration: 0.125"))
        #expect(rounded.world.ticks == 8)  // 7.5 ticks rounds to 8
    }

    @Test("every kind of behavior with every key")
    func allKeys() throws {
        let scene = try parse("""
            name: full_scene-1
            description: every key
            world: {bounds: [320, 480], tick: 0.02, ticks: 50}
            items:
              box: {center: [10, 20], size: [30, 40], angle: 0.5}
              ball: {center: [100, 20], size: [30, 30], shape: ellipse}
              wedge: {center: [200, 20], size: [40, 40], path: [[-20, 20], [20, 20], [0, -20]]}
            behaviors:
              g: {type: gravity, items: [box], direction: [0.5, 2]}
              g2: {type: gravity, items: [ball], angle: 1, magnitude: 2}
              c:
                type: collision
                items: [box, ball, wedge]
                mode: boundaries
                reference_bounds: {insets: [1, 2, 3, 4]}
                boundaries:
                  seg: {from: [0, 400], to: [320, 410]}
                  loop: {path: [[0, 0], [10, 0], [10, 10]]}
                  bare: [[50, 50], [60, 60]]
              props:
                type: item
                items: [box, ball]
                elasticity: 0.5
                friction: 0
                density: 2
                resistance: 0.3
                angular_resistance: 0.4
                allows_rotation: false
                anchored: no
                charge: -1.5
                linear_velocity: [10, -20]
                angular_velocity: 3
              p:
                type: push
                items: [box, wedge]
                mode: instantaneous
                direction: [1, 1]
                active: false
                offset: {wedge: [1, 2]}
            metrics: [final_state, rest_time]
            """)
        #expect(scene.items[1].shape == .ellipse)
        #expect(scene.items[2].shape == .path)
        #expect(scene.items[2].path == [Point(x: -20, y: 20), Point(x: 20, y: 20), Point(x: 0, y: -20)])
        #expect(scene.behaviors[0].kind == .gravity(GravitySpec(force: DirectionSpec(direction: Vector(dx: 0.5, dy: 2)))))
        #expect(scene.behaviors[1].kind == .gravity(GravitySpec(force: DirectionSpec(angle: 1, magnitude: 2))))
        #expect(scene.behaviors[2].kind == .collision(CollisionSpec(
            mode: .boundaries, referenceBounds: true, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
            boundaries: [
                BoundarySpec(identifier: "seg", shape: .segment(from: Point(x: 0, y: 400), to: Point(x: 320, y: 410))),
                BoundarySpec(identifier: "loop", shape: .path([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)])),
                BoundarySpec(identifier: "bare", shape: .path([Point(x: 50, y: 50), Point(x: 60, y: 60)])),
            ])))
        #expect(scene.behaviors[3].kind == .item(ItemPropertiesSpec {
            $0.elasticity = 0.5; $0.friction = 0; $0.density = 2; $0.resistance = 0.3; $0.angularResistance = 0.4
            $0.allowsRotation = false; $0.anchored = false; $0.charge = -1.5
            $0.linearVelocity = Vector(dx: 10, dy: -20); $0.angularVelocity = 3
        }))
        #expect(scene.behaviors[4].kind == .push(PushSpec(
            mode: .instantaneous, force: DirectionSpec(direction: Vector(dx: 1, dy: 1)), active: false,
            offsets: [("wedge", Offset(horizontal: 1, vertical: 2))])))
        #expect(scene.metrics == ["final_state", "rest_time"])
    }

    @Test("JSON is YAML too")
    func json() throws {
        let scene = try parse("""
            {"name": "j", "world": {"bounds": [10, 10], "ticks": 3},
             "items": {"a": {"center": [1, 2], "size": [3, 4]}},
             "behaviors": {"fall": {"type": "gravity", "items": ["a"]}}}
            """)
        #expect(scene.items[0].size == Size(width: 3, height: 4))
        #expect(scene.behaviors[0].typeName == "gravity")
    }

    @Test("only properties the file sets are set on the item behavior")
    func explicitProperties() throws {
        let scene = try parse(minimalScene + "\n  soft: {type: item, items: [top], friction: 0.7}")
        guard case .item(let properties) = scene.behaviors[1].kind else { Issue.record("not an item behavior"); return }
        #expect(properties == ItemPropertiesSpec { $0.friction = 0.7 })
    }
}
