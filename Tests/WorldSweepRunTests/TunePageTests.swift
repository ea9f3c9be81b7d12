import Foundation
import Testing
@testable import WorldSweepRun
import WorldSweepScene

/// The tune page's words on a search whose answer ties: a settle time to minimize (resolved to the
/// tick) under an overshoot bound that never binds, with the frequency at the top of its range.
@Suite struct TunePageTests {
    static let tune = TuneSpec(parameters: [TuneParameter(path: "spring.frequency", domain: .range(low: 0.5, high: 4, log: true, integer: false)),
                                            TuneParameter(path: "spring.damping", domain: .range(low: 0.05, high: 1, log: false, integer: false))],
                               wants: [TuneWant(metric: "card.settle_time", kind: .minimize),
                                       TuneWant(metric: "card.overshoot", kind: .bounds(min: nil, max: 3))])

    static func evaluation(_ point: Int, _ f: Double, _ d: Double, settle: Double, overshoot: Double, generation: Int = 0) -> TuneEvaluation {
        TuneEvaluation(generation: generation, point: point, values: [f, d], means: [settle, overshoot], stds: [0, 0], counts: [1, 1],
                       curveError: nil, replicas: 1)
    }

    /// Ten points settle at 0.3 s or one tick later (0.3167 s), one at 0.5 s, one breaks the bound.
    static let evaluations: [TuneEvaluation] = [
        evaluation(0, 1, 0.5, settle: 0.5, overshoot: 2),
        evaluation(1, 4, 0.9, settle: 0.3, overshoot: 0.11, generation: 1),
        evaluation(2, 3.2, 0.7, settle: 0.3, overshoot: 0.2, generation: 1),
        evaluation(3, 4, 0.6, settle: 0.3 + 1.0 / 60, overshoot: 0.5, generation: 2),
        evaluation(4, 2, 0.1, settle: 0.2, overshoot: 9, generation: 2),
    ]

    static func report(jittered: Bool = false, evaluations: [TuneEvaluation] = evaluations) -> TuneReport {
        let outcome = TuneSearch.Outcome(completed: true, evaluations: evaluations, worlds: evaluations.count, generations: 3, stop: "budget")
        var r = TuneReport(tune: tune, outcome: outcome, confirmation: evaluations[1], jittered: jittered)
        r.name = "tune-spring-settle"; r.description = "which frequency and damping settle a spring-hung card soonest?"
        return r
    }

    @Test func tiesWithinTheTickAreSaidWithTheirRangeAndTheRule() throws {
        let r = Self.report()
        #expect(r.best?.point == 1)   // 0.3 s, first evaluated of the exact tie
        let ties = try #require(r.ties())
        #expect(ties.tied.count == 3)   // points 1, 2, 3: the 0.2 s point breaks the overshoot bound
        #expect(ties.ranges.map(\.path) == ["spring.frequency", "spring.damping"])
        #expect(ties.ranges[0].low == 3.2 && ties.ranges[0].high == 4 && ties.ranges[1].low == 0.6 && ties.ranges[1].high == 0.9)
        let sentence = try #require(r.tiesSentence())
        // The answer's 0.3 s to the tick's two decimals; the parameters to three significant
        // digits of their range's width (log frequency at 3.2: 3.2·ln 8 = 6.7 → 0.01; damping
        // 0.95 → 0.001).
        #expect(sentence.hasPrefix("3 evaluated points meeting every bound have card.settle_time within one tick (0.0167 s, what card.settle_time can tell apart) of the answer's 0.30 s"))
        #expect(sentence.contains("the first evaluated on an exact tie"))
        #expect(sentence.contains("spring.frequency 3.20–4.00, spring.damping 0.600–0.900, 2 of them at the high end of spring.frequency's range (4)"))
    }

    /// The overshoot bound binds when a point that breaks it settles sooner than the answer by
    /// more than a tick (point 4: 0.2 s at 9 pt against 0.3 s); without that point it does not.
    @Test func boundsThatBindAndDoNotAreSaid() {
        let lines = Self.report().boundLines
        #expect(lines.contains("spring.frequency sits at the high end of its range (4): a higher value may do better."))
        #expect(lines.contains("card.overshoot at most 3 pt: met by 4 of 5 evaluated points; it binds: 1 evaluated point that breaks it reaches a lower card.settle_time than the answer's 0.30 s (as low as 0.20 s); the answer's 0.110 pt is inside it."))
        let without = Self.report(evaluations: Array(Self.evaluations.prefix(4))).boundLines
        #expect(without.contains("card.overshoot at most 3 pt: met by 4 of 4 evaluated points; it does not bind: no evaluated point that breaks it reaches a lower card.settle_time; the answer's 0.110 pt is inside it."))
    }

    @Test func theConfirmationSaysWhatItConfirms() {
        #expect(Self.report(jittered: false).confirmationLines.first?.hasPrefix("No jitter: every replica of a point is the same world, so the confirmation repeats the search's world") == true)
        #expect(Self.report(jittered: true).confirmationLines.first?.contains("fresh jitter draws") == true)
    }

    @Test func thePageIsTitledByTheProblemWithUnitsLinksAndShortNumbers() {
        let r = Self.report()
        let md = r.markdown
        #expect(md.hasPrefix("# tune-spring-settle: tune\n\nwhich frequency and damping settle a spring-hung card soonest?"))
        #expect(md.contains("[best.yaml](best.yaml)") && md.contains("[worlds.csv](worlds.csv)") && md.contains("[tune.json](tune.json)"))
        #expect(r.numbers.metric(0.113495, "card.overshoot") == "0.113 pt" && r.numbers.metric(0.3, "card.settle_time") == "0.30 s")
        // The convergence keeps the generations that changed the answer: 0 (0.5 s) and 1 (0.3 s);
        // 2 repeats 1 but is the last.
        #expect(r.convergenceChanges.map(\.generation) == [0, 1, 2])
        let html = r.html(figures: "")
        #expect(html.contains("tune-spring-settle: tune") && html.contains("<a href=\"best.yaml\">"))
        // A table of contents of the page's sections, after the heading, each link to its section.
        let figures = "<h2 id=\"search\">The search</h2>\n<h2 id=\"best-world\">The best world</h2>\n"
        let toc = TuneReport.sections(of: r.html(figures: figures).components(separatedBy: "</nav>").last!)
        #expect(toc.map(\.id) == ["confirmation", "convergence", "search", "best-world"])
        #expect(r.html(figures: figures).contains("<nav class=\"toc\" id=\"toc\"><ul>\n<li><a href=\"#confirmation\">Confirmation</a>"))
    }
}
