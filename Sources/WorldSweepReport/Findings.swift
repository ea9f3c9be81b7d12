// What the page says: whether a metric's variation is signal, the shape a parameter gives it
// (monotone, a threshold, a step, a peak) read off its main-effect curve rather than the sign of a
// straight line, and the findings the page leads with, best supported first.
import WorldSweepRun

/// Whether a metric's variation over the points says something about the parameters.
enum MetricSignal: Sendable, Equatable {
    case signal
    /// The same at every point.
    case constant
    /// Varies, but only as noise would; the reason says why it was judged so.
    case noise(String)

    /// Below these ranges over the sweep a metric is treated as not varying (per unit).
    static func floor(unit: String) -> Double {
        switch unit {
        case "pt": 0.5
        case "pt/s": 1
        case "s": 0.02
        case "rad", "rad/s": 0.01
        case "share": 0.02
        default: 0.05   // counts: a mean that moves by less than a twentieth of a contact
        }
    }

    /// Judges a metric from its points (complete form) and its decomposition, when there is one.
    static func classify(_ points: [PointValue], unit: String, decomposition d: VarianceDecomposition?, replicated: Bool) -> MetricSignal {
        let means = points.map(\.mean).filter(\.isFinite)
        guard let lo = means.min(), let hi = means.max(), hi > lo else { return .constant }
        let floor = Self.floor(unit: unit)
        if hi - lo < floor {
            return .noise("its mean moves by less than \(Text.value(floor))\(unit.isEmpty ? "" : " " + unit) over the sweep")
        }
        guard let d else { return .signal }
        if let noise = d.noise, noise >= 0.5 {
            return .noise("\(ReportModel.percent(noise)) of its variation is between the replicas of one point")
        }
        if let r2 = d.rSquared, r2 < 0.25 {
            return .noise("the surrogate fit reproduces \(ReportModel.percent(r2)) of its point means")
        }
        return .signal
    }
}

/// The shape of a metric along one parameter, from its mean at each value (or range).
///
/// The rules, stated once (docs/data.md, "Shape words"):
/// - The dominant trend is the better of the two monotone fits (isotonic regression, rising or
///   falling: the closest curve in that one direction). When no mean departs from it by more
///   than a fifth of the metric's range along the parameter (`wiggle`), the metric rises or falls;
///   a smaller departure is a wiggle and not named.
/// - Otherwise a peak (or dip) is named when the highest (lowest) mean sits inside the range and
///   stands above (below) both ends by more than a fifth of the range; else the metric "varies
///   without one direction".
/// - A threshold (change point): "no effect up to x" where the means up to x spread by at most a
///   twentieth of the range (`tolerance`) and the step from x to the next value is the largest
///   against that spread of any such x, and at least 3 times it (`jump`); "no further effect
///   from x" likewise from the other end.
/// - A step: one step of the fitted trend holding four fifths of the range.
enum Shape {
    /// A departure from the fitted trend, as a share of the range, that counts as a change of
    /// direction (a peak, a dip) rather than a wiggle.
    static let wiggle = 0.2
    /// How far, as a share of the range, the means of a flat run may spread.
    static let tolerance = 0.05
    /// How many times the spread of a flat run's means the step out of it is at least.
    static let jump = 3.0

    /// The best fit to `y` that never falls (`rising`) or never rises: pool adjacent violators.
    static func monotoneFit(_ y: [Double], rising: Bool) -> [Double] {
        var blocks: [(sum: Double, n: Double)] = []
        for v in y {
            blocks.append((rising ? v : -v, 1))
            while blocks.count > 1, blocks[blocks.count - 2].sum / blocks[blocks.count - 2].n > blocks[blocks.count - 1].sum / blocks[blocks.count - 1].n {
                let last = blocks.removeLast()
                blocks[blocks.count - 1].sum += last.sum; blocks[blocks.count - 1].n += last.n
            }
        }
        return blocks.flatMap { b in Array(repeating: (rising ? 1 : -1) * b.sum / b.n, count: Int(b.n)) }
    }

