import ArgumentParser
import Foundation
import WorldSweepReport
import WorldSweepRun
import WorldSweepScene

/// `worldsweep compare RUN_A RUN_B`: the differences between two finished runs, point by point.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two finished runs point by point: A, B, B−A and the relative difference of every metric.",
        usage: "worldsweep compare <run-a> <run-b> [<options>]",
        discussion: """
            Reads each run folder's summary.json and matches points by their parameter values: a \
            parameter only one run sweeps takes, in the other, the value its sweep.yaml gives it. \
            Compares the means over each point's replicas. Differences are ranked by |B − A| over \
            the metric's spread (its max − min over both runs' points), so a velocity of a body at \
            rest going from 4e-17 to -6e-7 ranks low; the relative difference (B − A) / |A| is \
            left out where |A| < 1e-4. When the runs ran different scenes or sweep files, says so \
            and shows the lines their sweep.yaml files differ in (overrides included). Prints what \
            matched, the metrics that differ and the largest differences; writes compare.md, \
            compare.html (offline) and compare.csv (every matched point and metric, exact \
            numbers) into DIR (default: runs/compare-A-B, named after the two folders). Exit 0 \
            when compared, whatever the differences; 2 when a folder holds no finished run, \
            when the runs have no point in common (nothing is written then), or when DIR \
            already holds a comparison (add --force to replace it).

            Examples:
              worldsweep compare runs/twin-drop runs/twin-drop-blas
              worldsweep compare runs/before runs/after --out runs/diff --limit 50
            """)

    @Argument(help: ArgumentHelp("The first run folder (A).", valueName: "RUN_A"))
    var runA: String

    @Argument(help: ArgumentHelp("The second run folder (B).", valueName: "RUN_B"))
    var runB: String

    @Option(help: ArgumentHelp("Where to write compare.md, compare.html and compare.csv (default: runs/compare-A-B).", valueName: "DIR"))
    var out: String?

    @Option(help: "How many of the largest differences to list.")
    var limit: Int = ComparisonReport.defaultLimit

    @Flag(help: "Replace the compare.md, compare.html and compare.csv already in DIR.")
    var force = false

    func run() throws {
        if limit < 1 { throw BadInput("--limit must be 1 or more, got \(limit)") }
        let comparison = try Self.comparison(runA, runB)
        guard !comparison.matched.isEmpty else {
            // What was compared, then why nothing could be.
            print(ComparisonReport.text(comparison, limit: limit), terminator: "")
            throw BadInput("\(runA) and \(runB) have no point in common (no parameter values that match): "
                           + "nothing to compare, nothing written")
        }
        let directory = out ?? "runs/compare-\(Self.folderName(runA))-\(Self.folderName(runB))"
        try Self.checkReportFolder(directory, force: force)
        do {
            try ComparisonReport.write(comparison, to: directory, limit: limit)
        } catch {
            throw BadInput("\(directory): the comparison could not be written there (\(Self.reason(error)))")
        }
        print(ComparisonReport.text(comparison, limit: limit), terminator: "")
        print("report: \(directory)/compare.html (and compare.md, compare.csv)")
    }

    /// The two run folders side by side, each with its sweep file and the values it fixes.
    static func comparison(_ runA: String, _ runB: String) throws -> Comparison {
        var a = try side(runA), b = try side(runB)
        // Each side's values for the parameters only the other sweeps, from its own sweep file.
        a.fixedValues = fixedValues(runA, for: b.summary.parameters.filter { !a.summary.parameters.contains($0) })
        b.fixedValues = fixedValues(runB, for: a.summary.parameters.filter { !b.summary.parameters.contains($0) })
        a.sweepFile = sweepFile(runA)
        b.sweepFile = sweepFile(runB)
        return Comparison(a: a, b: b)
    }

    static func side(_ folder: String) throws -> Comparison.Side {
        let path = "\(folder)/summary.json"
        guard FileManager.default.fileExists(atPath: path) else {
            throw BadInput("\(path): no such file (compare needs two finished run folders)")
        }
        do {
            // One replica per point: summary.json has no point table, worlds.csv is it.
            return Comparison.Side(label: folder, summary: try RunFolderSummary.load(folder))
        } catch {
            throw BadInput("\(path): not a worldsweep summary (\(DecodingMessage.text(error)))")
        }
    }

    /// The run folder's sweep.yaml, nil when it has none.
    static func sweepFile(_ folder: String) -> String? {
        FileManager.default.contents(atPath: "\(folder)/\(SweepRun.sweepCopyName)").map { String(decoding: $0, as: UTF8.self) }
    }

    /// Values of `paths` in the run's copy of its sweep file, with the run's overrides (run.json);
    /// paths it cannot give stay unknown (their points then match nothing and are listed as unmatched).
    static func fixedValues(_ folder: String, for paths: [String]) -> [String: Double] {
        guard !paths.isEmpty, let scene = try? RunFolderSummary.recordedScene(folder) else { return [:] }
        var values: [String: Double] = [:]
        for path in paths { values[path] = try? scene.value(at: path) }
        return values
    }

    static let reportNames = ["compare.md", "compare.html", "compare.csv"]

    /// DIR must be a folder we may write in (or creatable), and its reports are replaced only with --force.
    static func checkReportFolder(_ directory: String, force: Bool) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw BadInput("\(directory) exists and is not a folder; give --out a folder name") }
            for name in reportNames where FileManager.default.fileExists(atPath: "\(directory)/\(name)") && !force {
                throw BadInput("\(directory) already holds \(name): add --force to replace it, or give another --out")
            }
        }
    }

    /// Why a write failed, without Foundation's error domains and user-info dumps.
    static func reason(_ error: any Error) -> String {
        let code = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.code } ?? 0
        return code > 0 ? String(cString: strerror(Int32(code))).lowercased() : "cannot create or write files there"
    }

    static func folderName(_ folder: String) -> String {
        let name = URL(fileURLWithPath: folder).standardizedFileURL.lastPathComponent
        return name.isEmpty || name == "/" ? "run" : name
    }
}

extension Comparison {
    /// Two finished run folders matched as `worldsweep compare` matches them (`serve` shows it).
    public static func ofRunFolders(_ a: String, _ b: String) throws -> Comparison {
        try CompareCommand.comparison(a, b)
    }
}
