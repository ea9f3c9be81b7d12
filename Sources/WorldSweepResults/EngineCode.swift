// Where the commands (built once) meet the engine's modules (built twice: portable and AVX2, see
// Package.swift). Everything a command does besides running worlds — reading and checking files,
// memory checks, reports — runs on the portable copy; running worlds goes through `EngineCode`,
// which both copies implement (WorldSweepRun's `RunEngineCode`) and `worldsweep`'s main picks at
// start. What crosses is plain data and this module's result types; each copy parses the sweep
// file from the same text (the document the command composed, when it had no overrides) and the
// same overrides, so both see the same scene.

import Foundation

/// A sweep file as a command read it: its bytes, where they came from (nil: a built-in sweep) and
/// the command line's `--set` / `--sweep`.
public struct SweepSource: Sendable {
    public var path: String?
    public var data: Data
    public var sets: [String]
    public var sweeps: [String]
    /// The file as the command composed it, when it had no overrides: each compilation parses
    /// that document rather than reading and composing the file again (composing is most of a
    /// big file's parse).
    public var composed: ComposedFile?
    public init(path: String?, data: Data, sets: [String] = [], sweeps: [String] = []) {
        self.path = path; self.data = data; self.sets = sets; self.sweeps = sweeps
    }
}

/// A sweep file's text and its composed YAML document (Yams' root node, built once for both
/// compilations: this module reads no YAML, so the node is held as `Any`). Nodes resolve their
/// tags lazily, in place: one thread at a time reads it (the command's, which hands it on).
public final class ComposedFile: @unchecked Sendable {
    public let text: String
    public let root: Any
    public init(text: String, root: Any) { self.text = text; self.root = root }
}

/// `worldsweep run` (and `bench --whole-run`): a sweep into a folder.
public struct SweepRequest {
    public var source: SweepSource
    public var directory: String
    /// The engine's name in run info: `batched-simd`, `batched-blas` or `single-world`.
    public var engine: String
    public var threads: Int
    public var chunkSize: Int
    public var resume = false
    public var force = false
    public var shard: (index: Int, count: Int)?
    /// Polled between chunks (Ctrl-C).
    public var cancelled: @Sendable () -> Bool = { false }
    /// Called on the calling thread after each chunk is written: (worlds done, worlds in range).
    public var progress: ((Int, Int) -> Void)?
    public var commandLine: [String]?
    /// The run's last files are finished beside what the caller does next (SweepReply.closing).
    public var closesInBackground = false
    /// Work of the caller's own (the report's groundwork) done on the calling thread while the
    /// workers simulate, before the first chunk's rows are written.
    public var whileWorkersRun: (() -> Void)?
    public init(source: SweepSource, directory: String, engine: String, threads: Int, chunkSize: Int) {
        self.source = source; self.directory = directory; self.engine = engine; self.threads = threads
        self.chunkSize = chunkSize
    }
}

/// What a sweep left (WorldSweepRun's `SweepRun.Outcome` is this type).
public struct SweepReply: Sendable {
    public var directory: String
    /// False when cancelled before the end: the directory can be resumed.
    public var completed: Bool
    public var worldsDone: Int
    public var worldsInRange: Int
    /// Whole runs only, once completed.
    public var summary: SweepSummary?
    /// What the report reads of the sampled worlds.
    public var sample: WorldSample
    /// With `SweepRequest.closesInBackground`: waits for the run's last files (the rows' syncs, the
    /// point tables, summary.json, which marks the run finished) and rethrows what failed; call it
    /// before the process ends, and before anything reads those files.
    public var closing: (@Sendable () throws -> Void)?
    /// The data files `closing` puts in place (names in the run's folder).
    public var closingFiles: [String] = []
    public init(directory: String, completed: Bool, worldsDone: Int, worldsInRange: Int, summary: SweepSummary?,
                sample: WorldSample) {
        self.directory = directory; self.completed = completed; self.worldsDone = worldsDone
        self.worldsInRange = worldsInRange; self.summary = summary; self.sample = sample
    }
}

/// `worldsweep tune`: a search into a folder, its confirmation and its report.
public struct TuneRequest {
    public var source: SweepSource
    public var directory: String
    public var threads: Int
    public var resume = false
    public var force = false
    public var cancelled: @Sendable () -> Bool = { false }
    /// One line per generation.
    public var progress: ((String) -> Void)?
    /// The report page's pictures (HTML) drawn from the finished search's numbers (WorldSweepReport's
    /// TuneCharts); nil: a page without them.
    public var figures: ((TuneChartData) -> String)?
    public init(source: SweepSource, directory: String, threads: Int) {
        self.source = source; self.directory = directory; self.threads = threads
    }
}

/// What a search found, as the command prints it.
public struct TuneReply: Sendable {
    public var completed: Bool
    public var generations: Int
    public var worlds: Int
    /// The answer in one sentence, then each unmet want and each conflict.
    public var sentence: String
    public var unmet: [String]
    public var conflicts: [String]
    /// Whether some evaluated point meets every want.
    public var met: Bool
    public init(completed: Bool, generations: Int, worlds: Int, sentence: String = "", unmet: [String] = [],
                conflicts: [String] = [], met: Bool = false) {
        self.completed = completed; self.generations = generations; self.worlds = worlds; self.sentence = sentence
        self.unmet = unmet; self.conflicts = conflicts; self.met = met
    }
}

/// The entry points where worlds run, in one compilation of the engine's modules.
public protocol EngineCode {
    /// `portable` or `avx2` (summary.json's `run.codePath`).
    static var name: String { get }
    /// Runs a sweep into its folder (worlds.csv, partners.csv, summary.json; not the report).
    static func runSweep(_ request: SweepRequest) throws -> SweepReply
    /// Wall seconds of running `worlds` of the sweep's worlds (indices wrapping around the sweep)
    /// on `threads` threads, in chunks of `chunkSize`, on `engine` (as `SweepRequest.engine`).
    static func timeWorlds(_ source: SweepSource, engine: String, worlds: Int, threads: Int, chunkSize: Int) throws -> Double
    /// Body-sub-steps per second of an integrator back end (`simd` or `blas`) alone.
    static func integratorThroughput(_ integrator: String, bodies: Int, lanes: Int, subSteps: Int) -> Double
    /// Runs a search (resuming if asked), confirms its best point and writes its report.
    static func tune(_ request: TuneRequest) throws -> TuneReply
}