    /// How many leading values stay flat by the change-point rule above (1: none do).
    static func flatRun(_ y: [Double], range: Double) -> Int {
        guard let first = y.first else { return 0 }
        var best = 1, bestRatio = jump
        var lo = first, hi = first
        for k in 1..<max(1, y.count - 1) {
            lo = min(lo, y[k]); hi = max(hi, y[k])
            guard hi - lo <= tolerance * range else { break }
            let step = abs(y[k + 1] - y[k])
            let ratio = step / max(hi - lo, 1e-12 * range)
            if ratio >= bestRatio { best = k + 1; bestRatio = ratio }
        }
        return best
    }

    /// A phrase with values ("rises from 0 pt to 233 pt", "no effect up to 0.6, then falls to
    /// 3 s", "peaks at 0.7 (40 pt; 10 pt at 0, 12 pt at 1.5)") and a short one without them
    /// ("rises", "no effect up to 0.6, then falls", "peaks at 0.7"). `levels`: (parameter value,
    /// mean), sorted by value.
    static func describe(_ levels: [(x: Double, y: Double)], unit: String) -> (long: String, short: String) {
        guard levels.count >= 2, let lo = levels.map(\.y).min(), let hi = levels.map(\.y).max(), hi > lo else { return ("no change", "no change") }
        let range = hi - lo
        let u = unit.isEmpty || unit == "count" || unit == "share" ? "" : " " + unit
        func v(_ y: Double) -> String { unit == "share" ? ReportModel.percent(y) : Text.short(y) + u }
        func x(_ x: Double) -> String { Text.short(x) }
        let ys = levels.map(\.y)
        let first = levels.first!, last = levels.last!
        let up = monotoneFit(ys, rising: true), down = monotoneFit(ys, rising: false)
        func worst(_ fit: [Double]) -> Double { zip(ys, fit).map { abs($0 - $1) }.max() ?? 0 }
        func squares(_ fit: [Double]) -> Double { zip(ys, fit).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) } }
        let rising = squares(up) <= squares(down)
        let trend = rising ? up : down
        // Where the metric starts and stops changing (change points), on the means themselves.
        let flatHead = flatRun(ys, range: range), flatTail = flatRun(Array(ys.reversed()), range: range)
        if worst(trend) <= wiggle * range {
            let verb = rising ? "rises" : "falls"
            // One step of the trend holding most of the change.
            let steps = zip(trend.dropFirst(), trend).map { abs($0 - $1) }
            if levels.count >= 3, let k = steps.indices.max(by: { steps[$0] < steps[$1] }), steps[k] >= 0.8 * range {
                let at = "between \(x(levels[k].x)) and \(x(levels[k + 1].x))"
                return ("steps from \(v(levels[k].y)) to \(v(levels[k + 1].y)) \(at)", "steps \(rising ? "up" : "down") \(at)")
            }
            if flatHead >= 2, flatHead < levels.count - 1 {
                let at = levels[flatHead - 1].x
                let head = "no effect up to \(x(at)), then \(verb)"
                return ("\(head) from \(v(first.y)) to \(v(last.y))", head)
            }
            if flatTail >= 2, flatTail < levels.count - 1 {
                let at = levels[levels.count - flatTail].x
                let head = "\(verb) up to \(x(at)), then no further effect"
                return ("\(verb) from \(v(first.y)) to \(v(last.y)) by \(x(at)), then no further effect", head)
            }
            return ("\(verb) from \(v(first.y)) to \(v(last.y))", verb)
        }
        let top = levels.indices.max { levels[$0].y < levels[$1].y }!
        let bottom = levels.indices.min { levels[$0].y < levels[$1].y }!
        let flat = flatHead >= 2 && flatHead < levels.count - 1 ? flatHead - 1 : nil
        let peak = top > (flat ?? 0) && top < levels.count - 1 && levels[top].y - max(first.y, last.y) > wiggle * range
        let dip = bottom > (flat ?? 0) && bottom < levels.count - 1 && min(first.y, last.y) - levels[bottom].y > wiggle * range
        if let flatTo = flat {
            let head0 = "no effect up to \(x(levels[flatTo].x))"
            if peak {
                let head = "\(head0), then peaks at \(x(levels[top].x))"
                return ("\(head) (\(v(levels[flatTo].y)) up to \(x(levels[flatTo].x)), \(v(levels[top].y)) at the peak, \(v(last.y)) at \(x(last.x)))", head)
            }
            if dip {
                let head = "\(head0), then dips at \(x(levels[bottom].x))"
                return ("\(head) (\(v(levels[flatTo].y)) up to \(x(levels[flatTo].x)), \(v(levels[bottom].y)) at the dip, \(v(last.y)) at \(x(last.x)))", head)
            }
        }
        let ends = "\(v(first.y)) at \(x(first.x)), \(v(last.y)) at \(x(last.x))"
        if peak && (!dip || levels[top].y - max(first.y, last.y) >= min(first.y, last.y) - levels[bottom].y) {
            return ("peaks at \(x(levels[top].x)) (\(v(levels[top].y)); \(ends))", "peaks at \(x(levels[top].x))")
        }
        if dip {
            return ("dips at \(x(levels[bottom].x)) (\(v(levels[bottom].y)); \(ends))", "dips at \(x(levels[bottom].x))")
        }
        return ("varies without one direction (lowest \(v(lo)) at \(x(levels[bottom].x)), highest \(v(hi)) at \(x(levels[top].x)))", "not in one direction")
    }
}

