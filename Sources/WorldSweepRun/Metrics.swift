import WorldSweep
import WorldSweepScene

/// Records the contract's per-item metrics of one world while it runs: contact counts (in total
/// and per partner), bounce heights, rest time and final state, and watches for blow-ups.
///
/// Install it with `attach()` before the first tick, call `afterTick(_:)` after every tick.
final class MetricsRecorder {
    /// Speeds above this (pt/s) mark the world as blown up.
    static let defaultSpeedLimit = 24_000.0
    private let speedLimit: Double
    /// How many bounce heights each item keeps.
    static let maxBounces = 8

    fileprivate let built: BuiltScene
    fileprivate let indexOfItem: [ObjectIdentifier: Int]
    /// Unit vector against gravity (up), in points; from the scene's last gravity behavior.
    private let up: (x: Double, y: Double)
    private let tickLength: Double

    /// Everything that changes while the world runs, in one value that a tick folds into
    /// through one mutating call.
    @exclusivity(unchecked) fileprivate var tracks: Tracks
    var items: [ItemResult] { tracks.items }
    @exclusivity(unchecked) private(set) var ticksRun = 0
    @exclusivity(unchecked) private(set) var failed = false
    @exclusivity(unchecked) fileprivate(set) var paused = false
    /// The delegate the animator and behaviors hold (weakly) on the recorder's behalf.
    private var listener: Listener?
    /// Each view's body in the animator, as of configuration `bodiesConfiguration`.
    @exclusivity(unchecked) private var bodies: [Int?] = []
    @exclusivity(unchecked) private var bodiesConfiguration = -1

    init(_ built: BuiltScene, speedLimit: Double = MetricsRecorder.defaultSpeedLimit) {
        self.built = built
        self.speedLimit = speedLimit
        indexOfItem = Dictionary(uniqueKeysWithValues: built.views.enumerated().map { (ObjectIdentifier($1), $0) })
        var g = Vector(dx: 0, dy: 1)
        for entry in built.behaviors {
            if let gravity = entry.behavior as? GravityBehavior { g = gravity.gravityDirection }
        }
        let length = (g.dx * g.dx + g.dy * g.dy).squareRoot()
        up = length > 0 ? (-g.dx / length, -g.dy / length) : (0, -1)
        tickLength = built.tick
        tracks = Tracks(itemCount: built.views.count)
        tracks.loops = Self.boundaryLoops(built)
        tracks.lastCenter = built.views.map { ($0.center.x, $0.center.y) }
        tracks.stillTime = Array(repeating: 0, count: built.views.count)
        tracks.lastVelocity = Array(repeating: (0, 0), count: built.views.count)
        tracks.tickLength = built.tick
        tracks.forced = Self.forcedItems(built)
    }

    /// Per item, whether a steady force acts on it: gravity, or an active continuous push, whose
    /// magnitude the engine's Float still holds. Such an item in free flight must move every
    /// sub-step; a state frozen to the bit under it means the arithmetic saturated (gravity 1e30
    /// made the velocity clamp's square overflow and zeroed the velocity: motionless, unflagged).
    fileprivate static func forcedItems(_ built: BuiltScene) -> [Bool] {
        var forced = [Bool](repeating: false, count: built.views.count)
        let index = Dictionary(uniqueKeysWithValues: built.views.enumerated().map { (ObjectIdentifier($1), $0) })
        // Anchored items never move, forces or not (the last item behavior to say wins).
        var anchored = Set<String>()
        for spec in built.scene.behaviors {
            guard case .item(let p) = spec.kind, let flag = p.anchored else { continue }
            for name in spec.items { if flag { anchored.insert(name) } else { anchored.remove(name) } }
        }
        for entry in built.behaviors {
            let acts: Bool
            if let gravity = entry.behavior as? GravityBehavior {
                acts = abs(Float(gravity.magnitude) * EngineSettings.gravityPerUnit) >= 1e-30
            } else if let push = entry.behavior as? PushBehavior, push.mode == .continuous, push.active {
                acts = abs(Float(push.magnitude)) >= 1e-30
            } else {
                continue
            }
            guard acts, let spec = built.scene.behavior(named: entry.name) else { continue }
            for name in spec.items where !anchored.contains(name) {
                if let view = built.view(named: name), let i = index[ObjectIdentifier(view)] { forced[i] = true }
            }
        }
        return forced
    }

