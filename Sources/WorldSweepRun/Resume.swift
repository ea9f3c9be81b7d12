import Foundation

/// What a run directory's run.json records: enough to check that `--resume` (or `merge`) continues
/// the same run of the same file.
public struct RunSettings: Codable, Sendable, Hashable {
    public var name: String
    /// FNV-1a of the sweep file's bytes.
    public var fileFingerprint: String
    public var file: String
    public var totalWorlds: Int
    public var lowerWorld: Int
    public var upperWorld: Int
    public var shard: Int?
    public var shardCount: Int?
    /// The engine the rows were made with; a resumed run must use the same one.
    public var engine: String?
}

/// Reading worlds.csv and partners.csv back: the rows a killed run left (the torn last line, and
/// anything after a row that does not read back, dropped).
enum RowReader {
    struct Kept { var rows: Int; var worldsLength: Int; var partnersLength: Int }

    /// Feeds the complete, consistent rows of both files (worlds `from`, `from + 1`, …) to `feed`.
    /// Reads block by block: memory stays bounded however long the files are.
    static func read(worlds worldsPath: String, partners partnersPath: String, layout: CSVLayout, from: Int, upTo: Int,
                     feed: (WorldResult) throws -> Void) throws -> Kept {
        guard let w = LineReader(path: worldsPath) else { throw RunFileError("cannot read \(worldsPath)") }
        guard let header = w.next(), header == layout.header else {
            throw RunFileError("\(worldsPath): the header does not match this sweep file's columns")
        }
        guard let p = LineReader(path: partnersPath), let pHeader = p.next(), pHeader == layout.partnersHeader else {
            // No usable partners file: nothing can be kept.
            return Kept(rows: 0, worldsLength: w.offset, partnersLength: 0)
        }
        var kept = Kept(rows: 0, worldsLength: w.offset, partnersLength: p.offset)
        while from + kept.rows < upTo, let wl = w.next(), let pl = p.next() {
            guard var r = layout.parseRow(wl[...]), r.world == from + kept.rows,
                  let pr = layout.parsePartnersRow(pl[...]), pr.world == r.world else { break }
            if !r.failed { for i in r.items.indices { r.items[i].contactsByPartner = pr.counts[i] } }
            try feed(r)
            kept.rows += 1
            kept.worldsLength = w.offset
            kept.partnersLength = p.offset
        }
        return kept
    }

    /// Complete lines of a file, read in blocks (a last line without its newline is torn and not
    /// returned); `offset` is the byte just past the last line returned.
    final class LineReader {
        private let handle: FileHandle
        private var buffer = Data()
        private var eof = false
        private(set) var offset = 0

        init?(path: String) {
            guard let h = FileHandle(forReadingAtPath: path) else { return nil }
            handle = h
        }

        deinit { try? handle.close() }

        func next() -> String? {
            while true {
                if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                    offset += nl - buffer.startIndex + 1
                    buffer = buffer[(nl + 1)...]
                    if buffer.isEmpty { buffer = Data() }
                    return line
                }
                if eof { return nil }
                let more = (try? handle.read(upToCount: 1 << 20)) ?? nil
                if let more, !more.isEmpty { buffer = Data(buffer) + more } else { eof = true }
            }
        }
    }
}
