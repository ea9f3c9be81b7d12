import Foundation
import WorldSweep
import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

/// One world of a run simulated on demand, on the batched engine (the lanes of a plan batch, as
/// the run made it): its items' states after every tick until it pauses or ends, the contacts that
/// began, its metrics, and the `worldsweep trace` command that prints the same world.
public struct ReplayRequest: Sendable, Equatable {
    public enum World: Sendable, Equatable {
        /// A world of the sweep by its number (worlds.csv's `world`), jitter included; of a
        /// search, a world it evaluated (its tune folder's worlds.csv numbers them).
        case number(Int)
        /// The sweep's first point with these swept values (`trace --set`), without jitter.
        case values([String: Double])
    }
    public var run: String
    public var world: World
    public var ticks: Int?

    /// The most item states one replay may return (items × ticks), and the most ticks.
    public static let maxStates = 1_200_000, maxTicks = 36_000, maxItems = 2_000
    /// Wall seconds a replay may simulate before it is abandoned (refused with 413).
    public static let maxSeconds = 20.0
}

public enum Replay {
    /// The reply as JSON text.
    public static func json(_ request: ReplayRequest, folder: RunsFolder) throws(ServeError) -> String {
        let dir = try folder.folder(request.run)
        let base = try ReplaySource.scene(dir)
        let (file, overrides) = try ReplaySource.file(dir)
        let shownFile = RunText.shellWord(folder.shown + "/" + folder.relative(file))
        var command = "worldsweep trace \(shownFile)"
        var scene: SceneFile, index: Int, label: String
        switch request.world {
        case .number(let n) where base.tune != nil:
            scene = try ReplaySource.tuneWorld(base, dir: dir, world: n); index = 0; label = "world \(n) of the search"
            command += overrides.arguments.map { " " + RunText.shellWord($0) }.joined() + " --world \(n)"
        case .number(let n):
            guard (0..<base.worldCount).contains(n) else {
                throw ServeError(.badRequest, "world \(n) is outside 0..<\(base.worldCount): the run has \(base.worldCount) worlds")
            }
            scene = base; index = n; label = "world \(n)"
            command += overrides.arguments.map { " " + RunText.shellWord($0) }.joined() + " --world \(n)"
        case .values where base.tune != nil:
            throw ServeError(.badRequest, "a search's worlds are replayed by number (trace refuses --set of a tuned key)")
        case .values(let values):
            let axes = ReplaySource.axes(base)
            var sets: [String] = []
            for (path, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let axis = axes.first(where: { $0.path == path }) else {
                    throw ServeError(.badRequest, "\(path) is not swept by this run (swept: \(axes.map(\.path).joined(separator: ", ")))")
                }
                guard value.isFinite, value >= axis.min, value <= axis.max else {
                    throw ServeError(.badRequest, "\(path)=\(value) is outside the swept range [\(axis.min), \(axis.max)]")
                }
                sets.append("\(path)=\(JSONOut.doubleText(value))")
            }
            var loaded: SceneFile
            do {
                // What `trace --set` runs: the first point, the given values over it, no jitter.
                loaded = try TraceWorld.scene(try ReplaySource.scene(dir, extraSets: sets))
            } catch {
                throw ServeError(.badRequest, "the values do not make a valid world: \(String(describing: error).prefix(300))")
            }
            loaded.sweep = nil   // world 0 is then the scene itself: the first point, no jitter
            scene = loaded; index = 0
            label = sets.joined(separator: ", ")
            command += ReplaySource.overrides(overrides, setting: sets).arguments.map { " " + RunText.shellWord($0) }.joined()
        }
        let ticks = request.ticks ?? scene.world.ticks
        guard ticks >= 1, ticks <= ReplayRequest.maxTicks else {
            throw ServeError(.badRequest, "ticks must be 1 to \(ReplayRequest.maxTicks), got \(ticks)")
        }
        guard scene.items.count <= ReplayRequest.maxItems, scene.items.count * ticks <= ReplayRequest.maxStates else {
            throw ServeError(.contentTooLarge, "\(scene.items.count) items × \(ticks) ticks is over the \(ReplayRequest.maxStates) states a replay returns; ask for fewer ticks")
        }
        if ticks != scene.world.ticks {
            scene.world.ticks = ticks
            command += " --ticks \(ticks)"
        }
        let runner = WorldRunner(scene: scene)
        let items = scene.items
        var frames: [[Float]] = []
        var contacts: [(tick: Int, contact: ReplayedContact)] = []
        var last: [ItemState?] = []
        var pausedAt: Int?
        var overTime = false
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(ReplayRequest.maxSeconds * 1e9)
        let replayed = runner.replayInLanes([index]) { _, tick, states, began, paused in
            if DispatchTime.now().uptimeNanoseconds > deadline {
                overTime = true
                return false
            }
            var frame: [Float] = []
            frame.reserveCapacity(items.count * 3)
            for (i, state) in states.enumerated() {
                frame.append(Float(state?.center.x ?? items[i].center.x))
                frame.append(Float(state?.center.y ?? items[i].center.y))
                frame.append(Float(state?.angle ?? items[i].angle))
            }
            frames.append(frame)
            for c in began { contacts.append((tick, c)) }
            last = states
            if paused { pausedAt = tick }
            // As a run: a world that pauses (every item asleep) ends there.
            return !paused
        }
        guard !overTime else {
            throw ServeError(.contentTooLarge, "the replay took over \(Int(ReplayRequest.maxSeconds)) s by tick \(frames.count) of \(ticks); ask for fewer ticks (ticks=N)")
        }
        guard replayed else {
            throw ServeError(.unprocessableContent, "this world cannot be replayed in the engine's lanes (its memory or collision rule); use the trace command")
        }
        let result = runner.run(world: index)

        var out = JSONOut()
        out.raw("{\"run\":"); out.string(request.run)
        out.raw(",\"label\":"); out.string(label)
        out.raw(",\"command\":"); out.string(command)
        out.raw(",\"tick\":"); out.number(scene.world.tick)
        out.raw(",\"ticks\":\(ticks),\"ticksRun\":\(frames.count),\"pausedAt\":\(pausedAt.map(String.init) ?? "null")")
        out.raw(",\"bounds\":["); out.number(scene.world.bounds.width); out.raw(","); out.number(scene.world.bounds.height); out.raw("]")
        out.raw(",\"items\":[")
        for (i, item) in items.enumerated() {
            out.raw(i == 0 ? "{" : ",{")
            out.raw("\"name\":"); out.string(item.name)
            out.raw(",\"width\":"); out.number(item.size.width)
            out.raw(",\"height\":"); out.number(item.size.height)
            out.raw(",\"shape\":"); out.string(item.shape.rawValue)
            out.raw(",\"path\":[" + item.path.map { "[\(JSONOut.doubleText($0.x)),\(JSONOut.doubleText($0.y))]" }.joined(separator: ",") + "]}")
        }
        out.raw("],\"boundaries\":[" + boundaries(scene).map { "[" + $0.map(JSONOut.doubleText).joined(separator: ",") + "]" }.joined(separator: ",") + "]")
        out.raw(",\"frames\":[")
        for (t, frame) in frames.enumerated() {
            out.raw(t == 0 ? "[" : ",[")
            for (k, v) in frame.enumerated() { if k > 0 { out.raw(",") }; out.number(v) }
            out.raw("]")
        }
        out.raw("],\"contacts\":[")
        for (k, c) in contacts.enumerated() {
            out.raw(k == 0 ? "{" : ",{")
            out.raw("\"tick\":\(c.tick),\"item\":"); out.string(c.contact.item)
            out.raw(",\"other\":"); out.string(c.contact.other)
            out.raw(",\"x\":"); out.number(Float(c.contact.point.x))
            out.raw(",\"y\":"); out.number(Float(c.contact.point.y)); out.raw("}")
        }
        // The final state as trace's state columns print it: item,x,y,angle,vx,vy,angular_velocity.
        out.raw("],\"final\":[")
        for (i, item) in items.enumerated() {
            let s = i < last.count ? last[i] : nil
            let fields: [Double] = [s?.center.x ?? item.center.x, s?.center.y ?? item.center.y, s?.angle ?? item.angle,
                                    s?.velocity.dx ?? 0, s?.velocity.dy ?? 0, s?.angularVelocity ?? 0]
            if i > 0 { out.raw(",") }
            out.string(([item.name] + fields.map { JSONOut.floatText(Float($0)) }).joined(separator: ","))
        }
        out.raw("],\"metrics\":")
        out.raw((try? String(decoding: JSONEncoder().encode(result), as: UTF8.self)) ?? "null")
        out.raw("}")
        return out.text
    }

    /// Line segments (x1, y1, x2, y2) of the collision behaviors' boundaries, the reference bounds included.
    static func boundaries(_ scene: SceneFile) -> [[Double]] {
        var lines: [[Double]] = []
        for behavior in scene.behaviors {
            guard case .collision(let c) = behavior.kind else { continue }
            if c.referenceBounds {
                let w = scene.world.bounds.width, h = scene.world.bounds.height, e = c.insets
                let (l, t, r, b) = (e.left, e.top, w - e.right, h - e.bottom)
                lines += [[l, t, r, t], [r, t, r, b], [r, b, l, b], [l, b, l, t]]
            }
            for boundary in c.boundaries {
                switch boundary.shape {
                case let .segment(from, to): lines.append([from.x, from.y, to.x, to.y])
                case .path(let points):
                    for k in points.indices { let a = points[k], b = points[(k + 1) % points.count]; lines.append([a.x, a.y, b.x, b.y]) }
                }
            }
        }
        return Array(lines.prefix(10_000))
    }
}