    /// Per item, the reference-bounds rectangle (inset) it is kept inside, when a collision
    /// behavior translates the bounds into a boundary for it and its centre starts inside:
    /// such an item's centre can leave only if the engine's numbers failed (it tunnelled).
    fileprivate static func boundaryLoops(_ built: BuiltScene) -> [Tracks.Loop?] {
        let scene = built.scene
        var loops = [Tracks.Loop?](repeating: nil, count: built.views.count)
        let index = Dictionary(uniqueKeysWithValues: built.views.enumerated().map { ($1.name, $0) })
        for behavior in scene.behaviors {
            guard case .collision(let c) = behavior.kind, c.referenceBounds, c.mode != .items else { continue }
            let loop = Tracks.Loop(minX: c.insets.left, minY: c.insets.top,
                                   maxX: scene.world.bounds.width - c.insets.right,
                                   maxY: scene.world.bounds.height - c.insets.bottom)
            for name in behavior.items {
                guard let i = index[name] else { continue }
                let p = built.views[i].center
                if loop.contains(p.x, p.y) { loops[i] = loop }
            }
        }
        return loops
    }

    func attach() {
        let listener = Listener(self)
        self.listener = listener
        built.animator.delegate = listener
        for (_, behavior) in built.collisionBehaviors { behavior.collisionDelegate = listener }
    }

    // MARK: After each tick

    /// Folds the tick's events and states into the metrics; returns false when the world blew up.
    @discardableResult
    func afterTick(_ tick: Int) -> Bool {
        ticksRun = tick
        let animator = built.animator
        if animator.configurationCount != bodiesConfiguration {
            bodies = built.views.map { animator.bodyIndex(of: $0) }
            bodiesConfiguration = animator.configurationCount
        }
        guard tracks.fold(tick: tick, animator: animator, bodies: bodies, up: up, speedLimit: speedLimit) else {
            failed = true
            return false
        }
        return true
    }

    /// The results after the last tick.
    func finish() -> [ItemResult] {
        if failed { return Array(repeating: ItemResult(), count: items.count) }
        // A flight still open when the run ends counts once its apex is behind it (the item is
        // coming down again): the rise is known even though the next contact never came.
        for i in tracks.items.indices {
            guard let f = tracks.flight[i], let s = built.animator.itemState(for: built.views[i]) else { continue }
            if s.center.x * up.x + s.center.y * up.y < f.apex { tracks.recordBounce(i, rise: f.apex - f.start) }
            tracks.flight[i] = nil
        }
        var out = tracks.items
        for i in out.indices {
            let view = built.views[i]
            // Engine precision (Float) so worlds.csv reads back exactly; −0 folded to 0 so text
            // and statistics do not depend on its sign.
            func stored(_ x: Double) -> Double { let f = Double(Float(x)); return f == 0 ? 0 : f }
            if let s = built.animator.itemState(for: view) {
                out[i].x = stored(s.center.x); out[i].y = stored(s.center.y)
                out[i].angle = stored(s.angle)
                out[i].vx = stored(s.velocity.dx); out[i].vy = stored(s.velocity.dy)
                out[i].angularVelocity = stored(s.angularVelocity)
                if s.isAsleep && ticksRun > 0 {
                    out[i].restTime = Double(Float(Double(tracks.lastAwakeTick[i] + 1) * tickLength))
                }
            } else {
                // An item no behavior acts on stays where the file put it.
                out[i].x = stored(view.center.x); out[i].y = stored(view.center.y)
                out[i].angle = stored(view.angle)
            }
        }
        return out
    }
}

