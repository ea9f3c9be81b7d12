// Pictures of single worlds: the report replays its extreme worlds side by side in the lanes of
// one batch (the single-world engine, which agrees bit for bit, replays any that cannot share one)
// and draws each item's path with its contacts marked; one world is also drawn as an animation
// (SVG SMIL, no scripts).
import Foundation
import WorldSweep
import WorldSweepRun
import WorldSweepScene

/// What the report needs to replay worlds: the sweep file as loaded and the path the command
/// line named (for the `worldsweep trace` commands it prints).
public struct WorldReplay: Sendable {
    public var scene: SceneFile
    public var file: String
    /// The run's `--set` / `--sweep` arguments: a replay needs them to make the same world.
    public var overrides: [String]
    public init(scene: SceneFile, file: String, overrides: [String] = []) {
        self.scene = scene; self.file = file; self.overrides = overrides
    }
}

struct Trajectory: Sendable {
    struct Contact: Sendable { var tick: Int; var item: String; var other: String; var x: Double; var y: Double }
    struct ItemPath: Sendable {
        var name: String
        var shape: ItemShape
        var size: Size
        var outline: [Point]
        /// Centre and angle after each tick (tick 0: where the file puts it).
        var states: [(x: Double, y: Double, angle: Double)]
    }
    var world: Int
    var bounds: Size
    var tick: Double
    var items: [ItemPath]
    var contacts: [Contact]
    /// Boundary segments (reference bounds are drawn as the frame).
    var edges: [(Point, Point)]
    /// Fixed points items are held to: an anchor attachment's anchor or a snap's point, with the
    /// item it holds (by index) and what it is.
    var anchors: [(point: Point, item: Int, what: String)] = []
    /// Per item, the rest a snap, spring or pendulum pulls it to (RestTarget: the run's own rule
    /// for its overshoot and settle time; nil: none), and its distance from that rest after each
    /// tick, tick 0 first (RestTarget.displacement's signed distance; empty without a target).
    var restTargets: [RestTarget?] = []
    var restDistances: [[Double]] = []

    /// True when some item has a rest to be drawn against (RestReplayChart).
    var hasRest: Bool { restDistances.contains { $0.count >= 2 } }

    /// Replays world `index` tick by tick on the single-world engine; nil if the file cannot make
    /// that world.
    static func replay(_ replay: WorldReplay, world index: Int) -> Trajectory? {
        guard let scene = try? replay.scene.world(index) else { return nil }
        let built = scene.makeAnimator()
        let recorder = ContactRecorder(built)
        for (_, behavior) in built.collisionBehaviors { behavior.collisionDelegate = recorder }
        var recording = Recording(scene)
        for tick in 1...max(1, scene.world.ticks) where scene.world.ticks > 0 {
            recorder.tick = tick
            built.animator.tick(built.tick)
            guard recording.add(states: built.views.map { built.animator.itemState(for: $0) }, tick: tick,
                                paused: !built.animator.isRunning) else { break }
        }
        recording.contacts = recorder.contacts
        return recording.trajectory(world: index)
    }

    /// Replays `worlds` side by side in the lanes of one batch (WorldRunner.replayInLanes: the
    /// same states and contacts as one at a time, bit for bit, for a fraction of the time); nil
    /// when they cannot share one, or the file cannot make one of them.
    static func replayInLanes(_ replay: WorldReplay, worlds: [Int]) -> [Trajectory]? {
        let runner = WorldRunner(scene: replay.scene)
        var scenes: [SceneFile] = []
        for index in worlds {
            guard let scene = try? replay.scene.world(index) else { return nil }
            scenes.append(scene)
        }
        var recordings = scenes.map(Recording.init)
        let replayed = runner.replayInLanes(worlds) { k, tick, states, contacts, paused in
            for c in contacts { recordings[k].contacts.append(.init(tick: tick, item: c.item, other: c.other, x: c.point.x, y: c.point.y)) }
            return recordings[k].add(states: states, tick: tick, paused: paused)
        }
        guard replayed else { return nil }
        return zip(recordings, worlds).map { $0.trajectory(world: $1) }
    }

    /// What a replay records of one world, tick by tick, whichever engine ticks it.
    private struct Recording {
        let scene: SceneFile
        var items: [ItemPath]
        /// Where the file puts each item: an item no behavior moves stays there (and tick 0's
        /// states are tick 1's with these, for the distance from rest).
        let placed: [(center: Point, angle: Double)]
        let targets: [RestTarget?]
        var rest: [[Double]]
        var contacts: [Contact] = []

        init(_ scene: SceneFile) {
            self.scene = scene
            placed = scene.items.map { ($0.center, $0.angle) }
            items = scene.items.map { spec in
                ItemPath(name: spec.name, shape: spec.shape, size: spec.size, outline: spec.path, states: [(spec.center.x, spec.center.y, spec.angle)])
            }
            targets = RestTarget.targets(of: scene)
            rest = [[Double]](repeating: [], count: scene.items.count)
        }

