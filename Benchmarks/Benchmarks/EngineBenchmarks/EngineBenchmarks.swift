import Benchmark
import WorldSweep
import WorldSweepScene

/// The single-world engine on the seed scene: world-ticks per second is the figure sweeps are
/// judged by (the batched engine will be measured against it).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                          maxDuration: .seconds(5))

    // twin-drop (two 50×50 boxes, gravity, bounds and a ledge), 300 ticks of 1/60 s per world.
    Benchmark("single world: twin-drop, 300 ticks", configuration: .init(scalingFactor: .one)) { benchmark in
        let scene = try SceneFile.load(path: sweepsPath("twin-drop.yaml"))
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
