import Foundation
import TestScratch
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WorldSweep
import WorldSweepRun
import WorldSweepScene
@testable import WorldSweepReport

/// Issue 26 item 4's pictures: jittered scatters with hover, brushable parallel coordinates, log
/// bins and axes for log-uniform parameters, and replays of springs as distance from rest.
@Suite struct PictureTests {
    /// Every dot of a chart: its cx, cy, opacity and hover text.
    static func dots(_ svg: String, series: String = "points") throws -> [(cx: Double, cy: Double, opacity: String, title: String)] {
        let doc = try XMLDocument(xmlString: svg)
        // A dot's opacity is its own or its group's (which the dots of a scatter share).
        return try doc.nodes(forXPath: "//g[@class='series'][@data-series='\(series)']/circle[@class='pt']").compactMap { $0 as? XMLElement }.map { e in
            (Double(e.attribute(forName: "cx")!.stringValue!)!, Double(e.attribute(forName: "cy")!.stringValue!)!,
             e.attribute(forName: "fill-opacity")?.stringValue ?? (e.parent as? XMLElement)?.attribute(forName: "fill-opacity")?.stringValue ?? "",
             e.elements(forName: "title").first?.stringValue ?? "")
        }
    }

    @Test func dotsInColumnsAreJitteredWithinTheirColumnAndTheSameEveryTime() throws {
        // 4 columns of 40 dots (x = 0, 1, 2, 3), y spread: 40 dots a column.
        let pts = (0..<160).map { i in LinePoint(x: Double(i % 4), y: Double(i / 4)) }
        let chart = LineChart(title: "t", xLabel: "x", yLabel: "y", legendTitle: "",
                              series: [LineSeries(name: "points", color: "#000", points: pts, style: .dots, inLegend: false)])
        let (_, _, xs, _) = chart.layout()
        let gap = xs.map(1) - xs.map(0)
        let width = min(ScatterJitter.maxWidth, 0.3 * gap)
        let svg = chart.svg()
        #expect(svg == chart.svg())   // byte for byte
        let drawn = try Self.dots(svg)
        #expect(drawn.count == 160)
        var offsets: [Double] = []
        for (i, d) in drawn.enumerated() {
            let column = xs.map(Double(i % 4))
            #expect(abs(d.cx - column) <= width + 0.01, "dot \(i) left its column")
            offsets.append(d.cx - column)
        }
        // Spread over the jitter's width, both sides, not piled up: at least a third of the dots on
        // each side and the extremes near the edges.
        #expect(offsets.filter { $0 < 0 }.count > 50 && offsets.filter { $0 > 0 }.count > 50)
        #expect(offsets.max()! > 0.8 * width && offsets.min()! < -0.8 * width)
        // 40 dots a column: opacity 0.7 · 20/40.
        #expect(drawn.allSatisfy { $0.opacity == "0.35" })
        // Dots not in columns (every x its own) stay where they are, at full opacity.
        let free = LineChart(title: "t", xLabel: "x", yLabel: "y", legendTitle: "",
                             series: [LineSeries(name: "points", color: "#000", points: (0..<50).map { LinePoint(x: Double($0) * 0.37, y: 1) }, style: .dots)])
        let (_, _, fx, _) = free.layout()
        let freeDots = try Self.dots(free.svg())
        #expect(freeDots.count == 50)
        for (i, d) in freeDots.enumerated() { #expect(abs(d.cx - fx.map(Double(i) * 0.37)) < 0.006) }
        #expect(freeDots.allSatisfy { $0.opacity == "0.7" })
    }

    @Test func aDotsHoverNamesItsWorldsAndTheCommandThatReplaysThem() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 8)), ("bouncy.density", [0.5, 1, 2])], replicas: 3)
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        let slice = try #require(try charts(html, titled: "bottom.bounce1 vs bouncy.elasticity").first)
        let drawn = try Self.dots(slice)
        #expect(drawn.count == summary.points.count)
        let model = ReportModel(summary: summary, sample: WorldSample())
        for d in drawn {
            // "worlds 3p–3p+2 (point p) at (e, d): mean M pt": the parameters' names and the replay
            // command are said once, in the caption.
            let digits = d.title.split(separator: "(point ").last?.split(separator: ")").first.map(String.init) ?? ""
            let p = try #require(Int(digits))
            let point = summary.points[p]
            #expect(d.title.hasPrefix("worlds \(3 * p)–\(3 * p + 2) (point \(p)) at (\(Text.value(point.parameters[0])), \(Text.value(point.parameters[1]))): "))
            #expect(!d.title.contains("replay") && !d.title.contains("worldsweep trace"))
            let mean = try #require(model.valued("bottom.bounce1").first { model.summary.points[$0.0].point == p }?.1)
            #expect(d.title.contains(": mean \(Text.value(mean)) pt"))
        }
        // The parameters' names and the replay command once, in the caption.
        #expect(html.contains("Hover a dot or line for its world at (bouncy.elasticity, bouncy.density); \(model.replayPattern) replays world N."))
        #expect(model.replayPattern.hasPrefix("worldsweep trace ") && model.replayPattern.hasSuffix(" --world N"))
        // 8 columns of 3 dots: jittered.
        #expect(slice.contains("data-jitter=\"8\""))
    }

    @Test func parallelCoordinatesBrushOnEveryAxisAndKeepNeverOutcomes() throws {
        // Axis 0 log-spaced (1, 10, 100: equal steps on the page), axis 1 linear, the metric last.
        let axes = [ParallelAxis(label: "a", values: [1, 10, 100], log: true), ParallelAxis(label: "b", values: [0, 1, 2]),
                     ParallelAxis(label: "m", values: [3, 2, 1])]
        let chart = ParallelCoordinates(title: "pc", axes: axes)
        let svg = chart.svg()
        let lines = try elements(svg, tag: "polyline", cls: "pc")
        #expect(lines.count == 3)
        let rows = lines.map { l in l["points"]!.split(separator: " ").map { Double($0.split(separator: ",")[1])! } }
        let a = rows.map { $0[0] }.sorted()
        #expect(abs((a[1] - a[0]) - (a[2] - a[1])) < 0.02)   // log axis: 1 → 10 → 100 equal steps
        let ticks = try XMLDocument(xmlString: svg).nodes(forXPath: "//text[@class='tick']").map { $0.stringValue ?? "" }
        #expect(ticks.contains("10") && ticks.contains("100"))
        // One brush and one selection box per axis, the count text, the script once.
        #expect(try elements(svg, tag: "rect", cls: "brush").map { $0["data-k"]! } == ["0", "1", "2"])
        #expect(try elements(svg, tag: "rect", cls: "sel").count == 3)
        #expect(svg.components(separatedBy: ParallelBrush.element).count == 2 && !ParallelBrush.script.contains("]]>"))
        // On a page: every point is a line, those whose bottom never came to rest included (at
        // the run's length), and the page stays valid with the script.
        var (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 6)), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 1])], replicas: 1)
        summary.run.seconds = 5
        let html = ReportWriter.html(summary: summary)
        try checkPage(html)
        let pc = try #require(try charts(html, titled: "Every point across").first)
        #expect(try elements(pc, tag: "polyline", cls: "pc").count == summary.points.count)
        #expect(html.contains("drag along an axis to keep only the lines through that range"))
    }
}

