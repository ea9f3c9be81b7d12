import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

/// A batch's worlds after its first are the first world's plan with their values set at the slots
/// the sweep's paths resolve to, once per sweep (or compiled where a path has no slot): every plan
/// and gravity must be exactly the full compile's, world by world.
@Suite("Plans made from a template by values")
struct PlanTemplateTests {
    /// Worlds of `scene` against world 0 as the template: the same plan and gravity as the full
    /// compile. Returns how many worlds were made by values alone.
    @discardableResult
    static func expectSamePlans(_ scene: SceneFile, _ what: String, worlds indices: [Int]? = nil) -> Int {
        let worlds = SweepWorlds(scene)
        guard let first = try? worlds.world(0) else { return 0 }
        let template = PlanTemplate(first, of: worlds)
        #expect(template.plan == WorldPlan(compiling: first.planInput()), "\(what): template")
        var byValues = 0
        for index in indices ?? Array(1..<scene.worldCount) {
            guard let world = try? worlds.world(index) else { continue }
            let full = world.planInput(), fullPlan = WorldPlan(compiling: full)
            let made = template.plan(for: world)
            #expect(made.plan == fullPlan, "\(what), world \(index): plan")
            #expect(made.gravity == full.gravity, "\(what), world \(index): gravity")
            if template.setsValues { byValues += 1 }
        }
        return byValues
    }

    @Test("every seed sweep's worlds", arguments: SceneBuilderTests.seedFiles)
    func seedSweeps(path: String) throws {
        let scene = try SceneFile.load(path: path)
        let count = scene.worldCount
        let indices = Set(stride(from: 1, to: count, by: max(1, count / 50)) + [count - 1]).sorted()
        Self.expectSamePlans(scene, path, worlds: indices)
    }

    @Test("one axis per numeric key of every item and behavior of every seed file, with jitter", arguments: SceneBuilderTests.seedFiles)
    func everyKeyAsAnAxis(path: String) throws {
        for (path, scene) in try SweepWorldsTests.everyKeySweeps(of: SceneFile.load(path: path)) {
            Self.expectSamePlans(scene, path)
        }
    }

    @Test func twinDropsWorldsAreMadeByValues() throws {
        // Swept: an item behavior's elasticity and density, a push's magnitude; jittered: an item's
        // centre. Every world but the template is made by values, and the values show in the plans.
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        let all = Array(1..<scene.worldCount)
        #expect(Self.expectSamePlans(scene, "twin-drop", worlds: all) == all.count)
        let worlds = SweepWorlds(scene), template = PlanTemplate(try worlds.world(0), of: worlds)
        #expect(template.plan(for: try worlds.world(scene.worldCount - 1)).plan != template.plan)
    }

    @Test func aSweepsPathsResolveToSlotsOnce() throws {
        // twin-drop sweeps bouncy.elasticity and bouncy.density (one slot: the items' settings),
        // shove.magnitude (the push's vector) and jitters top.center (top's pose, from two paths):
        // three slots, found when the template is made, and every world is made through them.
        let scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        let worlds = SweepWorlds(scene)
        let paths = try #require(worlds.valuePaths)
        #expect(paths.map(\.key) == ["elasticity", "density", "magnitude", "center.x", "center.y"])
        let template = PlanTemplate(try worlds.world(0), of: worlds)
        let top = try #require(scene.items.firstIndex { $0.name == "top" })
        let shove = try #require(scene.behaviors.firstIndex { $0.name == "shove" })
        #expect(template.slots == [.behavior(type: "item", index: nil), .behavior(type: "push", index: shove), .pose(item: top)])
        // A world's plan is the template's with only those slots set: another world's settings,
        // push and pose, and nothing else of it, make the same plan.
        let index = scene.worldCount - 1
        var world = try worlds.world(index)
        let made = template.plan(for: world).plan
        world.name = "renamed"
        world.behaviors[shove].items = ["bottom"]   // not a slot: the plan keeps the template's members
        #expect(template.plan(for: world).plan == made)
        // Without the sweep's paths nothing is set by value: the world is compiled.
        #expect(!PlanTemplate(try worlds.world(0)).setsValues)
    }

    /// Two gravity behaviors (the later sets the world's), item behaviors that overlay one another
    /// with velocities, both push modes given by direction and by angle.
    static let layered = """
        name: layered
        world: {bounds: [320, 568], ticks: 30}
        items:
          idle: {center: [300, 20], size: [10, 10]}
          a: {center: [60, 100], size: [40, 40]}
          b: {center: [98, 100], size: [30, 50], angle: 0.2, shape: ellipse}
          c: {center: [200, 60], size: [36, 36], shape: ellipse}
        behaviors:
          early: {type: gravity, items: [a], direction: [0.1, 1]}
          fall: {type: gravity, items: [a, b, c], angle: 1.4, magnitude: 1.2}
          walls: {type: collision, items: [a, b, c], reference_bounds: true}
          material: {type: item, items: [a, b, c], elasticity: 0.6, friction: 0.3, linear_velocity: [20, -40], angular_velocity: 0.5}
          later: {type: item, items: [c, a], elasticity: 0.9, allows_rotation: false}
          flick: {type: push, items: [b], mode: instantaneous, magnitude: 0.3, angle: 3.0, offset: {b: [5, 10]}}
          drive: {type: push, items: [c, a], mode: continuous, direction: [0.05, -0.02], offset: {c: [0, -5]}}
        sweep:
          parameters:
            material.elasticity: [0.1, 0.7]
            later.elasticity: [0.2, 0.5]
            material.density: [0.5, 2]
            early.magnitude: [0.5, 1.5]
            fall.magnitude: [0.8, 1.5]
            flick.magnitude: [0.1, 0.9]
            drive.angle: [0.2, 2]
            b.angle: [0, 0.4]
          jitter: {a.center: [3, 3]}
        """

    @Test func layeredSettingsGravityAndPushes() throws {
        let scene = try SceneFile.parse(yaml: Self.layered, path: "layered.yaml")
        #expect(Self.expectSamePlans(scene, "layered") == scene.worldCount - 1)
    }

    @Test func aSweptSizeOrVelocityIsCompiled() throws {
        // A size changes a shape and a velocity the velocity changes: neither is a value the
        // template sets, so those worlds compile (and still come out as the full compile's).
        for parameter in ["a.size.width", "material.linear_velocity.x", "material.angular_velocity"] {
            var scene = try SceneFile.parse(yaml: Self.layered, path: "layered.yaml")
            scene.sweep = SweepSpec(kind: .grid, parameters: [SweepParameter(path: parameter, range: .values([10, 20]))], seed: 1,
                                    replicas: 1, jitter: [])
            #expect(Self.expectSamePlans(scene, parameter) == 0, "\(parameter)")
        }
    }
}
