import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepScene

/// Every behavior type is declared once (Sources/WorldSweepScene/Behaviors/): each declaration is
/// complete — keys with defaults, units, values and docs; numeric keys whose rules are the declared
/// keys' rules; a plan; which numbers a world sets by value, each one giving the compile's plan —
/// and the file, `--set` and the docs read the same declaration.
@Suite("Behavior declarations")
struct BehaviorDeclarationTests {
    /// One behavior of every type (every attachment kind, a field with a region), so each
    /// declaration is exercised on a real scene.
    static let scene: SceneFile = try! SceneFile.parse(yaml: """
        name: every-type
        world: {bounds: [400, 600], ticks: 20}
        items:
          a: {center: [100, 50], size: [20, 20]}
          b: {center: [150, 50], size: [20, 20]}
          c: {center: [200, 300], size: [40, 30], shape: ellipse}
        behaviors:
          fall: {type: gravity, items: [a, b, c], magnitude: 0.8}
          walls: {type: collision, items: [a, b, c], reference_bounds: true, boundaries: {shelf: {from: [0, 400], to: [400, 420]}}}
          bouncy: {type: item, items: [a, b], elasticity: 0.5, linear_velocity: [10, 0], anchored: false}
          shove: {type: push, items: [c], mode: continuous, magnitude: 0.3, offset: {c: [2, 0]}}
          rod: {type: attachment, items: [a, b], offset: {a: [0, 5]}, frequency: 2, damping: 0.3}
          rope: {type: attachment, kind: limit, items: [a, c], length: 250}
          hinge: {type: attachment, kind: pin, items: [a, b], anchor: [125, 50], range: [-0.5, 0.5], friction_torque: 1}
          rail: {type: attachment, kind: sliding, items: [c], anchor: [200, 300], axis: [1, 0], range: [-50, 50]}
          weld: {type: attachment, kind: fixed, items: [b, c], anchor: [170, 200], frequency: 3}
          home: {type: snap, item: c, point: [220, 310], damping: 0.7}
          well: {type: field, kind: radial_gravity, items: [a, b, c], position: [200, 200], strength: 2, region: {circle: 150}}
        """, path: "every-type.yaml")

    static let typeNames = BehaviorTypes.names

    @Test("the types are named once, and the fixture has a behavior of each")
    func everyTypeHasABehavior() {
        #expect(Set(Self.typeNames).count == Self.typeNames.count)
        #expect(Set(Self.scene.behaviors.map(\.typeName)) == Set(Self.typeNames))
        for behavior in Self.scene.behaviors {
            #expect(behavior.kind.type.name == behavior.typeName)
            #expect(behavior.kind.type.spec(of: behavior.kind) != nil, "\(behavior.name): its type reads its spec")
        }
    }

    @Test("each key has a default, a unit, its values and a doc, once", arguments: typeNames)
    func keysAreComplete(type name: String) throws {
        let type = try #require(BehaviorTypes.named(name))
        #expect(!type.itemsDoc.isEmpty)
        #expect(Set(type.fileKeys).count == type.fileKeys.count, "a key declared twice")
        for key in type.keys {
            #expect(!key.key.isEmpty && !key.defaultValue.isEmpty && !key.unit.isEmpty && !key.values.isEmpty && !key.doc.isEmpty,
                    "\(name).\(key.key) is missing a default, unit, values or doc")
            if let rule = key.rule { #expect(key.values.hasSuffix(rule.intervalText), "\(name).\(key.key): values say its rule") }
            #expect(key.parts.isEmpty || key.parts.count == 2)
        }
    }

