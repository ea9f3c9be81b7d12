import ArgumentParser
import Foundation
import WorldSweep
import WorldSweepRun
import WorldSweepScene

// The text table `bench` prints, and the header and cells the reports share with it.
extension BenchResult {
    /// The engine table's header and cells, shared by the text table and the reports; two more
    /// columns with a baseline.
    var engineHeader: [String] {
        ["engine", "threads", "worlds", "world-ticks/s", "min … max", "vs 1 thread", "vs single-world"]
            + (baseline == nil ? [] : ["vs baseline", "verdict"]) + (hasWholeRun ? ["whole run / engine"] : [])
    }
    var hasWholeRun: Bool { engines.contains { $0.vsEngine != nil } }
    func engineCells(_ r: EngineRow) -> [String] {
        var cells = [r.engine, "\(r.threads)", "\(r.worlds)", String(format: "%.0f", r.worldTicksPerSecond), Self.range(r),
                     Self.ratio(r.vsOneThread), Self.ratio(r.vsSingleWorld)]
        if baseline != nil { cells += [Self.ratio(r.baseline?.ratio), r.baseline?.verdict.rawValue ?? "—"] }
        if hasWholeRun { cells.append(r.vsEngine.map { String(format: "%.1f %%", 100 * $0) } ?? "—") }
        return cells
    }

    static func range(_ r: EngineRow) -> String {
        guard let lo = r.minWorldTicksPerSecond, let hi = r.maxWorldTicksPerSecond else { return "—" }
        return String(format: "%.0f … %.0f", lo, hi)
    }

    var heading: String {
        "\(sweep): \(ticksPerWorld) ticks per world, \(sweepWorlds) worlds in the sweep (world i runs sweep world i mod \(sweepWorlds))"
    }

    func table() -> String {
        var s = heading + "\n"
        if machine.build == "debug" { s += "debug build: build with -c release for figures worth quoting\n" }
        if let path = machine.codePath { s += "engine code: \(path) (WORLDSWEEP_CPU=portable or avx2 picks one)\n" }
        s += "\n"
        if let b = baseline { s += "baseline \(b.name): \(b.date), \(b.build) build\(b.cpu.map { ", \($0)" } ?? "")\n\n" }
        let widths = [17, 9, 10, 16, 24, 13, 17, 13, 13, 0].prefix(engineHeader.count - 1) + [0]
        s += zip(engineHeader, widths).map { pad($0, $1) }.joined() + "\n"
        for r in engines { s += zip(engineCells(r), widths).map { pad($0, $1) }.joined() + "\n" }
        if !integrators.isEmpty {
            s += "\nintegrator kernels (one thread; \(machine.blas))\n"
            s += "back end   lanes     body-sub-steps/s\n"
            for k in integrators {
                s += pad(k.integrator, 11) + pad("\(k.lanes)", 10) + String(format: "%.3g", k.bodySubStepsPerSecond) + "\n"
            }
        }
        return s
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + (width == 0 ? "" : " ") : text + String(repeating: " ", count: width - text.count)
    }
}
