import Foundation

/// Writes the search's checkpoint (search.json) after worlds.csv is synced, as often as is cheap:
/// a checkpoint costs two fsyncs (milliseconds on a busy disk) while a small generation runs in
/// well under one, so writing one after every generation made the syncs most of a search's time.
/// A checkpoint is written once the time since the last one is at least `ratio` times what the
/// last one took (at most 1/(ratio+1) of the wall time goes to checkpoints), and always at the end
/// and on Ctrl-C. What a kill -9 loses is at most those few generations, which `--resume` runs
/// again: the search is deterministic, so the bytes are the same either way.
struct CheckpointWriter {
    let path: String
    let fingerprint: String
    let worlds: AppendFile
    /// Generations the file on disk records.
    private(set) var recorded: Int
    private var lastEnd = DispatchTime.now().uptimeNanoseconds
    private var lastCost: UInt64
    static let ratio: UInt64 = 10

    /// `lastCost`: nanoseconds the last checkpoint took, if one was just written (0: the next is due at once).
    init(path: String, fingerprint: String, worlds: AppendFile, recorded: Int, lastCost: UInt64 = 0) {
        self.lastCost = lastCost
        self.path = path
        self.fingerprint = fingerprint
        self.worlds = worlds
        self.recorded = recorded
    }

    /// After a generation: writes the checkpoint if it is due.
    mutating func due(generations: [[TuneEvaluation]], worldsBytes: Int) throws {
        if DispatchTime.now().uptimeNanoseconds - lastEnd >= Self.ratio * lastCost {
            try write(generations: generations, worldsBytes: worldsBytes)
        }
    }

    /// Records `generations` (their rows end at `worldsBytes` in worlds.csv) unless already recorded.
    mutating func write(generations: [[TuneEvaluation]], worldsBytes: Int) throws {
        guard generations.count > recorded else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        // The rows first: a checkpoint never counts bytes that a crash could lose.
        try worlds.sync()
        let checkpoint = TuneSearch.Checkpoint(fingerprint: fingerprint, worldsBytes: worldsBytes, generations: generations)
        try AtomicFile.write(try JSONText.encode(checkpoint), to: path)
        recorded = generations.count
        lastEnd = DispatchTime.now().uptimeNanoseconds
        lastCost = lastEnd - start
    }
}
