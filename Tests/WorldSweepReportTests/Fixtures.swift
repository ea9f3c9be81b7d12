import Foundation
import WorldSweepRun

/// Deterministic pseudo-random numbers for fixtures (SplitMix64).
struct Rand {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

enum Fixture {
    static let run = RunInfo(engine: "box2d-2.3 float, sub-step 1/120 s", threads: 2, worlds: 0, ticksPerWorld: 300,
                             wallSeconds: 3.25, worldTicksPerSecond: 1.2e6)

    /// One world of the twin-drop scene, physically plausible: the bottom view (elasticity e,
    /// density d) bounces to about H·e², the top one a little.
    static func world(_ w: Int, point: Int, replica: Int, params: [Double], names: [String], rng: inout Rand) -> WorldResult {
        let e = names.firstIndex(of: "bouncy.elasticity").map { params[$0] } ?? 0.9
        let d = names.firstIndex(of: "bouncy.density").map { params[$0] } ?? 1
        let push = names.firstIndex(of: "shove.magnitude").map { params[$0] } ?? 0.5
        let noise = { (rng: inout Rand, s: Double) in (rng.next() - 0.5) * 2 * s }
        let h = 418.0
        var bottomBounces: [Double] = []
        var b = h * e * e * (1 + noise(&rng, 0.04)) / (1 + 0.05 * d)
        while b > 1.5 && bottomBounces.count < 8 { bottomBounces.append(b); b *= e * e }
        let bottom = ItemResult(contacts: 1 + bottomBounces.count + Int((d * 1.5).rounded()), contactsByPartner: ["ledge": 1 + bottomBounces.count, "top": Int((d * 1.5).rounded())],
                                bounceHeights: bottomBounces, restTime: e > 0.97 ? nil : 1.2 + 3.5 * e * e + noise(&rng, 0.05),
                                x: 100 + noise(&rng, 1), y: 442.5, angle: 0, vx: 0, vy: 0, angularVelocity: 0)
        let topB = 12.0 * (1 + 0.3 * d) * (1 + noise(&rng, 0.1))
        let top = ItemResult(contacts: 3 + Int(push * 2), contactsByPartner: ["bottom": 2, "ledge": 1 + Int(push * 2)],
                             bounceHeights: [topB], restTime: 2.0 + push + noise(&rng, 0.1),
                             x: 100 + push * 40 + noise(&rng, 2), y: 392.5, angle: noise(&rng, 0.05), vx: 0, vy: 0, angularVelocity: 0)
        return WorldResult(world: w, point: point, replica: replica, parameters: params, items: [top, bottom])
    }

    /// The metric columns of one world, named as in worlds.csv.
    static func columns(_ w: WorldResult, items: [String]) -> [String: Double] {
        var c: [String: Double] = [:]
        for (name, it) in zip(items, w.items) {
            c["\(name).contacts"] = Double(it.contacts)
            c["\(name).bounces"] = Double(it.bounceHeights.count)
            for (k, b) in it.bounceHeights.enumerated() { c["\(name).bounce\(k + 1)"] = b }
            if let r = it.restTime { c["\(name).rest_time"] = r }
            c["\(name).x"] = it.x; c["\(name).y"] = it.y; c["\(name).angle"] = it.angle
            c["\(name).vx"] = it.vx; c["\(name).vy"] = it.vy; c["\(name).angular_velocity"] = it.angularVelocity
            for (p, n) in it.contactsByPartner { c["\(name).contacts.\(p)"] = Double(n) }
        }
        return c
    }

    /// A grid sweep over the given axes (last fastest), with replicas; returns the summary and all worlds.
    static func sweep(name: String = "twin-drop", axes: [(String, [Double])], replicas: Int = 4, kind: String = "grid",
                      items: [String] = ["top", "bottom"], seed: UInt64 = 7) -> (SweepSummary, [WorldResult]) {
        var combos: [[Double]] = [[]]
        if kind == "grid" {
            for (_, vals) in axes { combos = combos.flatMap { c in vals.map { c + [$0] } } }
        } else if let n = axes.first?.1.count {
            combos = (0..<n).map { i in axes.map { $0.1[i] } }
        }
        return make(name: name, names: axes.map(\.0), combos: combos, replicas: replicas, kind: kind, items: items, seed: seed)
    }

    static func make(name: String, names: [String], combos: [[Double]], replicas: Int, kind: String,
                     items: [String], seed: UInt64) -> (SweepSummary, [WorldResult]) {
        var rng = Rand(seed)
        var worlds: [WorldResult] = []
        var points: [PointSummary] = []
        for (p, params) in combos.enumerated() {
            let ws = (0..<replicas).map { r in world(worlds.count + r, point: p, replica: r, params: params, names: names, rng: &rng) }
            worlds += ws
            let cols = ws.map { columns($0, items: items) }
            let keys = Set(cols.flatMap(\.keys))
            var metrics: [String: MetricStats] = [:]
            for k in keys { metrics[k] = MetricStats(cols.compactMap { $0[k] }) }
            points.append(PointSummary(point: p, parameters: params, replicas: replicas, failedReplicas: 0, metrics: metrics))
        }
        var run = Self.run
        run.worlds = worlds.count
        let summary = SweepSummary(name: name, description: "two views fall; the bottom one is far more elastic",
                                   parameters: names, items: items, partners: ["top": ["bottom", "ledge"], "bottom": ["ledge", "top"]],
                                   sweepKind: kind, replicas: replicas, points: points, run: run)
        return (summary, worlds)
    }

    static func linspace(_ a: Double, _ b: Double, _ n: Int) -> [Double] {
        (0..<n).map { a + (b - a) * Double($0) / Double(n - 1) }
    }
}