extension ReportModel {
    static func percent(_ share: Double) -> String {
        let p = share * 100
        return p <= 0 ? "0 %" : p < 1 ? "under 1 %" : "\(Int(p.rounded())) %"
    }

    /// The largest single term of a decomposition: a main effect or a pair.
    static func topShare(_ d: VarianceDecomposition) -> Double {
        max(d.ranked.first.flatMap { d.mains[$0] } ?? 0, d.pairs.first?.share ?? 0)
    }

    /// How well a metric's finding is supported, 0…1: the share of its variation its largest term
    /// holds, times the surrogate's fit (R²) where there is one. A time metric whose variation is
    /// mostly (half or more, `censoredShare`) whether worlds got there within the run at all has
    /// none: its mean then says how long the run was more than how long the time takes, and its
    /// never-share speaks for it.
    func support(_ a: MetricAnalysis) -> Double {
        guard let d = a.importance, censoredShare(a.column) < 0.5 else { return 0 }
        return Self.topShare(d) * (d.rSquared ?? 1)
    }

    /// The share of a time metric's variation over the worlds (a time never reached counted as the
    /// run's length) that lies between the worlds that got there and those that never did: by the
    /// law of total variance, p(1 − p)(T − mean reached)² over the whole variance, p the share
    /// that never got there, T the run's length. 0 for metrics without a run-length stand-in.
    func censoredShare(_ column: String) -> Double {
        guard Censoring.missing(column, metrics) == .runLength else { return 0 }
        return tally(column).censoredShare(runSeconds: runSeconds)
    }

