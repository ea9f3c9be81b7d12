import Foundation
import Testing
import WorldSweep
@testable import WorldSweepScene

/// `SweepWorlds` resolves a sweep's paths once; each world must come out exactly as resolving
/// every path by name makes it (`applying`, then `value(at:)` / `setValue(_:at:)` per jitter entry).
@Suite("Sweep worlds with paths resolved once")
struct SweepWorldsTests {
    /// World `index` made path by path, by name: the reference.
    static func worldByName(_ scene: SceneFile, _ index: Int) throws(SceneError) -> SceneFile {
        let sweep = scene.sweep!
        let (point, replica) = sweep.position(ofWorld: index)
        var world = try scene.applying(sweep.values(atPoint: point))
        for (path, delta) in sweep.jitterOffsets(point: point, replica: replica) {
            try world.setValue(try world.value(at: path) + delta, at: path)
        }
        return world
    }

    /// Both ways of making world `index`: the same scene, or the same error.
    static func expectSame(_ scene: SceneFile, _ index: Int, _ what: String) {
        let fast = Result { () throws(SceneError) in try SweepWorlds(scene).world(index) }
        let byName = Result { () throws(SceneError) in try worldByName(scene, index) }
        #expect(fast == byName, "\(what), world \(index)")
    }

    @Test("every seed sweep's worlds", arguments: SceneBuilderTests.seedFiles)
    func seedSweepWorlds(path: String) throws {
        let scene = try SceneFile.load(path: path)
        // A tune seed without a sweep section is the file itself: nothing to resolve.
        guard scene.sweep != nil else { return }
        let count = scene.worldCount
        // Each end and a stride through the middle (the million-world file has 10⁶).
        for index in Set(stride(from: 0, to: count, by: max(1, count / 50)) + [count - 1]).sorted() {
            Self.expectSame(scene, index, path)
        }
    }

    /// `file` with one sweep per numeric key of each of its items and behaviors: two values, and
    /// a jitter on the same key and on the first item's centre, two replicas each (positions,
    /// sizes, angles, forces, offsets, fields and their regions, attachments, snaps).
    static func everyKeySweeps(of file: SceneFile) throws -> [(path: String, scene: SceneFile)] {
        var sweeps: [(path: String, scene: SceneFile)] = []
        for name in file.items.map(\.name) + file.behaviors.map(\.name) {
            for key in file.numericKeys(of: name) ?? [] {
                let path = "\(name).\(key)"
                let now = try file.value(at: path)
                let base = now.isFinite ? now : 0
                var scene = file
                scene.sweep = SweepSpec(kind: .grid, parameters: [SweepParameter(path: path, range: .values([base, base + 0.5]))],
                                        seed: 3, replicas: 2,
                                        jitter: [JitterSpec(path: path, amplitude: 0.25),
                                                 JitterSpec(path: "\(file.items[0].name).center.x", amplitude: 2)])
                sweeps.append((path, scene))
            }
        }
        return sweeps
    }

    @Test("one axis per numeric key of every item and behavior of every seed file, with jitter", arguments: SceneBuilderTests.seedFiles)
    func everyKeyAsAnAxis(path: String) throws {
        let sweeps = try Self.everyKeySweeps(of: SceneFile.load(path: path))
        for (path, scene) in sweeps {
            for index in 0..<scene.worldCount { Self.expectSame(scene, index, path) }
        }
        #expect(!sweeps.isEmpty)
    }

    @Test func aPathThatNamesNothingFailsEachWorldAsByName() throws {
        var scene = try SceneFile.load(path: packageRoot.appendingPathComponent("Sweeps/twin-drop.yaml").path)
        scene.sweep?.jitter.append(JitterSpec(path: "nothing.center.x", amplitude: 1))
        #expect(throws: SceneError.self) { try SweepWorlds(scene).world(0) }
        Self.expectSame(scene, 0, "unknown jitter path")
    }
}
