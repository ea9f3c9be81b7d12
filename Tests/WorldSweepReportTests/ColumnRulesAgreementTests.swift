import Foundation
import Testing
import WorldSweepRun
import WorldSweepResults
@testable import WorldSweepReport

/// The model's lists of columns by rule (the outcomes no world reached, the constant and the noisy
/// metrics) are worked out by key, or without copying the analyses: each must list what the
/// column-by-column rule lists, in the same order, on runs of many items and kinds of metric.
@Suite struct ColumnRulesAgreementTests {
    /// The outcomes no world reached, column by column, as the rule reads (each column's censoring
    /// looked up from its own name).
    static func unreachedColumnByColumn(_ m: ReportModel) -> [String] {
        var tables: [MetricNames] = [], seen = Set<ObjectIdentifier>()
        for p in m.summary.points where seen.insert(ObjectIdentifier(p.metrics.names)).inserted { tables.append(p.metrics.names) }
        var declared: [String] = [], inDeclared = Set<String>()
        for table in tables { for name in table.names where inDeclared.insert(name).inserted { declared.append(name) } }
        let worlds = m.summary.points.reduce(0) { $0 + Censoring.worlds($1) }
        guard worlds > 0 else { return [] }
        var byKey: [(key: String, items: [String])] = []
        for column in declared where m.valuedColumns[column] == nil && Censoring.missing(column, m.metrics) == .runLength {
            let key = Units.metricKey(column)
            guard let item = column.split(separator: ".").first.map(String.init) else { continue }
            if let k = byKey.firstIndex(where: { $0.key == key }) { byKey[k].items.append(item) } else { byKey.append((key, [item])) }
        }
        return byKey.map { key, items in "\(key): " + items.joined(separator: " ") }
    }

    /// The sentences' metric and items, read back from the model's sentences.
    static func unreachedKeys(_ m: ReportModel) -> [String] {
        m.unreachedOutcomes.map { sentence in
            let listed = sentence.components(separatedBy: ": ")[1].components(separatedBy: " ha")[0].components(separatedBy: ", ")
            let key = String(listed[0].split(separator: ".", maxSplits: 1)[1])
            return "\(key): " + listed.map { String($0.split(separator: ".", maxSplits: 1)[0]) }.joined(separator: " ")
        }
    }

    /// `items` items over `points` points of two parameters; per item, which metrics have values is
    /// drawn from `seed` (some items never rest, never settle, never bounce a k-th time), and some
    /// points' tables differ. A written metric censored at the run's length when `written`.
    static func summary(items: Int, points: Int, seed: UInt64, written: Bool) -> SweepSummary {
        var state = seed
        func draw(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        let names = (0..<items).map { "i\($0)" }
        var keys = MetricDeclaration.builtIn.map(\.name)
        var writtenMetrics: [MetricDeclaration] = []
        if written {
            let time = MetricDeclaration(name: "reach_time", unit: "s", kind: .time, field: .restTime, group: "reach", needsRestTarget: false,
                                         censoring: .runLength(never: "never_reach", lacking: "never reached"), isInteger: false,
                                         isTunable: false, view: nil, accumulation: "test", meaning: "test")
            writtenMetrics = [time]
            keys.append(time.name)
        }
        let never = (0..<items).map { _ in (0..<keys.count).map { _ in draw(3) == 0 } }
        let columnsA = names.flatMap { item in keys.map { "\(item).\($0)" } }
        let columnsB = names.reversed().flatMap { item in keys.map { "\(item).\($0)" } } + ["i0.contacts.wall"]
        let tables = [MetricNames(columnsA), MetricNames(columnsB)]
        var built: [PointSummary] = []
        for p in 0..<points {
            let table = tables[p % 3 == 2 ? 1 : 0]
            let slots: [MetricStats?] = table.names.map { column in
                let parts = column.split(separator: ".")
                guard parts.count == 2, let i = names.firstIndex(of: String(parts[0])), let k = keys.firstIndex(of: String(parts[1])) else {
                    return MetricStats(oneValue: 1)
                }
                return never[i][k] ? nil : MetricStats(oneValue: Double(draw(4)))
            }
            built.append(PointSummary(point: p, parameters: [Double(p % 3), Double(p / 3)], replicas: 1, failedReplicas: 0,
                                      metrics: PointMetrics(names: table, slots: slots)))
        }
        var run = RunInfo(engine: "test", threads: 1, worlds: points, ticksPerWorld: 300, wallSeconds: 0.2, worldTicksPerSecond: 1)
        run.seconds = 5
        var s = SweepSummary(name: "columns", description: "", parameters: ["p.a", "p.b"], items: names, partners: ["i0": ["wall"]],
                             sweepKind: "grid", replicas: 1, points: built, run: run)
        s.writtenMetrics = writtenMetrics
        return s
    }

    @Test func theOutcomesNoWorldReachedAreTheColumnByColumnRules() {
        var saidSomething = 0
        for (items, points, written) in [(1, 1, false), (3, 6, false), (40, 1, false), (40, 7, true), (200, 1, true), (7, 12, true)] {
            for seed in 1...3 as ClosedRange<UInt64> {
                let model = ReportModel(summary: Self.summary(items: items, points: points, seed: seed, written: written), sample: WorldSample())
                #expect(Self.unreachedKeys(model) == Self.unreachedColumnByColumn(model), "\(items) items, \(points) points, seed \(seed)")
                saidSomething += model.unreachedOutcomes.isEmpty ? 0 : 1
            }
        }
        #expect(saidSomething >= 10)
    }

    @Test func theConstantAndNoisyMetricsAreTheAnalysesOwn() {
        for (items, points) in [(5, 1), (30, 6), (12, 9)] {
            let model = ReportModel(summary: Self.summary(items: items, points: points, seed: 7, written: false), sample: WorldSample())
            #expect(model.constantMetrics == model.analyses.filter { $0.signal == .constant }.map(\.column))
            let noise = model.analyses.compactMap { a -> String? in if case .noise(let why) = a.signal { return a.column + why }; return nil }
            #expect(model.noiseMetrics.map { $0.0 + $0.1 } == noise)
            #expect(!model.constantMetrics.isEmpty)
        }
    }
}
