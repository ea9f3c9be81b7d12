import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI

/// `worldsweep serve` hands over to the server binary, which is built apart: where it looks.
struct ServeCommandTests {
    func makeExecutable(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
    }

    @Test func findsTheServerInTheCheckoutWorldsweepWasBuiltIn() throws {
        let checkout = Scratch.directory("serve-checkout")
        let worldsweep = checkout + "/.build/x86_64-unknown-linux-gnu/release/worldsweep"
        try makeExecutable(worldsweep)
        #expect(ServeBinary.find(environment: ["PATH": ""], executable: worldsweep) == nil)
        let server = checkout + "/Serve/.build/release/worldsweep-serve"
        try makeExecutable(server)
        #expect(ServeBinary.find(environment: ["PATH": ""], executable: worldsweep) == server)
        // Beside worldsweep (an install into one folder) comes first.
        let beside = checkout + "/.build/x86_64-unknown-linux-gnu/release/worldsweep-serve"
        try makeExecutable(beside)
        #expect(ServeBinary.find(environment: ["PATH": ""], executable: worldsweep) == beside)
    }

    @Test func theEnvironmentNamesItOrNothing() throws {
        let folder = Scratch.directory("serve-env")
        #expect(ServeBinary.find(environment: ["WORLDSWEEP_SERVE": folder + "/absent"], executable: nil) == nil)
        try makeExecutable(folder + "/server")
        #expect(ServeBinary.find(environment: ["WORLDSWEEP_SERVE": folder + "/server"], executable: nil) == folder + "/server")
        #expect(ServeBinary.find(environment: ["PATH": folder + ":/nowhere"], executable: nil) == nil, "the name is worldsweep-serve")
    }

    @Test func aBadPortIsBadInput() {
        let (code, message) = WorldSweepCommand.outcome(["serve", "runs", "--port", "70000"])
        #expect(code == ExitStatus.badInput)
        #expect(message?.contains("--port must be 0 to 65535") == true)
    }
}
