/// One run of the folder as the catalog lists it: a sweep, a tune, a set of shards or a comparison.
public struct RunEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case sweep, tune, shards, compare }
    /// `done`, `running`, `interrupted` (resumable), `partial` (shards: some missing or
    /// unfinished, none running), `unknown` (a folder worldsweep did not finish writing).
    public enum State: String, Codable, Sendable { case done, running, interrupted, partial, unknown }

    /// The folder, relative to the served folder (its URL path under /files/).
    public var path: String
    public var name: String
    public var kind: Kind
    public var state: State
    /// What the catalog's status column says, in words ("shards 3 of 4; missing 2").
    public var status: String
    public var worlds: Int?
    public var worldsDone: Int?
    /// Worlds a second over the last minute the server watched, and the seconds left at that rate.
    public var rate: Double?
    public var secondsLeft: Double?
    /// Wall seconds of a finished run; seconds since it started for one that is running.
    public var seconds: Double?
    /// When its files last changed (seconds since 1970).
    public var modified: Double
    /// The report's first finding, a tune's answer or best so far, a comparison's verdict.
    public var headline: String?
    /// Report files under the run's folder, relative to the served folder.
    public var reports: [String]
    /// Shard indices by state, for a set of shards.
    public var shards: ShardStates?
    /// The command that finishes an interrupted run.
    public var resume: String?
    /// Swept parameters (the replay's sliders); empty for runs that cannot be replayed.
    public var parameters: [String]

    public struct ShardStates: Codable, Sendable, Equatable {
        public var count: Int
        public var done: [Int]
        public var running: [Int]
        public var interrupted: [Int]
        public var missing: [Int]
    }
}