extension PictureTests {
    /// A random sweep whose density is drawn log-uniform over [0.01, 100] and elasticity uniform.
    static let randomYAML = """
    name: logs
    world: {bounds: [320, 568], duration: 2}
    items:
      bottom: {center: [160, 50], size: [50, 50]}
      top: {center: [60, 30], size: [50, 50]}
    behaviors:
      fall: {type: gravity, items: [top, bottom]}
      bouncy: {type: item, items: [bottom], elasticity: 0.5, density: 1}
    sweep:
      kind: random
      samples: 400
      seed: 3
      parameters:
        bouncy.elasticity: {uniform: [0, 1]}
        bouncy.density: {loguniform: [0.01, 100]}
    """

    static func randomSweep() throws -> (SweepSummary, WorldReplay) {
        let scene = try SceneFile.parse(yaml: randomYAML, path: "logs.yaml")
        var rng = Rand(11)
        let combos = (0..<400).map { _ in [rng.next(), exp(log(0.01) + (log(100) - log(0.01)) * rng.next())] }
        let (summary, _) = Fixture.make(name: "logs", names: ["bouncy.elasticity", "bouncy.density"], combos: combos, replicas: 1,
                                        kind: "random", items: ["top", "bottom"], seed: 5)
        return (summary, WorldReplay(scene: scene, file: "logs.yaml"))
    }

