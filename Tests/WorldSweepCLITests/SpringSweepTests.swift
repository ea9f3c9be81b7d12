import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

private let root = Repository.root

private func seed(_ name: String) -> String { root.appendingPathComponent("Sweeps/\(name).yaml").path }

private func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

/// The seed sweeps of attachments and snap (Sweeps/pendulum.yaml, spring-card.yaml, spring-hang.yaml, snap.yaml):
/// each runs end to end with a report on both engines, bit for bit the same.
@Suite struct SpringSweepTests {
    @Test(arguments: [("pendulum", "bob"), ("spring-card", "card"), ("spring-hang", "card"), ("snap", "view")])
    func seedSweepRunsOnBothEnginesAlike(_ name: String, _ item: String) throws {
        let batched = Scratch.directory("\(name)-batched", create: false)
        let single = Scratch.directory("\(name)-single", create: false)
        #expect(WorldSweepCommand.execute(["run", seed(name), "--out", batched, "--quiet"]) == 0)
        #expect(WorldSweepCommand.execute(["run", seed(name), "--out", single, "--quiet", "--engine", "single"]) == 0)
        let a = text("\(batched)/worlds.csv"), b = text("\(single)/worlds.csv")
        #expect(!a.isEmpty && a == b)
        #expect(text("\(batched)/points.csv") == text("\(single)/points.csv"))
        // The spring columns, after the item's contract columns.
        #expect(CSVTable(text: a).header.suffix(3) == ["\(item).overshoot", "\(item).settle_time", "\(item).oscillations"])
        for report in ["report.md", "report.html"] { #expect(!text("\(batched)/\(report)").isEmpty, "\(report)") }
        // Every world swung through its rest at least once or settled: the metrics hold numbers.
        for row in try CSVTable(path: "\(batched)/worlds.csv").records {
            #expect(Double(row["\(item).overshoot"]!) != nil && Int(row["\(item).oscillations"]!) != nil)
        }
    }

    @Test func springCardReportChartsOvershootAndSettleTimeAgainstFrequencyAndDamping() throws {
        let out = Scratch.directory("spring-card-report", create: false)
        #expect(WorldSweepCommand.execute(["run", seed("spring-card"), "--out", out, "--quiet"]) == 0)
        let html = text("\(out)/report.html")
        // Each key spring metric against each swept parameter, and over the pair (a heatmap).
        for metric in ["card.overshoot", "card.settle_time", "card.oscillations"] {
            #expect(html.contains("id=\"v-\(metric)\""), "\(metric) section")
            for parameter in ["spring.frequency", "spring.damping"] {
                #expect(html.contains("\(metric) vs \(parameter)"), "\(metric) vs \(parameter)")
            }
        }
        #expect(html.contains("card.overshoot (pt)") && html.contains("card.settle_time (s)") && html.contains("spring.frequency (Hz)"))
        // The page leads with the overshoot (no bounces here), driven by damping above all, and says
        // how: it falls as damping grows (to 0 at critical damping, below).
        let md = text("\(out)/report.md")
        #expect(md.contains("- **card.overshoot against spring.damping ("), "\(md.prefix(2000))")
        #expect(md.contains("of its variation): falls from "), "\(md.prefix(2000))")
        // Settling is censored, not dropped: at damping 0.05 three of four worlds never settle.
        #expect(html.contains("Worlds that never settled in the run, by spring.damping: 75 % at 0.05"))
        // By hand: a damping ratio of 1 (critical) never swings through; 0.05 swings through
        // again and again (each swing keeps e^(−π·0.05/√(1 − 0.0025)) = 85 % of the last).
        for row in try CSVTable(path: "\(out)/worlds.csv").records {
            let zeta = Double(row["spring.damping"]!)!, crossings = Int(row["card.oscillations"]!)!
            if zeta == 1 { #expect(crossings == 0) }
            if zeta == 0.05 { #expect(crossings >= 4) }
        }
    }

    @Test func shardsOfASpringSweepMergeToTheWholeRun() throws {
        // merge and --resume read worlds.csv rows back: the spring columns must round-trip.
        let whole = Scratch.directory("snap-whole", create: false), out = Scratch.directory("snap-shards", create: false)
        #expect(WorldSweepCommand.execute(["run", seed("snap"), "--out", whole, "--quiet"]) == 0)
        for shard in ["0", "1"] {
            #expect(WorldSweepCommand.execute(["run", seed("snap"), "--out", out, "--quiet", "--shard", shard, "--of", "2"]) == 0)
        }
        #expect(WorldSweepCommand.execute(["merge", out]) == 0)
        for file in ["worlds.csv", "partners.csv"] {
            #expect(!text("\(whole)/\(file)").isEmpty && text("\(whole)/\(file)") == text("\(out)/\(file)"), "\(file)")
        }
        // One replica per point: neither the run nor the merge writes points.csv (worlds.csv is it).
        #expect(text("\(whole)/points.csv").isEmpty && text("\(out)/points.csv").isEmpty)
    }

    @Test func traceShowsTheRodHoldingThePendulum() throws {
        // The sweep's first point: the bob 20 pt right of and 200 pt below the anchor (160, 100),
        // on a rod of √(20² + 200²) = 201.0 pt. It swings through the bottom (x = 160) and back,
        // its centre on the rod's circle throughout.
        let scene = try TraceWorld.scene(file: seed("pendulum"), overrides: [], world: nil)
        var out = ""
        TraceWorld.trace(scene, ticks: scene.world.ticks, events: false) { out += $0 }
        let lines = out.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(lines.count == 360)
        let length = (20.0 * 20 + 200 * 200).squareRoot()
        var xs: [Double] = []
        for cells in lines {
            let x = Double(cells[3])!, y = Double(cells[4])!
            xs.append(x)
            let r = ((x - 160) * (x - 160) + (y - 100) * (y - 100)).squareRoot()
            #expect(abs(r - length) < 0.5, "tick \(cells[0]): \(r) pt from the anchor")
        }
        #expect(xs.min()! < 145 && xs.max()! > 175)
    }
}
