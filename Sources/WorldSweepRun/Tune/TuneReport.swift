import Foundation
import WorldSweepResults
import WorldSweepScene

/// The files a finished search leaves beside worlds.csv: best.yaml, pareto.csv (several
/// objectives), tune.json (the answer, the confirmation, per-generation convergence) and a short
/// report page, Markdown and HTML, that leads with the answer in one sentence.
public struct TuneReport {
    public let tune: TuneSpec
    public let outcome: TuneSearch.Outcome
    public let best: TuneEvaluation?
    /// The best point over fresh replicas (fresh jitter draws), beside the search's estimate.
    public let confirmation: TuneEvaluation?
    public let jittered: Bool
    public let scoring: TuneScoring
    /// Per parameter, the best point with that parameter moved a step down and up (see `probes`),
    /// on the search's replicas: how sensitive the answer is.
    public let sensitivity: [TuneEvaluation]
    /// The file's name and description (what the page is titled by) and its tick length (what a
    /// time metric can tell apart); set by the caller that has the scene.
    public var name = "tune"
    public var description = ""
    public var tick = 1.0 / 60
    /// The file's metrics, built-in and written (their units and kinds); set by the caller.
    public var catalog = MetricCatalog.builtIn

    /// How the page writes its numbers.
    public var numbers: TuneNumbers { TuneNumbers(tune: tune, catalog: catalog, tick: tick) }

    public init(tune: TuneSpec, outcome: TuneSearch.Outcome, confirmation: TuneEvaluation?, jittered: Bool,
                sensitivity: [TuneEvaluation] = []) {
        self.tune = tune
        self.sensitivity = sensitivity
        self.outcome = outcome
        scoring = TuneScoring(tune: tune)
        best = TuneResult.best(outcome.evaluations, scoring: scoring)
        self.confirmation = confirmation
        self.jittered = jittered
    }

    public var met: Bool { best.map { scoring.score($0).met } ?? false }
    public var unmet: [String] { TuneResult.unmetTargets(outcome.evaluations, numbers: numbers) }
    public var conflicts: [String] { TuneResult.conflicts(outcome.evaluations, numbers: numbers) }

    /// "bouncy.elasticity 0.515 gives card.bounce1 99.9 ± 2.8 pt over 16 jittered replicas": each
    /// number to the digits that mean something (TuneNumbers).
    public var sentence: String {
        guard let best else { return "no point was evaluated (the budget is smaller than one generation)" }
        let shown = confirmation ?? best
        let spreadMeans = jittered && shown.replicas > 1
        var wants = tune.wants.enumerated().map { i, w -> String in
            guard let m = shown.means[i] else { return "no \(w.metric)" }
            return "\(w.metric) " + (spreadMeans ? numbers.metricWithSpread(m, w.metric, replicas: shown.replicas, spread: shown.stds[i])
                                                 : numbers.metric(m, w.metric, replicas: shown.replicas, spread: shown.stds[i]))
        }
        if let c = shown.curveError { wants.append("a curve within \(TuneNumbers.text(c, step: 0)) pt rms") }
        let over = shown.replicas == 1 ? "one world" : "\(shown.replicas) \(jittered ? "jittered replicas" : "replicas (one world: nothing is jittered)")"
        var s = numbers.values(best.values) + " gives " + wants.joined(separator: ", ") + " over \(over)"
        if !met { s += " — the closest found; it does not meet every want" }
        return s
    }

    /// `fileText`: the file as read; `overrides` (--set, --sweep) follow best.yaml's text as comments, as in sweep.yaml.
    /// `figures`: HTML for the page's pictures (the report module draws them; see TuneCharts).
    public func write(to directory: String, fileText: String, overrides: SceneOverrides = SceneOverrides(),
                      figures: String = "") throws {
        if let best {
            guard let text = TuneResult.bestFile(fileText, tune: tune, values: best.values) else {
                throw RunInputError("\(directory)/best.yaml: the found values cannot be written into the file's text")
            }
            try AtomicFile.write(SweepRun.sweepCopy(Data(text.utf8), overrides: overrides), to: "\(directory)/best.yaml")
        }
        if tune.objectiveCount >= 2 {
            var csv = (["point", "generation"] + tune.parameters.map(\.path) + objectiveNames).joined(separator: ",") + "\n"
            for e in TuneResult.paretoFront(outcome.evaluations, scoring: scoring) {
                let objectives = scoring.score(e).objectives.enumerated().map { k, v in objectiveSigns[k] * v }
                csv += ([String(e.point), String(e.generation)] + (e.values + objectives).map { "\($0)" }).joined(separator: ",") + "\n"
            }
            try AtomicFile.write(csv, to: "\(directory)/pareto.csv")
        }
        try AtomicFile.write(try JSONText.encode(summary), to: "\(directory)/tune.json")
        try AtomicFile.write(markdown, to: "\(directory)/report.md")
        try AtomicFile.write(html(figures: figures), to: "\(directory)/report.html")
    }

