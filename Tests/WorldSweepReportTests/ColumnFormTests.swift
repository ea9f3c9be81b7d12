import Testing
import WorldSweepRun
import WorldSweepResults
@testable import WorldSweepReport

// The report's metric columns, listed with their forms and units from each key's answer worked
// out once (`Censoring.KeyForm`): the same columns, in the same order, with the same forms and
// units as each column's own name gives (`Censoring.ColumnForm(column, metrics)`).
@Suite struct ColumnFormTests {
    /// One point of one world with a value in every `declared` column.
    static func summary(declared: [String], partners: [String: [String]], written: [MetricDeclaration]) -> SweepSummary {
        let names = MetricNames(declared)
        let point = PointSummary(point: 0, parameters: [], replicas: 1, failedReplicas: 0,
                                 metrics: PointMetrics(names: names, slots: declared.map { _ in MetricStats(oneValue: 1) }))
        var s = SweepSummary(name: "forms", description: "", parameters: [], items: ["box", "lid"], partners: partners,
                             sweepKind: "grid", replicas: 1, points: [point],
                             run: RunInfo(engine: "test", threads: 1, worlds: 1, ticksPerWorld: 60, wallSeconds: 0.1, worldTicksPerSecond: 1))
        s.writtenMetrics = written
        return s
    }

    /// A written time metric with a never-share (`never_cross`) and a written state metric.
    static let written = [
        MetricDeclaration(name: "cross_time", unit: "s", kind: .time, field: .written(index: 0), group: "measure", needsRestTarget: false,
                          censoring: .runLength(never: "never_cross", lacking: "never crossed in the run"), isInteger: false,
                          isTunable: true, view: nil, accumulation: "written", meaning: "first crossing"),
        MetricDeclaration(name: "peak", unit: "pt", kind: .state, field: .written(index: 1), group: "measure", needsRestTarget: false,
                          censoring: .none, isInteger: false, isTunable: true, view: nil, accumulation: "written", meaning: "highest"),
    ]

    static func check(_ s: SweepSummary, expected: [String]) {
        let metrics = s.metricCatalog
        let forms = ReportModel.metricForms(s, present: MetricTable.names(of: s.points))
        #expect(forms.map(\.form.column) == expected)
        for f in forms {
            let own = Censoring.ColumnForm(f.form.column, metrics)
            #expect(f.form.timeColumn == own.form.timeColumn && f.form.missing == own.form.missing && f.unit == own.unit,
                    "\(f.form.column)")
        }
    }

    @Test func keyFormsGiveEachColumnItsOwnForm() throws {
        // Built-in keys only: the partner columns take the partner key's form.
        let declared = ["lid.contacts.box", "box.x", "box.contacts", "box.rest_time", "box.contacts.wall", "box.contacts.lid",
                        "lid.contacts", "lid.rest_time", "zzz.extra"]
        let plain = Self.summary(declared: declared, partners: ["box": ["lid", "wall"], "lid": ["box"]], written: [])
        // Item order, the contract's key order (each never-share after its time), partners, then
        // the rest sorted.
        Self.check(plain, expected: ["box.contacts", "box.rest_time", "box.never_rest", "box.x", "box.contacts.lid", "box.contacts.wall",
                                     "lid.contacts", "lid.rest_time", "lid.never_rest", "lid.contacts.box", "zzz.extra"])
        // With written metrics, their columns after the built-in ones, a written time with its
        // never-share.
        let measured = Self.summary(declared: declared + ["box.peak", "box.cross_time"], partners: ["box": ["lid", "wall"], "lid": ["box"]],
                                    written: Self.written)
        Self.check(measured, expected: ["box.contacts", "box.rest_time", "box.never_rest", "box.x", "box.cross_time", "box.never_cross",
                                        "box.peak", "box.contacts.lid", "box.contacts.wall",
                                        "lid.contacts", "lid.rest_time", "lid.never_rest", "lid.contacts.box", "zzz.extra"])
        // By hand: a never-share reads its time column and is a share; a partner never touched
        // counts as 0 contacts; a time never reached counts as the run's length.
        let forms = ReportModel.metricForms(measured, present: MetricTable.names(of: measured.points))
        func form(_ c: String) throws -> Censoring.ColumnForm { try #require(forms.first { $0.form.column == c }) }
        #expect(try form("box.never_cross").form.timeColumn == "box.cross_time" && form("box.never_cross").unit == "share")
        #expect(try form("box.never_rest").form.timeColumn == "box.rest_time")
        #expect(try form("box.contacts.wall").form.missing == .noContact && form("box.contacts.wall").unit == "count")
        #expect(try form("box.cross_time").form.missing == .runLength && form("box.cross_time").unit == "s")
        #expect(try form("box.peak").form.missing == Censoring.Missing.none && form("box.peak").unit == "pt")
    }
}
