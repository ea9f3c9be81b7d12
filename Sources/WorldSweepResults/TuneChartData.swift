// What the tune report's pictures draw, as plain numbers: the search runs in one compilation of the
// engine's modules (portable or AVX2) and the report module, built once, draws from this without
// naming either copy's TuneReport or TuneSpec. WorldSweepRun's `TuneReport.chartData` fills it.

/// The tune report's Pareto front and best world, ready to draw.
public struct TuneChartData: Sendable, Equatable {
    /// The objectives' column names in score order (pareto.csv's last columns); the chart plots
    /// the first two.
    public var objectiveNames: [String]
    /// Every evaluated point that meets the bounds: its objectives as the columns read (maximized
    /// ones back to their sign), in evaluation order.
    public var feasible: [[Double]]
    /// The Pareto front's points, the same way, in the search's front order.
    public var front: [[Double]]
    /// The chosen answer's objectives; nil without an answer.
    public var answer: [Double]?
    /// The answer's world to replay; nil when no point was evaluated.
    public var best: BestWorld?

    /// The answer's point as a replay needs it.
    public struct BestWorld: Sendable, Equatable {
        /// One per tuned parameter, in file order.
        public var values: [Double]
        /// "bouncy.elasticity 0.612" (TuneResult.describe).
        public var description: String
        /// Its first replica's number in the search's worlds.csv (`worldsweep trace --world`).
        public var firstWorld: Int
        public init(values: [Double], description: String, firstWorld: Int) {
            self.values = values; self.description = description; self.firstWorld = firstWorld
        }
    }

    public init(objectiveNames: [String], feasible: [[Double]], front: [[Double]], answer: [Double]?, best: BestWorld?) {
        self.objectiveNames = objectiveNames; self.feasible = feasible; self.front = front; self.answer = answer
        self.best = best
    }

    /// One evaluated point of the search, for the charts of the search itself.
    public struct Evaluated: Sendable, Equatable {
        /// One per tuned parameter, in file order.
        public var values: [Double]
        /// What the search ranks by (`objectiveLabel`); nil where some replica lacked a metric.
        public var objective: Double?
        /// Every bound (and, beside objectives, every target) holds.
        public var feasible: Bool
        public var generation: Int
        public init(values: [Double], objective: Double?, feasible: Bool, generation: Int) {
            self.values = values; self.objective = objective; self.feasible = feasible; self.generation = generation
        }
    }

    /// The tuned parameters' paths, and whether each is searched in its logarithm.
    public var parameterNames: [String] = []
    public var parameterLog: [Bool] = []
    /// What `Evaluated.objective` is ("card.settle_time (s)", "largest target error (tolerances)").
    public var objectiveLabel = ""
    /// Every evaluated point, in evaluation order.
    public var evaluated: [Evaluated] = []
    /// The answer's parameter values.
    public var answerValues: [Double]?
}
