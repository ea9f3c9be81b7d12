import Foundation
import TestScratch
import WorldSweepResults
import Testing
@testable import WorldSweepScene

/// `run` composes its file once and both compilations parse that document
/// (`SceneFile.compose(path:)`, `SceneFile.parse(_:path:)`): the scene and every error must be
/// what `SceneFile.load(path:)` gives, also on a second parse of the same document (whose tags
/// the first one resolved in place).
@Suite struct ComposedFileTests {
    private func write(_ text: String) throws -> String {
        let path = Scratch.directory("composed") + "/scene.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func loadResult(_ path: String) -> Result<SceneFile, SceneError> {
        do { return .success(try SceneFile.load(path: path)) } catch { return .failure(error) }
    }

    private func composedResult(_ path: String) -> (first: Result<SceneFile, SceneError>, second: Result<SceneFile, SceneError>) {
        let composed: ComposedFile
        do { composed = try SceneFile.compose(path: path) } catch { return (.failure(error), .failure(error)) }
        func parse() -> Result<SceneFile, SceneError> {
            do { return .success(try SceneFile.parse(composed, path: path)) } catch { return .failure(error) }
        }
        return (parse(), parse())
    }

    @Test func everyExampleSweepParsesAsLoaded() throws {
        let folder = Repository.path("Sweeps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 10)
        for name in files {
            let path = folder + "/" + name
            let loaded = try SceneFile.load(path: path)
            let (first, second) = composedResult(path)
            #expect(try first.get() == loaded, "\(name)")
            #expect(try second.get() == loaded, "\(name)")
        }
    }

    @Test func errorsAreTheLoadersWordForWord() throws {
        let cases = [
            "",                                                      // an empty file
            "name: x\nworld: {bounds: [100, 100]\n",                 // a syntax error
            "name: x\nname: y\n",                                     // a duplicated key
            "name: x\nworld: {bounds: [100, 100]}\nitems: {a: {center: [1, 2], size: [3, 4], colour: 1}}\n",   // an unknown key
        ]
        for text in cases {
            let path = try write(text)
            guard case .failure(let expected) = loadResult(path) else { Issue.record("no error for \(text)"); continue }
            let (first, second) = composedResult(path)
            for result in [first, second] {
                guard case .failure(let error) = result else { Issue.record("no error for \(text)"); continue }
                #expect(error == expected, "\(text)")
            }
        }
        // A missing file fails as the loader does.
        let missing = Scratch.directory("composed") + "/none.yaml"
        guard case .failure(let expected) = loadResult(missing), case .failure(let error) = composedResult(missing).first else {
            Issue.record("a missing file read")
            return
        }
        #expect(error == expected)
    }
}
