import Foundation
import Testing
import TestScratch
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// A world's swept values travel with it: the values its scene is made from are the ones its
/// result records, on both engines, and a world whose values break a rule still records them.
@Suite("A world's parameters travel with its result")
struct WorldParametersTests {
    static let twinDrop = try! SceneFile.load(path: Repository.root.appendingPathComponent("Sweeps/twin-drop.yaml").path)

    @Test("each result records the values its world was made with, on both engines")
    func resultsCarryTheWorldsValues() throws {
        let scene = Self.twinDrop
        let sweep = try #require(scene.sweep)
        let maker = SweepWorlds(scene)
        let count = min(24, scene.worldCount)
        var batched = WorldRunner(scene: scene), single = WorldRunner(scene: scene)
        batched.engine = .batched(.simd)
        single.engine = .single
        let results = [batched.run(worlds: 0..<count), single.run(worlds: 0..<count)]
        // Jitter moves `top`'s centre only, so every swept path reads in the world as swept.
        let jittered = Set(sweep.jitter.map(\.path))
        for result in results.flatMap({ $0 }) {
            let made = maker.make(result.world)
            let world = try made.scene.get()
            #expect(result.parameters == made.parameters, "world \(result.world)")
            #expect(result.point == made.point && result.replica == made.replica)
            for (k, parameter) in sweep.parameters.enumerated() where !jittered.contains(parameter.path) {
                #expect(try world.value(at: parameter.path) == result.parameters[k], "world \(result.world), \(parameter.path)")
            }
        }
        // Different points record different values: the values are the world's, not one point's.
        #expect(Set(results[0].map(\.parameters)).count == Set(results[0].map(\.point)).count)
    }

    @Test("a world whose values break a rule fails and still records them")
    func aFailedWorldKeepsItsValues() throws {
        var scene = Self.twinDrop
        scene.sweep = SweepSpec(kind: .grid, parameters: [SweepParameter(path: "top.size.width", range: .values([40, -5]))],
                                seed: 1, replicas: 2)
        let made = SweepWorlds(scene).make(3)
        #expect(made.point == 1 && made.replica == 1 && made.parameters == [-5])
        #expect(throws: SceneError.self) { try made.scene.get() }
        for engine in [SweepEngine.batched(.simd), .single] {
            var runner = WorldRunner(scene: scene)
            runner.engine = engine
            let results = runner.run(worlds: 0..<4)
            #expect(results.map(\.failed) == [false, false, true, true])
            #expect(results.map(\.parameters) == [[40], [40], [-5], [-5]])
        }
    }
}
