import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

@Suite("Building animators from scenes")
struct SceneBuilderTests {
    static let seedFiles: [String] = {
        let folder = packageRoot.appendingPathComponent("Sweeps")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }()

    @Test func theSeedScenesExist() {
        let names = Set(Self.seedFiles.map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(names.isSuperset(of: ["twin-drop.yaml", "ledge-squares.yaml", "push-offset.yaml", "spinner.yaml"]))
    }

    @Test("every file in Sweeps/ parses, has a sweep (or a tune section) and builds", arguments: seedFiles)
    func seedFileBuilds(path: String) throws {
        let scene = try SceneFile.load(path: path)
        // A tune file searches instead of sweeping; without a sweep section it is one world.
        let sweep = try #require(scene.sweep ?? (scene.tune != nil ? SweepSpec() : nil), "\(path) has no sweep")
        #expect(sweep.worldCount >= 1)
        #expect(scene.name == URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        for world in [0, sweep.worldCount - 1] {
            let built = try scene.world(world).makeAnimator()
            #expect(built.views.map(\.name) == scene.items.map(\.name))
            #expect(built.behaviors.map(\.name) == scene.behaviors.map(\.name))
            #expect(built.animator.behaviors.count == scene.behaviors.count)
            #expect(built.tickCount == scene.world.ticks)
            for _ in 0..<5 { built.animator.tick(built.tick) }
        }
    }

    @Test func twinDropBuildsTheContractsObjects() throws {
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        let built = scene.makeAnimator()
        #expect(built.animator.referenceBounds == Size(width: 320, height: 568))
        #expect(built.tick == 1.0 / 60.0)
        #expect(built.tickCount == 300)
        let top = try #require(built.view(named: "top"))
        #expect(top.center == Point(x: 60, y: 30) && top.size == Size(width: 50, height: 50))
        #expect(top.collisionBoundsType == .rectangle)
        #expect(built.name(of: top) == "top")

        let gravity = try #require(built.behavior(named: "fall") as? GravityBehavior)
        #expect(gravity.magnitude == 1 && gravity.gravityDirection == Vector(dx: 0, dy: 1))
        #expect(gravity.items.count == 2)

        let walls = try #require(built.behavior(named: "walls") as? CollisionBehavior)
        #expect(walls.collisionMode == .everything)
        #expect(walls.translatesReferenceBoundsIntoBoundary)
        #expect(walls.boundaryIdentifiers == ["ledge"])
        #expect(walls.boundary(withIdentifier: "ledge") == .segment(from: Point(x: 0, y: 468), to: Point(x: 320, y: 468)))
        #expect(built.collisionBehaviors.map(\.name) == ["walls"])

        let bouncy = try #require(built.behavior(named: "bouncy") as? DynamicItemBehavior)
        #expect(bouncy.elasticity == 0.9)
        #expect(bouncy.friction == DynamicItemBehavior.Defaults.friction, "unset properties keep the engine's default")
        #expect(bouncy.items.map { built.name(of: $0) } == ["bottom"])
        let stiff = try #require(built.behavior(named: "stiff") as? DynamicItemBehavior)
        #expect(stiff.elasticity == 0.1)

        let shove = try #require(built.behavior(named: "shove") as? PushBehavior)
        #expect(shove.mode == .continuous && shove.magnitude == 0.5 && shove.angle == 0 && shove.active)
    }

    @Test func overridesReachTheBuiltObjects() throws {
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        let built = try scene.applying(scene.firstPointOverrides()).makeAnimator()
        let bouncy = try #require(built.behavior(named: "bouncy") as? DynamicItemBehavior)
        #expect(bouncy.elasticity == 0 && bouncy.density == 0.5)
        #expect((built.behavior(named: "shove") as? PushBehavior)?.magnitude == 0)
    }

    @Test func shapesDirectionsAndOffsets() throws {
        let scene = try parse("""
            name: shapes
            world: {bounds: [300, 300], ticks: 10}
            items:
              ball: {center: [50, 50], size: [20, 20], shape: ellipse}
              wedge: {center: [150, 50], size: [40, 40], angle: 0.5, path: [[-20, 20], [20, 20], [0, -20]]}
            behaviors:
              g: {type: gravity, items: [ball], direction: [1, 0]}
              c: {type: collision, items: [ball, wedge], mode: items, reference_bounds: {insets: [1, 2, 3, 4]}}
              p: {type: push, items: [wedge], mode: instantaneous, angle: 1, active: false, offset: {wedge: [3, -4]}}
              q: {type: push, items: [ball], mode: continuous, magnitude: 2}
            """)
        let built = scene.makeAnimator()
        let wedge = try #require(built.view(named: "wedge"))
        #expect(wedge.collisionBoundsType == .path && wedge.angle == 0.5)
        #expect(wedge.collisionBoundingPath == [Point(x: -20, y: 20), Point(x: 20, y: 20), Point(x: 0, y: -20)])
        #expect(built.view(named: "ball")?.collisionBoundsType == .ellipse)
        #expect((built.behavior(named: "g") as? GravityBehavior)?.gravityDirection == Vector(dx: 1, dy: 0))
        let c = try #require(built.behavior(named: "c") as? CollisionBehavior)
        #expect(c.collisionMode == .items)
        #expect(c.referenceBoundsInsets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        let p = try #require(built.behavior(named: "p") as? PushBehavior)
        #expect(p.mode == .instantaneous && p.angle == 1 && p.magnitude == 0 && !p.active)
        #expect(p.targetOffsetFromCenter(for: wedge) == Offset(horizontal: 3, vertical: -4))
        let q = try #require(built.behavior(named: "q") as? PushBehavior)
        #expect(q.magnitude == 2 && q.angle == 0)
    }

    @Test func spinnerSpinsWithoutGravity() throws {
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/spinner.yaml").path)
        let built = scene.makeAnimator()
        let rotor = built.views[0]
        for _ in 0..<30 { built.animator.tick(built.tick) }
        let state = try #require(built.animator.itemState(for: rotor))
        #expect(state.angularVelocity > 5 && state.angularVelocity <= 2 * Double.pi)
        #expect(rotor.angle > 2.5)
        #expect(abs(rotor.center.x - 160) < 1e-3 && abs(rotor.center.y - 284) < 1e-3)
    }

    @Test func offCentrePushesSpinTheirItems() throws {
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/push-offset.yaml").path)
        let built = scene.makeAnimator()
        for _ in 0..<30 { built.animator.tick(built.tick) }
        let flicked = try #require(built.view(named: "flicked")), driven = try #require(built.view(named: "driven"))
        #expect(flicked.center.x > 80 && driven.center.x > 80, "both move right")
        #expect(flicked.angle < 0, "pushed right below the centre: counter-clockwise")
        #expect(driven.angle > 0, "pushed right above the centre: clockwise")
    }
}
