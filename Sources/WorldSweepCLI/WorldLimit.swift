import WorldSweepRun
import WorldSweepScene

/// The cap on how many worlds a file may make before a command insists on `--force`, so that a
/// typo in a range cannot start a week-long run. Shared by `validate` and `run`.
enum WorldLimit {
    static let defaultMaximum = 10_000_000

    /// Throws a file:line:column error (at the sweep's first parameter) when the file makes more
    /// worlds than `maximum` and `force` is not given.
    static func check(_ scene: SceneFile, maximum: Int, force: Bool) throws {
        if maximum < 1 { throw BadInput("--max-worlds must be 1 or more, got \(maximum)") }
        guard scene.worldCount > maximum, !force else { return }
        let location = scene.sweep?.parameters.first?.location ?? .none
        throw SceneError(path: scene.sourcePath, at: location,
                         "the sweep makes \(scene.worldCount) worlds, more than the limit of \(maximum) (--max-worlds); add --force to allow it")
    }
}

/// The memory pre-flight of `run` and `trace`: a scene whose one world cannot fit in the memory
/// available is refused before anything is allocated (an abort half-way helps nobody).
enum MemoryCheck {
    /// How many worlds fit side by side (at least 1), or throws at the file's first item.
    static func worldsThatFit(_ scene: SceneFile, runner: WorldRunner, batched: Bool = true, outputs: Bool = true,
                              available: Double = MemoryPlan.availableBytes()) throws -> Int {
        let plan = runner.memoryPlan
        // A fifth kept back: the estimate is from measurements, and the machine is shared.
        let fit = plan.worldsThatFit(in: available * 0.8, batched: batched && runner.engine != .single, outputs: outputs)
        guard fit < 1 else { return fit }
        let what = outputs ? "a run of this scene needs about \(MemoryPlan.text(plan.oneWorldBytes(outputs: true))) "
            + "(\(scene.items.count) items; \(plan.heldWorlds) worlds' results held for the point in progress and the report's sample)"
            : "one world of this scene needs about \(MemoryPlan.text(plan.oneWorldBytes(outputs: false))) (\(scene.items.count) items)"
        throw SceneError(path: scene.sourcePath, at: scene.items.first?.location ?? .none,
                         what + ", more than the \(MemoryPlan.text(available)) of memory available")
    }
}