    /// The objectives' column names, in score order (pareto.csv's last columns).
    public var objectiveNames: [String] {
        tune.wants.compactMap { w -> String? in
            switch w.kind { case .minimize, .maximize: w.metric; default: nil }
        } + (tune.curve == nil ? [] : ["curve_rms"])
    }

    /// +1 for minimized columns, −1 for maximized ones (the score negates them).
    public var objectiveSigns: [Double] {
        tune.wants.compactMap { w -> Double? in
            switch w.kind { case .minimize: 1; case .maximize: -1; default: nil }
        } + (tune.curve == nil ? [] : [1])
    }

    struct Summary: Codable {
        var answer: String
        var met: Bool
        var stop: String
        var worlds: Int
        var generations: Int
        var best: TuneEvaluation?
        var confirmation: TuneEvaluation?
        var unmetTargets: [String]
        var conflicts: [String]
        var sensitivity: [String]
        /// Per generation: the best score so far (lower is better; violation first).
        var convergence: [Convergence]
    }

    struct Convergence: Codable {
        var generation: Int
        var worlds: Int
        var best: String
        var met: Bool
    }

    var convergence: [Convergence] {
        var rows: [Convergence] = []
        var seen: [TuneEvaluation] = []
        for g in 0..<outcome.generations {
            seen += outcome.evaluations.filter { $0.generation == g }
            guard let b = TuneResult.best(seen, scoring: scoring) else { continue }
            rows.append(Convergence(generation: g, worlds: seen.reduce(0) { $0 + $1.replicas },
                                    best: numbers.values(b.values) + " → " + numbers.metrics(b),
                                    met: scoring.score(b).met))
        }
        return rows
    }

    var summary: Summary {
        Summary(answer: sentence, met: met, stop: outcome.stop, worlds: outcome.worlds, generations: outcome.generations,
                best: best, confirmation: confirmation, unmetTargets: unmet, conflicts: conflicts,
                sensitivity: sensitivityLines, convergence: convergence)
    }

    /// Per parameter two points: the best with that parameter a step down and a step up (2 % of
    /// a range, ±1 for an integer, the neighbouring choices), within its range.
    public static func probes(around values: [Double], tune: TuneSpec) -> [[Double]] {
        var points: [[Double]] = []
        for (k, p) in tune.parameters.enumerated() {
            var steps: [Double]
            switch p.domain {
            case let .range(low, high, _, integer):
                if integer {
                    steps = [max(low, values[k] - 1), min(high, values[k] + 1)]
                } else {
                    let u = p.unit(of: values[k])
                    steps = [p.value(atUnit: u - 0.02), p.value(atUnit: u + 0.02)]
                }
            case .choice(let list):
                let i = list.firstIndex(of: values[k]) ?? 0
                steps = [list[max(0, i - 1)], list[min(list.count - 1, i + 1)]]
            }
            for v in steps { var point = values; point[k] = v; points.append(point) }
        }
        return points
    }

    var sensitivityLines: [String] {
        guard let best, sensitivity.count == 2 * tune.parameters.count else { return [] }
        let n = numbers
        var lines: [String] = []
        for (k, p) in tune.parameters.enumerated() {
            let down = sensitivity[2 * k], up = sensitivity[2 * k + 1], three = [down, best, up]
            var parts: [String] = []
            for (i, w) in tune.wants.enumerated() {
                // The three means to one step, the coarsest of theirs, so that they read as a row.
                let step = three.map { TuneNumbers.step(resolution: n.resolution(w.metric, replicas: $0.replicas), spread: $0.stds[i]) }.max()!
                let text = three.map { $0.means[i].map { TuneNumbers.text($0, step: step) } ?? "none" }.joined(separator: " / ")
                var part = "\(w.metric) " + n.withUnit(text, w.metric)
                if case let .target(_, within) = w.kind, let a = down.means[i], let b = up.means[i], up.values[k] != down.values[k] {
                    let slope = (b - a) / (up.values[k] - down.values[k])
                    if slope != 0 {
                        let keeps = TuneNumbers.text(within / abs(slope), step: n.parameterStep(k, at: best.values[k]))
                        part += " (±\(keeps) in \(p.path) keeps ±\(n.given(within, w.metric)))"
                    }
                }
                parts.append(part)
            }
            if let a = down.curveError, let b = best.curveError, let c = up.curveError {
                parts.append("curve rms \([a, b, c].map { TuneNumbers.text($0, step: 0) }.joined(separator: " / ")) pt")
            }
            lines.append("\(p.path) " + three.map { n.value($0.values[k], parameter: k) }.joined(separator: " / ") + ": " + parts.joined(separator: "; "))
        }
        return lines
    }

