// swift-tools-version: 6.0
import PackageDescription

// The engine's modules are compiled twice from the same sources: once for baseline x86-64 (runs
// everywhere) and, on x86_64 hosts, once more for AVX2 CPUs (Haswell and later) under module names
// ending in AVX2. Same bits either way: Swift emits no fused multiply-adds unless asked, so the AVX2
// copy only computes eight lanes per instruction where the portable one needs two. The engine's
// modules are the physics (WorldSweep), the scene files it is built from (WorldSweepScene: its
// types are the engine's) and the run path that steps worlds and folds their metrics tick by tick
// (WorldSweepRun). The report and the commands gain nothing from AVX2 and are built once, on the
// portable copies; they reach the hot entry points through `EngineCode` (WorldSweepResults, built
// once: the protocol and the plain result types both copies share), and `worldsweep`'s main picks
// which copy's `RunEngineCode` that is (Sources/worldsweep/main.swift: the CPU's features,
// WORLDSWEEP_CPU=portable|avx2 to force one).
let engineModules = ["WorldSweep", "WorldSweepScene", "WorldSweepRun"]
// WORLDSWEEP_PORTABLE_ONLY=1 leaves the AVX2 copies out: a development build in half the time
// (the binary then runs the portable code, with the same bits).
#if arch(x86_64)
let avx2Copies = Context.environment["WORLDSWEEP_PORTABLE_ONLY"] != "1"
#else
let avx2Copies = false
#endif

/// The AVX2 copy of one of `engineModules`: its sources are the portable target's, through a link
/// in Sources/AVX2/, and its imports of the engine modules resolve to their AVX2 copies.
func avx2Copy(of name: String, dependencies: [Target.Dependency]) -> Target {
    // Itself included: a few sources name their own module (`WorldSweep.toiMayTouch`).
    let aliases = engineModules.prefix(through: engineModules.firstIndex(of: name)!)
        .flatMap { ["-module-alias", "\($0)=\($0)AVX2"] }
    return .target(name: name + "AVX2", dependencies: dependencies, path: "Sources/AVX2/" + name,
                   swiftSettings: [.define("WORLDSWEEP_AVX2"), .unsafeFlags(["-target-cpu", "haswell"] + aliases)])
}

let package = Package(
    name: "WorldSweep",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WorldSweep", targets: ["WorldSweep"]),
        .library(name: "WorldSweepScene", targets: ["WorldSweepScene"]),
        // Sweeps: engines, scheduler, metrics and output files (also what the benchmarks drive).
        .library(name: "WorldSweepRun", targets: ["WorldSweepRun"]),
        // The commands and the report as libraries: what `worldsweep-serve` (Serve/, its own
        // package) calls to trace, replay and compare.
        .library(name: "WorldSweepCLI", targets: ["WorldSweepCLI"]),
        .library(name: "WorldSweepReport", targets: ["WorldSweepReport"]),
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
        .target(name: "WorldSweepScene", dependencies: ["WorldSweep", "WorldSweepResults", .product(name: "Yams", package: "Yams")]),
        // The `worldsweep` commands, as a library so tests can drive them.
        .target(name: "WorldSweepCLI", dependencies: [
            "WorldSweep", "WorldSweepScene", "WorldSweepRun", "WorldSweepReport", "WorldSweepResults",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // What both copies of the engine's modules share: the metric declarations, plain result
        // types (worlds.csv's and summary.json's, the tune report's chart numbers), run errors, and
        // the `EngineCode` entry points the commands call.
        .target(name: "WorldSweepResults"),
        // OpenBLAS through CBLAS/LAPACK (Debian's libopenblas-dev; scripts/setup.sh installs it).
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        // Running sweeps: per-world metrics, scheduling, streamed results, resume, shards.
        .target(name: "WorldSweepRun", dependencies: ["WorldSweep", "WorldSweepScene", "WorldSweepResults"]),
        // Summary reports: Markdown and an offline HTML page with SVG charts; least-squares sensitivity.
        .target(name: "WorldSweepReport", dependencies: ["WorldSweep", "WorldSweepScene", "WorldSweepRun", "WorldSweepResults",
                                                        "COpenBLAS"]),
        // Whether this CPU runs the AVX2 copies (cpuid, through the C compiler's builtins).
        .target(name: "CPUFeatures"),
        .executableTarget(name: "worldsweep", dependencies: ["WorldSweep", "WorldSweepCLI", "WorldSweepRun", "CPUFeatures"]
                          + (avx2Copies ? ["WorldSweepRunAVX2"] : [])),
        // What the tests share: scratch directories removed when the test process exits, a seeded generator.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "WorldSweepTests", dependencies: ["WorldSweep", "TestScratch"]),
        .testTarget(name: "WorldSweepSceneTests", dependencies: ["WorldSweepScene", "TestScratch"]),
        .testTarget(name: "WorldSweepCLITests", dependencies: ["WorldSweepCLI", "TestScratch", "CPUFeatures"]
                    + (avx2Copies ? ["WorldSweepRunAVX2"] : [])),
        .testTarget(name: "WorldSweepRunTests", dependencies: ["WorldSweepRun", "TestScratch"]),
        .testTarget(name: "WorldSweepReportTests", dependencies: ["WorldSweepReport", "TestScratch"]),
    ]
)

if avx2Copies {
    let yams = Target.Dependency.product(name: "Yams", package: "Yams")
    let openBLAS = Target.Dependency.target(name: "COpenBLAS", condition: .when(platforms: [.linux]))
    package.targets += [
        avx2Copy(of: "WorldSweep", dependencies: [openBLAS]),
        avx2Copy(of: "WorldSweepScene", dependencies: ["WorldSweepAVX2", "WorldSweepResults", yams]),
        avx2Copy(of: "WorldSweepRun", dependencies: ["WorldSweepAVX2", "WorldSweepSceneAVX2", "WorldSweepResults"]),
    ]
}
