// A run makes what its report reads of the points' parameters alone while the worlds run
// (ReportGroundwork): it must be over exactly the points the run's summary keeps, be used only
// then, and change no byte of the report.
import Foundation
import TestScratch
import Testing
import WorldSweepRun
import WorldSweepScene
@testable import WorldSweepReport

@Suite struct ReportGroundworkTests {
    /// A grid of `points` points in three parameters, one tick per world.
    static func scene(_ a: Int, _ b: Int, _ c: Int) -> String {
        """
        name: groundwork
        world: {bounds: [320, 568], ticks: 1}
        items:
          top:    {center: [60, 30],  size: [50, 50]}
          bottom: {center: [220, 50], size: [50, 50]}
        behaviors:
          fall:   {type: gravity, items: [top, bottom]}
          walls:  {type: collision, items: [top, bottom], mode: everything, reference_bounds: true}
          bouncy: {type: item, items: [bottom], elasticity: 0.9}
          shove:  {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}
        sweep:
          kind: grid
          parameters:
            bouncy.elasticity: {linspace: [0, 1, \(a)]}
            bouncy.density:    {linspace: [0.25, 4, \(b)]}
            shove.magnitude:   {linspace: [-1, 1, \(c)]}
        """
    }

    static func run(_ text: String, _ name: String) throws -> (SceneFile, SweepSummary, String) {
        let dir = Scratch.directory("groundwork-\(name)")
        let path = dir + "/sweep.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let scene = try SceneFile.load(path: path)
        let outcome = try SweepRun(scene: scene, fileData: Data(text.utf8), directory: dir + "/out").run(.init(threads: 2))
        return (scene, try #require(outcome.summary), dir)
    }

    /// Over every point of a small run, and over every k-th of one past the report's 20 000
    /// points (30 × 30 × 23 = 20 700).
    @Test(arguments: [(4, 3, 5), (30, 30, 23)])
    func aRunsGroundworkIsOverThePointsItsSummaryKeeps(sides: (Int, Int, Int)) throws {
        let (scene, summary, _) = try Self.run(Self.scene(sides.0, sides.1, sides.2), "\(sides.0)")
        let total = sides.0 * sides.1 * sides.2
        #expect(summary.run.sweepPoints == total)
        let stride = try #require(summary.run.pointStride)
        #expect(total > SummaryBuilder.maxSample ? stride > 1 : stride == 1)
        #expect(summary.points.count == (total + stride - 1) / stride)
        let made = try #require(ReportGroundwork(scene: scene).matching(summary.points, parameterCount: 3, isRandom: false))
        #expect(made.parameters == summary.points.map(\.parameters))
        #expect(made.levels.map(\.values.count) == [sides.0, sides.1, sides.2])
        #expect(made.design?.grid != nil || total > SummaryBuilder.maxSample)
    }

    /// The report written with the run's groundwork is the report written without it, byte for byte.
    @Test func theReportIsTheSameWithTheGroundwork() throws {
        let (scene, summary, dir) = try Self.run(Self.scene(5, 4, 3), "bytes")
        var pages: [[String: Data]] = []
        let groundwork = ReportGroundwork(scene: scene)
        #expect(groundwork.matching(summary.points, parameterCount: 3, isRandom: false) != nil)
        for groundwork in [nil, groundwork] {
            let out = dir + (groundwork == nil ? "/without" : "/with")
            try ReportWriter.write(summary: summary, sample: WorldSample(), to: out, threads: 2, groundwork: groundwork)
            var files: [String: Data] = [:]
            for name in ["report.html", "report.md", ImportanceCSV.fileName] {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            }
            pages.append(files)
        }
        #expect(pages[0]["report.md"]!.count > 1_000)
        #expect(pages[1] == pages[0])
    }

    /// Groundwork over other points, or another kind of sweep, is not used: a point missing, a
    /// parameter of another value, −0 where the summary has 0 (as a resumed run reads it back).
    @Test func groundworkOverOtherPointsIsNotUsed() throws {
        let summary = Fixture.sweep(axes: [("bouncy.elasticity", [0, 0.5, 1]), ("bouncy.density", [0.5, 1, 2])], replicas: 1).0
        let own = summary.points.map(\.parameters)
        #expect(own[0][0] == 0 && own[0][0].sign == .plus)
        func made(_ parameters: [[Double]], random: Bool = false) -> ReportGroundwork {
            ReportGroundwork(parameterCount: 2, isRandom: random) { parameters }
        }
        var minusZero = own; minusZero[0][0] = -0.0
        var other = own; other[4][1] += 1e-12
        #expect(made(own).matching(summary.points, parameterCount: 2, isRandom: false) != nil)
        #expect(made(Array(own.dropLast())).matching(summary.points, parameterCount: 2, isRandom: false) == nil)
        #expect(made(other).matching(summary.points, parameterCount: 2, isRandom: false) == nil)
        #expect(made(minusZero).matching(summary.points, parameterCount: 2, isRandom: false) == nil)
        #expect(made(own, random: true).matching(summary.points, parameterCount: 2, isRandom: false) == nil)
        #expect(made(own).matching(summary.points, parameterCount: 3, isRandom: false) == nil)
    }
}
