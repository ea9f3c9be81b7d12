import Benchmark
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// World-ticks per second is the figure sweeps are judged by. These time the seed sweep
/// (Sweeps/twin-drop.yaml: 768 worlds of two 50×50 boxes, gravity, bounds, a ledge and a push,
/// 300 ticks of 1/60 s each) on each engine, integrator and thread count, through the same
/// scheduler `worldsweep run` uses; world-ticks/s = 768 × 300 / the wall-clock median.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
                                          maxDuration: .seconds(10), maxIterations: 20)
    LaneIntegrator.useSingleThreadedBLAS()
    let scene = try! SceneFile.load(path: sweepsPath("twin-drop.yaml"))

    let engines: [(String, SweepEngine)] = [("batched-simd", .batched(.simd)), ("batched-blas", .batched(.blas)),
                                            ("single-world", .single)]
    for (name, engine) in engines {
        for threads in [1, 2] {
            Benchmark("twin-drop sweep, 768 worlds × 300 ticks: \(name), \(threads) thread\(threads == 1 ? "" : "s")") { benchmark in
                let runner = { var r = WorldRunner(scene: scene); r.engine = engine; return r }()
                let scheduler = Scheduler(threads: threads, chunkSize: 64)
                for _ in benchmark.scaledIterations {
                    var checksum = 0.0
                    try scheduler.run(0..<scene.worldCount, work: { runner.run(worlds: $0) }, consume: { _, results in
                        for r in results { checksum += r.items[0].y }
                    })
                    blackHole(checksum)
                }
            }
        }
    }

    // One world on its own (the single-world API, no scheduler), for the per-world baseline.
    Benchmark("single world: twin-drop, 300 ticks", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            let built = scene.makeAnimator()
            for _ in 0..<300 { built.animator.tick(1.0 / 60.0) }
            blackHole(built.views[0].center)
        }
    }
}

/// Sweeps/ next to this package, wherever the benchmark is run from.
func sweepsPath(_ name: String) -> String {
    let here = #filePath   // .../Benchmarks/Benchmarks/EngineBenchmarks/EngineBenchmarks.swift
    var parts = here.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/") + "/Sweeps/" + name
}
