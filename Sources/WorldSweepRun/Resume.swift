import Foundation
import WorldSweepScene

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
    /// `--set` / `--sweep` given over the file (absent when none): merge and resume apply them again.
    public var overrides: SceneOverrides?
}

/// rows.sum: one line per chunk of rows written, `FIRST COUNT WORLDS_END PARTNERS_END HASH w` (HASH over
/// the chunk's worlds.csv rows, then its partners.csv rows), appended after the chunk's rows, so resume and merge trust only rows whose bytes still hash to what was
/// written (an edited digit, a `nan` typed in, a foreign file are all found). The final `w` says
/// the hash is taken a word at a time (`RowHasher`); lines without it, written by earlier
/// versions, were hashed a byte at a time and are read so.
enum RowSums {
    static let fileName = "rows.sum"

    struct Entry: Equatable {
        var first: Int
        var count: Int
        /// Byte lengths of worlds.csv and partners.csv once the chunk was written.
        var worldsEnd: Int
        var partnersEnd: Int
        var hash: UInt64
        /// Whether `hash` was taken a word at a time (every line this version writes).
        var byWords = true
        /// Byte length of rows.sum up to and including this line.
        var end: Int = 0
    }

    static func line(_ e: Entry) -> String {
        "\(e.first) \(e.count) \(e.worldsEnd) \(e.partnersEnd) \(String(e.hash, radix: 16))\(e.byWords ? " w" : "")\n"
    }

    /// The complete, well-formed lines of a rows.sum (none when it is absent); reading stops at the
    /// first line that is not one.
    static func read(_ path: String) -> [Entry] {
        guard let reader = RowReader.LineReader(path: path) else { return [] }
        var entries: [Entry] = []
        while let text = reader.next() {
            let f = text.split(separator: " ", omittingEmptySubsequences: false)
            guard f.count == 5 || f.count == 6 && f[5] == "w", let first = Int(f[0]), let count = Int(f[1]), count >= 1,
                  let w = Int(f[2]), let p = Int(f[3]), let hash = UInt64(f[4], radix: 16) else { break }
            entries.append(Entry(first: first, count: count, worldsEnd: w, partnersEnd: p, hash: hash, byWords: f.count == 6,
                                 end: reader.offset))
        }
        return entries
    }

    static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3
}

/// A chunk's rows.sum hash, fed its bytes in any pieces (a chunk's row buffers, or its rows read
/// back line by line). FNV-1a over 8-byte little-endian words, the last one zero-padded, then the
/// byte count: each multiply waits on the one before, so byte by byte (`byWords` false, how
/// earlier versions hashed, which files written then still need) it is several times slower.
/// A change to any one word changes the hash (each step is a bijection of the hash so far).
struct RowHasher {
    let byWords: Bool
    private var h = RowSums.seed
    /// Bytes of the word being filled (low byte first), and how many.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length = 0

    init(byWords: Bool = true) { self.byWords = byWords }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard byWords else {
            for b in bytes { h = (h ^ UInt64(b)) &* RowSums.prime }
            return
        }
        var i = 0
        length += bytes.count
        // Finish a word begun by an earlier piece, then whole words straight from the bytes.
        while pendingCount > 0 && i < bytes.count { addByte(bytes[i]); i += 1 }
        while bytes.count - i >= 8 {
            h = (h ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* RowSums.prime
            i += 8
        }
        while i < bytes.count { addByte(bytes[i]); i += 1 }
    }

    mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    private mutating func addByte(_ b: UInt8) {
        pending |= UInt64(b) << (8 * UInt64(pendingCount))
        pendingCount += 1
        if pendingCount == 8 {
            h = (h ^ pending) &* RowSums.prime
            pending = 0; pendingCount = 0
        }
    }

    /// The hash of every byte added.
    var value: UInt64 {
        guard byWords else { return h }
        var v = h
        if pendingCount > 0 { v = (v ^ pending) &* RowSums.prime }
        return (v ^ UInt64(length)) &* RowSums.prime
    }
}