    /// The findings to lead with, and per lead the other items' metrics that say the same (same
    /// kind of metric, same strongest parameter, same shape: "b.bounce1 and c.bounce1 alike").
    /// Candidates are well supported (`support` at least a half, and at least half of the
    /// variation explained, not noise or missed by a fit); measured outcomes come first, best
    /// supported first in steps of 5 % (on a tie the metrics the sweeps ask about first: first
    /// bounces, overshoot, then key-metric order); then the never-shares of key time metrics,
    /// which say whether a time is reached within the run and so depend on the run's length. A
    /// never-share and its own time metric never both lead (they say one thing twice).
    var computedHeadlines: (leads: [MetricAnalysis], echoes: [String: [String]]) {
        func score(_ a: MetricAnalysis) -> Int { Int((support(a) * 20).rounded()) }
        func priority(_ a: MetricAnalysis) -> Int {
            let key = Units.metricKey(a.column)
            return headlineMetrics.firstIndex(of: key) ?? (headlineMetrics.count + (keyMetrics.firstIndex(of: key) ?? keyMetrics.count))
        }
        // Last on a tie, the page's own order (item by item), so that the choice is stable.
        func order(_ a: MetricAnalysis) -> Int { keyColumns.firstIndex(of: Censoring.timeColumn(ofNever: a.column, metrics) ?? a.column) ?? Int.max }
        func best(_ list: [MetricAnalysis]) -> [MetricAnalysis] {
            list.filter { support($0) >= 0.5 && $0.importance!.explained >= 0.5 }
                .sorted { (score($0), -priority($0), -order($0)) > (score($1), -priority($1), -order($1)) }
        }
        let measured = rankedMetrics.filter { keyColumns.contains($0.column) }
        let nevers = rankedMetrics.filter { a in Censoring.timeColumn(ofNever: a.column, metrics).map(keyColumns.contains) ?? false }
        var out: [MetricAnalysis] = []
        var echoes: [String: [String]] = [:]
        var said: Set<String> = []
        var shapes: [String: String] = [:]   // kind, parameter and shape of a lead -> its column
        // First what the sweep's description asks, in the order it asks: per metric it names, its
        // best-supported item's finding (whatever its support: the question was asked).
        for key in Self.askedMetrics(summary.description) where out.count < Self.maxHeadlines {
            guard let a = measured.filter({ Units.metricKey($0.column) == key && $0.importance?.ranked.first != nil })
                .max(by: { (support($0), -order($0)) < (support($1), -order($1)) }), !said.contains(a.column) else { continue }
            out.append(a); said.insert(a.column)
            let first = a.importance!.ranked.first!
            shapes["\(key) \(first) \(shape(a.column, first, short: true))"] = a.column
        }
        for a in best(measured) + best(nevers) {
            let subject = Censoring.timeColumn(ofNever: a.column, metrics) ?? a.column
            guard !said.contains(subject) else { continue }
            let first = a.importance!.ranked.first ?? -1
            let seen = "\(Units.metricKey(a.column)) \(first) \(first >= 0 ? shape(a.column, first, short: true) : "")"
            if let lead = shapes[seen] {
                echoes[lead, default: []].append(a.column)
            } else if out.count < Self.maxHeadlines {
                shapes[seen] = a.column
                out.append(a)
            } else { continue }
            said.insert(subject)
        }
        return (out, echoes)
    }

    /// The key metrics a sweep's description asks about, in the order it asks (by the words a
    /// person uses for them: "how far it overshoots", "how often it swings", "when it settles").
    static func askedMetrics(_ description: String) -> [String] {
        let text = description.lowercased()
        let words: [(key: String, stems: [String])] = [
            ("bounce1", ["bounce"]), ("contacts", ["contact", "collid", "collision", "touch"]), ("rest_time", ["rest"]),
            ("overshoot", ["overshoot", "swings past"]), ("settle_time", ["settle"]),
            ("oscillations", ["swings through", "swing through", "how often", "oscillat", "wobble"]),
        ]
        var found: [(at: String.Index, key: String)] = []
        for (key, stems) in words {
            let at = stems.compactMap { stem -> String.Index? in
                // At the start of a word, so that "interest" does not ask about rests.
                var from = text.startIndex
                while let r = text.range(of: stem, range: from..<text.endIndex) {
                    if r.lowerBound == text.startIndex || !text[text.index(before: r.lowerBound)].isLetter { return r.lowerBound }
                    from = r.upperBound
                }
                return nil
            }.min()
            if let at { found.append((at, key)) }
        }
        return found.sorted { $0.at < $1.at }.map(\.key)
    }

