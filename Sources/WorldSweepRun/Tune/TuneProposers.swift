import Foundation
import WorldSweepScene

/// Where the next generation looks, in unit coordinates, and what it learns from the last one.
protocol TuneProposer {
    mutating func ask(_ random: inout SearchRandom) -> [[Double]]
    /// `order`: the generation's candidates best first; `scores` in candidate order.
    mutating func tell(order: [Int], scores: [TuneScore], units: [[Double]], random: inout SearchRandom)
    /// True once the proposer has nothing left to learn.
    var finished: Bool { get }
}

/// CMA-ES restarted with a doubled population (IPOP) when it stalls or its spread collapses,
/// from a fresh random mean; gives up after `maxRestarts`.
struct RestartingCMA: TuneProposer {
    let dimension: Int
    private(set) var population: Int
    private var cma: CMAES
    private var bestInRun = Double.infinity
    private var stalled = 0
    private(set) var restarts = 0
    static let maxRestarts = 4
    var finished = false

    /// The first step size of every run, in units of the box.
    let sigma: Double

    init(dimension: Int, population: Int, sigma: Double = 0.3) {
        self.dimension = dimension
        self.population = population
        self.sigma = sigma
        cma = CMAES(mean: Array(repeating: 0.5, count: dimension), sigma: sigma, lambda: population)
    }

    mutating func ask(_ random: inout SearchRandom) -> [[Double]] { cma.ask(&random) }

    /// Evaluates `u` as one of the next generation's samples.
    mutating func inject(_ u: [Double]) { cma.inject(u) }

    mutating func tell(order: [Int], scores: [TuneScore], units: [[Double]], random: inout SearchRandom) {
        cma.tell(order: order)
        let best = scores[order[0]]
        let key = best.violation > 0 ? 1e12 + best.violation : best.primary
        if key < bestInRun - 1e-12 * max(1, abs(bestInRun)) { bestInRun = key; stalled = 0 } else { stalled += 1 }
        let patience = 10 + (30 * dimension) / population
        if cma.spread < 1e-7 || stalled > patience || cma.condition > 1e14 {
            restarts += 1
            if restarts > Self.maxRestarts { finished = true; return }
            population *= 2
            let mean = (0..<dimension).map { _ in random.unit() }
            cma = CMAES(mean: mean, sigma: sigma, lambda: population)
            bestInRun = .infinity
            stalled = 0
        }
    }
}

/// One continuous parameter: each generation evaluates `count` evenly spaced points across the
/// current bracket (its ends too, the first time) and keeps the stretch between the best
/// point's neighbours. With a lone target the crossing is also estimated by linear interpolation
/// between the neighbours that straddle it, and one point goes there.
struct Bracket: TuneProposer {
    let count: Int
    /// Only with a lone target (no objective, no bound): how to read the metric's side of the target.
    let target: Double?
    private var low = 0.0, high = 1.0
    private var first = true
    /// Everything evaluated so far: unit coordinate, score, and the lone target's signed error.
    private var seen: [(u: Double, score: TuneScore, signed: Double?)] = []
    private var pendingSigned: [Double?] = []
    var finished = false

    init(count: Int, target: Double?) { self.count = max(3, count); self.target = target }

    mutating func ask(_ random: inout SearchRandom) -> [[Double]] {
        var points: [Double]
        if first {
            points = (0..<count).map { Double($0) / Double(count - 1) }
        } else {
            points = (1...count).map { low + (high - low) * Double($0) / Double(count + 1) }
            if let crossing = crossing() {
                // The grid point nearest the interpolated crossing moves onto it.
                let nearest = points.indices.min { abs(points[$0] - crossing) < abs(points[$1] - crossing) }!
                points[nearest] = crossing
            }
        }
        return points.map { [$0] }
    }

    /// Feeds the signed target errors of the generation just asked for (see TuneSearch).
    mutating func note(signed: [Double?]) { pendingSigned = signed }

    mutating func tell(order: [Int], scores: [TuneScore], units: [[Double]], random: inout SearchRandom) {
        first = false
        for (k, u) in units.enumerated() { seen.append((u[0], scores[k], k < pendingSigned.count ? pendingSigned[k] : nil)) }
        seen.sort { $0.u < $1.u }
        let scoring = seen.map(\.score)
        let bestIndex = TuneScoring.orderBy(scoring)[0]
        low = bestIndex > 0 ? seen[bestIndex - 1].u : seen[bestIndex].u
        high = bestIndex + 1 < seen.count ? seen[bestIndex + 1].u : seen[bestIndex].u
        if high - low < 1e-9 { finished = true }
    }

    /// Where the metric crosses the target between two neighbours of the bracket, if it does.
    private func crossing() -> Double? {
        guard target != nil else { return nil }
        let inside = seen.filter { $0.u >= low && $0.u <= high }
        for (a, b) in zip(inside, inside.dropFirst()) {
            guard let ea = a.signed, let eb = b.signed, (ea < 0) != (eb < 0), ea != eb else { continue }
            let u = a.u + (b.u - a.u) * ea / (ea - eb)
            if u > low && u < high { return u }
        }
        return nil
    }
}

extension TuneScoring {
    /// Best-first order for scores with at most one objective (violation, then primary).
    static func orderBy(_ scores: [TuneScore]) -> [Int] {
        scores.indices.sorted { a, b in
            let sa = scores[a], sb = scores[b]
            if (sa.violation > 0) != (sb.violation > 0) { return sb.violation > 0 }
            if sa.violation > 0 && sa.violation != sb.violation { return sa.violation < sb.violation }
            if sa.primary != sb.primary { return sa.primary < sb.primary }
            return a < b
        }
    }
}
