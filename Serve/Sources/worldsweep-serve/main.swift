import Foundation
import WorldSweepServe

// `worldsweep-serve [FOLDER] [--host H] [--port P]`: what `worldsweep serve` runs (see docs/serve.md).
let options: ServeOptions
do {
    options = try ServeOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    _ = try RunsFolder(options.folder)
} catch {
    FileHandle.standardError.write(Data("worldsweep serve: error: \(error.message)\n".utf8))
    exit(2)
}
if !options.loopbackOnly {
    FileHandle.standardError.write(Data("worldsweep serve: warning: listening on \(options.host): anyone who can reach this machine can read every file under \(options.folder) and run replays\n".utf8))
}
do {
    try await ServeApp.run(options) { address in
        print("worldsweep serve: \(address) (runs in \(options.folder); Ctrl-C stops)")
        fflush(nil)
    }
} catch {
    FileHandle.standardError.write(Data("worldsweep serve: error: \(error)\n".utf8))
    exit(1)
}
