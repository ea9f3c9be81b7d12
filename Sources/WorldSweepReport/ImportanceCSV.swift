// importance.csv: the variance decomposition behind the report's findings, as data to check and
// reuse. One row per metric and term, `metric,term,kind,share`: kind is `main` (one parameter),
// `pair` (two together), `higher` (three or more together, only on a full grid of three or more varying parameters), `unfitted` (what a surrogate fit does
// not capture; random and zip sweeps only) or `noise` (between replicas; only when the sweep has
// them). A metric's shares add to 1. Metrics are in the report's column order (with the
// never-share metrics `ITEM.never_rest`, `ITEM.never_settle`); a metric that could not be split
// (constant, too few points) has no rows.
import WorldSweepRun

enum ImportanceCSV {
    static let fileName = "importance.csv"
    static let header = "metric,term,kind,share"

    static func render(_ m: ReportModel) -> String {
        var out = header + "\n"
        let names = m.summary.parameters
        for a in m.analyses {
            guard let d = a.importance else { continue }
            func row(_ term: String, _ kind: String, _ share: Double) {
                out += "\(a.column),\(quoted(term)),\(kind),\(NumberText.double(share))\n"
            }
            for (j, s) in d.mains.enumerated() { if let s { row(names[j], "main", s) } }
            for p in d.pairs { row("\(names[p.a]) x \(names[p.b])", "pair", p.share) }
            if d.hasHigherOrder { row("higher order", "higher", d.higherOrder) }
            if case .surrogate = d.method { row("not captured by the fit", "unfitted", d.unfitted) }
            if let noise = d.noise { row("noise", "noise", noise) }
        }
        return out
    }

    static func quoted(_ s: String) -> String {
        s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
}
