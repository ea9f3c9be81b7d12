import Foundation

/// Reading a scene or sweep file's bytes: bounded, and UTF-8 only.
enum SceneFileBytes {
    /// The largest scene or sweep file read (docs/cli.md): far above any hand-written or generated
    /// sweep (a 10 000-item crowd is under 1 MiB), and small enough that parsing it stays within
    /// ordinary memory. Devices and pipes (/dev/zero, stdin) are cut off here too.
    static let limit = 16 << 20

    /// At most `limit` bytes of the file at `path`; a longer one is refused without reading past the limit.
    static func read(_ handle: FileHandle, path: String) throws(SceneError) -> Data {
        var data = Data()
        while data.count <= limit {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - data.count)) } catch {
                throw SceneError(path: path, line: 1, column: 1, message: "cannot read the file")
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
        }
        throw SceneError(path: path, line: 1, column: 1,
                         message: "expected a scene file of at most 16 MiB, this one is larger (or endless)")
    }

    /// The text of UTF-8 bytes, a leading byte-order mark dropped (editors on Windows write one).
    /// Other encodings are named rather than read as garbled UTF-8.
    static func text(_ data: Data, path: String) throws(SceneError) -> String {
        let bytes = [UInt8](data.prefix(4))
        let boms: [(mark: [UInt8], name: String)] = [([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
                                                     ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16")]
        for bom in boms where bytes.starts(with: bom.mark) {
            throw SceneError(path: path, line: 1, column: 1, message: "expected UTF-8 text, got \(bom.name) (its byte-order "
                             + "mark); save the file as UTF-8")
        }
        // The bytes once as an array: read through `Data`'s iterator, a big file's checks and
        // decoding cost several times the reading.
        let body = [UInt8](bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...])
        if let bad = TextPosition.firstInvalidUTF8(in: body) {
            throw SceneError(path: path, at: bad.location,
                             "expected UTF-8 text, got the byte 0x\(String(bad.byte, radix: 16, uppercase: true))")
        }
        // UTF-16 without a mark is valid UTF-8 full of NUL bytes, which no YAML text holds.
        if let nul = body.firstIndex(of: 0) {
            let before = String(decoding: body[..<nul], as: UTF8.self)
            let line = before.utf8.filter { $0 == 0x0A }.count + 1
            let column = (before.split(separator: "\n", omittingEmptySubsequences: false).last?.unicodeScalars.count ?? 0) + 1
            throw SceneError(path: path, line: line, column: column,
                             message: "expected UTF-8 text, got a NUL byte (a UTF-16 or binary file?)")
        }
        return String(decoding: body, as: UTF8.self)
    }
}
