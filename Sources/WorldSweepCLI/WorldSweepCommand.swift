import ArgumentParser
import Foundation
import WorldSweepRun
import WorldSweepScene

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `worldsweep`: runs UIKit Dynamics worlds from scene and sweep files.
public struct WorldSweepCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "worldsweep",
        abstract: "UIKit Dynamics, re-created: trace, validate and sweep scene files.",
        // Usage lines stay short (the options are listed below them): help lines fit 80 columns.
        usage: "worldsweep <subcommand> [<options>]",
        discussion: """
            Exit codes: 0 done, 1 a run failed, 2 bad input, 130 interrupted.

            Examples:
              worldsweep validate Sweeps/twin-drop.yaml
              worldsweep run Sweeps/twin-drop.yaml         # into runs/twin-drop/
              worldsweep run Sweeps/twin-drop.yaml --set bouncy.density=2 \\
                  --sweep fall.magnitude=0.5,1,2 --out runs/heavy
              worldsweep trace Sweeps/twin-drop.yaml --world 417
              worldsweep compare runs/twin-drop runs/heavy
              worldsweep serve runs                        # every run, live

            Shell completion: worldsweep completion bash (or zsh, fish) prints the script, the \
            same as worldsweep --generate-completion-script bash; `worldsweep completion --help` \
            says where to save it.
            """,
        version: WorldSweepVersion.current,
        subcommands: [TraceCommand.self, ValidateCommand.self, RunCommand.self, MergeCommand.self, MissingCommand.self,
                      BenchCommand.self, CompareCommand.self, CompletionCommand.self, TuneCommand.self,
                      ServeCommand.self])

    public init() {}

    /// The arguments `execute` was given, kept with a run's results (`run.commandLine` in
    /// summary.json); task-local, so tests running commands side by side keep theirs apart.
    @TaskLocal static var arguments: [String]?

    /// The compilation of the engine's modules that runs worlds (Package.swift): the portable one
    /// unless `execute` was given another (`worldsweep`'s main gives the AVX2 one on AVX2 CPUs).
    @TaskLocal static var engine = EngineCodeChoice(RunEngineCode.self)

    /// Runs the command line and returns the process exit code; bad input of any kind (a bad
    /// file, a bad option) is reported as one message on stderr with code 2. Worlds run on
    /// `engineCode` (WorldSweepRun's or WorldSweepRunAVX2's `RunEngineCode`).
    public static func execute(_ arguments: [String], engineCode: any EngineCode.Type = RunEngineCode.self) -> Int32 {
        let (code, message) = $engine.withValue(EngineCodeChoice(engineCode)) { outcome(arguments) }
        if let message { writeError(message) }
        return code
    }

    /// The exit code and the one error line (nil when there is none) of a command line; what the
    /// command prints on stdout it prints as it runs. Every refusal is one line: `FILE:LINE:COLUMN:
    /// error: ...` for a file, `worldsweep: error: ...` for the command line or a run folder.
    static func outcome(_ arguments: [String]) -> (code: Int32, message: String?) {
        do {
            var command = try parseAsRoot(arguments)
            try $arguments.withValue(arguments) { try command.run() }
            return (ExitStatus.done, nil)
        } catch let error as SceneError {
            return (ExitStatus.badInput, error.description)
        } catch let error as BadInput {
            return (ExitStatus.badInput, line(error.description))
        } catch let error as RunFailure {
            return (ExitStatus.runFailed, line(error.description))
        } catch let error as Interrupted {
            return (ExitStatus.interrupted, line(error.description))
        } catch let error as RunInputError {
            // A run folder or output folder that cannot be used as given: bad input, whichever command met it.
            return (ExitStatus.badInput, line(error.description))
        } catch let error as RunFileError {
            return (ExitStatus.runFailed, line(error.description))
        } catch let error as OverrideError {
            return (ExitStatus.badInput, line(error.description))
        } catch where !(error is ValidationError || error is ExitCode || error is CleanExit || isParserError(error)) {
            // Anything else a command let through (a Foundation error while writing): exit 1 in plain words.
            return (ExitStatus.runFailed, line(plainText(error)))
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                let message = fullMessage(for: error)
                if !message.isEmpty { print(message) }
                return (ExitStatus.done, nil)
            }
            // Usage errors are bad input too: the parser's first line, without its usage block
            // (`--help` shows that).
            let text = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
            let reason = text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
            return (code == .validationFailure ? ExitStatus.badInput : code.rawValue,
                    line(reason + " (see worldsweep help)"))
        }
    }

    /// ArgumentParser's own (internal) error types: a command line it could not parse.
    static func isParserError(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// `worldsweep: error: MESSAGE` unless the message already names its file; one line either way.
    static func line(_ message: String) -> String {
        TextPosition.oneLine(message.contains(": error: ") ? message : "worldsweep: error: " + message)
    }

    static func writeError(_ message: String) {
        let text = message.hasSuffix("\n") ? message : message + "\n"
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}

/// An `EngineCode` as a task-local value (a protocol's metatype is not `Sendable` by itself; the
/// conformers are caseless enums).
struct EngineCodeChoice: @unchecked Sendable {
    let code: any EngineCode.Type
    init(_ code: any EngineCode.Type) { self.code = code }
}

/// The exit codes of the contract.
public enum ExitStatus {
    public static let done: Int32 = 0
    public static let runFailed: Int32 = 1
    public static let badInput: Int32 = 2
    /// Ctrl-C (SIGINT) or SIGTERM: the worlds in flight were written; `--resume` continues.
    public static let interrupted: Int32 = 130
}

/// An error as a person reads it: our own errors by their description, Foundation's by their
/// localized sentence ("The file … couldn't be saved …"), never "Error Domain=NSCocoaErrorDomain".
func plainText(_ error: any Error) -> String {
    switch error {
    case let e as RunFileError: return e.description
    case let e as RunInputError: return e.description
    case let e as SceneError: return e.description
    default: return error.localizedDescription
    }
}

/// A run stopped by Ctrl-C or SIGTERM (exit 130): what was written can be resumed.
public struct Interrupted: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Bad input found by a command itself (an override that does not parse, a bad tick count).
public struct BadInput: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