/// The recorder's ears: it collects a tick's contact events and pauses into the recorder's
/// tracks. Animators and behaviors hold their delegates weakly, and a weakly referenced object
/// keeps its reference counts in a side table, where every retain takes the runtime's slow path;
/// the recorder, retained every tick, stays out of that by listening through this small object.
private final class Listener: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    unowned let recorder: MetricsRecorder
    init(_ recorder: MetricsRecorder) { self.recorder = recorder }

    private func index(_ item: DynamicItem) -> Int? { recorder.indexOfItem[ObjectIdentifier(item)] }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at point: Point) {
        guard let a = index(item1), let b = index(item2) else { return }
        let views = recorder.built.views
        recorder.tracks.itemPairBegan(a, b, names: (views[a].name, views[b].name), behavior: ObjectIdentifier(behavior))
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {
        guard let a = index(item1), let b = index(item2) else { return }
        recorder.tracks.ended(a); recorder.tracks.ended(b)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?, at point: Point) {
        guard let a = index(item) else { return }
        recorder.tracks.boundaryBegan(a, partner: identifier ?? SceneFile.referenceBoundsPartner)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?) {
        guard let a = index(item) else { return }
        recorder.tracks.ended(a)
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { recorder.paused = true }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { recorder.paused = false }
}

/// A world's per-item metrics while it runs, and the contact events of the current tick.
private struct Tracks {
    var items: [ItemResult]
    /// Contacts open now per item (every began +1, every ended −1, over all behaviors).
    var open: [Int]
    /// Airborne after a contact: where the centre left (projection on `up`) and the highest since.
    var flight: [(start: Double, apex: Double)?]
    /// The last tick each item was awake (0 = before the first tick).
    var lastAwakeTick: [Int]

    /// A rectangle of reference bounds, in points.
    struct Loop {
        var minX, minY, maxX, maxY: Double
        /// Half a point of slack: the centre of an item pressed into a wall stays well inside.
        func contains(_ x: Double, _ y: Double) -> Bool {
            x >= minX - 0.5 && x <= maxX + 0.5 && y >= minY - 0.5 && y <= maxY + 0.5
        }
    }
    /// The boundary loop each item must stay inside (nil: none holds it).
    var loops: [Loop?] = []
    /// Each item's centre after the previous tick.
    var lastCenter: [(x: Double, y: Double)] = []
    /// Each item's velocity after the previous tick (zero before the first).
    var lastVelocity: [(dx: Double, dy: Double)] = []
    /// Whether gravity or a continuous push acts on each item.
    var forced: [Bool] = []
    /// How long (s) each item has kept its centre to the bit while moving or forced.
    var stillTime: [Double] = []
    var tickLength = 0.0

    // Events of the current tick (kept between ticks, so a tick allocates nothing).
    struct PairKey: Hashable { var item: Int; var partner: String; var behavior: ObjectIdentifier }
    var itemPairBegins: [PairKey: Int] = [:]
    var boundaryBegins: [(item: Int, partner: String)] = []
    /// Items with a contact that began or ended this tick.
    var touched: [Bool]
    /// Contacts begun this tick per item.
    var begun: [Int]

    init(itemCount n: Int) {
        items = Array(repeating: ItemResult(), count: n)
        open = Array(repeating: 0, count: n)
        flight = Array(repeating: nil, count: n)
        lastAwakeTick = Array(repeating: 0, count: n)
        touched = Array(repeating: false, count: n)
        begun = Array(repeating: 0, count: n)
    }

    mutating func itemPairBegan(_ a: Int, _ b: Int, names: (String, String), behavior: ObjectIdentifier) {
        // An item pair's event goes to every behavior holding both: count the most any one behavior saw.
        itemPairBegins[PairKey(item: a, partner: names.1, behavior: behavior), default: 0] += 1
        itemPairBegins[PairKey(item: b, partner: names.0, behavior: behavior), default: 0] += 1
        open[a] += 1; open[b] += 1
        touched[a] = true; touched[b] = true
    }

    mutating func boundaryBegan(_ a: Int, partner: String) {
        boundaryBegins.append((a, partner))
        open[a] += 1
        touched[a] = true
    }

    mutating func ended(_ a: Int) {
        open[a] = max(0, open[a] - 1)
        touched[a] = true
    }

    /// Folds one tick into the metrics; false when an item's state is not finite or too fast.
    mutating func fold(tick: Int, animator: DynamicAnimator, bodies: [Int?], up: (x: Double, y: Double),
                       speedLimit: Double) -> Bool {
        // Contacts begun this tick, per item and partner.
        for i in begun.indices { begun[i] = 0 }
        if !itemPairBegins.isEmpty {
            var most: [Int: [String: Int]] = [:]
            for (key, n) in itemPairBegins { most[key.item, default: [:]][key.partner] = max(most[key.item]?[key.partner] ?? 0, n) }
            for (item, partners) in most {
                for (partner, n) in partners {
                    items[item].contacts += n
                    items[item].contactsByPartner[partner, default: 0] += n
                    begun[item] += n
                }
            }
            itemPairBegins.removeAll(keepingCapacity: true)
        }
        for (item, partner) in boundaryBegins {
            items[item].contacts += 1
            items[item].contactsByPartner[partner, default: 0] += 1
            begun[item] += 1
        }
        boundaryBegins.removeAll(keepingCapacity: true)

        for i in items.indices {
            let wasTouched = touched[i]
            touched[i] = false
            guard let b = bodies[i] else { continue }
            let s = animator.itemState(ofBody: b)
            let finite = s.center.x.isFinite && s.center.y.isFinite && s.angle.isFinite
                && s.velocity.dx.isFinite && s.velocity.dy.isFinite && s.angularVelocity.isFinite
            let speed = (s.velocity.dx * s.velocity.dx + s.velocity.dy * s.velocity.dy).squareRoot()
            if !finite || !(speed <= speedLimit) { return false }
            // Numbers the engine's Float arithmetic no longer carries: an item through its boundary
            // loop, or an awake item moving faster than the engine's sleep speed (1 pt/s) whose
            // centre did not move by a bit (a velocity lost below its position's precision).
            if let loop = loops[i], !loop.contains(s.center.x, s.center.y) { return false }
            // Ticks shorter than a sub-step may run none, so it takes two sub-steps' time unmoved.
            let last = lastCenter[i]
            lastCenter[i] = (s.center.x, s.center.y)
            let lastV = lastVelocity[i]
            lastVelocity[i] = (s.velocity.dx, s.velocity.dy)
            let unmoved = s.center.x == last.x && s.center.y == last.y
            let frozen = unmoved && forced[i] && s.velocity.dx == lastV.dx && s.velocity.dy == lastV.dy
            if !s.isAsleep && open[i] == 0 && unmoved && (speed >= 1 || frozen) {
                stillTime[i] += tickLength
                if stillTime[i] >= 2 * Double(EngineSettings.subStep) { return false }
            } else {
                stillTime[i] = 0
            }
            if !s.isAsleep { lastAwakeTick[i] = tick }
            let height = s.center.x * up.x + s.center.y * up.y
            if begun[i] > 0, let f = flight[i] {
                // The flight ends where the next contact begins.
                recordBounce(i, rise: f.apex - f.start)
                flight[i] = nil
            }
            if open[i] == 0 && wasTouched {
                // The item's last contact ended this tick: it leaves from here.
                flight[i] = (height, height)
            } else if open[i] == 0, let f = flight[i] {
                flight[i] = (f.start, max(f.apex, height))
            }
        }
        return true
    }

    mutating func recordBounce(_ i: Int, rise: Double) {
        // Stored as the engine's Float precision so worlds.csv reads back exactly.
        let r = Double(Float(rise))
        if r > 0 && items[i].bounceHeights.count < MetricsRecorder.maxBounces { items[i].bounceHeights.append(r) }
    }
}
