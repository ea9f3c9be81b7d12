// The hover text of a point's dot (an SVG <title>: it shows without scripts): which worlds the
// point stands for, its parameters and what the dot shows. The command that replays a world is
// said once per chart (`replayPattern`), not in each of its dots: repeated in every hover it was
// a third of a report's bytes.
import WorldSweepRun

extension ReportModel {
    /// Dots per chart that get a hover: a hover costs the page far more bytes than its dot, so
    /// charts of more dots leave it out and say so.
    static let maxHoverDots = 1000
    /// Dots a chart without hovers draws one by one; more are drawn as their density.
    static let maxPlainDots = 300

    /// "world 12 at (1, 2): mean 3 pt": the parameters' values in file order, their names said
    /// once in the chart's caption (`hoverKey`); a point of several replicas names its worlds'
    /// range and its number.
    func dotTitle(_ p: PointSummary, _ what: String) -> String {
        let (before, after) = hoverParts[p.point] ?? hoverParts(p)
        return before + what + after
    }

    func hoverParts(_ p: PointSummary) -> (String, String) {
        let first = world(of: p), n = max(1, summary.replicas)
        let worlds = n > 1 ? "worlds \(first)–\(first + n - 1) (point \(p.point))" : "world \(first)"
        guard !summary.parameters.isEmpty else { return ("\(worlds): ", "") }
        return ("\(worlds) at (\(p.parameters.map(Text.value).joined(separator: ", "))): ", "")
    }

    /// What a hover's parts are, said once in the caption of a chart whose dots or lines have them.
    var hoverKey: String {
        let names = summary.parameters.joined(separator: ", ")
        return "Hover a dot or line for its world at (\(names)); \(replayPattern) replays world N."
    }

    /// The command that replays world N, said once where a chart's dots name their worlds.
    var replayPattern: String {
        let one = traceCommand(world: 0)
        return String(one.dropLast(" --world 0".count)) + " --world N"
    }

    /// Every point's hover parts, where its charts can have hovers at all (few enough points).
    var computedHoverParts: [Int: (String, String)] {
        guard summary.points.count <= Self.maxHoverDots else { return [:] }
        return Dictionary(summary.points.map { ($0.point, hoverParts($0)) }, uniquingKeysWith: { a, _ in a })
    }
}
