// bench.md and bench.html: what `worldsweep bench` measured, as tables and (in the HTML page) a
// log–log chart of world-ticks per second against world count. One offline file each: inline CSS
// and SVG, no scripts, no external URLs.
import Foundation
import WorldSweepReport
import WorldSweepResults
import WorldSweepRun

enum BenchReport {
    /// Writes `bench.md`, `bench.html` and `bench.json` (what --json prints) into `directory`
    /// (created if missing), each through `NAME.tmp` renamed over the final name. Returns the paths written.
    static func write(_ r: BenchResult, to directory: String) throws -> [String] {
        try OutputFolder.create(directory)
        let md = (directory as NSString).appendingPathComponent("bench.md")
        let html = (directory as NSString).appendingPathComponent("bench.html")
        let json = (directory as NSString).appendingPathComponent("bench.json")
        try AtomicFile.write(markdown(r), to: md)
        try AtomicFile.write(self.html(r), to: html)
        try AtomicFile.write(r.json() + "\n", to: json)
        return [md, html, json]
    }

    static func machineRows(_ r: BenchResult) -> [(String, String)] {
        let m = r.machine
        var rows = [("Sweep", "\(r.sweep): \(r.ticksPerWorld) ticks per world, \(r.sweepWorlds) worlds (world i runs sweep world i mod \(r.sweepWorlds))"),
                    ("Cores", "\(m.cores) active" + (m.defaultThreads != m.cores ? " (default threads: \(m.defaultThreads))" : ""))]
        if let cpu = m.cpu { rows.append(("CPU", cpu)) }
        rows += [("OS", m.os), ("BLAS", m.blas), ("Build", m.build + (m.codePath.map { ", engine code \($0)" } ?? "")), ("Date", m.date)]
        if let b = r.baseline { rows.append(("Baseline", "\(b.name): \(b.date), \(b.build) build" + (b.cpu.map { ", \($0)" } ?? ""))) }
        return rows
    }

    static let method = "Each figure is the median of 3 timed runs (1 run above 30 million world-ticks) of the worlds "
        + "(min … max: the slowest and the fastest run; with a baseline, faster or slower only when the two ranges do "
        + "not overlap) "
        + "on the scheduler in chunks of 64 worlds, as a sweep runs them. vs 1 thread: over the same engine on 1 thread "
        + "at the same world count; vs single-world: over the single-world engine at the same threads and world count. "
        + "World-ticks count every world's full run, as `run` reports them, although a world whose items all sleep "
        + "stops there (UIKit pauses too): the first worlds of twin-drop (no push, low elasticity) settle early, so "
        + "small world counts show higher figures."

    static let kernelNote = "Integrator kernels on one thread: velocity and position sub-steps over structure-of-arrays "
        + "lanes of 2 bodies each (body-sub-steps per second)."

    // MARK: Markdown

    static func markdown(_ r: BenchResult) -> String {
        func cell(_ s: String) -> String { ReportKit.markdownCell(s) }
        func table(_ head: [String], _ rows: [[String]], right: Set<Int> = []) -> String {
            var t = "| " + head.map(cell).joined(separator: " | ") + " |\n"
            t += "|" + head.indices.map { right.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
            for row in rows { t += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
            return t + "\n"
        }
        var md = "# Bench: \(cell(r.sweep))\n\n"
        md += table(["", ""], machineRows(r).map { [$0.0, $0.1] })
        md += "## World-ticks per second\n\n" + method + "\n\n"
        md += table(r.engineHeader, r.engines.map(r.engineCells), right: Set(1..<r.engineHeader.count))
        if !r.integrators.isEmpty {
            md += "## Integrator kernels\n\n" + kernelNote + "\n\n"
            md += table(["back end", "lanes", "body-sub-steps/s"],
                        r.integrators.map { [$0.integrator, "\($0.lanes)", String(format: "%.3g", $0.bodySubStepsPerSecond)] },
                        right: [1, 2])
        }
        return md
    }

    // MARK: HTML

    /// One line per (engine, threads): world-ticks per second against world count, both log scales.
    /// Colours grouped by engine (one hue per engine, darker for fewer threads), legend in that
    /// order; the dash tells the engines apart too.
    static func chart(_ r: BenchResult) -> LogLogChart {
        var engineNames: [String] = [], threadCounts: [Int] = [], keys: [(String, Int)] = []
        for row in r.engines {
            if !engineNames.contains(row.engine) { engineNames.append(row.engine) }
            if !threadCounts.contains(row.threads) { threadCounts.append(row.threads) }
            if !keys.contains(where: { $0 == (row.engine, row.threads) }) { keys.append((row.engine, row.threads)) }
        }
        let dashes: [String?] = [nil, "7 4", "2 3", "10 3 2 3"]
        keys.sort { a, b in
            let (ea, eb) = (engineNames.firstIndex(of: a.0) ?? 0, engineNames.firstIndex(of: b.0) ?? 0)
            return ea != eb ? ea < eb : a.1 < b.1
        }
        let series = keys.map { key in
            let (engine, threads) = key
            let e = engineNames.firstIndex(of: engine) ?? 0
            let shade = threadCounts.sorted().firstIndex(of: threads) ?? 0
            let points = r.engines.filter { $0.engine == engine && $0.threads == threads }.map { row in
                LogChartPoint(x: Double(row.worlds), y: row.worldTicksPerSecond,
                              title: "\(engine), \(threads) thread\(threads == 1 ? "" : "s"), \(row.worlds) worlds: "
                                  + String(format: "%.0f world-ticks/s", row.worldTicksPerSecond))
            }
            return LogChartSeries(name: "\(engine) ×\(threads)", color: ReportKit.shade(family: e, step: shade, of: threadCounts.count),
                                  dash: dashes[e % dashes.count], points: points)
        }
        return LogLogChart(title: "\(r.sweep): world-ticks per second", xLabel: "worlds (log scale)",
                           yLabel: "world-ticks per second (log scale)", legendTitle: "engine × threads", series: series)
    }

    static func html(_ r: BenchResult) -> String {
        func table(_ head: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
            HTML.table(head, rows.map { HTML.row($0, numeric: numeric) })
        }
        var h = "<h1>Bench: \(HTML.escape(r.sweep))</h1>\n" + HTML.keyValues(machineRows(r))
        h += "<section id=\"throughput\">\n<h2>World-ticks per second</h2>\n" + HTML.note(method)
        h += "<div class=\"charts\">\n" + HTML.figure(chart(r).svg(), caption: "One line per engine and thread count; hover a point for its figure. Both axes are logarithmic.",
                                                     class: "full") + "</div>\n"
        h += table(r.engineHeader, r.engines.map(r.engineCells), numeric: Set(1..<r.engineHeader.count))
        h += "</section>\n"
        if !r.integrators.isEmpty {
            h += "<section id=\"kernels\">\n<h2>Integrator kernels</h2>\n" + HTML.note(kernelNote)
            h += table(["back end", "lanes", "body-sub-steps/s"],
                       r.integrators.map { [$0.integrator, "\($0.lanes)", String(format: "%.3g", $0.bodySubStepsPerSecond)] },
                       numeric: [1, 2])
            h += "</section>\n"
        }
        return HTML.page(title: "\(r.sweep) — worldsweep bench", body: h)
    }
}
