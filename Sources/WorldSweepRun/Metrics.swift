import WorldSweep
import WorldSweepScene

/// Records the contract's per-item metrics of one world while it runs: contact counts (in total
/// and per partner), bounce heights, rest time and final state, and watches for blow-ups.
///
/// Install it with `attach(to:)` before the first tick, call `afterTick(_:)` after every tick.
final class MetricsRecorder: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    /// Speeds above this (pt/s) mark the world as blown up.
    static let defaultSpeedLimit = 24_000.0
    private let speedLimit: Double
    /// How many bounce heights each item keeps.
    static let maxBounces = 8

    private let built: BuiltScene
    private let indexOfItem: [ObjectIdentifier: Int]
    /// Unit vector against gravity (up), in points; from the scene's last gravity behavior.
    private let up: (x: Double, y: Double)
    private let tickLength: Double

    private(set) var items: [ItemResult]
    /// Contacts open now per item (every began +1, every ended −1, over all behaviors).
    private var open: [Int]
    /// Airborne after a contact: where the centre left (projection on `up`) and the highest since.
    private var flight: [(start: Double, apex: Double)?]
    /// The last tick each item was awake (0 = before the first tick).
    private var lastAwakeTick: [Int]
    private(set) var ticksRun = 0
    private(set) var failed = false
    private(set) var paused = false

    // Events of the current tick.
    private struct PairKey: Hashable { var item: Int; var partner: String; var behavior: ObjectIdentifier }
    private var itemPairBegins: [PairKey: Int] = [:]
    private var boundaryBegins: [(item: Int, partner: String)] = []
    private var touched: Set<Int> = []
    /// Contacts begun this tick per item (kept between ticks, so a tick allocates nothing).
    private var begun: [Int]

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
        items = Array(repeating: ItemResult(), count: built.views.count)
        open = Array(repeating: 0, count: built.views.count)
        flight = Array(repeating: nil, count: built.views.count)
        lastAwakeTick = Array(repeating: 0, count: built.views.count)
        begun = Array(repeating: 0, count: built.views.count)
    }

    func attach() {
        built.animator.delegate = self
        for (_, behavior) in built.collisionBehaviors { behavior.collisionDelegate = self }
    }

    // MARK: Delegate calls (collected per tick)

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at point: Point) {
        guard let a = indexOfItem[ObjectIdentifier(item1)], let b = indexOfItem[ObjectIdentifier(item2)] else { return }
        // An item pair's event goes to every behavior holding both: count the most any one behavior saw.
        itemPairBegins[PairKey(item: a, partner: built.views[b].name, behavior: ObjectIdentifier(behavior)), default: 0] += 1
        itemPairBegins[PairKey(item: b, partner: built.views[a].name, behavior: ObjectIdentifier(behavior)), default: 0] += 1
        open[a] += 1; open[b] += 1
        touched.insert(a); touched.insert(b)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {
        guard let a = indexOfItem[ObjectIdentifier(item1)], let b = indexOfItem[ObjectIdentifier(item2)] else { return }
        open[a] = max(0, open[a] - 1); open[b] = max(0, open[b] - 1)
        touched.insert(a); touched.insert(b)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?, at point: Point) {
        guard let a = indexOfItem[ObjectIdentifier(item)] else { return }
        boundaryBegins.append((a, identifier ?? SceneFile.referenceBoundsPartner))
        open[a] += 1
        touched.insert(a)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier identifier: String?) {
        guard let a = indexOfItem[ObjectIdentifier(item)] else { return }
        open[a] = max(0, open[a] - 1)
        touched.insert(a)
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { paused = true }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { paused = false }

    // MARK: After each tick

    /// Folds the tick's events and states into the metrics; returns false when the world blew up.
    @discardableResult
    func afterTick(_ tick: Int) -> Bool {
        ticksRun = tick
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
            let view = built.views[i]
            guard let s = built.animator.itemState(for: view) else { continue }
            let finite = s.center.x.isFinite && s.center.y.isFinite && s.angle.isFinite
                && s.velocity.dx.isFinite && s.velocity.dy.isFinite && s.angularVelocity.isFinite
            let speed = (s.velocity.dx * s.velocity.dx + s.velocity.dy * s.velocity.dy).squareRoot()
            if !finite || !(speed <= speedLimit) {
                failed = true
                return false
            }
            if !s.isAsleep { lastAwakeTick[i] = tick }
            let height = s.center.x * up.x + s.center.y * up.y
            if begun[i] > 0, let f = flight[i] {
                // The flight ends where the next contact begins.
                recordBounce(i, rise: f.apex - f.start)
                flight[i] = nil
            }
            if open[i] == 0 && touched.contains(i) {
                // The item's last contact ended this tick: it leaves from here.
                flight[i] = (height, height)
            } else if open[i] == 0, let f = flight[i] {
                flight[i] = (f.start, max(f.apex, height))
            }
        }
        touched.removeAll(keepingCapacity: true)
        return true
    }

    private func recordBounce(_ i: Int, rise: Double) {
        // Stored as the engine's Float precision so worlds.csv reads back exactly.
        let r = Double(Float(rise))
        if r > 0 && items[i].bounceHeights.count < Self.maxBounces { items[i].bounceHeights.append(r) }
    }

    /// The results after the last tick.
    func finish() -> [ItemResult] {
        if failed { return Array(repeating: ItemResult(), count: items.count) }
        // A flight still open when the run ends counts once its apex is behind it (the item is
        // coming down again): the rise is known even though the next contact never came.
        for i in items.indices {
            guard let f = flight[i], let s = built.animator.itemState(for: built.views[i]) else { continue }
            if s.center.x * up.x + s.center.y * up.y < f.apex { recordBounce(i, rise: f.apex - f.start) }
            flight[i] = nil
        }
        var out = items
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
                    out[i].restTime = Double(Float(Double(lastAwakeTick[i] + 1) * tickLength))
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
