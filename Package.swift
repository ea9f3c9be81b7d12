// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "WorldSweep",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WorldSweep", targets: ["WorldSweep"]),
        .library(name: "WorldSweepScene", targets: ["WorldSweepScene"]),
        // Sweeps: engines, scheduler, metrics and output files (also what the benchmarks drive).
        .library(name: "WorldSweepRun", targets: ["WorldSweepRun"]),
        .executable(name: "worldsweep", targets: ["worldsweep"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The physics core and the UIKit-like API (UIKit Dynamics re-created, Float metres inside).
        .target(name: "WorldSweep", dependencies: [.target(name: "COpenBLAS", condition: .when(platforms: [.linux]))]),
        // Scene and sweep files: YAML -> validated description -> animator.
        .target(name: "WorldSweepScene", dependencies: ["WorldSweep", .product(name: "Yams", package: "Yams")]),
        // The `worldsweep` commands, as a library so tests can drive them.
        .target(name: "WorldSweepCLI", dependencies: [
            "WorldSweep", "WorldSweepScene", "WorldSweepRun", "WorldSweepReport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // OpenBLAS through CBLAS/LAPACK (Debian's libopenblas-dev; scripts/setup.sh installs it).
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        // Running sweeps: per-world metrics, scheduling, streamed results, resume, shards.
        .target(name: "WorldSweepRun", dependencies: ["WorldSweep", "WorldSweepScene"]),
        // Summary reports: Markdown and an offline HTML page with SVG charts; least-squares sensitivity.
        .target(name: "WorldSweepReport", dependencies: ["WorldSweep", "WorldSweepScene", "WorldSweepRun", "COpenBLAS"]),
        .executableTarget(name: "worldsweep", dependencies: ["WorldSweepCLI"]),
        // Scratch directories for the tests, removed when the test process exits.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "WorldSweepTests", dependencies: ["WorldSweep"]),
        .testTarget(name: "WorldSweepSceneTests", dependencies: ["WorldSweepScene", "TestScratch"]),
        .testTarget(name: "WorldSweepCLITests", dependencies: ["WorldSweepCLI", "TestScratch"]),
        .testTarget(name: "WorldSweepRunTests", dependencies: ["WorldSweepRun", "TestScratch"]),
        .testTarget(name: "WorldSweepReportTests", dependencies: ["WorldSweepReport", "TestScratch"]),
    ]
)
