import ArgumentParser
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// `--set` and `--sweep`, for every command that reads a sweep file (`run`, `validate`, `trace`,
/// `bench`, `tune`): one option group, so they all read overrides the same way.
struct OverrideOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Fix a value: an item's or behavior's number (bouncy.elasticity=0.5), or world.duration, world.ticks, "
            + "world.tick, sweep.replicas, sweep.seed, sweep.samples, sweep.kind. Repeatable; a swept key stops "
            + "being swept.", valueName: "KEY=VALUE"))
    var sets: [String] = []

    @Option(name: .customLong("sweep"), help: ArgumentHelp(
        "Sweep a number over a,b,c, or a range as in the file (linspace:0,1,11, range:0,1,0.25, "
            + "'{logspace: [0.01, 1, 3]}'); replaces the file's axis over KEY or adds one. Repeatable.",
        valueName: "KEY=VALUES"))
    var sweeps: [String] = []

    var overrides: SceneOverrides { SceneOverrides(sets: sets, sweeps: sweeps) }

    /// The form of each argument, before any file is read (the file checks the rest).
    func validate() throws {
        for (flag, list) in [("--set", sets), ("--sweep", sweeps)] {
            for text in list {
                if let problem = SceneOverrides.formProblem(flag: flag, text) { throw ValidationError(problem.description) }
            }
        }
    }

    /// `load`, and the file as composed when there are no overrides, for the engine to parse
    /// rather than read and compose again (`SweepSource.composed`).
    func loadComposed(_ file: String) throws -> (scene: SceneFile, composed: ComposedFile?) {
        guard overrides.isEmpty else { return (try load(file), nil) }
        let composed = try SceneFile.compose(path: file)
        return (try SceneFile.parse(composed, path: file), composed)
    }

    /// The file with the overrides applied; a bad override is bad input naming its flag.
    func load(_ file: String) throws -> SceneFile {
        do {
            return try SceneFile.load(path: file, overrides: overrides)
        } catch let error as OverrideError {
            throw BadInput(error.description)
        }
    }
}

/// `--max-worlds` of `run`, `validate` and `bench` (each has its own `--force`, which does more in `run`).
struct WorldLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-worlds"), parsing: .unconditional,
            help: "Refuse sweeps with more worlds than this unless --force.")
    var maxWorlds: Int = WorldLimit.defaultMaximum

    func validate() throws {
        if maxWorlds < 1 { throw ValidationError("--max-worlds must be 1 or more, got \(maxWorlds)") }
    }
}

/// `run --engine`: which engine runs the worlds.
enum EngineChoice: String, CaseIterable, ExpressibleByArgument {
    /// Many worlds per instruction.
    case batched
    /// One world at a time (same results with simd).
    case single
}

/// `run --integrator`: the batched engine's integrator back end.
enum IntegratorChoice: String, CaseIterable, ExpressibleByArgument {
    case simd
    case blas

    var backEnd: LaneIntegrator { LaneIntegrator(rawValue: rawValue)! }
}
