// The tune report's pictures: the Pareto front of a search with two or more objectives, and the
// best point's world replayed (the report's own replay chart, fed the tuned values). They draw from
// TuneChartData, plain numbers, since the search may have run in the AVX2 compilation of
// WorldSweepRun while this module is built once, on the portable one.
import Foundation
import WorldSweepResults
import WorldSweepRun
import WorldSweepScene

public enum TuneCharts {
    /// The HTML of the pictures for a tune report's page (the last part of its body): the Pareto
    /// front (two or more objectives), then the best world, still and animated. `scene`: the file
    /// as searched (overrides applied), which the best world is replayed from.
    public static func html(_ data: TuneChartData, scene: SceneFile, file: String) -> String {
        var s = TuneSearchCharts.html(data)
        if let front = paretoChart(data) {
            s += "<h2 id=\"pareto\">Pareto front</h2>\n<div class=\"charts\">"
                + HTML.figure(front.svg, caption: "Every evaluated point that meets the bounds (grey), within the front's span beyond it: \(front.shown) of \(front.feasible); the front in blue, the answer ringed.", class: "wide")
                + "</div>\n"
        }
        if let best = data.best {
            // Replica 0 of the best point: the first world the search ran at those values.
            let one = TuneEvaluator.scene(scene, candidates: [best.values], jitterSeed: scene.sweep?.seed ?? 0)
            if let trajectory = Trajectory.replay(WorldReplay(scene: one, file: file), world: 0) {
                s += "<h2 id=\"best-world\">The best world</h2>\n<p>" + HTML.escape(best.description)
                    + ", replica 0, replayed (worldsweep trace --world \(best.firstWorld) of the tune folder's sweep.yaml).</p>\n"
                s += "<div class=\"charts\">"
                    + HTML.figure(TrajectoryChart(title: "paths", trajectory: trajectory).svg(), caption: "Each item's path.", class: "world")
                    + HTML.figure(TrajectoryChart(title: "in motion", trajectory: trajectory, animated: true).svg(), caption: "The world in motion, looping.", class: "world")
                    + "</div>\n"
            }
        }
        return s
    }

    /// The first two objectives of every feasible evaluated point (grey), the Pareto front's
    /// points (blue, joined in order of the first objective) and the chosen answer (ringed).
    static func paretoChart(_ data: TuneChartData) -> (svg: String, shown: Int, feasible: Int)? {
        guard data.objectiveNames.count >= 2 else { return nil }
        let names = data.objectiveNames
        let front = data.front.sorted { $0[0] < $1[0] }
        guard !front.isEmpty else { return nil }
        // The axes span the front and as far again beyond it: far-off points would squeeze the
        // front into a corner.
        let window = (0..<2).map { k -> (Double, Double) in
            let lo = front.map { $0[k] }.min()!, hi = front.map { $0[k] }.max()!
            let span = max(hi - lo, 0.1 * max(abs(lo), abs(hi)), 1e-9)
            return (lo - span, hi + span)
        }
        let all = data.feasible
        let feasible = all.filter { p in (0..<2).allSatisfy { p[$0] >= window[$0].0 && p[$0] <= window[$0].1 } }
        let f = ChartFrame(width: 460, height: 320, left: 64, right: 16, top: 30, bottom: 48)
        let x = NiceAxis(min: feasible.map { $0[0] }.min()!, max: feasible.map { $0[0] }.max()!)
        let y = NiceAxis(min: feasible.map { $0[1] }.min()!, max: feasible.map { $0[1] }.max()!)
        let xs = LinearScale(domain: (x.lo, x.hi), range: (f.plotLeft, f.plotRight))
        let ys = LinearScale(domain: (y.lo, y.hi), range: (f.plotBottom, f.plotTop))
        let title = "Pareto front: \(front.count) of \(all.count) points"
        var s = SVGKit.open(f, label: title) + SVGKit.title(f, title)
        s += SVGKit.axes(f, x: x, y: y, xScale: xs, yScale: ys, xLabel: names[0], yLabel: names[1])
        for p in feasible {
            s += "<circle class=\"evaluated\" cx=\"\(Text.px(xs.map(p[0])))\" cy=\"\(Text.px(ys.map(p[1])))\" r=\"2.5\" fill=\"#bbb\"/>\n"
        }
        let line = front.map { "\(Text.px(xs.map($0[0]))),\(Text.px(ys.map($0[1])))" }.joined(separator: " ")
        s += "<polyline class=\"front\" fill=\"none\" stroke=\"\(Palette.color(0))\" stroke-width=\"1.5\" points=\"\(line)\"/>\n"
        for p in front {
            s += "<circle class=\"front-point\" cx=\"\(Text.px(xs.map(p[0])))\" cy=\"\(Text.px(ys.map(p[1])))\" r=\"4\" fill=\"\(Palette.color(0))\">"
                + "<title>\(HTML.escape("\(names[0]) \(TuneResult.number(p[0])), \(names[1]) \(TuneResult.number(p[1]))"))</title></circle>\n"
        }
        if let p = data.answer {
            s += "<circle class=\"answer\" cx=\"\(Text.px(xs.map(p[0])))\" cy=\"\(Text.px(ys.map(p[1])))\" r=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"><title>the answer</title></circle>\n"
        }
        return (s + "</svg>\n", feasible.count, all.count)
    }
}
