// rows.sum's hash (issue 29): taken a word at a time now, a byte at a time by earlier versions,
// whose lines still read. Checked against FNV-1a's published value, against itself fed in
// pieces, for every one-byte change, and on a run folder whose rows.sum was written the old way.
import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

@Suite struct RowHasherTests {
    static func hash(_ bytes: [UInt8], byWords: Bool = true) -> UInt64 {
        var h = RowHasher(byWords: byWords)
        h.add(bytes)
        return h.value
    }

    /// Byte by byte it is FNV-1a 64: "abc" hashes to 0xe71fa2190541574b (the reference value).
    @Test func byBytesIsFNV1a() {
        #expect(Self.hash(Array("abc".utf8), byWords: false) == 0xe71f_a219_0541_574b)
        #expect(Self.hash([], byWords: false) == RowSums.seed)
    }

    /// Fed in pieces cut anywhere (as rows read back line by line are), the hash of the whole.
    @Test func piecesGiveTheWholesHash() {
        var state: UInt64 = 5
        func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 33 }
        let bytes = (0..<1_000).map { _ in UInt8(truncatingIfNeeded: next()) }
        for byWords in [true, false] {
            let whole = Self.hash(bytes, byWords: byWords)
            for _ in 0..<200 {
                var h = RowHasher(byWords: byWords)
                var at = 0
                while at < bytes.count {
                    let n = min(bytes.count - at, Int(next() % 13))
                    h.add(Array(bytes[at..<(at + n)]))
                    at += n
                }
                #expect(h.value == whole)
            }
        }
    }

    /// Any one byte changed, and any length (a zero byte more, a byte less), changes the hash.
    @Test func everyOneByteChangeShows() {
        let bytes = Array("0,0,0,0,0.25,0,3,2,12.916595,0.1305542,,,,,,,1.8666667,60.000004,441.10767\n".utf8)
        let base = Self.hash(bytes)
        for i in bytes.indices {
            for delta in [1, 2, 128, 255] {
                var changed = bytes
                changed[i] = changed[i] &+ UInt8(delta)
                #expect(Self.hash(changed) != base, "byte \(i) + \(delta)")
            }
        }
        #expect(Self.hash(bytes + [0]) != base && Self.hash(Array(bytes.dropLast())) != base)
        #expect(Self.hash([0]) != Self.hash([]) && Self.hash([0, 0]) != Self.hash([0]))
    }

    /// A run folder whose rows.sum lines are in the earlier form (five fields, byte hashes) keeps
    /// every row on `--resume`; one edited digit is still found.
    @Test func earlierRowsSumLinesStillRead() throws {
        let dir = tempDir("rowsum")
        let path = writeScene(smallSweep, in: dir)
        let out = "\(dir)/run"
        _ = try runSweep(path, into: out, chunk: 4)
        let layout = CSVLayout(scene: try SceneFile.load(path: path))
        let entries = RowSums.read("\(out)/\(RowSums.fileName)")
        #expect(entries.count == 3 && entries.allSatisfy(\.byWords))
        // The same chunks, hashed byte by byte, in five-field lines.
        let worlds = Array(bytes("\(out)/worlds.csv")), partners = Array(bytes("\(out)/partners.csv"))
        var old = "", wStart = layout.header.utf8.count + 1, pStart = layout.partnersHeader.utf8.count + 1
        for var e in entries {
            var h = RowHasher(byWords: false)
            h.add(Array(worlds[wStart..<e.worldsEnd])); h.add(Array(partners[pStart..<e.partnersEnd]))
            e.hash = h.value; e.byWords = false
            old += RowSums.line(e)
            (wStart, pStart) = (e.worldsEnd, e.partnersEnd)
        }
        #expect(!old.contains(" w\n"))
        try old.write(toFile: "\(out)/\(RowSums.fileName)", atomically: true, encoding: .utf8)
        func kept() throws -> Int {
            try RowReader.read(worlds: "\(out)/worlds.csv", partners: "\(out)/partners.csv", sums: "\(out)/\(RowSums.fileName)",
                               layout: layout, from: 0, upTo: 12) { _ in }.rows
        }
        #expect(try kept() == 12)
        // A digit edited in the second chunk's rows: the first chunk is kept, no more.
        var text = String(decoding: worlds, as: UTF8.self)
        let fifth = text.split(separator: "\n", omittingEmptySubsequences: false)[5]
        let edited = fifth.replacingOccurrences(of: ",1,", with: ",2,")
        #expect(edited != fifth)
        text = text.replacingOccurrences(of: String(fifth), with: edited)
        try text.write(toFile: "\(out)/worlds.csv", atomically: true, encoding: .utf8)
        #expect(try kept() == 4)
    }
}
