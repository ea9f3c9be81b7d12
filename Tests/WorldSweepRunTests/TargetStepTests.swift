import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// TargetStep on metrics that are exactly linear in the parameters: the fitted model is the metric
/// itself, so its Gauss–Newton step must land on a point that meets every target exactly.
@Suite struct TargetStepTests {
    /// m1 = 10 + 20a + 5b (target 30 ± 1), m2 = 2a + 3c (target 6 ± 0.5); a ∈ [0, 1], b ∈ [0, 2], c ∈ [0, 4].
    private static let yaml = """
        name: linear
        world: {bounds: [320, 568], ticks: 60}
        items:
          card: {center: [160, 100], size: [60, 40]}
        behaviors:
          fall: {type: gravity, items: [card], magnitude: 1}
          bouncy: {type: item, items: [card], elasticity: 0.5, resistance: 0.5, friction: 0.5}
        tune:
          parameters:
            bouncy.elasticity: {min: 0, max: 1}
            bouncy.resistance: {min: 0, max: 2}
            fall.magnitude: {min: 0, max: 4}
          want:
            card.bounce1: {target: 30, within: 1}
            card.bounce2: {target: 6, within: 0.5}
        """

    private func metrics(_ v: [Double]) -> [Double] { [10 + 20 * v[0] + 5 * v[1], 2 * v[0] + 3 * v[2]] }

    private func evaluation(_ v: [Double], point: Int) -> TuneEvaluation {
        TuneEvaluation(generation: 0, point: point, values: v, means: metrics(v), stds: [0, 0], counts: [1, 1],
                       curveError: nil, replicas: 1)
    }

    @Test func aLinearModelStepsOntoThePointThatMeetsEveryTarget() throws {
        let tune = try #require(try SceneFile.parse(yaml: Self.yaml, path: "linear.yaml").tune)
        let points: [[Double]] = [[0.5, 0.5, 0.5], [0.2, 1.5, 1], [0.8, 0.2, 2.5], [0.3, 1, 3], [0.6, 1.8, 0.2], [0.1, 0.1, 1.5]]
        let all = points.enumerated().map { evaluation($1, point: $0) }
        let unit = try #require(TargetStep.propose(recent: all, best: all[0], tune: tune))
        let values = zip(tune.parameters, unit).map { $0.value(atUnit: $1) }
        let m = metrics(values)
        #expect(abs(m[0] - 30) < 1e-6 && abs(m[1] - 6) < 1e-6, "\(values) gives \(m)")
        // From a point that already meets both, the smallest step is none.
        let onTarget = evaluation(values, point: 6)
        let again = try #require(TargetStep.propose(recent: all + [onTarget], best: onTarget, tune: tune))
        #expect(zip(again, unit).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test func tooFewPointsOrAnObjectiveGiveNoStep() throws {
        let tune = try #require(try SceneFile.parse(yaml: Self.yaml, path: "linear.yaml").tune)
        let three = [[0.5, 0.5, 0.5], [0.2, 1.5, 1], [0.8, 0.2, 2.5]].enumerated().map { evaluation($1, point: $0) }
        #expect(TargetStep.propose(recent: three, best: three[0], tune: tune) == nil)
        var minimized = tune
        minimized.wants[1].kind = .minimize
        let four = three + [evaluation([0.3, 1, 3], point: 3)]
        #expect(TargetStep.propose(recent: four, best: four[0], tune: minimized) == nil)
    }
}