        /// A tick's item states (file order; nil: an item no behavior moves). False when the replay
        /// ends here: a paused animator stays as it is, and the rest of the run would draw nothing new.
        mutating func add(states: [ItemState?], tick: Int, paused: Bool) -> Bool {
            for (k, state) in states.enumerated() {
                items[k].states.append(state.map { ($0.center.x, $0.center.y, $0.angle) } ?? (placed[k].center.x, placed[k].center.y, placed[k].angle))
            }
            if targets.contains(where: { $0 != nil }) {
                // The engine has no item states before its first tick: tick 0's are tick 1's with
                // the centre and angle the file gives (all the distance from rest reads).
                let initial = states.enumerated().map { k, s in s.map { var s0 = $0; (s0.center, s0.angle) = placed[k]; return s0 } }
                for (k, target) in targets.enumerated() {
                    guard let target, let s = states[k] else { continue }
                    if rest[k].isEmpty, let s0 = initial[k] {
                        rest[k].append(target.displacement(s0, other: target.otherItem.flatMap { initial[$0] }, axis: nil).signed)
                    }
                    rest[k].append(target.displacement(s, other: target.otherItem.flatMap { states[$0] }, axis: nil).signed)
                }
            }
            return !(paused && tick > 1)
        }

        func trajectory(world index: Int) -> Trajectory {
            var edges: [(Point, Point)] = []
            for b in scene.behaviors {
                guard case .collision(let c) = b.kind else { continue }
                for boundary in c.boundaries {
                    switch boundary.shape {
                    case let .segment(from, to): edges.append((from, to))
                    case let .path(ps): for i in ps.indices { edges.append((ps[i], ps[(i + 1) % ps.count])) }
                    }
                }
            }
            var anchors: [(point: Point, item: Int, what: String)] = []
            for b in scene.behaviors {
                guard let first = b.items.first, let k = scene.items.firstIndex(where: { $0.name == first }) else { continue }
                switch b.kind {
                case .attachment(let a) where b.items.count == 1:
                    anchors.append((a.anchor!, k, "\(b.name): \(first)'s \(a.kind.rawValue) attachment anchor"))
                case .snap(let snap):
                    anchors.append((snap.point, k, "\(b.name): \(first)'s snap point"))
                default:
                    continue
                }
            }
            return Trajectory(world: index, bounds: scene.world.bounds, tick: scene.world.tick, items: items,
                              contacts: contacts, edges: edges, anchors: anchors, restTargets: targets, restDistances: rest)
        }
    }
}

/// Collects where contacts began.
final class ContactRecorder: CollisionBehaviorDelegate {
    var contacts: [Trajectory.Contact] = []
    var tick = 0
    private let built: BuiltScene
    init(_ built: BuiltScene) { self.built = built }
    private func name(_ item: DynamicItem) -> String { built.name(of: item) ?? "?" }
    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at p: Point) {
        contacts.append(.init(tick: tick, item: name(item1), other: name(item2), x: p.x, y: p.y))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {}
    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier id: String?, at p: Point) {
        contacts.append(.init(tick: tick, item: name(item), other: id ?? "bounds", x: p.x, y: p.y))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier id: String?) {}
}

/// One world drawn to scale in its reference bounds (y down, as on screen).
struct TrajectoryChart: Sendable {
    var title: String
    var trajectory: Trajectory
    var animated = false
    var width = 220.0

    /// SVG points per world point, and the canvas height.
    var layout: (scale: Double, height: Double, top: Double) {
        let b = trajectory.bounds
        let scale = (width - 20) / max(1, b.width)
        return (scale, 30 + b.height * scale + 10, 30)
    }

    func shapeElement(_ item: Trajectory.ItemPath, scale: Double, color: String, fill: String) -> String {
        let w = item.size.width * scale, h = item.size.height * scale
        switch item.shape {
        case .ellipse:
            return "<ellipse cx=\"0\" cy=\"0\" rx=\"\(Text.px(w / 2))\" ry=\"\(Text.px(h / 2))\" fill=\"\(fill)\" stroke=\"\(color)\"/>"
        case .path where !item.outline.isEmpty:
            let pts = item.outline.map { "\(Text.px($0.x * scale)),\(Text.px($0.y * scale))" }.joined(separator: " ")
            return "<polygon points=\"\(pts)\" fill=\"\(fill)\" stroke=\"\(color)\"/>"
        default:
            return "<rect x=\"\(Text.px(-w / 2))\" y=\"\(Text.px(-h / 2))\" width=\"\(Text.px(w))\" height=\"\(Text.px(h))\" fill=\"\(fill)\" stroke=\"\(color)\"/>"
        }
    }

