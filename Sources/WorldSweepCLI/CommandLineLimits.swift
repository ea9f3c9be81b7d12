import WorldSweepScene

/// The ranges the commands accept for their counts, checked before any of them is used (the
/// scheduler multiplies thread counts, shard ranges multiply point counts): a value outside is
/// bad input, one line and exit 2, never an overflow.
enum CommandLineLimits {
    /// Far more threads than any machine has cores, small enough for the scheduler's arithmetic.
    static let threads = 1...4096
    /// Worlds per chunk: one batch of the batched engine holds a chunk's worlds at once.
    static let chunkSize = 1...65_536
    /// Shards of one sweep.
    static let shards = 1...1_000_000
    /// Ticks of one traced world: as many as a file may ask for.
    static let ticks = 0...WorldSpec.maxTicks
    /// Worlds one bench measurement runs.
    static let benchWorlds = 1...(1 << 30)

    /// Throws "--NAME must be from A to B, got V" when `value` is outside `range`.
    static func check(_ value: Int, _ range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw BadInput("\(option) must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }
}
