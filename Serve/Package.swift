// swift-tools-version: 6.1
// `worldsweep serve`: a local web server over a folder of runs, in its own package so that the
// main package (and `scripts/demo.sh`'s release build) neither resolves nor builds the web stack.
// `worldsweep serve` runs this package's `worldsweep-serve` when it is built (see docs/serve.md).
import PackageDescription

let package = Package(
    name: "WorldSweepServe",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "worldsweep-serve", targets: ["worldsweep-serve"]),
    ],
    dependencies: [
        .package(name: "WorldSweep", path: ".."),
        // Without its default traits: no swift-configuration, no full Foundation in the server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The server: catalog, live events, replays, comparisons, files of the runs folder.
        .target(name: "WorldSweepServe", dependencies: [
            .product(name: "WorldSweep", package: "WorldSweep"),
            .product(name: "WorldSweepScene", package: "WorldSweep"),
            .product(name: "WorldSweepRun", package: "WorldSweep"),
            .product(name: "WorldSweepCLI", package: "WorldSweep"),
            .product(name: "WorldSweepReport", package: "WorldSweep"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .executableTarget(name: "worldsweep-serve", dependencies: ["WorldSweepServe"]),
        .testTarget(name: "WorldSweepServeTests", dependencies: [
            "WorldSweepServe",
            .product(name: "WorldSweepCLI", package: "WorldSweep"),
            .product(name: "WorldSweepRun", package: "WorldSweep"),
            .product(name: "WorldSweepScene", package: "WorldSweep"),
        ], path: "Tests/WorldSweepServeTests"),
    ]
)
