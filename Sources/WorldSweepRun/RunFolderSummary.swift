import Foundation
import WorldSweepScene

/// A finished run folder's summary with every point, for readers that need them all (compare):
/// summary.json's point tables, or, for a run of one replica per point (whose summary.json has
/// `"points": null`), each world of worlds.csv and partners.csv as its own point.
public enum RunFolderSummary {
    public static func load(_ folder: String) throws -> SweepSummary {
        let path = "\(folder)/summary.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw RunFileError("\(path): no such file") }
        var summary = try JSONDecoder().decode(SweepSummary.self, from: data)
        guard summary.points.isEmpty, summary.replicas == 1 else { return summary }
        // The layout of worlds.csv comes from the run's copy of its sweep file, with its overrides.
        let scene = try recordedScene(folder)
        let layout = CSVLayout(scene: scene)
        summary.points = try worldsAsPoints(worlds: "\(folder)/worlds.csv", partners: "\(folder)/partners.csv", layout: layout)
        return summary
    }

    /// The sweep file a run folder's rows were made from: its copy (sweep.yaml) with the `--set` and
    /// `--sweep` its run.json records applied again, as the run applied them.
    public static func recordedScene(_ folder: String) throws -> SceneFile {
        let settings = FileManager.default.contents(atPath: "\(folder)/run.json")
            .flatMap { try? JSONDecoder().decode(RunSettings.self, from: $0) }
        return try SceneFile.load(path: "\(folder)/\(SweepRun.sweepCopyName)", overrides: settings?.overrides ?? SceneOverrides())
    }

    /// Every world of worlds.csv (with its partners.csv counts) as a point of one replica.
    static func worldsAsPoints(worlds worldsPath: String, partners partnersPath: String, layout: CSVLayout) throws -> [PointSummary] {
        guard let w = RowReader.LineReader(path: worldsPath) else { throw RunFileError("cannot read \(worldsPath)") }
        guard let header = w.next(), header == layout.header else { throw RunFileError("\(worldsPath): not this run's columns") }
        var results: [WorldResult] = []
        var line = 1
        while let text = w.next() {
            line += 1
            guard let r = layout.parseRow(Substring(text)) else { throw RunFileError("\(worldsPath):\(line):1: error: not a complete row") }
            results.append(r)
        }
        var index: [Int: Int] = [:]
        for (k, r) in results.enumerated() { index[r.world] = k }
        if let p = RowReader.LineReader(path: partnersPath) {
            _ = p.next()
            while let text = p.next() {
                guard let row = layout.parsePartnersRow(Substring(text)), let k = index[row.world] else { continue }
                results[k].items[row.item].contactsByPartner[row.partner] = row.contacts
            }
        }
        return results.map { SummaryBuilder.summarize([$0], layout: layout) }
    }
}
