// swift-tools-version: 6.0
// Jointed worlds on the batched engine, for instruction counts (docs/batched-engine.md, "Joints"):
//   swift build -c release && cp .build/release/jointbench /tmp/jb && strip --strip-debug /tmp/jb
//   valgrind --tool=callgrind /tmp/jb 256
import PackageDescription

let package = Package(
    name: "jointbench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "WorldSweep", path: "../..")],
    targets: [.executableTarget(name: "jointbench", dependencies: [.product(name: "WorldSweep", package: "WorldSweep")],
                                path: "Sources/jointbench")]
)
