import Foundation
import Testing
@testable import WorldSweepScene

/// A file's bytes are checked and decoded from one array: the text, or the error (message, line,
/// column), must be what the checks through `Data` gave.
@Suite struct FileBytesAgreementTests {
    /// The checks as they were, through `Data`.
    static func textAsBefore(_ data: Data, path: String) throws(SceneError) -> String {
        let bytes = [UInt8](data.prefix(4))
        let boms: [(mark: [UInt8], name: String)] = [([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
                                                     ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16")]
        for bom in boms where bytes.starts(with: bom.mark) {
            throw SceneError(path: path, line: 1, column: 1, message: "expected UTF-8 text, got \(bom.name) (its byte-order "
                             + "mark); save the file as UTF-8")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if let bad = TextPosition.firstInvalidUTF8(in: Data(body)) {
            throw SceneError(path: path, at: bad.location,
                             "expected UTF-8 text, got the byte 0x\(String(bad.byte, radix: 16, uppercase: true))")
        }
        if let nul = body.firstIndex(of: 0) {
            let before = String(decoding: body[..<nul], as: UTF8.self)
            let line = before.utf8.filter { $0 == 0x0A }.count + 1
            let column = (before.split(separator: "\n", omittingEmptySubsequences: false).last?.unicodeScalars.count ?? 0) + 1
            throw SceneError(path: path, line: line, column: column,
                             message: "expected UTF-8 text, got a NUL byte (a UTF-16 or binary file?)")
        }
        return String(decoding: body, as: UTF8.self)
    }

    @Test func everyFileReadsAsBefore() {
        var state: UInt64 = 5
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let pieces: [[UInt8]] = [Array("name: a\n".utf8), Array("é".utf8), Array("🙂".utf8), [0x0A], [0x00], [0xC0, 0x80], [0xED, 0xA0, 0x80],
                                 [0xFF], [0xE2, 0x82], [0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE, 0x00, 0x00], Array("  b: [1, 2]\r\n".utf8)]
        var files: [[UInt8]] = [[], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x61], [0xFE, 0xFF, 0x00, 0x61], [0x00, 0x00, 0xFE, 0xFF]]
        for _ in 0..<3_000 { files.append((0..<next(8)).flatMap { _ in pieces[next(pieces.count)] }) }
        var errors = 0
        for file in files {
            let data = Data(file)
            let now = Result { () throws(SceneError) in try SceneFileBytes.text(data, path: "f.yaml") }
            let before = Result { () throws(SceneError) in try Self.textAsBefore(data, path: "f.yaml") }
            switch (now, before) {
            case let (.success(a), .success(b)): #expect(a == b && Array(a.utf8) == Array(b.utf8), "\(file)")
            case let (.failure(a), .failure(b)): #expect(a == b, "\(file)"); errors += 1
            default: Issue.record("\(file): \(now) against \(before)")
            }
        }
        #expect(errors > 300 && errors < files.count - 300)
    }
}
