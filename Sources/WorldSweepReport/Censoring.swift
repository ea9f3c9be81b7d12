// Outcomes that never happen are data. A world that never comes to rest (or never settles) within
// the run took longer than the run: its time is censored at the run's length, and the share of
// worlds that never got there is a metric of its own (`ITEM.never_rest`, `ITEM.never_settle`). A
// world that never bounced (a k-th time) bounced to height 0. The report analyses these complete
// forms, so no mean is drawn from the worlds that happened to have a value as if they were all.
import WorldSweepRun

enum Censoring {
    /// What a world without a value of a metric counts as.
    enum Missing: Equatable {
        /// A time that did not happen within the run: the run's length.
        case runLength
        /// A bounce that did not happen: height 0.
        case zero
        /// A partner an item never touched (`ITEM.contacts.PARTNER`, no row in partners.csv): 0
        /// contacts, as docs/data.md states for the CSV files. Not an outcome that failed to
        /// happen, so no never-share is kept for it.
        case noContact
        /// Every world has a value (positions, counts …).
        case none

        /// Whether the share of worlds without a value is an outcome of its own, said beside the
        /// metric (a bounce or a time never reached; not a partner never touched).
        var countsNever: Bool { self == .zero || self == .runLength }
    }

    /// Which metrics a world can lack is the run's rule (`PointsCSV.canBeMissing`, what points.csv
    /// counts; partners.csv, which lists only pairs that touched); what a missing value means is
    /// the report's.
    static func missing(_ column: String, _ metrics: MetricCatalog) -> Missing {
        guard let (_, key) = split(column) else { return .none }
        // `ITEM.contacts.PARTNER`: an item's contacts with one partner.
        if key.utf8.starts(with: "contacts.".utf8) { return .noContact }
        guard let declared = metrics.named(key) else { return .none }
        switch declared.censoring {
        case .zero: return .zero
        case .runLength: return .runLength
        // A value over a window that never opened is left out, as a point's statistics leave it out.
        case .none, .empty: return .none
        }
    }

    /// `ITEM.KEY` as its item and its key (everything after the first dot), or nil without a dot.
    /// Found on the bytes (names are ASCII): the report asks this of every column several times.
    static func split(_ column: String) -> (item: Substring, key: Substring)? {
        let utf8 = column.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        return (column[..<dot], column[utf8.index(after: dot)...])
    }

    /// The never-share metric of a time metric (`top.rest_time` → `top.never_rest`), or nil.
    static func neverColumn(_ column: String, _ metrics: MetricCatalog) -> String? {
        guard missing(column, metrics) == .runLength, let (item, key) = split(column),
              let never = metrics.named(key)?.censoring.neverKey else { return nil }
        return item + "." + never
    }

    /// The time metric a never-share metric counts (`top.never_rest` → `top.rest_time`), or nil.
    static func timeColumn(ofNever column: String, _ metrics: MetricCatalog) -> String? {
        guard let (item, key) = split(column), let time = metrics.counted(byNever: key) else { return nil }
        return item + "." + time.name
    }

    /// How stated on the page.
    static func rule(_ column: String, _ metrics: MetricCatalog, runSeconds: Double) -> String? {
        switch missing(column, metrics) {
        case .runLength: "a world that never got there counts as \(Text.value(runSeconds)) s, the run's length"
        case .zero: "a world that never bounced counts as height 0"
        case .noContact: "a world that never touched \(column.split(separator: ".", maxSplits: 2).last.map(String.init) ?? column) counts as 0 contacts"
        case .none: nil
        }
    }

    /// Worlds of a point that did not fail.
    static func worlds(_ p: PointSummary) -> Int { p.replicas - p.failedReplicas }

    /// The share of a point's worlds without a value of a metric that can be missing (0 when all
    /// have one); nil when every world failed.
    static func neverShare(_ p: PointSummary, _ column: String) -> Double? {
        neverShare(p, stats: p.metrics[column])
    }

    /// `neverShare` from the point's statistics of the column, looked up already.
    static func neverShare(_ p: PointSummary, stats: MetricStats?) -> Double? {
        neverShare(worlds: worlds(p), stats: stats)
    }

    /// `neverShare` of a point with `n` worlds that ran (`worlds`).
    static func neverShare(worlds n: Int, stats: MetricStats?) -> Double? {
        guard n > 0 else { return nil }
        return Double(n - (stats?.count ?? 0)) / Double(n)
    }

    /// What `value` needs to know of a column, worked out once per column: the views and the
    /// analyses ask for every point, and reading the rule from the name each time would cost
    /// more than the values it gives.
    struct Form {
        let column: String
        /// For a never-share column, the time column whose missing values it counts.
        let timeColumn: String?
        let missing: Missing
        init(_ column: String, _ metrics: MetricCatalog) {
            self.column = column
            timeColumn = Censoring.timeColumn(ofNever: column, metrics)
            missing = Censoring.missing(column, metrics)
        }

