// swift-tools-version: 6.0
import PackageDescription

// The engine and everything above it are compiled twice from the same sources: once for baseline
// x86-64 (runs everywhere) and, on x86_64 hosts, once more for AVX2 CPUs (Haswell and later) under
// module names ending in AVX2. `worldsweep` holds both and picks one when it starts
// (Sources/worldsweep/main.swift: the CPU's features, WORLDSWEEP_CPU=portable|avx2 to force one).
// Same bits either way: Swift emits no fused multiply-adds unless asked, so the AVX2 copy only
// computes eight lanes per instruction where the portable one needs two.
let engineModules = ["WorldSweep", "WorldSweepScene", "WorldSweepRun", "WorldSweepReport", "WorldSweepCLI"]
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
        // Whether this CPU runs the AVX2 copies (cpuid, through the C compiler's builtins).
        .target(name: "CPUFeatures"),
        .executableTarget(name: "worldsweep", dependencies: ["WorldSweepCLI", "CPUFeatures"]
                          + (avx2Copies ? ["WorldSweepCLIAVX2"] : [])),
        // What the tests share: scratch directories removed when the test process exits, a seeded generator.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "WorldSweepTests", dependencies: ["WorldSweep", "TestScratch"]),
        .testTarget(name: "WorldSweepSceneTests", dependencies: ["WorldSweepScene", "TestScratch"]),
        .testTarget(name: "WorldSweepCLITests", dependencies: ["WorldSweepCLI", "TestScratch", "CPUFeatures"]
                    + (avx2Copies ? ["WorldSweepCLIAVX2"] : [])),
        .testTarget(name: "WorldSweepRunTests", dependencies: ["WorldSweepRun", "TestScratch"]),
        .testTarget(name: "WorldSweepReportTests", dependencies: ["WorldSweepReport", "TestScratch"]),
    ]
)

if avx2Copies {
    let yams = Target.Dependency.product(name: "Yams", package: "Yams")
    let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
    let openBLAS = Target.Dependency.target(name: "COpenBLAS", condition: .when(platforms: [.linux]))
    package.targets += [
        avx2Copy(of: "WorldSweep", dependencies: [openBLAS]),
        avx2Copy(of: "WorldSweepScene", dependencies: ["WorldSweepAVX2", yams]),
        avx2Copy(of: "WorldSweepRun", dependencies: ["WorldSweepAVX2", "WorldSweepSceneAVX2"]),
        avx2Copy(of: "WorldSweepReport", dependencies: ["WorldSweepAVX2", "WorldSweepSceneAVX2", "WorldSweepRunAVX2", "COpenBLAS"]),
        avx2Copy(of: "WorldSweepCLI", dependencies: ["WorldSweepAVX2", "WorldSweepSceneAVX2", "WorldSweepRunAVX2",
                                                     "WorldSweepReportAVX2", argumentParser]),
    ]
}