    @Test func aLogUniformParameterIsBinnedInEqualWidthsOfItsLogarithmAndDrawnOnALogAxis() throws {
        let (summary, replay) = try Self.randomSweep()
        let model = ReportModel(summary: summary, sample: WorldSample(), replay: replay)
        #expect(model.isLogUniform(1) && !model.isLogUniform(0) && model.isLogSpaced(1) && !model.isLogSpaced(0))
        // Without the sweep file (summary.json alone) the report cannot tell: linear.
        #expect(!ReportModel(summary: summary, sample: WorldSample()).isLogSpaced(1))
        let slices = model.slices("bottom.bounce1")
        let density = try #require(slices.first { $0.parameter == 1 }), elasticity = try #require(slices.first { $0.parameter == 0 })
        // 10 bins from the smallest to the largest density drawn, each a tenth of the decades.
        let xs = density.dots.map(\.x)
        #expect(density.log && density.edges.count == SweepViews.bins + 1)
        #expect(abs(density.edges.first! - xs.min()!) < 1e-12 && abs(density.edges.last! - xs.max()!) < 1e-9)
        let widths = zip(density.edges.dropFirst(), density.edges).map { log10($0) - log10($1) }
        let decade = (log10(xs.max()!) - log10(xs.min()!)) / Double(SweepViews.bins)
        for w in widths { #expect(abs(w - decade) < 1e-9) }
        // Log-uniform draws fill log bins evenly: 400 points, about 40 a bin (not 370 in the
        // first linear bin, as equal widths of the value would give).
        #expect(density.levels.count == SweepViews.bins && density.levels.allSatisfy { $0.points > 20 && $0.points < 60 })
        // Each level stands at the geometric mean of its points, inside its bin.
        for (k, level) in density.levels.enumerated() { #expect(level.x > density.edges[k] && level.x < density.edges[k + 1]) }
        // The uniform one keeps equal widths of the value.
        #expect(!elasticity.log)
        let linear = zip(elasticity.edges.dropFirst(), elasticity.edges).map { $0 - $1 }
        for w in linear { #expect(abs(w - linear[0]) < 1e-9) }
        // Pair maps: the density's cells centred on log-equal steps.
        let map = try #require(model.pairs("bottom.bounce1").maps.first)
        let ys = map.yValues.map(log10)
        for (a, b) in zip(ys.dropFirst(), ys) { #expect(abs((a - b) - (ys[1] - ys[0])) < 1e-9) }
        // The page draws the density slice on a log axis, and says so.
        let html = ReportWriter.html(summary: summary, replay: replay)
        try checkPage(html)
        #expect(html.contains("bouncy.density is drawn log-uniform: a log axis."))
        #expect(html.contains("ranges of equal width in log bouncy.density"))
    }

    @Test func aDensityLayerOnALogAxisCountsPointsWhereTheAxisPutsThem() throws {
        // 3000 points (drawn as density), x log-uniform over 1…1000: on a log axis they spread
        // evenly across the plot; binned linearly they would all fall in the left columns.
        var rng = Rand(9)
        let pts = (0..<3000).map { _ in LinePoint(x: pow(10, 3 * rng.next()), y: rng.next()) }
        var chart = LineChart(title: "t", xLabel: "x", yLabel: "y", legendTitle: "",
                              series: [LineSeries(name: "p", color: "#000", points: pts, style: .density)])
        chart.logX = true
        let svg = chart.svg()
        let f = chart.frame
        let mid = (f.plotLeft + f.plotRight) / 2
        // Cells' left edges ("M x y") on the right half of the plot: about half of them.
        let lefts = svg.components(separatedBy: "M").dropFirst().compactMap { Double($0.split(separator: " ").first ?? "") }
        let right = lefts.filter { $0 >= mid }.count
        #expect(Set(lefts).count == DensityLayer.columns && Double(right) / Double(lefts.count) > 0.35)
    }
}

extension PictureTests {
    static func replay(_ name: String, world: Int) throws -> Trajectory {
        let file = Repository.root.appendingPathComponent("Sweeps/\(name).yaml").path
        return try #require(Trajectory.replay(WorldReplay(scene: try SceneFile.load(path: file), file: file), world: world))
    }

    @Test func springSnapAndPendulumReplaysStartAtTheirOffsetFromRest() throws {
        // spring-card: the card's top edge (400 − 40) hangs 220 pt below the anchor (y 140) on a
        // 160 pt spring, no gravity: 60 pt stretched.
        let card = try Self.replay("spring-card", world: 0)
        #expect(card.hasRest && abs(card.restDistances[0][0] - 60) < 0.01)
        #expect(card.restDistances[0].count == card.items[0].states.count)
        // snap: the view starts at x 60, the first point is x 100: 40 pt away.
        let snap = try Self.replay("snap", world: 0)
        #expect(abs(snap.restDistances[0][0] - 40) < 0.01)
        // pendulum: the bob at (180, 300) under a pivot at (160, 100): the arc r·θ to the lowest
        // point, r = √(20² + 200²), θ = atan(20/200), on the side y-down clockwise calls negative.
        let bob = try Self.replay("pendulum", world: 0)
        let r = (20.0 * 20 + 200 * 200).squareRoot()
        #expect(abs(bob.restDistances[0][0] + r * atan(20.0 / 200)) < 0.01)
        // spring-hang: let go at its unloaded length, 1000/(2π·0.5)² pt short of where it hangs
        // still at 0.5 Hz (less the resistance's 1/1200 share).
        let hang = try Self.replay("spring-hang", world: 0)
        let sag = 1000 / pow(2 * Double.pi * 0.5, 2) / (1 + 0.1 / 120)
        #expect(abs(hang.restDistances[0][0] + sag) < 0.05 * sag)
    }

    @Test func aSpringsDistanceFromRestDecaysAsItsDampingSays() throws {
        // spring-card world 15: 4 Hz, damping ratio 1 (critical): from 60 pt straight down to
        // rest, never far past it, within 1 pt after 1 s.
        let critical = try Self.replay("spring-card", world: 15).restDistances[0]
        let tick = 1.0 / 60
        #expect(abs(critical[0] - 60) < 0.01)
        #expect(critical.min()! > -3)
        #expect(critical.dropFirst(Int(1 / tick)).allSatisfy { abs($0) < 1 })
        // World 12: 4 Hz, damping 0.05: it swings through rest every half period, 0.125 s, the
        // first time about a quarter period (0.0625 s) after release, each swing on the other side
        // and smaller than the last by one constant ratio (an exponential envelope).
        let light = try Self.replay("spring-card", world: 12).restDistances[0]
        let firstBelow = try #require(light.firstIndex { $0 < 0 })
        #expect(Double(firstBelow) * tick > 0.04 && Double(firstBelow) * tick < 0.1)
        let peaks = light.indices.dropFirst().dropLast().filter { i in abs(light[i]) >= abs(light[i - 1]) && abs(light[i]) > abs(light[i + 1]) }.prefix(8)
        #expect(peaks.count == 8)
        let spacing = Double(peaks.last! - peaks.first!) / Double(peaks.count - 1) * tick
        #expect(abs(spacing - 0.125) < 0.01, "half period \(spacing) s")
        let values = peaks.map { light[$0] }
        for (a, b) in zip(values, values.dropFirst()) { #expect((a > 0) != (b > 0) && abs(b) < abs(a)) }
        let ratios = zip(values, values.dropFirst()).map { abs($1 / $0) }
        #expect(ratios.max()! / ratios.min()! < 1.1, "\(ratios)")
    }

    @Test func springWorldsAreDrawnAsDistanceFromRestOnOneScale() throws {
        let (summary, _) = Fixture.sweep(axes: [("spring.frequency", [0.5, 1, 2, 4]), ("spring.damping", [0.05, 0.2, 0.5, 1])],
                                         replicas: 1, items: ["card"])
        let file = Repository.root.appendingPathComponent("Sweeps/spring-card.yaml").path
        let replay = WorldReplay(scene: try SceneFile.load(path: file), file: "Sweeps/spring-card.yaml")
        let html = ReportWriter.html(summary: summary, replay: replay)
        try checkPage(html)
        let curves = try charts(html, titled: "world ").filter { $0.contains(": distance from rest") }
        #expect(curves.count == ReportModel(summary: summary, sample: WorldSample(), replay: replay).trajectories().count && curves.count >= 2)
        var tickSets: Set<[String]> = []
        for svg in curves {
            #expect(try axisLabels(svg).contains("spring length − rest length (pt)") && (try axisLabels(svg)).contains("time (s)"))
            #expect(try elements(svg, tag: "polyline", cls: "line").count == 1)
            tickSets.insert(try XMLDocument(xmlString: svg).nodes(forXPath: "//g[@class='axes']/text[@class='tick']").map { $0.stringValue ?? "" })
        }
        #expect(tickSets.count == 1)   // one scale: the same ticks (time and distance) on every curve
        #expect(html.contains(HTML.escape(RestReplayChart.note)))
    }
}

extension PictureTests {
    @Test func aParallelLinesHoverNamesItsWorld() throws {
        let (summary, _) = Fixture.sweep(axes: [("bouncy.elasticity", Fixture.linspace(0, 1, 6)), ("bouncy.density", [0.5, 1, 2]),
                                                ("shove.magnitude", [0, 1])], replicas: 2)
        let html = ReportWriter.html(summary: summary)
        let pc = try #require(try charts(html, titled: "Every point across").first)
        let titles = try XMLDocument(xmlString: pc).nodes(forXPath: "//polyline[@class='pc']/title").map { $0.stringValue ?? "" }
        #expect(titles.count == summary.points.count)
        for t in titles {
            let digits = t.split(separator: "(point ").last?.split(separator: ")").first.map(String.init) ?? ""
            let p = try #require(Int(digits))
            #expect(t.hasPrefix("worlds \(2 * p)–\(2 * p + 1) (point \(p)) at (") && !t.contains("worldsweep trace"))
        }
        // The command that replays a line's world, once in the caption.
        #expect(html.contains("Hover a dot or line for its world at (bouncy.elasticity, bouncy.density, shove.magnitude); ") && html.contains(" --world N replays world N."))
    }
}

extension PictureTests {
    /// The report's replays side by side in one batch are the single-world engine's, tick for
    /// tick: every item's centre and angle, every contact (tick, names, point), every distance
    /// from rest, for four worlds spread over each example sweep (every one of them replays in
    /// lanes: a sweep's worlds share their structure).
    @Test(arguments: ["twin-drop", "ledge-squares", "push-offset", "radial-gravity", "snap", "spinner", "pendulum",
                      "spring-card", "spring-hang", "tune-bounce", "tune-snap", "tune-spring-curve"])
    func replaysInLanesAreTheSingleWorldReplays(_ name: String) throws {
        let file = Repository.root.appendingPathComponent("Sweeps/\(name).yaml").path
        var scene = try SceneFile.load(path: file)
        // The first two seconds (120 ticks) of each: their first bounces, swings and settles, quickly.
        scene.world.ticks = min(scene.world.ticks, 120)
        let replay = WorldReplay(scene: scene, file: file)
        let count = scene.worldCount
        let worlds = Array(Set([count - 1, 0, count / 2, count / 3])).sorted(by: >)
        let lanes = try #require(Trajectory.replayInLanes(replay, worlds: worlds), "\(name) did not replay in lanes")
        for (world, batched) in zip(worlds, lanes) {
            let single = try #require(Trajectory.replay(replay, world: world))
            #expect(batched.world == world)
            #expect(batched.items.map(\.name) == single.items.map(\.name))
            for (b, s) in zip(batched.items, single.items) {
                #expect(b.states.count == s.states.count, "\(name) world \(world) \(b.name): ticks")
                #expect(b.states.map { [$0.x, $0.y, $0.angle] } == s.states.map { [$0.x, $0.y, $0.angle] }, "\(name) world \(world) \(b.name)")
            }
            #expect(batched.contacts.map { "\($0.tick) \($0.item) \($0.other) \($0.x) \($0.y)" }
                    == single.contacts.map { "\($0.tick) \($0.item) \($0.other) \($0.x) \($0.y)" }, "\(name) world \(world): contacts")
            #expect(batched.restDistances == single.restDistances, "\(name) world \(world): rest")
        }
    }
}
