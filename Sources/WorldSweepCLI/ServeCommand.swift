import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `worldsweep serve [FOLDER]`: runs `worldsweep-serve`, the local web server over a folder of
/// runs. The server is its own product (Serve/, a package of its own: its web stack would add
/// minutes to every build of `worldsweep`), so this command finds its binary and hands over to it.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder of runs as a local web page: catalog, live runs, replays, comparisons.",
        usage: "worldsweep serve [<folder>] [<options>]",
        discussion: """
            Lists every run in the folder (sweeps, tunes, shard sets, comparisons) with its status, \
            follows running ones as they write, replays any world of a run on the engine (by number \
            or with sliders over the swept ranges) and compares two runs. Read-only: it never \
            writes to a run. It listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it.

            The server is built apart from worldsweep: swift build -c release --package-path Serve \
            (or scripts/serve.sh, which builds and starts it). worldsweep serve looks for \
            worldsweep-serve beside itself, in the checkout it was built in (Serve/.build), on \
            PATH, or at WORLDSWEEP_SERVE.

            Examples:
              worldsweep serve
              worldsweep serve runs --port 8090
            """)

    @Argument(help: "The folder of runs (default: runs).")
    var folder = "runs"

    @Option(help: ArgumentHelp("The address to listen on; anything but loopback is warned about.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port (0: any free one).")
    var port = 8080

    @Flag(help: "Log every request, not only refused ones.")
    var verbose = false

    func run() throws {
        guard (0...65535).contains(port) else { throw BadInput("--port must be 0 to 65535, got \(port)") }
        guard let binary = ServeBinary.find() else { throw RunFailure(ServeBinary.missing) }
        let arguments = [binary, folder, "--host", host, "--port", String(port)] + (verbose ? ["--verbose"] : [])
        var pointers = arguments.map { strdup($0) } + [nil]
        execv(binary, &pointers)
        throw RunFailure("cannot start \(binary): \(String(cString: strerror(errno)))")
    }
}

/// Where `worldsweep-serve` is: WORLDSWEEP_SERVE, beside this executable, in the checkout this
/// executable was built in (Serve/.build/release, then debug), or on PATH.
public enum ServeBinary {
    public static let name = "worldsweep-serve"
    public static let missing = "worldsweep serve needs \(name), which is built apart from worldsweep: "
        + "run `swift build -c release --package-path Serve` in the repository (or scripts/serve.sh), "
        + "or set WORLDSWEEP_SERVE to its path"

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: String? = Bundle.main.executablePath) -> String? {
        if let given = environment["WORLDSWEEP_SERVE"], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        var candidates: [String] = []
        if let executable {
            var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(dir.appendingPathComponent(name).path)
            for _ in 0..<6 where dir.path != "/" {
                for configuration in ["release", "debug"] {
                    candidates.append(dir.appendingPathComponent("Serve/.build/\(configuration)/\(name)").path)
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
