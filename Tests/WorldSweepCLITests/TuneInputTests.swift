import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepScene

private let repository = Repository.root.path

/// A small tune file: a card dropped onto the floor, its elasticity tuned.
private let dropFile = """
    name: t
    world: {bounds: [320, 568], duration: 2}
    items:
      card: {center: [160, 100], size: [60, 40]}
    behaviors:
      fall: {type: gravity, items: [card]}
      floor: {type: collision, items: [card], mode: boundaries, reference_bounds: true}
      bouncy: {type: item, items: [card], elasticity: 0.5, allows_rotation: false}

    """

private func tuneSection(_ parameter: String = "bouncy.elasticity: [0.1, 0.9]", want: String = "{card.y: minimize}",
                         extra: String = "budget: 16") -> String {
    "tune:\n  parameters:\n    \(parameter)\n  want: \(want)\n  \(extra)\n"
}

/// Every tune input problem is refused up front, by `validate` as by `tune`, and nothing is created.
@Suite(.serialized) struct TuneInputTests {
    private func refusedAlike(_ text: String, _ extra: [String] = [], _ expected: String) throws {
        let path = try Scratch.file(text, named: "t.yaml", tag: "tune-input")
        let validate = WorldSweepCommand.outcome(["validate", path] + extra)
        #expect(validate.code == 2, "validate: \(validate.message ?? "accepted")")
        #expect(validate.message?.contains(expected) == true, "validate: \(validate.message ?? "")")
        let out = Scratch.directory("tune-input-out", create: false)
        let tune = WorldSweepCommand.outcome(["tune", path, "--out", out, "--quiet"] + extra)
        #expect(tune.code == 2, "tune: \(tune.message ?? "accepted")")
        #expect(tune.message?.contains(expected) == true, "tune: \(tune.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A sweep axis would make each candidate many points: refused in one line, in the file or by --sweep.
    @Test func aSweepAxisUnderTuneIsRefused() throws {
        try refusedAlike(dropFile + "sweep:\n  parameters:\n    fall.magnitude: [0.5, 2]\n" + tuneSection(),
                         [], "t.yaml:11:5: error: 'fall.magnitude' is swept in 'sweep', which a tune does not do")
        try refusedAlike(dropFile + tuneSection(), ["--sweep", "fall.magnitude=0.5,2"],
                         "--sweep fall.magnitude=0.5,2: 'fall.magnitude' is swept in 'sweep', which a tune does not do")
    }

    @Test func reversedEmptyAndSingleRangesAreRefused() throws {
        try refusedAlike(dropFile + tuneSection("bouncy.elasticity: [0.9, 0.1]"), [], "expected min < max for 'bouncy.elasticity', got 0.9 and 0.1")
        try refusedAlike(dropFile + tuneSection("bouncy.elasticity: [0.5, 0.5]"), [], "expected min < max for 'bouncy.elasticity', got 0.5 and 0.5")
        try refusedAlike(dropFile + tuneSection("bouncy.elasticity: {choice: [0.5]}"), [], "expected at least two different values in 'choice'")
        try refusedAlike(dropFile + tuneSection("bouncy.elasticity: {choice: [0.5, 0.5]}"), [], "expected at least two different values in 'choice'")
    }

    /// A budget that cannot pay for one generation would end with no answer: refused before anything runs.
    @Test func aBudgetBelowOneGenerationIsRefused() throws {
        try refusedAlike(dropFile + tuneSection(extra: "budget: 2"), [],
                         "the search's budget of 2 worlds is less than one generation: 8 candidates × 1 replicas = 8 worlds")
        try refusedAlike(dropFile + tuneSection(), ["--set", "sweep.replicas=100000"],
                         "the search's budget of 16 worlds is less than one generation: 8 candidates × 100000 replicas")
    }

    /// validate runs tune's own checks: a spring metric needs a rest target; the budget follows --max-worlds.
    @Test func validateRefusesWhatTuneRefuses() throws {
        try refusedAlike(dropFile + tuneSection(want: "{card.overshoot: minimize}"), [], "'card.overshoot' is not a metric of this file's worlds")
        try refusedAlike(dropFile + tuneSection(extra: "budget: 1e12"), [], "the search's budget is 1000000000000 worlds, more than the limit")
    }

    @Test func setOnATunedKeyIsRefused() throws {
        try refusedAlike(dropFile + tuneSection(), ["--set", "bouncy.elasticity=0.3"],
                         "--set bouncy.elasticity=0.3: 'bouncy.elasticity' is tuned")
    }

    /// A tolerance of 1e-170 squares past the largest Double; the ranking still puts the closest point first.
    @Test func aTinyToleranceStillRanksTheClosestFirst() throws {
        let path = try Scratch.file(dropFile + tuneSection(want: "{card.bounce1: {target: 100, within: 1e-170}}", extra: "budget: 24"),
                                    named: "t.yaml", tag: "tune-input")
        let out = Scratch.directory("tune-tiny", create: false)
        let (code, message) = WorldSweepCommand.outcome(["tune", path, "--out", out, "--quiet"])
        #expect(code == 1, "\(message ?? "")")   // 1e-170 is never met
        let lines = try String(contentsOfFile: "\(out)/worlds.csv", encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let e = header.firstIndex(of: "bouncy.elasticity")!, b = header.firstIndex(of: "card.bounce1")!
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let closest = rows.filter { !$0[b].isEmpty }.min { abs(Double($0[b])! - 100) < abs(Double($1[b])! - 100) }!
        struct Answer: Decodable { struct Best: Decodable { var values: [Double] }; var best: Best }
        let best = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/tune.json"))).best.values[0]
        #expect(best == Double(closest[e])!)
    }

    /// A curve written on Windows (CRLF, a byte-order mark) reads like the same curve with \n.
    @Test func aCurveWithCRLFAndABOMReads() throws {
        let csv = try String(contentsOfFile: "\(repository)/Sweeps/curves/damped-spring.csv", encoding: .utf8)
        let yaml = try String(contentsOfFile: "\(repository)/Sweeps/tune-spring-curve.yaml", encoding: .utf8)
        let dir = Scratch.directory("tune-crlf")
        try FileManager.default.createDirectory(atPath: "\(dir)/curves", withIntermediateDirectories: true)
        try Data(("\u{FEFF}" + csv.replacingOccurrences(of: "\n", with: "\r\n")).utf8)
            .write(to: URL(fileURLWithPath: "\(dir)/curves/damped-spring.csv"))
        try yaml.write(toFile: "\(dir)/t.yaml", atomically: true, encoding: .utf8)
        let windows = try SceneFile.load(path: "\(dir)/t.yaml")
        let plain = try SceneFile.load(path: "\(repository)/Sweeps/tune-spring-curve.yaml")
        #expect(windows.tune?.curve?.samples == plain.tune?.curve?.samples)
        #expect((windows.tune?.curve?.samples.count ?? 0) > 10)
    }

    /// --resume after the curve changed is refused like a changed file, instead of giving the old answer.
    @Test func resumeAfterTheCurveChangedIsRefused() throws {
        let dir = Scratch.directory("tune-curve-resume")
        try FileManager.default.copyItem(atPath: "\(repository)/Sweeps/curves", toPath: "\(dir)/curves")
        let yaml = try String(contentsOfFile: "\(repository)/Sweeps/tune-spring-curve.yaml", encoding: .utf8)
        try yaml.replacingOccurrences(of: "budget: 800", with: "budget: 48").write(toFile: "\(dir)/t.yaml", atomically: true, encoding: .utf8)
        let out = Scratch.directory("tune-curve-resume-out", create: false)
        let first = WorldSweepCommand.outcome(["tune", "\(dir)/t.yaml", "--out", out, "--quiet"])
        #expect(first.code == 0 || first.code == 1, "\(first.message ?? "")")
        let csvPath = "\(dir)/curves/damped-spring.csv"
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        try csv.replacingOccurrences(of: "0.100000,160,", with: "0.100000,161,").write(toFile: csvPath, atomically: true, encoding: .utf8)
        let resumed = WorldSweepCommand.outcome(["tune", "\(dir)/t.yaml", "--out", out, "--quiet", "--resume"])
        #expect(resumed.code == 2, "\(resumed.message ?? "")")
        #expect(resumed.message?.contains("changed since the search") == true, "\(resumed.message ?? "")")
    }
}
