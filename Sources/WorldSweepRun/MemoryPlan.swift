import Foundation
import WorldSweep
import WorldSweepScene

/// What one world of a scene needs in memory, estimated from the file before anything is
/// allocated. Both engines keep state for every pair of items allowed to collide (the animator's
/// pair index and listeners, the world's pair and contact slots; the batched engine also one
/// column entry per pair and lane), so memory grows with the square of the item count: one world
/// of 2 000 items held 0.76 GB on the single engine and 3.75 GB in a batch (docs/reliability.md).
/// The runner runs such worlds one at a time (bit for bit the same results), fewer threads run
/// when the worlds would not fit side by side, and a world that cannot fit at all is refused.
public struct MemoryPlan: Sendable {
    /// Measured (docs/reliability.md): peak resident bytes per allowed pair, one world.
    /// (0.76 GB at 2 007 000 pairs, 78 MB at 126 750: 365 bytes a pair.)
    public static let bytesPerPairSingle = 370.0
    /// Measured: peak resident bytes per allowed pair and lane of a batch, besides its worlds' own
    /// state (3.75 GB for a batch of one 2 000-item world: 186 bytes a pair and lane). Still an
    /// upper bound after the dense-bundle engine and world plans: a batch of eight 300-item worlds
    /// (46 050 pairs) peaked at 200 MB against the 238 MB estimated here.
    public static let bytesPerPairLane = 190.0
    /// What a world needs besides its pairs (bodies, shapes, metrics) and the process itself.
    public static let baseBytes = 32.0 * 1024 * 1024
    /// The most one batch may take; bigger batches run their worlds one at a time instead.
    public static let batchBudget = 512.0 * 1024 * 1024

    /// An upper bound on the pairs allowed to collide: every pair of items sharing a collision
    /// behavior that collides items, plus each item with each boundary edge of its behaviors.
    public let pairs: Int

    public init(scene: SceneFile) {
        var pairs = 0
        for behavior in scene.behaviors {
            guard case .collision(let c) = behavior.kind else { continue }
            let k = behavior.items.count
            if c.mode != .boundaries { pairs += k * (k - 1) / 2 }
            if c.mode != .items {
                var edges = c.referenceBounds ? 4 : 0
                for b in c.boundaries {
                    switch b.shape {
                    case .segment: edges += 1
                    case .path(let points): edges += points.count
                    }
                }
                pairs += k * edges
            }
        }
        self.pairs = pairs
    }

    public var singleWorldBytes: Double { Self.baseBytes + Double(pairs) * Self.bytesPerPairSingle }

    /// A batch of `BatchAnimator.laneWidth` worlds: each world's own state plus the lane columns.
    public var batchBytes: Double {
        let lanes = Double(BatchAnimator.laneWidth)
        return Self.baseBytes + Double(pairs) * lanes * (Self.bytesPerPairSingle + Self.bytesPerPairLane)
    }

    /// Whether a batch of these worlds stays within `batchBudget`.
    public var batchFits: Bool { batchBytes <= Self.batchBudget }

    /// The memory this process may still take: MemAvailable from /proc/meminfo (Linux), else
    /// the machine's physical memory.
    public static func availableBytes() -> Double {
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let kb = Double(fields[1]) { return kb * 1024 }
            }
        }
        return Double(ProcessInfo.processInfo.physicalMemory)
    }

    /// How many worlds fit side by side in `available` bytes (0: not even one). A batched run
    /// whose batch does not fit runs its worlds one at a time, so one world is what counts.
    public func worldsThatFit(in available: Double = MemoryPlan.availableBytes(), batched: Bool) -> Int {
        let perThread = batched && batchFits ? batchBytes : singleWorldBytes
        guard perThread > 0 else { return Int.max }
        return Int(min(Double(Int.max / 2), (available / perThread).rounded(.down)))
    }

    /// "2.4 GB": for messages.
    public static func text(_ bytes: Double) -> String {
        bytes >= 1e9 ? String(format: "%.1f GB", bytes / 1e9) : String(format: "%.0f MB", bytes / 1e6)
    }
}
