import ArgumentParser
import Dispatch
import Foundation
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// `worldsweep bench [FILE]`: throughput in world-ticks per second over thread counts, and the
/// integrator back ends' kernel throughput, as a table or JSON.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure world-ticks per second over thread counts, and the integrator back ends.",
        discussion: """
            Runs the first --worlds worlds of FILE (default: the built-in twin-drop sweep) on the \
            sweep engine with each thread count, three times each, and reports the median. Then \
            times each integrator back end over structure-of-arrays lanes. Build in release mode \
            (swift run -c release worldsweep bench) for figures worth quoting.
            """)

    @Argument(help: "A sweep file (default: the built-in twin-drop sweep).")
    var file: String?

    @Option(help: "How many worlds each measurement runs.")
    var worlds: Int = 768

    @Option(help: ArgumentHelp("Thread counts to measure, comma-separated (default: 1 … cores).", valueName: "LIST"))
    var threads: String?

    @Option(help: ArgumentHelp("Integrator back ends to time, comma-separated: simd, blas.", valueName: "LIST"))
    var integrator: String = LaneIntegrator.allCases.map(\.rawValue).joined(separator: ",")

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: .hidden)   // body-sub-steps per kernel timing; tests make it small
    var kernelWork: Int = 4_000_000

    func run() throws {
        let scene = try file.map { try SceneFile.load(path: $0) } ?? BuiltInSweeps.twinDrop()
        if worlds < 1 { throw BadInput("--worlds must be 1 or more, got \(worlds)") }
        let threadCounts = try Self.list(threads, name: "--threads") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
            ?? Array(1...Scheduler.defaultThreads())
        let integrators = try Self.list(integrator, name: "--integrator") { LaneIntegrator(rawValue: $0) } ?? []
        LaneIntegrator.useSingleThreadedBLAS()

        let runner = WorldRunner(scene: scene)
        var rows: [BenchResult.EngineRow] = []
        for t in threadCounts {
            let seconds = Self.median((0..<3).map { _ in Self.time(runner, worlds: worlds, threads: t) })
            rows.append(.init(engine: runner.engine.name, threads: t, worlds: worlds,
                              worldTicksPerSecond: Double(worlds * runner.ticksPerWorld) / seconds))
        }
        var kernels: [BenchResult.KernelRow] = []
        for i in integrators {
            for lanes in [64, 4096, 262_144] {
                let steps = max(2, kernelWork / lanes)
                kernels.append(.init(integrator: i.rawValue, lanes: lanes,
                                     bodySubStepsPerSecond: i.measureThroughput(bodies: 2, lanes: lanes, subSteps: steps)))
            }
        }
        let result = BenchResult(sweep: scene.name, ticksPerWorld: runner.ticksPerWorld, blas: LaneIntegrator.blasDescription,
                                 engines: rows, integrators: kernels)
        print(json ? result.json() : result.table())
    }

    /// Wall time of running `worlds` worlds (world indices wrap around the sweep) on `threads`.
    static func time(_ runner: WorldRunner, worlds: Int, threads: Int) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let count = runner.worldCount
        _ = try? Scheduler(threads: threads, chunkSize: 16).run(0..<worlds, work: { range in
            range.reduce(0) { acc, w in acc + runner.run(world: w % count).items.count }
        }, consume: { _, _ in })
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func list<T>(_ text: String?, name: String, _ parse: (String) -> T?) throws -> [T]? {
        guard let text else { return nil }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return try parts.map { part in
            guard let v = parse(part) else { throw BadInput("\(name): cannot use '\(part)' in '\(text)'") }
            return v
        }
    }
}

/// What `bench` measured.
struct BenchResult: Codable {
    struct EngineRow: Codable { var engine: String; var threads: Int; var worlds: Int; var worldTicksPerSecond: Double }
    struct KernelRow: Codable { var integrator: String; var lanes: Int; var bodySubStepsPerSecond: Double }
    var sweep: String
    var ticksPerWorld: Int
    var blas: String
    var engines: [EngineRow]
    var integrators: [KernelRow]

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    func table() -> String {
        var s = "\(sweep): \(ticksPerWorld) ticks per world\n\n"
        s += "engine        threads   worlds   world-ticks/s   vs 1 thread\n"
        let base = engines.first { $0.threads == 1 }?.worldTicksPerSecond
        for r in engines {
            let ratio = base.map { String(format: "%.2f×", r.worldTicksPerSecond / $0) } ?? "—"
            s += pad(r.engine, 14) + pad("\(r.threads)", 10) + pad("\(r.worlds)", 9)
                + pad(String(format: "%.0f", r.worldTicksPerSecond), 16) + ratio + "\n"
        }
        if !integrators.isEmpty {
            s += "\nintegrator kernels (one thread; \(blas))\n"
            s += "back end   lanes     body-sub-steps/s\n"
            for k in integrators {
                s += pad(k.integrator, 11) + pad("\(k.lanes)", 10) + String(format: "%.3g", k.bodySubStepsPerSecond) + "\n"
            }
        }
        return s
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// Sweeps built into the binary, so `bench` runs anywhere without a checkout.
enum BuiltInSweeps {
    static let twinDropYAML = """
        name: twin-drop
        description: two views fall; the bottom one is far more elastic
        world: {bounds: [320, 568], tick: 1/60, duration: 5}
        items:
          top:    {center: [60, 30],  size: [50, 50]}
          bottom: {center: [220, 50], size: [50, 50]}
        behaviors:
          fall: {type: gravity, items: [top, bottom]}
          walls:
            type: collision
            items: [top, bottom]
            mode: everything
            reference_bounds: true
            boundaries:
              ledge: {from: [0, 468], to: [320, 468]}
          bouncy: {type: item, items: [bottom], elasticity: 0.9}
          stiff:  {type: item, items: [top], elasticity: 0.1}
          shove:  {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}
        sweep:
          parameters:
            bouncy.elasticity: {linspace: [0, 1, 16]}
            bouncy.density:    {values: [0.5, 1, 2]}
            shove.magnitude:   {range: [0, 1.5, 0.1]}
          seed: 42
          replicas: 1
          jitter: {top.center: [2, 2]}
        """

    static func twinDrop() throws -> SceneFile {
        try SceneFile.parse(yaml: twinDropYAML, path: "<built-in twin-drop>")
    }
}
