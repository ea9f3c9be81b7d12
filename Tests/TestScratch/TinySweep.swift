/// The tests' smallest whole sweep: one 40 × 40 box falling onto the reference bounds, under
/// gravity, in a collision behavior, with an item behavior whose elasticity is swept — every
/// stage of a run (plan, engine, metrics, files, report) in a few milliseconds. The knobs are the
/// ones the suites differ in; the defaults give 4 points of 20 ticks.
public func tinySweep(name: String = "tiny", ticks: Int = 20, boxY: Int = 500,
                      elasticity axis: String = "{range: [0.1, 0.4, 0.1]}",
                      replicas: Int? = nil, jitter: String? = nil) -> String {
    var lines = [
        "name: \(name)",
        "world: {bounds: [320, 568], ticks: \(ticks)}",
        "items:",
        "  box: {center: [160, \(boxY)], size: [40, 40]}",
        "behaviors:",
        "  fall: {type: gravity, items: [box]}",
        "  walls: {type: collision, items: [box], reference_bounds: true}",
        "  stuff: {type: item, items: [box], elasticity: 0.5}",
        "sweep:",
        "  parameters:",
        "    stuff.elasticity: \(axis)",
    ]
    if let replicas { lines.append("  replicas: \(replicas)") }
    if let jitter { lines.append("  jitter: \(jitter)") }
    return lines.joined(separator: "\n") + "\n"
}
