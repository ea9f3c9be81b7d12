import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepRun
@testable import WorldSweepScene

/// Fields in scene files: every kind and region form parses, compiles to the plan its animator
/// compiles from live FieldBehaviors, sweeps and `--set`s its numbers, and runs on the batch bit
/// for bit as on the single world; bad field input is refused at its line and column.
@Suite struct FieldSceneTests {
    /// Every field kind, regions of every form, charges, and a sweep over field numbers.
    static let everyField = """
        name: every-field
        world: {bounds: [320, 568], ticks: 120}
        items:
          a: {center: [60, 100], size: [40, 40]}
          b: {center: [200, 200], size: [30, 50], shape: ellipse}
          c: {center: [150, 420], size: [36, 36]}
        behaviors:
          walls: {type: collision, items: [a, b, c], reference_bounds: true}
          charges: {type: item, items: [a, b], charge: 2, linear_velocity: [40, -30]}
          lin: {type: field, kind: linear_gravity, items: [a, c], direction: [0.2, 1], region: {rectangle: [320, 300]}}
          rad: {type: field, kind: radial_gravity, items: [a, b, c], position: [160, 300], strength: 2, minimum_radius: 0.2, region: {circle: 200}}
          spr: {type: field, kind: spring, items: [b], position: [160, 250], strength: 3, region: {inverse: {circle: 20}}}
          ele: {type: field, kind: electric, items: [a, b, c], position: [100, 100], strength: 0.5, region: {union: [{circle: 80}, {rectangle: [100, 600]}]}}
          mag: {type: field, kind: magnetic, items: [a, b], strength: 0.8, falloff: 0}
          vor: {type: field, kind: vortex, items: [c], position: [160, 400], region: {difference: [{circle: 150}, {circle: 10}]}}
          drg: {type: field, kind: drag, items: [a, b, c], strength: 0.3, direction: [0.1, 0]}
          vel: {type: field, kind: velocity, items: [c], direction: [0.5, -0.2], region: {intersection: [{rectangle: [100, 100]}, infinite]}, position: [40, 40]}
          noi: {type: field, kind: noise, items: [a, b], smoothness: 0.3, animation_speed: 2, strength: 0.4}
          tur: {type: field, kind: turbulence, items: [b, c], smoothness: 0.6, animation_speed: 1, strength: 0.2}
        sweep:
          parameters:
            rad.strength: [1, 3]
            charges.charge: [-1, 2]
            ele.position.x: [80, 140]
            noi.animation_speed: [0, 4]
        """

    static func scene() throws -> SceneFile { try SceneFile.parse(yaml: everyField, path: "every-field.yaml") }

    @Test func everyKindAndRegionParses() throws {
        let scene = try Self.scene()
        let kinds = scene.behaviors.compactMap { if case .field(let f) = $0.kind { f.kind } else { nil } }
        #expect(kinds == FieldKindSpec.allCases)
        guard case .field(let ele) = scene.behavior(named: "ele")!.kind else { Issue.record("not a field"); return }
        #expect(ele.region == Region(radius: 80).union(with: Region(size: Size(width: 100, height: 600))))
        #expect(ele.position == Point(x: 100, y: 100) && ele.strength == 0.5 && ele.falloff == nil)
        // Defaults read back through the numeric keys: electric falls off as 1/r.
        #expect(try scene.value(at: "ele.falloff") == 1)
        #expect(try scene.value(at: "rad.falloff") == 2)
        #expect(try scene.value(at: "spr.minimum_radius") == FieldBehavior.defaultMinimumRadius)
        #expect(scene.numericKeys(of: "noi")!.contains("animation_speed"))
        #expect(!scene.numericKeys(of: "rad")!.contains("direction.x"))
    }

    @Test func overridesSetFieldNumbers() throws {
        let scene = try Self.scene().applying([("rad.strength", 7), ("vel.direction.y", 0.25), ("spr.position.x", 10)])
        #expect(try scene.value(at: "rad.strength") == 7)
        #expect(try scene.value(at: "vel.direction.y") == 0.25 && scene.value(at: "vel.direction.x") == 0.5)
        #expect(try scene.value(at: "spr.position.x") == 10 && scene.value(at: "spr.position.y") == 250)
        #expect(throws: SceneError.self) { try Self.scene().applying([("rad.falloff", 5)]) }
        #expect(throws: SceneError.self) { try Self.scene().applying([("rad.minimum_radius", 0)]) }
        #expect(throws: SceneError.self) { try Self.scene().applying([("rad.direction.x", 1)]) }
    }

