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
