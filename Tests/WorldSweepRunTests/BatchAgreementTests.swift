import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// The batched engine against the single world, world by world: the same final positions and the
/// same contact counts (the issue asks for 1e-3 pt; with the `simd` integrator every number of
/// every world is bitwise equal, and that is what these tests demand).
@Suite struct BatchAgreementTests {
    static let sweepsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sweeps").path

    func compare(_ file: String, worlds: [Int], engine: SweepEngine = .batched(.simd)) throws -> (identical: Int, total: Int, maxDeviation: Double) {
        var single = WorldRunner(scene: try SceneFile.load(path: file))
        single.engine = .single
        var batched = single
        batched.engine = engine
        let expected = worlds.map { single.run(world: $0) }
        // Batches of up to 64 worlds, as the scheduler cuts them (not a multiple of 8 on purpose).
        guard case .batched(let integrator) = engine else { return (0, 0, 0) }
        var got: [WorldResult] = []
        for start in stride(from: 0, to: worlds.count, by: 61) {
            got += batched.runBatched(Array(worlds[start..<min(worlds.count, start + 61)]), integrator: integrator)
        }
        var identical = 0
        var maxDeviation = 0.0
        for (e, g) in zip(expected, got) {
            #expect(e.world == g.world && e.failed == g.failed)
            for (ie, ig) in zip(e.items, g.items) {
                #expect(ie.contacts == ig.contacts, "world \(e.world): contacts \(ig.contacts) vs \(ie.contacts)")
                #expect(ie.contactsByPartner == ig.contactsByPartner, "world \(e.world)")
                maxDeviation = max(maxDeviation, abs(ie.x - ig.x), abs(ie.y - ig.y))
            }
            if e == g { identical += 1 }
        }
        return (identical, expected.count, maxDeviation)
    }

    @Test func twinDropEveryWorldIsBitwiseTheSingleWorld() throws {
        // 768 worlds; every fourth, i.e. 192 worlds across all three swept axes, in batches of 61.
        let (identical, total, deviation) = try compare("\(Self.sweepsDirectory)/twin-drop.yaml",
                                                        worlds: Array(stride(from: 0, to: 768, by: 4)))
        #expect(deviation <= 1e-3)
        #expect(identical == total, "\(identical) of \(total) worlds bitwise identical")
    }

    @Test func consecutiveBatchesAgree() throws {
        let (identical, total, deviation) = try compare("\(Self.sweepsDirectory)/twin-drop.yaml", worlds: Array(300..<422))
        #expect(deviation <= 1e-3)
        #expect(identical == total, "\(identical) of \(total) worlds bitwise identical")
    }

    @Test(arguments: ["ledge-squares.yaml", "push-offset.yaml", "spinner.yaml"])
    func otherSeedSweepsAgree(_ name: String) throws {
        let scene = try SceneFile.load(path: "\(Self.sweepsDirectory)/\(name)")
        let count = min(scene.worldCount, 96)
        let (identical, total, deviation) = try compare("\(Self.sweepsDirectory)/\(name)", worlds: Array(0..<count))
        #expect(deviation <= 1e-3)
        #expect(identical == total, "\(name): \(identical) of \(total) worlds bitwise identical")
    }
}

/// The BLAS back end reassociates sums, so it is not bitwise; on worlds without chaos (boxes that
/// fall, bounce and settle, rotation locked) it must agree with the single world to 1e-3 pt and
/// count the same contacts.
@Suite struct BatchBLASTests {
    static let settlingSweep = """
        name: settle
        world: {bounds: [320, 568], ticks: 240}
        items:
          a: {center: [80, 100], size: [40, 40]}
          b: {center: [220, 200], size: [60, 30]}
        behaviors:
          fall: {type: gravity, items: [a, b]}
          walls: {type: collision, items: [a, b], reference_bounds: true}
          material: {type: item, items: [a, b], elasticity: 0.5, allows_rotation: false}
        sweep:
          parameters:
            material.elasticity: {linspace: [0, 0.6, 7]}
            fall.magnitude: [0.5, 1, 2]
        """

    @Test func blasAgreesToRoundingOnSettlingWorlds() throws {
        let dir = tempDir("blas")
        let scene = try SceneFile.load(path: writeScene(Self.settlingSweep, in: dir))
        var single = WorldRunner(scene: scene)
        single.engine = .single
        var blas = single
        blas.engine = .batched(.blas)
        let expected = single.run(worlds: 0..<scene.worldCount)
        let got = blas.run(worlds: 0..<scene.worldCount)
        #expect(got.count == 21)
        var exact = 0
        for (e, g) in zip(expected, got) {
            #expect(!e.failed && !g.failed)
            for (ie, ig) in zip(e.items, g.items) {
                #expect(ie.contacts == ig.contacts, "world \(e.world)")
                #expect(abs(ie.x - ig.x) <= 1e-3 && abs(ie.y - ig.y) <= 1e-3, "world \(e.world): \(ig.y) vs \(ie.y)")
            }
            if e == g { exact += 1 }
        }
        // Not a requirement, but worth knowing when it changes: how many came out bitwise anyway.
        print("blas: \(exact) of \(got.count) settling worlds bitwise equal to the single world")
    }
}
