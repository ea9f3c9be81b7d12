// Beyond a few thousand points a scatter's dots cost the page a hundred bytes each and blot into
// one mass: such charts draw a 2-D histogram instead, every point counted, the page's
// size fixed by the grid rather than by the sweep. Cells are shaded in a few steps of how many
// points they hold, each step one SVG path, so a chart stays a few tens of kilobytes.

enum DensityLayer {
    /// Scatters with more points than this are drawn as density.
    static let above = 2000
    /// Cells across and down the plot area.
    static let columns = 48, rows = 36
    /// Shades, from the faintest (a cell with one point) to the darkest (the fullest cell).
    static let steps = 6

    /// The histogram of `points` over the plot area, as paths in `color`: a cell's shade grows with
    /// the square root of its count (a few outliers stay visible beside a dense core).
    static func svg(_ points: [LinePoint], xScale: LinearScale, yScale: LinearScale, frame f: ChartFrame, color: String) -> String {
        let width = (f.plotRight - f.plotLeft) / Double(columns), height = (f.plotBottom - f.plotTop) / Double(rows)
        guard width > 0, height > 0 else { return "" }
        var counts = [Int](repeating: 0, count: columns * rows)
        for p in points where p.x.isFinite && p.y.isFinite {
            let c = Int((xScale.map(p.x) - f.plotLeft) / width), r = Int((yScale.map(p.y) - f.plotTop) / height)
            counts[min(rows - 1, max(0, r)) * columns + min(columns - 1, max(0, c))] += 1
        }
        guard let top = counts.max(), top > 0 else { return "" }
        var paths = [TextBuffer](repeating: TextBuffer(capacity: 4096), count: steps)
        for (k, n) in counts.enumerated() where n > 0 {
            let step = min(steps - 1, Int((Double(n) / Double(top)).squareRoot() * Double(steps)))
            paths[step].raw("M"); paths[step].px(f.plotLeft + Double(k % columns) * width); paths[step].raw(" ")
            paths[step].px(f.plotTop + Double(k / columns) * height)
            paths[step].raw("h"); paths[step].px(width); paths[step].raw("v"); paths[step].px(height)
            paths[step].raw("h"); paths[step].px(-width); paths[step].raw("z")
        }
        var s = "<g class=\"density\" data-points=\"\(points.count)\">\n"
        for (step, path) in paths.enumerated() where !path.bytes.isEmpty {
            let opacity = 0.15 + 0.85 * Double(step + 1) / Double(steps)
            s += "<path fill=\"\(color)\" fill-opacity=\"\(Text.px(opacity))\" d=\"\(path.string)\"/>\n"
        }
        return s + "</g>\n"
    }
}
