import ArgumentParser
import WorldSweepScene

/// `worldsweep validate FILE`: checks the file and says how many worlds it makes.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scene or sweep file and print how many worlds it makes.",
        usage: "worldsweep validate <file> [<options>]",
        discussion: """
            A bad file gets one line, FILE:LINE:COLUMN: error: ..., and exit code 2.

            Examples:
              worldsweep validate Sweeps/twin-drop.yaml
              worldsweep validate Sweeps/million-drops.yaml --max-worlds 2000000
              worldsweep validate Sweeps/twin-drop.yaml --set sweep.replicas=8 \\
                  --sweep bouncy.elasticity=range:0,1,0.25
            """)

    @Argument(help: "A scene or sweep file (YAML or JSON).")
    var file: String

    @OptionGroup var overrides: OverrideOptions

    @OptionGroup var limit: WorldLimitOptions

    @Flag(help: "Accept files that make more than --max-worlds worlds.")
    var force = false

    func run() throws {
        let scene = try overrides.load(file)
        try WorldLimit.check(scene, maximum: limit.maxWorlds, force: force)
        try TuneChecks.check(scene, file: file, maxWorlds: limit.maxWorlds, force: force)
        print(ValidateCommand.summary(scene))
    }

    static func summary(_ scene: SceneFile) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var s = "\(scene.sourcePath): ok, \(count(scene.worldCount, "world"))"
        if let sweep = scene.sweep {
            s += " (\(sweep.kind.rawValue): \(sweep.pointCount) point\(sweep.pointCount == 1 ? "" : "s") × \(sweep.replicas) replica\(sweep.replicas == 1 ? "" : "s"))"
        }
        s += ", \(count(scene.items.count, "item")), \(count(scene.behaviors.count, "behavior")), \(count(scene.world.ticks, "tick")) of \(TraceWorld.format(scene.world.tick)) s"
        return s
    }
}