    /// "Searched 592 worlds in 39 generations (stopped: budget)."
    var searched: String {
        "Searched \(TuneNumbers.count(outcome.worlds, "world")) in \(TuneNumbers.count(outcome.generations, "generation")) (stopped: \(outcome.stop))."
    }

    /// The page's lines under the answer: unmet wants and conflicts, ties, bounds that bind.
    var answerNotes: [String] { unmet + conflicts + [tiesSentence()].compactMap { $0 } + boundLines }

    var markdown: String {
        var s = "# \(name): tune\n\n" + (description.isEmpty ? "" : "\(description)\n\n") + "**\(sentence).**\n\n"
        s += searched + "\n\n"
        for line in answerNotes { s += "- \(line)\n" }
        if !answerNotes.isEmpty { s += "\n" }
        if !confirmationLines.isEmpty {
            s += "## Confirmation\n\n" + confirmationLines.map { "- \($0)\n" }.joined() + "\n"
        }
        if !sensitivityLines.isEmpty {
            s += "## Sensitivity (each parameter a step down / the answer / a step up, on the search's replicas)\n\n"
                + sensitivityLines.map { "- \($0)\n" }.joined() + "\n"
        }
        s += "## Convergence\n\nThe generations at which the best so far changed (and the last).\n\n| generation | worlds | best so far | met |\n|---:|---:|---|---|\n"
        for c in convergenceChanges { s += "| \(c.generation) | \(c.worlds) | \(c.best) | \(c.met ? "yes" : "no") |\n" }
        s += "\nFiles: [best.yaml](best.yaml) (the file with the found values), [worlds.csv](worlds.csv) (every evaluated world, with its generation), [tune.json](tune.json) (the answer, confirmation and convergence as data)"
        s += tune.objectiveCount >= 2 ? ", [pareto.csv](pareto.csv) (the Pareto front).\n" : ".\n"
        return s
    }

    /// report.html on the one page shell: titled by the problem and its description; the answer,
    /// what was unmet or in conflict, ties and binding bounds; links to the files; the search's
    /// charts (`figures`' first part); what the confirmation confirms; the sensitivity; the
    /// generations that changed the answer; then the rest of `figures`.
    func html(figures: String) -> String {
        let head = "<h1>\(HTML.escape(name)): tune</h1>\n" + (description.isEmpty ? "" : "<p class=\"desc\">\(HTML.escape(description))</p>\n")
        var s = "<p class=\"finding\">\(HTML.escape(sentence)).</p>\n"
        s += HTML.note(searched)
        if !answerNotes.isEmpty { s += "<ul>\n" + answerNotes.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n" }
        s += "<p>Files: <a href=\"best.yaml\">best.yaml</a> (the file with the found values) · <a href=\"worlds.csv\">worlds.csv</a> (every evaluated world) · <a href=\"tune.json\">tune.json</a> (the answer, confirmation and convergence as data)"
            + (tune.objectiveCount >= 2 ? " · <a href=\"pareto.csv\">pareto.csv</a> (the Pareto front)" : "") + "</p>\n"
        if !confirmationLines.isEmpty {
            s += "<h2 id=\"confirmation\">Confirmation</h2>\n<ul>\n" + confirmationLines.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        if !sensitivityLines.isEmpty {
            s += "<h2 id=\"sensitivity\">Sensitivity</h2>\n" + HTML.note("Each parameter a step down / the answer / a step up, on the search's replicas.")
                + "<ul>\n" + sensitivityLines.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        s += "<h2 id=\"convergence\">Convergence</h2>\n" + HTML.note("The generations at which the best so far changed (and the last).")
        s += HTML.table(["generation", "worlds", "best so far", "met"], convergenceChanges.map { c in
            HTML.row(["\(c.generation)", "\(c.worlds)", c.best, c.met ? "yes" : "no"], numeric: [0, 1])
        })
        let body = s + figures
        return HTML.page(title: description.isEmpty ? "\(name): tune" : "\(name): tune — \(description)",
                         body: head + HTML.toc(Self.sections(of: body)) + body)
    }

    /// The table of contents: every `<h2 id=…>` of the page's body, in order.
    static func sections(of body: String) -> [HTML.TOCEntry] {
        body.components(separatedBy: "<h2 id=\"").dropFirst().compactMap { piece in
            guard let quote = piece.firstIndex(of: "\""), let open = piece.firstIndex(of: ">"),
                  let close = piece.range(of: "</h2>") else { return nil }
            return HTML.TOCEntry(id: String(piece[..<quote]), title: String(piece[piece.index(after: open)..<close.lowerBound]))
        }
    }
}