/// Reading worlds.csv and partners.csv back: only whole chunks whose bytes match their line in
/// rows.sum, stopping at the first chunk that does not (a torn chunk after a kill, or an edit).
enum RowReader {
    struct Kept {
        var rows: Int
        var worldsLength: Int
        var partnersLength: Int
        /// How many rows.sum lines (bytes) the kept rows cover.
        var sumsLength: Int = 0
        /// Why reading stopped before `upTo`: the worlds.csv line, and what is wrong there.
        var problem: (line: Int, message: String)?
    }

    /// Feeds the verified rows of both files (worlds `from`, `from + 1`, …) to `feed`, chunk by
    /// chunk. Reads block by block: memory stays bounded by one chunk however long the files are.
    static func read(worlds worldsPath: String, partners partnersPath: String, sums sumsPath: String, layout: CSVLayout,
                     from: Int, upTo: Int, feed: (WorldResult) throws -> Void) throws -> Kept {
        guard let w = LineReader(path: worldsPath) else { throw RunFileError("cannot read \(worldsPath)") }
        guard let header = w.next(), header == layout.header else {
            throw RunFileError("\(worldsPath): the header does not match this sweep file's columns")
        }
        guard let p = LineReader(path: partnersPath), let pHeader = p.next(), pHeader == layout.partnersHeader else {
            // No usable partners file: nothing can be kept.
            return Kept(rows: 0, worldsLength: w.offset, partnersLength: 0, problem: (2, "partners.csv is missing or foreign"))
        }
        var kept = Kept(rows: 0, worldsLength: w.offset, partnersLength: p.offset)
        var chunk: [WorldResult] = []
        for entry in RowSums.read(sumsPath) {
            let line = 2 + kept.rows
            guard from + kept.rows < upTo else { break }
            guard entry.first == from + kept.rows, entry.first + entry.count <= upTo else {
                kept.problem = (line, "rows.sum does not continue from world \(from + kept.rows)")
                break
            }
            var h = RowHasher(byWords: entry.byWords)
            chunk.removeAll(keepingCapacity: true)
            var intact = true
            for k in 0..<entry.count {
                guard let wl = w.next() else {
                    kept.problem = (line + k, "the rows end before world \(entry.first + k)")
                    intact = false
                    break
                }
                h.add(wl + "\n")
                guard let r = layout.parseRow(wl[...]), r.world == entry.first + k else {
                    kept.problem = (line + k, "world \(entry.first + k)'s row does not read back")
                    intact = false
                    break
                }
                chunk.append(r)
            }
            guard intact else { break }
            // The chunk's partner rows run up to the byte rows.sum recorded; each names a world of
            // the chunk that did not fail, in the order the runner writes them.
            var last: (world: Int, item: Int, partner: String)?
            while intact, p.offset < entry.partnersEnd {
                guard let pl = p.next() else {
                    kept.problem = (line, "partners.csv ends inside the rows of worlds \(entry.first)–\(entry.first + entry.count - 1)")
                    intact = false
                    break
                }
                h.add(pl + "\n")
                guard let pr = layout.parsePartnersRow(pl[...]), (entry.first..<(entry.first + entry.count)).contains(pr.world),
                      !chunk[pr.world - entry.first].failed,
                      last.map({ ($0.world, $0.item) < (pr.world, pr.item) || ($0.world, $0.item) == (pr.world, pr.item) && $0.partner < pr.partner }) ?? true else {
                    kept.problem = (line, "partners.csv's row \"\(pl)\" does not read back")
                    intact = false
                    break
                }
                chunk[pr.world - entry.first].items[pr.item].contactsByPartner[pr.partner] = pr.contacts
                last = (pr.world, pr.item, pr.partner)
            }
            guard intact else { break }
            guard h.value == entry.hash, w.offset == entry.worldsEnd, p.offset == entry.partnersEnd else {
                kept.problem = (line, "rows of worlds \(entry.first)–\(entry.first + entry.count - 1) do not match "
                                + "their checksum in rows.sum (edited?)")
                break
            }
            for r in chunk { try feed(r) }
            kept.rows += entry.count
            kept.worldsLength = w.offset
            kept.partnersLength = p.offset
            kept.sumsLength = entry.end
        }
        if kept.problem == nil, from + kept.rows < upTo {
            kept.problem = (2 + kept.rows, "no checksummed rows from world \(from + kept.rows) on")
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
