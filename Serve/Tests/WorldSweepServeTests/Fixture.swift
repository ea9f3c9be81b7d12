import Foundation
import WorldSweepCLI
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// One runs folder and one server for the whole test process: a finished run (4 worlds), a set of
/// three shards with the middle one missing, and a link leading out of the folder.
enum Fixture {
    static let folder: String = make()
    nonisolated(unsafe) static var server: ServerProcess?

    static func shared() throws -> ServerProcess {
        if let server { return server }
        let made = try ServerProcess(folder: folder)
        server = made
        atexit { Fixture.server?.process.terminate(); try? FileManager.default.removeItem(atPath: Fixture.folder) }
        return made
    }

    static let doneSweep = smallSweep(elasticities: [0.2, 0.8], pushes: [0, 1])

    private static func make() -> String {
        let folder = Repository.scratch()
        check(["run"] + doneSweep + ["--out", folder + "/done-run", "--quiet", "--threads", "1"])
        for shard in [0, 2] {
            check(["run"] + smallSweep(elasticities: [0.2, 0.5, 0.8], pushes: [0, 1])
                  + ["--shard", "\(shard)", "--of", "3", "--out", folder + "/sharded", "--quiet", "--threads", "1"])
        }
        symlink("/etc", folder + "/outside-link")
        return folder
    }

    static func check(_ arguments: [String]) {
        let code = WorldSweepCommand.execute(arguments)
        precondition(code == 0, "worldsweep \(arguments.joined(separator: " ")) exited \(code)")
    }
}

/// What a command prints on stdout, run in this process (`worldsweep trace` writes there).
func standardOutput(of arguments: [String]) -> (code: Int32, text: String) {
    fflush(nil)
    let path = NSTemporaryDirectory() + "serve-stdout-\(getpid())-\(UUID().uuidString.prefix(8))"
    let saved = dup(1)
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    dup2(fd, 1)
    close(fd)
    let code = WorldSweepCommand.execute(arguments)
    fflush(nil)
    dup2(saved, 1)
    close(saved)
    defer { unlink(path) }
    return (code, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
}

/// The last tick's rows of the `worldsweep trace …` command line as item,x,y,angle,vx,vy,angular_velocity.
func traceEnd(_ command: String, items: Int, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    let parts = words(command)
    XCTAssertEqual(Array(parts.prefix(2)), ["worldsweep", "trace"], file: file, line: line)
    let (code, text) = standardOutput(of: Array(parts.dropFirst()))
    XCTAssertEqual(code, 0, command, file: file, line: line)
    let rows = text.split(separator: "\n").suffix(items)
    return rows.map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).joined(separator: ",") }
}

/// A shell command line as its words (the server quotes only words that need it; these do not).
func words(_ command: String) -> [String] {
    command.split(separator: " ").map { w in
        w.hasPrefix("'") && w.hasSuffix("'") ? String(w.dropFirst().dropLast()) : String(w)
    }
}
