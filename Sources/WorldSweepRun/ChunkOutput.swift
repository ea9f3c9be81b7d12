// What a worker hands the collecting thread for one chunk of a sweep's worlds: their rows as
// bytes (or, when the collector formats them, the results themselves), the rows' hash and the
// chunk's points folded.
import WorldSweepResults

struct ChunkOutput: Sendable {
    var points = SummaryBuilder.ChunkPoints()
    /// The chunk's worlds.csv and partners.csv rows, as bytes.
    var csv: [UInt8] = []
    var partners: [UInt8] = []
    /// RowHasher's hash of the chunk's rows of worlds.csv, then of partners.csv.
    var hash: UInt64 = RowSums.seed
    /// Time the worker spent in the engine on this chunk.
    var engineNanoseconds: UInt64
    /// The worlds' results, when the collecting thread formats them (else empty).
    var results: [WorldResult] = []

    /// Results not yet formatted.
    init(results: [WorldResult], engineNanoseconds: UInt64) {
        self.results = results; self.engineNanoseconds = engineNanoseconds
    }

    /// The rows of `results` and their whole points folded.
    init(formatting results: [WorldResult], layout: CSVLayout, folder: SummaryBuilder.ChunkFolder, engineNanoseconds: UInt64) {
        self.engineNanoseconds = engineNanoseconds
        csv.reserveCapacity(results.count * layout.rowBytesEstimate)
        for r in results { layout.appendRow(r, to: &csv); layout.appendPartnersRows(r, to: &partners) }
        var hasher = RowHasher()
        hasher.add(csv); hasher.add(partners)
        hash = hasher.value
        points = folder.fold(chunk: results)
    }
}
