import ArgumentParser
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// `worldsweep trace FILE`: one world tick by tick, as CSV on stdout.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Print one world (the sweep's first point, or any world of it) tick by tick as CSV.",
        usage: "worldsweep trace <file> [<options>]",
        discussion: """
            Rows: tick,time,item,x,y,angle,vx,vy,angular_velocity, one per item per tick, after the \
            tick. With --events: tick,time,event,item,other,x,y for began/ended contacts (other is an \
            item, a boundary identifier or `bounds`) and paused/resumed rows for the animator.

            Without --world or --point the sweep's first point runs without jitter; --world N (the \
            `world` column of worlds.csv) or --point P --replica R replays exactly that world of the \
            sweep, jitter included, so its last rows are that world's final state in worlds.csv.

            Examples:
              worldsweep trace Sweeps/twin-drop.yaml --ticks 120
              worldsweep trace Sweeps/twin-drop.yaml --events
              worldsweep trace Sweeps/twin-drop.yaml --world 417
              worldsweep trace Sweeps/twin-drop.yaml --point 12 --replica 0 --events
              worldsweep trace Sweeps/twin-drop.yaml --set bouncy.elasticity=0.5
              worldsweep trace Sweeps/twin-drop.yaml --sweep fall.magnitude=1,2 \\
                  --world 3 --ticks 60
            """)

    @Argument(help: "A scene or sweep file (YAML or JSON).")
    var file: String

    @OptionGroup var overrides: OverrideOptions

    @Option(parsing: .unconditional, help: "Ticks to run (default: the file's duration).")
    var ticks: Int?

    @Flag(help: "Print contact and animator events instead of states.")
    var events = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Replay this world of the sweep (worlds.csv's `world` column), jitter included.", valueName: "N"))
    var world: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Replay this point of the sweep (worlds.csv's `point` column); with --replica.", valueName: "P"))
    var point: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The replica of --point (default 0).", valueName: "R"))
    var replica: Int?

    func run() throws {
        if let ticks { try CommandLineLimits.check(ticks, CommandLineLimits.ticks, option: "--ticks") }
        let selection = try TraceWorld.selection(world: world, point: point, replica: replica)
        let loaded = try overrides.load(file)
        let scene = try loaded.tune != nil && selection != nil ? TraceWorld.tuneScene(loaded, world: selection!)
            : TraceWorld.scene(loaded, world: selection)
        _ = try MemoryCheck.worldsThatFit(scene, runner: WorldRunner(scene: scene), batched: false, outputs: false)
        let output = StandardOutput()
        TraceWorld.trace(scene, ticks: ticks ?? scene.world.ticks, events: events) { output.write($0) }
        output.flush()
    }
}

/// Runs and prints one world; separate from the command so tests can read what it prints.
public enum TraceWorld {
    public static let stateHeader = "tick,time,item,x,y,angle,vx,vy,angular_velocity"
    public static let eventHeader = "tick,time,event,item,other,x,y"

    /// Which world of the sweep to replay.
    public enum WorldSelection: Sendable, Equatable {
        case world(Int)
        case point(Int, replica: Int)
    }

    /// The world the options name: `--world N`, or `--point P [--replica R]`; nil for neither.
    public static func selection(world: Int?, point: Int?, replica: Int?) throws -> WorldSelection? {
        // Parsed unconditionally, so "-1" reaches this check instead of reading as an option.
        for (option, value) in [("--world", world), ("--point", point), ("--replica", replica)] {
            if let value, value < 0 { throw BadInput("\(option) must be ≥ 0, got \(value)") }
        }
        if let world {
            if point != nil || replica != nil { throw BadInput("--world names a world by itself: give --world N or --point P --replica R, not both") }
            return .world(world)
        }
        if let point { return .point(point, replica: replica ?? 0) }
        if replica != nil { throw BadInput("--replica needs --point P") }
        return nil
    }

    /// The scene (overrides applied) at the sweep's first point (no jitter), or at the selected
    /// world (its point's values and its replica's jitter, as `run` made it).
    public static func scene(_ loaded: SceneFile, world selection: WorldSelection? = nil) throws -> SceneFile {
        var scene = loaded
        if let selection {
            scene = try scene.world(worldIndex(selection, in: scene))
        } else if let first = scene.sweep?.firstPointOverrides(), !first.isEmpty {
            scene = try scene.applying(first)
        }
        return scene
    }

    /// `scene(_:world:)` of a file loaded with `--set` overrides (the tests' short form).
    public static func scene(file: String, overrides: [String], world selection: WorldSelection? = nil) throws -> SceneFile {
        do {
            return try scene(SceneFile.load(path: file, overrides: SceneOverrides(sets: overrides)), world: selection)
        } catch let error as OverrideError {
            throw BadInput(error.description)
        }
    }

    /// The world index of a selection, checked against the sweep's size.
    static func worldIndex(_ selection: WorldSelection, in scene: SceneFile) throws -> Int {
        let points = scene.sweep?.pointCount ?? 1, replicas = scene.sweep?.replicas ?? 1
        let worlds = points * replicas
        switch selection {
        case .world(let n):
            guard (0..<worlds).contains(n) else {
                throw BadInput("--world \(n) is outside 0..<\(worlds): \(scene.sourcePath) makes \(worlds) world\(worlds == 1 ? "" : "s")")
            }
            return n
        case let .point(p, r):
            guard (0..<points).contains(p) else {
                throw BadInput("--point \(p) is outside 0..<\(points): \(scene.sourcePath) has \(points) point\(points == 1 ? "" : "s")")
            }
            guard (0..<replicas).contains(r) else {
                throw BadInput("--replica \(r) is outside 0..<\(replicas): each point of \(scene.sourcePath) has \(replicas) replica\(replicas == 1 ? "" : "s")")
            }
            return p * replicas + r
        }
    }

    /// Runs `ticks` ticks and hands each CSV line (newline included) to `emit`.
    public static func trace(_ scene: SceneFile, ticks: Int, events: Bool, emit: (String) -> Void) {
        let built = scene.makeAnimator()
        let recorder = EventRecorder(built)
        if events {
            built.animator.delegate = recorder
            for (_, behavior) in built.collisionBehaviors { behavior.collisionDelegate = recorder }
        }
        emit((events ? eventHeader : stateHeader) + "\n")
        for tick in 1...max(ticks, 1) where ticks > 0 {
            recorder.tick = tick
            built.animator.tick(built.tick)
            let time = format(time: built.animator.elapsedTime)
            if events {
                for e in recorder.pending {
                    emit("\(tick),\(time),\(e.event),\(e.item),\(e.other),\(e.point.map { format(Float($0.x)) } ?? ""),\(e.point.map { format(Float($0.y)) } ?? "")\n")
                }
                recorder.pending.removeAll()
            } else {
                for view in built.views {
                    guard let s = built.animator.itemState(for: view) else {
                        // An item no behavior acts on stays where the file put it.
                        emit("\(tick),\(time),\(view.name),\(format(Float(view.center.x))),\(format(Float(view.center.y))),\(format(Float(view.angle))),0,0,0\n")
                        continue
                    }
                    emit("\(tick),\(time),\(view.name),\(format(Float(s.center.x))),\(format(Float(s.center.y))),\(format(Float(s.angle))),\(format(Float(s.velocity.dx))),\(format(Float(s.velocity.dy))),\(format(Float(s.angularVelocity)))\n")
                }
            }
        }
    }

    /// Engine values are Float: print the shortest text that reads back as the same Float.
    static func format(_ x: Float) -> String {
        if x == 0 { return "0" }   // also folds -0
        let s = x.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// A Double setting (validate's tick length) as its Float text: short, and enough to read.
    static func format(_ t: Double) -> String {
        let s = String(Float(t).description)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// The animator's `elapsedTime`, a Double sum of tick lengths (it stands still while the
    /// animator is paused), as the shortest text that reads back as the same Double.
    static func format(time t: Double) -> String {
        let s = t.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }
}

/// Collects the animator's callbacks of a tick in delivery order.
final class EventRecorder: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    struct Event { var event: String; var item: String; var other: String; var point: Point? }
    var pending: [Event] = []
    var tick = 0
    private let built: BuiltScene

    init(_ built: BuiltScene) { self.built = built }

    private func name(_ item: DynamicItem) -> String { built.name(of: item) ?? "?" }

    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at p: Point) {
        pending.append(Event(event: "began", item: name(item1), other: name(item2), point: p))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {
        pending.append(Event(event: "ended", item: name(item1), other: name(item2), point: nil))
    }
    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier id: String?, at p: Point) {
        pending.append(Event(event: "began", item: name(item), other: id ?? "bounds", point: p))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier id: String?) {
        pending.append(Event(event: "ended", item: name(item), other: id ?? "bounds", point: nil))
    }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        pending.append(Event(event: "paused", item: "", other: "", point: nil))
    }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
        pending.append(Event(event: "resumed", item: "", other: "", point: nil))
    }
}

/// Buffered stdout: traces are long and line-by-line writes are slow.
final class StandardOutput {
    private var buffer = ""
    func write(_ s: String) {
        buffer += s
        if buffer.utf8.count > 1 << 16 { flush() }
    }
    func flush() {
        print(buffer, terminator: "")
        buffer = ""
    }
}