    @Test("each numeric key belongs to a declared key and carries its rule", arguments: typeNames)
    func numericKeysAreDeclared(type name: String) throws {
        let type = try #require(BehaviorTypes.named(name))
        let behaviors = Self.scene.behaviors.filter { $0.typeName == name }
        for behavior in behaviors {
            for (key, rule) in type.numericKeys(of: behavior) {
                let declared = try #require(type.keys.first { key == $0.key || key.hasPrefix($0.key + ".") },
                                            "\(behavior.name).\(key) has no declared key")
                #expect(declared.rule == rule, "\(behavior.name).\(key): rule differs from the declared one")
                if declared.parts.count == 2 {
                    #expect(declared.parts.map { "\(declared.key).\($0)" }.contains(key), "\(behavior.name).\(key): not one of its parts")
                }
                // The value reads back through `--set`'s path, and a value past the rule is refused.
                let path = "\(behavior.name).\(key)"
                let now = try Self.scene.value(at: path)
                if now.isFinite {
                    let moved = try Self.scene.applying([(path, now == 0 ? 0.25 : now * 0.5)])
                    #expect(try moved.value(at: path) == (now == 0 ? 0.25 : now * 0.5), "\(path) sets and reads back")
                }
                #expect(throws: SceneError.self, "\(path) accepts a value past its rule") {
                    try Self.scene.applying([(path, rule.limit * 10)])
                }
            }
        }
    }

    @Test("each type compiles into the plan the animator makes of the same scene")
    func planIsTheAnimators() {
        let built = Self.scene.makeAnimator()
        #expect(built.behaviors.count == Self.scene.behaviors.count)
        for (k, behavior) in Self.scene.behaviors.enumerated() {
            #expect(type(of: built.behaviors[k].behavior) != DynamicBehavior.self, "\(behavior.name): a live behavior of its type")
        }
        _ = built.animator.preparedWorld()   // configures from the live behaviors
        // The fixture's first behavior lists every item in file order, so both number items alike.
        #expect(built.animator.plan == Self.scene.worldPlan(), "the scene's plan is the animator's")
    }

    @Test("the numbers a world sets by value give the compile's plan; the rest are compiled", arguments: typeNames)
    func valuesSetAtSlots(type name: String) throws {
        // Without the types that only a compile makes (plansByValue false), so that the slots are used.
        let keep = Self.scene.behaviors.filter { $0.kind.type.plansByValue || $0.typeName == name }
        var scene = Self.scene
        scene.behaviors = keep
        let type = try #require(BehaviorTypes.named(name))
        var slotted = 0
        for (path, sweep) in try SweepWorldsTests.everyKeySweeps(of: scene) where keep.contains(where: { path.hasPrefix($0.name + ".") }) {
            guard let behavior = keep.first(where: { path.hasPrefix($0.name + ".") }), behavior.typeName == name else { continue }
            let key = String(path.dropFirst(behavior.name.count + 1))
            let index = try #require(scene.behaviors.firstIndex { $0.name == behavior.name })
            if type.slot(forKey: key, behavior: index) != nil && type.plansByValue { slotted += 1 }
            PlanTemplateTests.expectSamePlans(sweep, path)
        }
        if !type.plansByValue {
            // Such a scene's worlds are compiled, whatever the paths.
            let worlds = SweepWorlds(try SweepWorldsTests.everyKeySweeps(of: scene).first { $0.path.hasPrefix("a.") }!.scene)
            #expect(!PlanTemplate(try worlds.world(0), of: worlds).setsValues)
        } else if !type.numericKeys(of: keep.first { $0.typeName == name }!).isEmpty {
            #expect(slotted > 0, "\(name) sets none of its numbers by value")
        }
    }

    @Test("each type's engine side is where ARCHITECTURE.md lists it: its API file, its kernels", arguments: typeNames)
    func engineFilesAreListed(type name: String) throws {
        let type = try #require(BehaviorTypes.named(name))
        let engine = packageRoot.appendingPathComponent("Sources/WorldSweep")
        func source(_ file: String) throws -> String { try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8) }
        // Scene side: its declaration file, named after the type.
        let declaration = try String(contentsOf: packageRoot.appendingPathComponent(
            "Sources/WorldSweepScene/Behaviors/\(String(describing: type)).swift"), encoding: .utf8)
        #expect(declaration.contains("\(String(describing: type)): BehaviorType"), "\(name): declared in its own file")
        // Engine side: the live behavior and its plan value, with that value's compile, in the API file.
        let behavior = try #require(Self.scene.behaviors.first { $0.typeName == name })
        let built = Self.scene.makeAnimator()
        let live = try #require(built.behaviors.first { $0.name == behavior.name }?.behavior)
        _ = built.animator.preparedWorld()
        let order = built.animator.itemOrder
        let context = PlanDescription(indexOfItem: Dictionary(uniqueKeysWithValues: order.enumerated().map { (ObjectIdentifier($1), $0) }),
                                      order: order, referenceBounds: built.animator.referenceBounds)
        let described = live.planBehavior(context)
        let index = try #require(Self.scene.behaviors.firstIndex { $0.name == behavior.name })
        let planned = Self.scene.planInput().behaviors[index]
        #expect(Swift.type(of: described) == Swift.type(of: planned), "\(name): the live behavior describes itself as the scene's plan value")
        let api = try source(type.apiFile)
        let liveName = String(describing: Swift.type(of: live)), planName = String(describing: Swift.type(of: planned))
        #expect(api.contains("class \(liveName)"), "\(name): \(liveName) is declared in \(type.apiFile)")
        #expect(api.contains("struct \(planName): PlanBehavior"), "\(name): PlanInput.\(planName) is declared in \(type.apiFile)")
        // No other engine file reads its plan value, but the plan's core: the compile makes the
        // items' materials from item behaviors and the collision rule from collision behaviors.
        let core: Set<String> = name == "item" || name == "collision" ? ["Plan/WorldPlan.swift"] : []
        let files = try FileManager.default.subpathsOfDirectory(atPath: engine.path).filter { $0.hasSuffix(".swift") }
        for file in files where file != type.apiFile && !core.contains(file) {
            #expect(!(try source(file)).contains("PlanInput.\(planName)"), "\(name): \(file) reads PlanInput.\(planName)")
        }
        // Its physics: files that exist, one of them in Core/ (written once, both engines call it).
        #expect(type.kernels.contains { $0.hasPrefix("Core/") }, "\(name): a kernel in Core/")
        for file in type.kernels {
            #expect(FileManager.default.fileExists(atPath: engine.appendingPathComponent(file).path), "\(name) names \(file), which does not exist")
        }
    }
}
