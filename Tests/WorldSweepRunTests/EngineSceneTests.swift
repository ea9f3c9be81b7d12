import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// What the engine's entry points run: the document `run` composed when it has no overrides (so
/// the file is composed once per process), else the file read again with the overrides; both
/// the scene `SceneFile.load(path:overrides:)` gives.
@Suite struct EngineSceneTests {
    @Test func theComposedDocumentIsTheFileAsLoaded() throws {
        let path = Repository.path("Sweeps/twin-drop.yaml")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var source = SweepSource(path: path, data: data)
        let fromFile = try RunEngineCode.scene(source)
        source.composed = try SceneFile.compose(path: path)
        #expect(try RunEngineCode.scene(source) == fromFile)
        #expect(fromFile == (try SceneFile.load(path: path)))
    }

    @Test func overridesReadTheFileAgainWhateverWasComposed() throws {
        let path = Repository.path("Sweeps/twin-drop.yaml")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var source = SweepSource(path: path, data: data, sets: ["sweep.replicas=3"])
        // A document of another file must not stand in for the file with overrides.
        source.composed = try SceneFile.compose(path: Repository.path("Sweeps/pendulum.yaml"))
        let scene = try RunEngineCode.scene(source)
        #expect(scene == (try SceneFile.load(path: path, overrides: SceneOverrides(sets: ["sweep.replicas=3"], sweeps: []))))
        #expect(scene.sweep?.replicas == 3)
    }
}
