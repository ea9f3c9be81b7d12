// The hover text of a point's dot (an SVG <title>: it shows without scripts): which worlds the
// point stands for, its parameters, what the dot shows, and the command that replays its first
// world, so a reader who finds an odd dot can look at that world at once.
import WorldSweepRun

extension ReportModel {
    /// Dots per chart that get a hover: a hover costs the page far more bytes than its dot, so
    /// charts of more dots leave it out and say so.
    static let maxHoverDots = 1000

    /// "world 12 (point 12: a = 1, b = 2): mean 3 pt — replay: worldsweep trace FILE --world 12";
    /// a point of several replicas names their worlds' range and replays the first.
    func dotTitle(_ p: PointSummary, _ what: String) -> String {
        let (before, after) = hoverParts[p.point] ?? hoverParts(p)
        return before + what + after
    }

    func hoverParts(_ p: PointSummary) -> (String, String) {
        let first = world(of: p), n = max(1, summary.replicas)
        let worlds = n > 1 ? "worlds \(first)–\(first + n - 1)" : "world \(first)"
        return ("\(worlds) (point \(p.point): \(describe(p))): ", " — replay: \(traceCommand(world: first))")
    }

    /// Every point's hover parts, where its charts can have hovers at all (few enough points).
    var computedHoverParts: [Int: (String, String)] {
        guard summary.points.count <= Self.maxHoverDots else { return [:] }
        return Dictionary(summary.points.map { ($0.point, hoverParts($0)) }, uniquingKeysWith: { a, _ in a })
    }
}