    func svg() -> String {
        let t = trajectory
        let (scale, height, top) = layout
        let left = 10.0
        func p(_ x: Double, _ y: Double) -> String { "\(Text.px(left + x * scale)),\(Text.px(top + y * scale))" }
        let f = ChartFrame(width: width, height: height, left: left, right: 10, top: top, bottom: 10)
        var s = SVGKit.open(f, label: title) + "<text x=\"\(Text.px(left))\" y=\"18\" class=\"ttl\">\(HTML.escape(title))</text>\n"
        s += "<rect class=\"frame\" x=\"\(Text.px(left))\" y=\"\(Text.px(top))\" width=\"\(Text.px(t.bounds.width * scale))\" height=\"\(Text.px(t.bounds.height * scale))\"/>\n"
        for (a, b) in t.edges {
            s += "<line class=\"edge\" x1=\"\(Text.px(left + a.x * scale))\" y1=\"\(Text.px(top + a.y * scale))\" x2=\"\(Text.px(left + b.x * scale))\" y2=\"\(Text.px(top + b.y * scale))\" stroke=\"#666\" stroke-width=\"2\"/>\n"
        }
        for (k, item) in t.items.enumerated() {
            let color = Palette.color(k)
            let first = item.states.first!, last = item.states.last!
            // Where it starts (dashed outline) and where it ends (filled).
            s += "<g transform=\"translate(\(p(first.x, first.y))) rotate(\(Text.px(first.angle * 180 / .pi)))\" stroke-dasharray=\"3 2\" opacity=\"0.8\">"
                + shapeElement(item, scale: scale, color: color, fill: "none") + "</g>\n"
            if !animated {
                s += "<g transform=\"translate(\(p(last.x, last.y))) rotate(\(Text.px(last.angle * 180 / .pi)))\">"
                    + shapeElement(item, scale: scale, color: color, fill: color + "55") + "</g>\n"
            }
            let path = item.states.map { p($0.x, $0.y) }.joined(separator: " ")
            s += "<polyline class=\"path\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(path)\"><title>\(HTML.escape("\(item.name): path of its centre over \(item.states.count - 1) ticks"))</title></polyline>\n"
            if animated {
                // Equal time per tick: `values` with linear timing, not a paced path.
                let stride = max(1, item.states.count / 400)
                let kept = Swift.stride(from: 0, to: item.states.count, by: stride).map { item.states[$0] } + [last]
                let dur = Text.px(Double(item.states.count - 1) * t.tick)
                let moves = kept.map { p($0.x, $0.y) }.joined(separator: ";")
                let turns = kept.map { Text.px($0.angle * 180 / .pi) }.joined(separator: ";")
                s += "<g><animateMotion dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" values=\"\(moves)\"/>"
                s += "<g transform=\"rotate(\(Text.px(last.angle * 180 / .pi)))\"><animateTransform attributeName=\"transform\" type=\"rotate\" dur=\"\(dur)s\" repeatCount=\"indefinite\" calcMode=\"linear\" values=\"\(turns)\"/>"
                s += shapeElement(item, scale: scale, color: color, fill: color + "88") + "</g></g>\n"
            }
        }
        for anchor in t.anchors {
            // A cross at the anchor, a thin line to where its item ends (in the still picture).
            let color = Palette.color(anchor.item), x = left + anchor.point.x * scale, y = top + anchor.point.y * scale
            if !animated, let last = t.items[anchor.item].states.last {
                s += "<line class=\"tether\" x1=\"\(Text.px(x))\" y1=\"\(Text.px(y))\" x2=\"\(Text.px(left + last.x * scale))\" y2=\"\(Text.px(top + last.y * scale))\" stroke=\"\(color)\" stroke-width=\"1\" stroke-dasharray=\"2 2\"/>\n"
            }
            s += "<path class=\"anchor\" d=\"M\(Text.px(x - 4)),\(Text.px(y - 4))L\(Text.px(x + 4)),\(Text.px(y + 4))M\(Text.px(x - 4)),\(Text.px(y + 4))L\(Text.px(x + 4)),\(Text.px(y - 4))\" stroke=\"\(color)\" stroke-width=\"2\">"
            s += "<title>\(HTML.escape(anchor.what))</title></path>\n"
        }
        for c in t.contacts {
            let k = t.items.firstIndex { $0.name == c.item } ?? 0
            s += "<circle class=\"contact\" cx=\"\(Text.px(left + c.x * scale))\" cy=\"\(Text.px(top + c.y * scale))\" r=\"3\" fill=\"#fff\" stroke=\"\(Palette.color(k))\" stroke-width=\"1.5\">"
            s += "<title>\(HTML.escape("tick \(c.tick): \(c.item) began touching \(c.other)"))</title></circle>\n"
        }
        return s + "</svg>\n"
    }
}
