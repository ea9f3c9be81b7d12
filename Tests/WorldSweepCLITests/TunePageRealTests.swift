import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI

/// The tune page's texts on real searches of the example files (small budgets), read back from
/// report.html and checked against the search's own worlds.csv and tune.json: which bound binds
/// and how many points met it, the points that tie with the answer (their count, their parameters'
/// span, the rule that picked one), what the confirmation confirms, and every number in a
/// sentence written to the digits its rule allows (docs/tune.md, "Numbers on the page").
@Suite struct TunePageRealTests {
    /// A search of `file` (replacements applied) into a fresh folder: its page's sentences (the
    /// answer, the notes, confirmation, sensitivity and the convergence table's "best so far"
    /// cells, unescaped), its worlds.csv rows by column and its tune.json.
    struct Page {
        var sentences: [String]
        var rows: [[String: String]]
        var json: [String: Any]

        init(_ file: String, _ replacements: [(String, String)]) throws {
            let path = try seedFile(file, replacements)
            let out = Scratch.directory("tune-page", create: false)
            _ = WorldSweepCommand.outcome(["tune", path, "--out", out, "--quiet", "--threads", "1"])
            let html = try String(contentsOfFile: "\(out)/report.html", encoding: .utf8)
            // The list items of the page's text, not of its table of contents (links only).
            sentences = Self.texts(html, #"<p class="finding">(.*?)</p>"#) + Self.texts(html, #"<li>([^<].*?)</li>"#)
                + Self.texts(html, #"<td>([^<]*→[^<]*)</td>"#)
            let lines = try String(contentsOfFile: "\(out)/worlds.csv", encoding: .utf8).split(separator: "\n")
            let header = lines[0].split(separator: ",").map(String.init)
            rows = lines.dropFirst().map { line in
                Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
            }
            json = try tuneJSON(out)
        }

        static func texts(_ html: String, _ pattern: String) -> [String] {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
                String(html[Range(m.range(at: 1), in: html)!]).replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            }
        }

        func sentence(containing text: String) -> String? { sentences.first { $0.contains(text) } }

        /// A metric as the search read it: worlds.csv's Float text, widened as the engine widens it.
        func value(_ row: [String: String], _ column: String) -> Double? { row[column].flatMap { Float($0) }.map(Double.init) }

        func best(_ key: String) -> [Double] { ((json["best"] as! [String: Any])[key] as! [Any]).map { ($0 as! NSNumber).doubleValue } }
    }

