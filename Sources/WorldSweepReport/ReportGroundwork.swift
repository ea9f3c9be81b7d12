// What a report reads of its points' parameters alone: each parameter's levels, the
// decompositions' design and the sensitivity fits' design over every point. A run knows its points
// before any world has run, so this is made while the workers simulate, by the thread that
// collects their rows (SweepRequest.whileWorkersRun). Made when the report began, the design would
// be a step of one thread while the other waited for it; on a thread of its own, it would take the
// core of the thread that starts the run.
import WorldSweepRun
import WorldSweepScene

public final class ReportGroundwork: @unchecked Sendable {
    struct Made: Sendable {
        /// Per point, its parameters: the points it was made over, in order.
        let parameters: [[Double]]
        let isRandom: Bool
        /// Per parameter, its levels (none for a random sweep, whose views bin).
        let levels: [ParameterLevels]
        /// The decompositions' design over every point (nil without parameters).
        let design: Decomposition.Design?
        let sensitivity: SensitivityDesign
    }

    private let made = MadeOnce<Int, Made>()
    private let making: @Sendable () -> Made

    /// Over points with `parameters` (asked for on the thread that makes the groundwork).
    init(parameterCount: Int, isRandom: Bool, parameters: @escaping @Sendable () -> [[Double]]) {
        making = {
            let points = parameters()
            return Made(parameters: points, isRandom: isRandom,
                        levels: ParameterLevels.of(points, count: parameterCount, random: isRandom),
                        design: parameterCount > 0 ? Decomposition.Design(parameters: points, parameterCount: parameterCount) : nil,
                        sensitivity: ReportModel.sensitivityDesign(parameters: points, parameterCount: parameterCount))
        }
    }

    /// The groundwork of the report on a whole run of `scene`, made when first asked for: over
    /// the points its summary keeps (every `SummaryBuilder.keepStride`-th of the sweep's).
    public convenience init(scene: SceneFile) {
        self.init(parameterCount: scene.sweep?.parameters.count ?? 0, isRandom: scene.sweep?.kind == .random) {
            let points = scene.pointCount
            return Swift.stride(from: 0, to: points, by: SummaryBuilder.keepStride(total: points)).map { scene.parameters(ofPoint: $0) }
        }
    }

    /// Makes the groundwork on this thread, unless another has (or is making it: then waits).
    public func make() { _ = value }

    /// The groundwork (made here if no thread has begun it; waited for if one is making it).
    var value: Made { made.value(0, making) }

    /// The groundwork, if it was made over exactly these points' parameters, bit for bit and in
    /// order (a resumed run reads them back from worlds.csv, where −0 is written 0), for a sweep of
    /// this kind; nil otherwise.
    func matching(_ points: [PointSummary], parameterCount: Int, isRandom: Bool) -> Made? {
        let made = value
        guard made.isRandom == isRandom, made.parameters.count == points.count,
              made.levels.count == (isRandom ? 0 : parameterCount) else { return nil }
        for (mine, point) in zip(made.parameters, points) {
            guard mine.count == point.parameters.count,
                  zip(mine, point.parameters).allSatisfy({ $0.bitPattern == $1.bitPattern }) else { return nil }
        }
        return made
    }
}
