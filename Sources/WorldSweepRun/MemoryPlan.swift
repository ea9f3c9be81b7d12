import Foundation
import WorldSweep
import WorldSweepScene

/// What a run of a scene needs in memory, estimated from the file before anything is allocated.
/// The engines keep contacts only for pairs whose boxes overlap, so a world's memory grows with its
/// bodies and contacts (docs/reliability.md has the measurements). The output is linear too:
/// partners.csv and partner_points.csv have a row
/// per contact partner an item actually touched, and the run holds the results of the point in
/// progress and of the report's sample of worlds, item by item. That part is paid once per run; the worlds' part per world running side by side. Fewer
/// threads run when the worlds would not fit side by side, and a run that cannot fit at all is
/// refused.
public struct MemoryPlan: Sendable {
    /// Measured (docs/reliability.md): peak resident bytes per body of one world on the single
    /// engine, its contacts included at the density of a settling pile of small items.
    public static let bytesPerBodySingle = 4096.0
    /// Rows of contacts per body a batch's estimate makes room for: a pile's density (each small
    /// item's box meets its eight neighbours': four contacts per body), and the stores sized by
    /// rows double when full, so up to twice that.
    public static let rowsPerBody = 8
    /// Measured (docs/reliability.md): the run's bytes per item for a point's statistics (its
    /// metrics, and its partners' at a pile's density: a small item touches a few neighbours), the
    /// rows being formatted and the report's tables: the peak of a one-world run of many items,
    /// less its world on the single engine, per item, rounded up.
    public static let bytesPerItemOfRun = 16384.0
    /// Bytes per item of one world's result held in memory (its metrics, partner counts included).
    public static let bytesPerItemOfResult = 512.0
    /// The process itself, the parsed file and a world's metrics.
    public static let baseBytes = 32.0 * 1024 * 1024
    /// The most one batch may take; bigger batches run their worlds one at a time instead.
    public static let batchBudget = 512.0 * 1024 * 1024

    /// Bodies of one world: the items and an upper bound on the boundary edges.
    public let bodies: Int
    /// Items of one world.
    public let items: Int
    /// World results the run holds at once: the replicas of the point in progress and the
    /// report's sample (SummaryBuilder.maxSample worlds at most).
    public let heldWorlds: Int
    /// What sizes a batch's lane stores as it starts (world 0's structure): their bytes are the
    /// sum of the stores' own figures (`LaneStoreSizes.bytes`), not a constant per body.
    public let laneSizes: LaneStoreSizes

    public init(scene: SceneFile) {
        var edges = 0
        for behavior in scene.behaviors {
            guard case .collision(let c) = behavior.kind else { continue }
            var behaviorEdges = c.referenceBounds ? 4 : 0
            for b in c.boundaries {
                switch b.shape {
                case .segment: behaviorEdges += 1
                case .path(let points): behaviorEdges += points.count
                }
            }
            edges += behaviorEdges
        }
        bodies = scene.items.count + edges
        items = scene.items.count
        heldWorlds = (scene.sweep?.replicas ?? 1) + min(scene.worldCount, SummaryBuilder.maxSample)
        laneSizes = scene.worldPlan().laneStoreSizes(lanes: BatchAnimator.laneWidth)
    }

    /// What the run holds once, whatever the threads: a point's statistics and the results it
    /// keeps, linear in the items.
    public var runBytes: Double {
        Self.baseBytes + Double(items) * (Self.bytesPerItemOfRun + Double(heldWorlds) * Self.bytesPerItemOfResult)
    }

    /// One world on the single engine (and in `trace`): linear in its bodies.
    public var singleWorldBytes: Double { Double(bodies) * Self.bytesPerBodySingle }

    /// The lane stores of a batch once its rows have grown to a pile's density (`rowsPerBody`).
    public var laneStoreBytes: Double {
        var sizes = laneSizes
        sizes.rowCapacity = max(sizes.rowCapacity, Self.rowsPerBody * sizes.bodyCount)
        return Double(sizes.bytes)
    }

    /// A batch of `BatchAnimator.laneWidth` worlds: each world's own state plus the lane stores.
    public var batchBytes: Double {
        Double(BatchAnimator.laneWidth) * singleWorldBytes + laneStoreBytes
    }

    /// Whether a batch of these worlds stays within `batchBudget`.
    public var batchFits: Bool { batchBytes <= Self.batchBudget }

    /// What a run (outputs: true) or a trace of one world needs with one world at a time.
    public func oneWorldBytes(outputs: Bool) -> Double {
        (outputs ? runBytes : Self.baseBytes) + singleWorldBytes
    }

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

    /// How many worlds fit side by side in `available` bytes beside what the run holds once
    /// (0: not even one). A batched run whose batch does not fit runs its worlds one at a time,
    /// so one world is what counts.
    public func worldsThatFit(in available: Double = MemoryPlan.availableBytes(), batched: Bool, outputs: Bool = true) -> Int {
        let perThread = batched && batchFits ? batchBytes : singleWorldBytes
        let room = available - (outputs ? runBytes : Self.baseBytes)
        guard room >= perThread else { return 0 }
        guard perThread > 0 else { return Int.max }
        return Int(min(Double(Int.max / 2), (room / perThread).rounded(.down)))
    }

    /// "2.4 GB": for messages.
    public static func text(_ bytes: Double) -> String {
        bytes >= 1e9 ? String(format: "%.1f GB", bytes / 1e9) : String(format: "%.0f MB", bytes / 1e6)
    }
}