    /// `text`'s first match of `pattern`: its capture groups.
    static func groups(_ text: String, _ pattern: String) -> [String]? {
        let regex = try! NSRegularExpression(pattern: pattern)
        guard let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (1..<m.numberOfRanges).map { Range(m.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
    }

    /// Every number written after `name ` in the sentences, with what follows the run of numbers
    /// ("0.32 / 0.30 / 0.37 s" gives three numbers and " s").
    static func numbers(after name: String, in sentences: [String]) -> [(text: String, unit: String)] {
        let number = #"-?\d+(?:\.\d+)?"#
        let pattern = NSRegularExpression.escapedPattern(for: name) + " (\(number)(?:(?: / | ± |–)\(number))*)( s| pt)?"
        let regex = try! NSRegularExpression(pattern: pattern)
        return sentences.flatMap { s in
            regex.matches(in: s, range: NSRange(s.startIndex..., in: s)).flatMap { m -> [(text: String, unit: String)] in
                let run = String(s[Range(m.range(at: 1), in: s)!])
                let unit = Range(m.range(at: 2), in: s).map { String(s[$0]) } ?? ""
                return run.components(separatedBy: CharacterSet(charactersIn: "/±–")).map { ($0.trimmingCharacters(in: .whitespaces), unit) }
            }
        }
    }

    static func decimals(_ text: String) -> Int { text.split(separator: ".").dropFirst().first?.count ?? 0 }

    /// Significant digits as written ("0.0765" 3, "4.00" 3, "120" 3).
    static func significant(_ text: String) -> Int {
        let digits = text.filter(\.isNumber).drop { $0 == "0" }
        return digits.count
    }

    /// The settle search (one world a point, nothing jittered): the overshoot bound's line counts
    /// the points that met it and says it does not bind; the tie within one tick is counted,
    /// spanned and its rule said; the confirmation says it repeats the search's world; and every
    /// number follows its rule.
    @Test func settleSearchSaysItsBoundItsTieAndWhatTheConfirmationConfirms() throws {
        let page = try Page("tune-spring-settle.yaml", [("budget: 600", "budget: 120")])
        let rows = page.rows
        #expect(rows.count == 120)
        let overshoot = rows.map { page.value($0, "card.overshoot") }, settle = rows.map { page.value($0, "card.settle_time") }
        let feasible = rows.indices.filter { overshoot[$0].map { $0 <= 3 } ?? false }
        // The bound: met by the rows whose overshoot is at most 3 pt, of every evaluated point.
        let boundLine = try #require(page.sentence(containing: "card.overshoot at most 3 pt"))
        let bound = try #require(Self.groups(boundLine, #"met by (\d+) of (\d+) evaluated points; it (binds|does not bind)"#))
        #expect(Int(bound[0]) == feasible.count && Int(bound[1]) == rows.count, "\(boundLine)")
        // It binds exactly when a point breaking it settles sooner than the answer by more than a tick.
        let answer = page.best("means")[0]
        let breakingBetter = rows.indices.filter { !feasible.contains($0) && (settle[$0].map { $0 < answer - 1.0 / 60 } ?? false) }
        #expect(bound[2] == (breakingBetter.isEmpty ? "does not bind" : "binds"), "\(boundLine)")
        // The tie: the feasible points within one tick of the answer's settle time.
        let tied = feasible.filter { settle[$0].map { abs($0 - answer) <= 1.0 / 60 } ?? false }
        #expect(tied.count > 1, "the search has no tie to test")
        let tieLine = try #require(page.sentence(containing: "within one tick"))
        #expect(tieLine.hasPrefix("\(tied.count) evaluated points meeting every bound have card.settle_time within one tick (0.0167 s"), "\(tieLine)")
        #expect(tieLine.contains("the answer is the one with the lowest mean, the first evaluated on an exact tie"))
        // The answer is that rule's pick: the lowest settle time, the first such point.
        let lowest = tied.min { settle[$0]! < settle[$1]! || (settle[$0]! == settle[$1]! && $0 < $1) }!
        #expect(Int(rows[lowest]["point"]!) == (page.json["best"] as! [String: Any])["point"] as? Int)
        // The span: the tied points' lowest and highest parameter values, each to its digits.
        let span = try #require(Self.groups(tieLine, #"They span spring\.frequency ([\d.]+)–([\d.]+), spring\.damping ([\d.]+)–([\d.]+)"#))
        let frequencies = tied.map { Double(rows[$0]["spring.frequency"]!)! }, dampings = tied.map { Double(rows[$0]["spring.damping"]!)! }
        for (text, value) in zip(span, [frequencies.min()!, frequencies.max()!, dampings.min()!, dampings.max()!]) {
            #expect(abs(Double(text)! - value) <= 0.0051, "\(text) against \(value)")
        }
        let confirmation = try #require(page.sentence(containing: "confirmation"))
        #expect(confirmation.hasPrefix("No jitter: every replica of a point is the same world, so the confirmation repeats the search's world"))
        try Self.checkDigits(page)
    }

    /// Every number after a metric or parameter name, read back: a settle time (one world) to the
    /// tick's two decimals, in s; an overshoot (continuous, no spread) to three significant
    /// digits, in pt; the log-searched frequency (0.5 to 4) to three significant digits of the
    /// range's width at its value (v·ln 8); the damping (0.05 to 1, width 0.95) to three
    /// decimals. And no number in any sentence carries more than three significant digits.
    static func checkDigits(_ page: Page) throws {
        let settle = numbers(after: "card.settle_time", in: page.sentences)
        let overshoot = numbers(after: "card.overshoot", in: page.sentences)
        let frequency = numbers(after: "spring.frequency", in: page.sentences)
        let damping = numbers(after: "spring.damping", in: page.sentences)
        #expect(settle.count >= 8 && overshoot.count >= 8 && frequency.count >= 8 && damping.count >= 8)
        for n in settle {
            #expect(decimals(n.text) == 2 && n.unit == " s", "card.settle_time \(n.text)\(n.unit)")
            let ticks = Double(n.text)! * 60
            #expect(abs(ticks - ticks.rounded()) <= 0.3, "\(n.text) s is no whole number of ticks")
        }
        for n in overshoot { #expect(significant(n.text) == 3 && n.unit == " pt", "card.overshoot \(n.text)\(n.unit)") }
        for n in frequency {
            let v = Double(n.text)!
            let expected = max(0, 2 - Int(floor(log10(v * log(8.0)))))
            #expect(decimals(n.text) == expected && n.unit.isEmpty, "spring.frequency \(n.text)")
        }
        for n in damping { #expect(decimals(n.text) == 3, "spring.damping \(n.text)") }
        // The answer sentence's numbers are tune.json's, rounded to the digits shown.
        let answer = try #require(groups(page.sentences[0], #"spring\.frequency ([\d.]+), spring\.damping ([\d.]+) gives card\.settle_time ([\d.]+) s, card\.overshoot ([\d.]+) pt over one world"#))
        for (text, value) in zip(answer, page.best("values") + page.best("means")) {
            #expect(abs(Double(text)! - value) <= 0.5 * pow(10, -Double(decimals(text))) + 1e-12, "\(text) against \(value)")
        }
        let all = page.sentences.flatMap { s in
            (try! NSRegularExpression(pattern: #"\d+\.\d+"#)).matches(in: s, range: NSRange(s.startIndex..., in: s)).map { String(s[Range($0.range, in: s)!]) }
        }
        for text in all { #expect(significant(text) <= 3, "\(text) has more digits than mean something") }
    }

    /// A tighter overshoot bound (0.02 pt) binds: the points that break it and settle sooner than
    /// the answer by more than a tick are counted, as worlds.csv has them.
    @Test func aTightBoundBindsAndSaysWhatBreakingItWouldReach() throws {
        let page = try Page("tune-spring-settle.yaml", [("budget: 600", "budget: 120"), ("{max: 3}", "{max: 0.02}")])
        let answer = page.best("means")[0]
        let breakingBetter = page.rows.filter { row in
            (page.value(row, "card.overshoot").map { $0 > 0.02 } ?? false) && (page.value(row, "card.settle_time").map { $0 < answer - 1.0 / 60 } ?? false)
        }
        #expect(!breakingBetter.isEmpty, "the bound does not bind in this search")
        let line = try #require(page.sentence(containing: "card.overshoot at most 0.02 pt"))
        let count = breakingBetter.count == 1 ? "1 evaluated point that breaks it reaches" : "\(breakingBetter.count) evaluated points that break it reach"
        #expect(line.contains("; it binds: \(count) a lower card.settle_time than the answer's"), "\(line)")
        let lowest = breakingBetter.compactMap { page.value($0, "card.settle_time") }.min()!
        #expect(line.contains("(as low as \(String(format: "%.2f", lowest)) s)"), "\(line)")
    }

    /// Four jittered replicas a point: the confirmation compares the search's replicas with fresh
    /// jitter draws, each mean and spread to the coarser of the mean's resolution (a tick over four
    /// replicas: three decimals) and the spread's second significant digit.
    @Test func aJitteredSearchConfirmsOnFreshJitterWithItsSpread() throws {
        let page = try Page("tune-spring-settle.yaml", [("budget: 600", "budget: 160"),
                                                         ("tune:\n", "sweep: {replicas: 4, seed: 7, jitter: {card.center: [0, 4]}}\ntune:\n")])
        let confirmation = page.json["confirmation"] as! [String: Any]
        let means = (confirmation["means"] as! [NSNumber]).map(\.doubleValue), stds = (confirmation["stds"] as! [NSNumber]).map(\.doubleValue)
        for (i, metric) in ["card.settle_time", "card.overshoot"].enumerated() {
            let line = try #require(page.sentence(containing: "\(metric): "))
            let parts = try #require(Self.groups(line, #"over the search's 4 jittered replicas, ([\d.]+) ± ([\d.]+) (s|pt) over 4 fresh jitter draws"#), "\(line)")
            let resolution = i == 0 ? 1.0 / 60 / 4 : 0
            let step = max(resolution, stds[i] > 0 ? pow(10, floor(log10(stds[i])) - 1) : 0)
            let places = max(0, -Int(floor(log10(step) + 1e-9)))
            #expect(Self.decimals(parts[0]) == places && Self.decimals(parts[1]) == places, "\(line)")
            #expect(abs(Double(parts[0])! - means[i]) <= 0.5 * pow(10, -Double(places)) + 1e-12)
            #expect(abs(Double(parts[1])! - stds[i]) <= 0.5 * pow(10, -Double(places)) + 1e-12)
        }
        #expect(page.sentences[0].hasSuffix("over 4 jittered replicas."), "\(page.sentences[0])")
    }

    /// The snap-arrival search (a target, a metric the file writes): the points that meet the
    /// target are counted and spanned, the arrival is in seconds (its written unit) to the tick.
    @Test func aTargetSearchSpansThePointsThatMeetIt() throws {
        let page = try Page("tune-snap-arrival.yaml", [])
        let meeting = page.rows.filter { page.value($0, "view.arrival").map { abs($0 - 0.74) <= 0.02 } ?? false }
        let line = try #require(page.sentence(containing: "meet every want"))
        #expect(line.hasPrefix("\(meeting.count) evaluated points meet every want; the answer is the one with the smallest sum of squared target errors"), "\(line)")
        let dampings = meeting.map { Double($0["snap.damping"]!)! }
        let span = try #require(Self.groups(line, #"They span snap\.damping ([\d.]+)–([\d.]+): any of them answers the question"#), "\(line)")
        #expect(abs(Double(span[0])! - dampings.min()!) <= 0.0005 && abs(Double(span[1])! - dampings.max()!) <= 0.0005, "\(line)")
        for n in Self.numbers(after: "view.arrival", in: page.sentences) {
            #expect(Self.decimals(n.text) == 2 && n.unit == " s", "view.arrival \(n.text)\(n.unit)")
        }
        #expect(page.sentence(containing: "confirmation repeats the search's world") != nil)
    }
}
