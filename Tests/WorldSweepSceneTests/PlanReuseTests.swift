import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

/// A sweep's worlds after its first take the first world's collisions (boundary segments, edges,
/// the collision rule) instead of compiling them again; input and plan must be exactly what the
/// full compile gives, world by world.
@Suite("Plans that take the first world's collisions")
struct PlanReuseTests {
    /// Worlds 1… of `scene` against world 0 as the template: equal inputs and plans, and whether
    /// every plan took the template's collisions.
    static func expectSamePlans(_ scene: SceneFile, _ what: String, worlds indices: [Int]? = nil) -> Bool {
        let worlds = SweepWorlds(scene)
        guard let first = try? worlds.world(0) else { return true }
        let firstInput = first.planInput(), firstPlan = WorldPlan(compiling: firstInput)
        var reusedEvery = true
        for index in indices ?? Array(1..<scene.worldCount) {
            guard let world = try? worlds.world(index) else { continue }
            let full = world.planInput()
            let input = world.planInput(collisionsOf: (first, firstInput))
            #expect(input == full, "\(what), world \(index): input")
            let compiled = WorldPlan.compile(input, collisionsOf: (firstInput, firstPlan))
            #expect(compiled?.plan == WorldPlan(compiling: full), "\(what), world \(index): plan")
            #expect(WorldPlan(compiling: input, collisionsOf: (firstInput, firstPlan)) == WorldPlan(compiling: full))
            reusedEvery = reusedEvery && compiled?.reusedCollisions == true
        }
        return reusedEvery
    }

    @Test("every seed sweep's worlds", arguments: SceneBuilderTests.seedFiles)
    func seedSweeps(path: String) throws {
        let scene = try SceneFile.load(path: path)
        let count = scene.worldCount
        let indices = Set(stride(from: 1, to: count, by: max(1, count / 50)) + [count - 1]).sorted()
        // A sweep cannot change collisions, so every world takes them.
        #expect(Self.expectSamePlans(scene, path, worlds: indices))
    }

    @Test("one axis per numeric key of every item and behavior of every seed file, with jitter", arguments: SceneBuilderTests.seedFiles)
    func everyKeyAsAnAxis(path: String) throws {
        for (path, scene) in try SweepWorldsTests.everyKeySweeps(of: SceneFile.load(path: path)) {
            #expect(Self.expectSamePlans(scene, path))
        }
    }

    @Test func anotherFilesCollisionsAreNotTaken() throws {
        // Different boundaries (ledge-squares has more items and behaviors than twin-drop): the
        // input and the plan compile in full, and come out as the full compile's.
        let twin = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path).world(0)
        var moved = twin
        moved.world.bounds = Size(width: 400, height: 600)
        let twinInput = twin.planInput()
        let movedInput = moved.planInput(collisionsOf: (twin, twinInput))
        #expect(movedInput == moved.planInput())
        #expect(movedInput != twinInput)
        let compiled = WorldPlan.compile(movedInput, collisionsOf: (twinInput, WorldPlan(compiling: twinInput)))
        #expect(compiled?.reusedCollisions == false)
        #expect(compiled?.plan == WorldPlan(compiling: movedInput))
        let ledge = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/ledge-squares.yaml").path).world(0)
        let ledgeInput = ledge.planInput()
        let other = WorldPlan.compile(twinInput, collisionsOf: (ledgeInput, WorldPlan(compiling: ledgeInput)))
        #expect(other?.reusedCollisions == false)
        #expect(WorldPlan(compiling: twinInput, collisionsOf: (ledgeInput, WorldPlan(compiling: ledgeInput))) == WorldPlan(compiling: twinInput))
    }
}