    @Test func aSceneCompilesToTheFieldsItsAnimatorUses() throws {
        let scene = try Self.scene()
        for world in 0..<scene.worldCount {
            let w = try scene.world(world)
            let fromScene = w.worldPlan()
            let built = w.makeAnimator()
            _ = built.animator.preparedWorld()
            let animatorPlan = try #require(built.animator.plan)
            #expect(fromScene.fields.count == 10)
            #expect(fromScene.fields == animatorPlan.fields, "world \(world)")
            #expect(fromScene.sharesStructure(with: animatorPlan))
        }
        // Charges reach the fields: world 0 sweeps charges.charge to −1.
        let plan = try scene.world(0).worldPlan()
        #expect(plan.fields[3].charges == [-1, -1, 0])
    }

    @Test func everyWorldRunsOnTheBatchAsOnTheSingleWorld() throws {
        let scene = try Self.scene()
        var single = WorldRunner(scene: scene)
        single.engine = .single
        let expected = (0..<scene.worldCount).map { single.run(world: $0) }
        let got = single.runBatched(Array(0..<5), integrator: .simd) + single.runBatched(Array(5..<scene.worldCount), integrator: .simd)
        #expect(expected.count == got.count)
        for (e, g) in zip(expected, got) {
            #expect(e.world == g.world && e.failed == g.failed && e.parameters == g.parameters)
            for (i, (ie, ig)) in zip(e.items, g.items).enumerated() where ie != ig {
                Issue.record("world \(e.world), item \(scene.items[i].name): \(ig) instead of \(ie)")
            }
        }
        #expect(!got.contains { $0.failed })
        // The swept field numbers change the outcome.
        #expect(Set(got.map { $0.items[1].x }).count > 1)
    }

    // MARK: refusals, at line and column

    func error(_ yaml: String) -> SceneError? {
        do { _ = try SceneFile.parse(yaml: yaml, path: "f.yaml"); return nil } catch { return error }
    }

    func fieldScene(_ field: String) -> String {
        """
        name: f
        world: {bounds: [320, 568], ticks: 10}
        items:
          a: {center: [60, 100], size: [40, 40]}
        behaviors:
          pull: \(field)
        """
    }

    @Test(arguments: [
        ("{type: field, items: [a]}", 6, 3, "missing required key 'kind'"),
        ("{type: field, kind: gravity, items: [a]}", 6, 29, "expected one of linear_gravity, radial_gravity"),
        ("{type: field, kind: spring, items: [a], direction: [1, 0]}", 6, 49, "'direction' applies only to linear_gravity, velocity and drag"),
        ("{type: field, kind: linear_gravity, items: [a]}", 6, 3, "missing required key 'direction'"),
        ("{type: field, kind: drag, items: [a], smoothness: 1}", 6, 47, "'smoothness' applies only to noise and turbulence"),
        ("{type: field, kind: spring, items: [a], falloff: 9}", 6, 58, "expected a number in [-4, 4]"),
        ("{type: field, kind: spring, items: [a], minimum_radius: 0}", 6, 65, "expected a positive number"),
        ("{type: field, kind: spring, items: [a], region: {circle: -5}}", 6, 66, "'circle' radius"),
        ("{type: field, kind: spring, items: [a], region: {square: 5}}", 6, 58, "unknown key 'square'"),
        ("{type: field, kind: spring, items: [a], region: {union: [{circle: 5}]}}", 6, 65, "expected [REGION, REGION]"),
        ("{type: field, kind: spring, items: [a], region: {circle: 5, rectangle: [1, 1]}}", 6, 57, "got 2 keys"),
        ("{type: field, kind: spring, items: [a], region: everywhere}", 6, 57, "expected infinite or a mapping"),
        ("{type: field, kind: spring, items: [a], wobble: 1}", 6, 49, "unknown key 'wobble'"),
    ] as [(String, Int, Int, String)])
    func badFieldsAreRefusedWhereTheyAre(_ field: String, _ line: Int, _ column: Int, _ message: String) {
        let e = error(fieldScene(field))
        #expect(e != nil, "\(field) was accepted")
        guard let e else { return }
        #expect(e.description.hasPrefix("f.yaml:\(line):\(column): error: "), "\(e.description)")
        #expect(e.description.contains(message), "\(e.description)")
    }

    @Test func the33rdFieldIsRefusedAtItsName() {
        var yaml = """
            name: f
            world: {bounds: [320, 568], ticks: 10}
            items:
              a: {center: [60, 100], size: [40, 40]}
            behaviors:

            """
        for k in 1...33 { yaml += "  f\(k): {type: field, kind: spring, items: [a]}\n" }
        let e = error(yaml)
        #expect(e?.description.hasPrefix("f.yaml:38:3: error: field behavior 'f33' is one too many") == true, "\(String(describing: e))")
        // 32 are fine.
        let ok = yaml.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(error(ok) == nil)
    }
}
