// swift-tools-version: 6.1
// Benchmarks live in their own package so the main package builds without the benchmark
// toolchain (a cold root build stays fast). Run: `cd Benchmarks && swift package benchmark`.
import PackageDescription

let package = Package(
    name: "WorldSweepBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "WorldSweep", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "WorldSweep", package: "WorldSweep"),
                .product(name: "WorldSweepScene", package: "WorldSweep"),
                .product(name: "WorldSweepRun", package: "WorldSweep"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
