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

    @Test(arguments: ["ledge-squares.yaml", "push-offset.yaml", "spinner.yaml", "radial-gravity.yaml"])
    func otherSeedSweepsAgree(_ name: String) throws {
        let scene = try SceneFile.load(path: "\(Self.sweepsDirectory)/\(name)")
        let count = min(scene.worldCount, 96)
        let (identical, total, deviation) = try compare("\(Self.sweepsDirectory)/\(name)", worlds: Array(0..<count))
        #expect(deviation <= 1e-3)
        #expect(identical == total, "\(name): \(identical) of \(total) worlds bitwise identical")
    }
}

/// Worlds where the order of contacts matters: bodies touching bodies, so each island holds
/// several contacts and every world solves them in its own island order (Box2D's walk). The
/// batched engine packs each world's k-th contact into round k; every world must still come out
/// bit for bit as it does alone.
@Suite struct BatchOrderAgreementTests {
    static let stack = """
        name: stack3
        world: {bounds: [320, 568], ticks: 240}
        items:
          low:  {center: [160, 547], size: [40, 40]}
          mid:  {center: [163, 506], size: [40, 40]}
          high: {center: [158, 465], size: [40, 40]}
        behaviors:
          fall: {type: gravity, items: [low, mid, high]}
          walls: {type: collision, items: [low, mid, high], reference_bounds: true}
          material: {type: item, items: [low, mid, high], elasticity: 0.2, friction: 0.5}
          heavy: {type: item, items: [high], density: 1}
        sweep:
          parameters:
            material.elasticity: [0, 0.3, 0.7]
            material.friction: [0, 0.4, 1]
            heavy.density: [0.5, 1, 3, 8]
        """

    static let pushed = """
        name: pushed
        world: {bounds: [320, 568], ticks: 240}
        items:
          pusher: {center: [90, 540], size: [40, 40]}
          target: {center: [170, 530], size: [50, 60]}
        behaviors:
          fall: {type: gravity, items: [pusher, target]}
          walls: {type: collision, items: [pusher, target], reference_bounds: true}
          material: {type: item, items: [pusher, target], elasticity: 0.1, friction: 0.3}
          shove: {type: push, items: [pusher], mode: continuous, magnitude: 1, angle: 0}
        sweep:
          parameters:
            shove.magnitude: [0.5, 2, 6, 12]
            material.friction: [0, 0.3, 0.8]
            material.elasticity: [0, 0.5]
        """

    static let pyramid = """
        name: pyramid
        world: {bounds: [320, 568], ticks: 240}
        items:
          left:  {center: [139, 547], size: [40, 40]}
          right: {center: [181, 547], size: [40, 40]}
          top:   {center: [160, 500], size: [40, 40]}
        behaviors:
          fall: {type: gravity, items: [left, right, top]}
          walls: {type: collision, items: [left, right, top], reference_bounds: true}
          material: {type: item, items: [left, right, top], elasticity: 0.1, friction: 0.6}
          crown: {type: item, items: [top], density: 1}
        sweep:
          parameters:
            material.friction: [0, 0.2, 0.6, 1]
            crown.density: [0.25, 1, 4]
            fall.magnitude: [0.5, 1, 2]
        """

    @Test(arguments: [("stack3", stack), ("pushed", pushed), ("pyramid", pyramid)])
    func touchingBodiesAgreeWorldByWorld(_ name: String, _ text: String) throws {
        let scene = try SceneFile.load(path: writeScene(text, in: tempDir("order-\(name)")))
        var single = WorldRunner(scene: scene)
        single.engine = .single
        var batched = single
        batched.engine = .batched(.simd)
        let worlds = Array(0..<scene.worldCount)
        let expected = worlds.map { single.run(world: $0) }
        // Two batches of unequal size, so lanes hold different worlds' orders side by side.
        let split = worlds.count / 3
        let got = batched.runBatched(Array(worlds[..<split]), integrator: .simd)
            + batched.runBatched(Array(worlds[split...]), integrator: .simd)
        #expect(got.count == expected.count)
        var bodyContacts = 0
        for (e, g) in zip(expected, got) {
            #expect(e == g, "\(name) world \(e.world): batched differs from the single world")
            // The point of these scenes: bodies touch bodies (partners other than the walls).
            bodyContacts += e.items.reduce(0) { $0 + $1.contactsByPartner.filter { !["bounds"].contains($0.key) }.values.reduce(0, +) }
        }
        #expect(bodyContacts > 0, "\(name): no body touched another body")
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