        init(column: String, timeColumn: String?, missing: Missing) {
            self.column = column; self.timeColumn = timeColumn; self.missing = missing
        }
    }

    /// A column's form and unit (`Units.metric`).
    struct ColumnForm {
        let form: Form
        let unit: String

        /// Worked out from the column's name.
        init(_ column: String, _ metrics: MetricCatalog) {
            form = Form(column, metrics)
            unit = Units.metric(column, metrics)
        }

        init(form: Form, unit: String) { self.form = form; self.unit = unit }
    }

    /// What a column's form and unit read of its name: the key after the item's dot alone. So a
    /// key's answer, worked out once, serves every item's column of it (a big world has thousands
    /// of columns of a few keys, and each answer looks the key up in the catalog).
    struct KeyForm {
        let missing: Missing
        /// The time metric's key that a never-share key counts.
        let timeKey: String?
        let unit: String
        /// The never-share key of a time that can be missed (`neverColumn`).
        let neverKey: String?

        init(key: String, _ metrics: MetricCatalog) {
            let column = "_." + key
            missing = Censoring.missing(column, metrics)
            timeKey = metrics.counted(byNever: key)?.name
            unit = Units.metric(column, metrics)
            neverKey = Censoring.neverColumn(column, metrics).map { String($0.dropFirst(2)) }
        }

        /// The form of item `prefix`'s column (`prefix`: the item's name and its dot; a name
        /// without a dot of its own, so that the key is all that follows it).
        func column(_ column: String, prefix: String) -> ColumnForm {
            ColumnForm(form: Form(column: column, timeColumn: timeKey.map { prefix + $0 }, missing: missing), unit: unit)
        }
    }

    /// The point's complete form of a metric (missing values counted as the rule says), or of a
    /// never-share metric; nil when no world of the point has one.
    static func value(_ p: PointSummary, _ column: String, _ metrics: MetricCatalog, runSeconds: Double) -> PointValue? {
        value(p, Form(column, metrics), runSeconds: runSeconds)
    }

    static func value(_ p: PointSummary, _ form: Form, runSeconds: Double) -> PointValue? {
        value(p, form, stats: p.metrics[readColumn(form)], runSeconds: runSeconds)
    }

    /// The column the form reads of a point: a never-share's time column, else its own.
    static func readColumn(_ form: Form) -> String { form.timeColumn ?? form.column }

    /// `value` from the point's statistics of `readColumn(form)`, looked up already (a report
    /// reads each point's column once for the value, its never-share and the column's tally).
    static func value(_ p: PointSummary, _ form: Form, stats: MetricStats?, runSeconds: Double) -> PointValue? {
        value(parameters: p.parameters, worlds: worlds(p), form, stats: stats, runSeconds: runSeconds)
    }

    /// `value` of a point with these parameters and `n` worlds that ran (`worlds`).
    static func value(parameters: [Double], worlds n: Int, _ form: Form, stats: MetricStats?, runSeconds: Double) -> PointValue? {
        guard n > 0 else { return nil }
        if form.timeColumn != nil {
            let share = Double(n - (stats?.count ?? 0)) / Double(n)
            return PointValue(parameters: parameters, mean: share, variance: share * (1 - share), worlds: n)
        }
        let filler: Double
        switch form.missing {
        case .none:
            guard let stats else { return nil }
            return PointValue(parameters: parameters, mean: stats.mean, variance: population(stats), worlds: stats.count)
        case .runLength: filler = runSeconds
        case .zero, .noContact: filler = 0
        }
        return combine(stats, with: filler, worlds: n).map { PointValue(parameters: parameters, mean: $0.mean, variance: $0.variance, worlds: n) }
    }

    /// Mean and population variance of the values `stats` describes plus (worlds − count) copies of
    /// `filler`.
    static func combine(_ stats: MetricStats?, with filler: Double, worlds n: Int) -> (mean: Double, variance: Double)? {
        guard n > 0 else { return nil }
        let c = min(n, stats?.count ?? 0)
        let m = stats?.mean ?? 0
        let mean = (Double(c) * m + Double(n - c) * filler) / Double(n)
        let inside = stats.map { population($0) * Double(c) } ?? 0
        let ss = inside + Double(c) * (m - mean) * (m - mean) + Double(n - c) * (filler - mean) * (filler - mean)
        return (mean, ss / Double(n))
    }

    /// Variance over the values (divided by their count, not count − 1).
    static func population(_ s: MetricStats) -> Double {
        s.count > 1 ? s.std * s.std * Double(s.count - 1) / Double(s.count) : 0
    }
}
