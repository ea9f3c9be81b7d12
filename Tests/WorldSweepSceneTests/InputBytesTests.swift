import Foundation
import Testing
@testable import WorldSweepScene

/// Issue 30: a UTF-8 byte-order mark is accepted; other encodings are named; input is bounded
/// (files, devices and pipes alike) and refused at the limit without reading past it.
@Suite struct InputBytesTests {
    private func file(_ bytes: Data) throws -> String {
        let path = NSTemporaryDirectory() + "input-bytes-\(UUID().uuidString).yaml"
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func loadError(_ path: String) -> SceneError? {
        do { _ = try SceneFile.load(path: path); return nil } catch { return error }
    }

    @Test func aUTF8ByteOrderMarkIsAccepted() throws {
        let scene = try SceneFile.load(path: try file(Data([0xEF, 0xBB, 0xBF]) + Data(minimalScene.utf8)))
        #expect(scene.items.map(\.name) == ["top", "bottom"])
    }

    @Test func otherEncodingsAreNamed() throws {
        let utf16 = try #require(minimalScene.data(using: .utf16LittleEndian))
        let marked = try #require(loadError(try file(Data([0xFF, 0xFE]) + utf16)))
        #expect(marked.line == 1 && marked.column == 1 && marked.message.contains("got UTF-16"), "\(marked)")
        // Without a mark, UTF-16 is valid UTF-8 full of NUL bytes: the first is after "n" of "name".
        let unmarked = try #require(loadError(try file(utf16)))
        #expect(unmarked.line == 1 && unmarked.column == 2 && unmarked.message.contains("NUL byte"), "\(unmarked)")
    }

    @Test func inputPastTheLimitIsRefusedWithoutReadingOn() throws {
        let big = Data(repeating: 0x20, count: SceneFileBytes.limit + 1)
        let error = try #require(loadError(try file(big)))
        #expect(error.line == 1 && error.column == 1 && error.message.contains("at most 16 MiB"), "\(error)")
        // Exactly at the limit is read (and then refused for what it holds, not its size).
        let atLimit = try #require(loadError(try file(Data(repeating: 0x20, count: SceneFileBytes.limit))))
        #expect(!atLimit.message.contains("16 MiB"), "\(atLimit)")
        // An endless device ends at the limit too.
        let endless = try #require(loadError("/dev/zero"))
        #expect(endless.message.contains("at most 16 MiB"), "\(endless)")
    }
}