    /// A headline as the page says it: its finding, and the metrics that echo it.
    func headlineText(_ a: MetricAnalysis) -> String {
        guard let more = headlineEchoes[a.column], !more.isEmpty else { return finding(a) }
        let list = more.count == 1 ? more[0] : more.dropLast().joined(separator: ", ") + " and " + more.last!
        return finding(a) + " \(list) follow\(more.count == 1 ? "s" : "") the same shape."
    }

    /// The shape of the metric's mean at each value of a parameter (the slice's line).
    func shape(_ column: String, _ j: Int, short: Bool = false) -> String {
        let v = slice(column, j)
        let d = Shape.describe(v.levels.map { ($0.x, $0.mean) }, unit: Units.metric(column, metrics))
        return short ? d.short : d.long
    }

    /// One sentence on a metric: what drives it, the shape it takes, what the pairs add, and what
    /// is left (noise only where replicas measure it).
    func finding(_ a: MetricAnalysis) -> String {
        guard let d = a.importance, let first = d.ranked.first, let s1 = d.mains[first] else { return "" }
        let names = summary.parameters
        var text = a.column
        if let time = Censoring.timeColumn(ofNever: a.column, metrics) {
            text += " (the share of worlds that \(HTMLReport.lacking(time, metrics).replacingOccurrences(of: "in the run", with: "in the \(Text.value(runSeconds)) s run")))"
        }
        text += " against \(names[first]) (\(Self.percent(s1)) of its variation"
        if case .surrogate(let r2, _) = d.method { text += ", by a surrogate fit with R² \(PrintfNumber.fixed(r2, decimals: 2))" }
        text += "): \(shape(a.column, first))"
        let lockstep = varyingParameters.filter { d.mains[$0] == nil }
        if !lockstep.isEmpty {
            text += "; or against " + lockstep.map { names[$0] }.joined(separator: " and ") + ", which move" + (lockstep.count == 1 ? "s" : "")
                + " in lockstep with it: the sweep cannot tell them apart"
        }
        let notable = d.ranked.dropFirst().filter { (d.mains[$0] ?? 0) >= 0.05 }
        if !notable.isEmpty {
            text += "; " + notable.map { "\(names[$0]) \(Self.percent(d.mains[$0]!)) (\(shape(a.column, $0, short: true)))" }.joined(separator: ", ")
        }
        let pairs = d.pairs.filter { $0.share >= 0.05 }
        if !pairs.isEmpty {
            text += "; " + pairs.map { "\(names[$0.a]) × \(names[$0.b]) together \(Self.percent($0.share))" }.joined(separator: ", ")
        }
        if d.higherOrder >= 0.05 { text += "; three or more parameters together \(Self.percent(d.higherOrder))" }
        if d.unfitted >= 0.05 { text += "; \(Self.percent(d.unfitted)) the fit does not capture" }
        if let noise = d.noise, noise >= 0.05 { text += "; noise between replicas \(Self.percent(noise))" }
        if let rule = Censoring.rule(a.column, metrics, runSeconds: runSeconds), let never = neverShare(a.column), never > 0 {
            text += "; \(Self.percent(never)) of the worlds \(HTMLReport.lacking(a.column, metrics)) (\(rule))"
            // When that split is most of the variation, the mean says more about the run's length
            // than about the time: said, as it keeps the metric from leading (`support`).
            let split = censoredShare(a.column)
            if split >= 0.5 { text += ", and whether a world got there at all holds \(Self.percent(split)) of its variation" }
        }
        return text + "."
    }

    /// The share of all (not failed) worlds without a value of a metric worlds can lack.
    func neverShare(_ column: String) -> Double? {
        guard Censoring.missing(column, metrics).countsNever else { return nil }
        return tally(column).neverShare
    }

    /// The column's tally, made once by the model for its metric columns.
    func tally(_ column: String) -> ColumnTally { tallies[column] ?? ColumnTally(summary.points, column) }
}
