// A world's per-item metrics while it runs (contact counts, bounce heights, rest time, final
// state, blow-ups), folded tick by tick. Two front ends feed it: MetricsRecorder (a live
// animator's delegate calls) and PlanMetricsRecorder (a plan batch's contact records and lanes).

import WorldSweep
import WorldSweepScene

/// A world's per-item metrics while it runs, and the contact events of the current tick.
struct MetricTracks {
    var items: [ItemResult]

    /// What a tick reads and writes of one item. One array of these, so a tick checks one
    /// array's uniqueness once instead of one per field and item (it was most of a tick's cost).
    struct ItemTrack {
        /// Contacts open now (every began +1, every ended −1, over all behaviors).
        var open = 0
        /// A contact began or ended this tick.
        var touched = false
        /// Contacts begun this tick.
        var begun = 0
        /// Airborne after a contact: where the centre left (projection on `up`) and the highest since.
        var flight: (start: Double, apex: Double)?
        /// The last tick the item was awake (0 = before the first tick).
        var lastAwakeTick = 0
        // What tells numbers the engine's Float no longer carries from physics (`watchForSaturation`).
        /// The boundary loop the item must stay inside (nil: none holds it).
        var loop: Loop?
        /// The centre after the previous tick.
        var lastCenter: (x: Double, y: Double) = (0, 0)
        /// How long (s) the item has kept its centre to the bit while its velocity was below what
        /// its position's Float carries.
        var stillTime = 0.0
        /// Contacts begun per partner so far, first contact first (the result's `contactsByPartner`).
        var partnerContacts: [(partner: String, count: Int)] = []

        mutating func addContacts(_ n: Int, partner: String) {
            if let k = partnerContacts.firstIndex(where: { $0.partner == partner }) {
                partnerContacts[k].count += n
            } else {
                partnerContacts.append((partner, n))
            }
        }
    }
    var perItem: [ItemTrack]

    // Events of the current tick (kept between ticks, so a tick allocates nothing).
    /// An item pair's began events this tick as one item and one behavior heard them: a short
    /// list searched in place (hashing two names per event cost more than the rest of a tick).
    /// `behavior` tells the collision behaviors apart (any number unique to each within the world).
    /// `next`: the same item's next entry, in the list's order (−1: none). A big world's tick
    /// holds hundreds of entries, each item a few: a search of the whole list per event grew
    /// with the square of the tick's contacts.
    struct PairBegins { var item: Int; var partner: String; var behavior: Int; var count: Int; var next = -1 }
    var itemPairBegins: [PairBegins] = []
    /// Per item, its first and last entries of `itemPairBegins` this tick (−1: none), linked by
    /// `PairBegins.next`: a tick's search for an item's entries walks its own few. Made at the
    /// world's first pair event (a world whose items never touch makes none).
    var pairBeginEnds: [(first: Int32, last: Int32)] = []
    var boundaryBegins: [(item: Int, partner: String)] = []
    /// Whether some item's `begun` is not zero (cleared at the next tick's start).
    var anyBegun = false

    /// A rectangle of reference bounds, in points.
    struct Loop {
        var minX, minY, maxX, maxY: Double
        /// Half a point of slack: the centre of an item pressed into a wall stays well inside.
        static let slack = 0.5
        func contains(_ x: Double, _ y: Double) -> Bool {
            x >= minX - Self.slack && x <= maxX + Self.slack && y >= minY - Self.slack && y <= maxY + Self.slack
        }
        /// The lowest and highest centre inside, slack added (what the tick fold compares with);
        /// no loop: every finite centre is inside.
        static func limits(_ loop: Loop?) -> (lowX: Double, lowY: Double, highX: Double, highY: Double) {
            guard let loop else { return (-.infinity, -.infinity, .infinity, .infinity) }
            return (loop.minX - slack, loop.minY - slack, loop.maxX + slack, loop.maxY + slack)
        }
    }
    var tickLength = 0.0
    /// Per item with a rest target, its spring metrics (`watchRest`); empty when no item has one.
    var springs: [SpringTrack?] = []
    /// The metrics the file writes (`watchWritten`); nil when it writes none.
    var written: WrittenMetricTracks?

    init(itemCount n: Int) {
        items = Array(repeating: ItemResult(), count: n)
        perItem = Array(repeating: ItemTrack(), count: n)
    }

    /// Arms the run-time checks that flag a world whose numbers left what Float arithmetic carries:
    /// an item through the reference-bounds loop it started in, or one whose velocity its position
    /// can no longer carry. Read from the file alone, so both recorders arm the same.
    /// `indexOfItem` (`indexOfItem(scene)`) may come from any world of the file: they share item names.
    /// `loops`: `boundaryLoops(scene, …)` when the caller has it (worked out for an earlier world
    /// with the same `BoundaryLoopInputs`).
    mutating func watchForSaturation(_ scene: SceneFile, indexOfItem: [String: Int]? = nil, loops: [Loop?]? = nil) {
        let loops = loops ?? Self.boundaryLoops(scene, indexOfItem: indexOfItem ?? Self.indexOfItem(scene))
        for (i, item) in scene.items.enumerated() {
            perItem[i].loop = loops[i]
            perItem[i].lastCenter = (item.center.x, item.center.y)
            perItem[i].stillTime = 0
        }
        tickLength = scene.world.tick
    }

    /// Per item, the boundary loop it is kept inside, when a collision behavior translates the
    /// reference bounds into a boundary for it and its centre starts inside: the loop as the engine
    /// places it (the inset bounds moved 1 pt outward, `CollisionBehavior.boundarySegments`), so a
    /// tiny item touching a wall is inside. Such an item's centre can leave only if the engine's
    /// numbers failed (it tunnelled) — unless an attachment or a snap holds it: the solver weighs
    /// a joint against the boundary's contact, and a joint may hold an item beyond it, calm and finite.
    static func boundaryLoops(_ scene: SceneFile, indexOfItem index: [String: Int]) -> [Loop?] {
        var loops = [Loop?](repeating: nil, count: scene.items.count)
        for behavior in scene.behaviors {
            guard case .collision(let c) = behavior.kind, c.referenceBounds, c.mode != .items else { continue }
            let corners = CollisionBehavior.boundarySegments(referenceBounds: scene.world.bounds, referenceBoundsInsets: c.insets,
                                                             boundaries: []).map(\.from)
            let loop = Loop(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                            maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
            for name in behavior.items {
                guard let i = index[name] else { continue }
                let p = scene.items[i].center
                if loop.contains(p.x, p.y) { loops[i] = loop }
            }
        }
        for behavior in scene.behaviors {
            switch behavior.kind {
            case .attachment, .snap: for name in behavior.items { if let i = index[name] { loops[i] = nil } }
            default: break
            }
        }
        return loops
    }

    /// What `boundaryLoops` reads of a scene, to tell whether two worlds' loops are the same
    /// without working them out: the bounds, the collision, attachment and snap behaviors, the
    /// items' centres.
    struct BoundaryLoopInputs: Equatable {
        let bounds: Size
        let behaviors: [BehaviorSpec]
        let centers: [Point]

        init(_ scene: SceneFile) {
            bounds = scene.world.bounds
            behaviors = scene.behaviors.filter { b in
                switch b.kind {
                case .collision, .attachment, .snap: true
                default: false
                }
            }
            centers = scene.items.map(\.center)
        }
    }

    /// Each item's index by name.
    static func indexOfItem(_ scene: SceneFile) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: scene.items.enumerated().map { ($1.name, $0) })
    }

    /// Arms the spring metrics of the items with a rest target (nil: none), one per item.
    mutating func watchRest(_ targets: [RestTarget?]) {
        springs = targets.contains { $0 != nil } ? targets.map { $0.map(SpringTrack.init) } : []
    }

    /// Arms the metrics the file writes (`measure:`); `mass` gives an item's mass and inertia in
    /// this world (asked only for a kinetic energy).
    mutating func watchWritten(_ scene: SceneFile, mass: (Int) -> (mass: Double, inertia: Double)) {
        written = scene.measures.isEmpty ? nil : WrittenMetricTracks(scene.measures, scene: scene, mass: mass)
    }

    mutating func itemPairBegan(_ a: Int, _ b: Int, names: (String, String), behavior: Int) {
        // An item pair's event goes to every behavior holding both: count the most any one behavior saw.
        countPairBegin(item: a, partner: names.1, behavior: behavior)
        countPairBegin(item: b, partner: names.0, behavior: behavior)
        perItem[a].open += 1; perItem[b].open += 1
        perItem[a].touched = true; perItem[b].touched = true
    }

    private mutating func countPairBegin(item: Int, partner: String, behavior: Int) {
        if pairBeginEnds.isEmpty { pairBeginEnds = Array(repeating: (-1, -1), count: perItem.count) }
        var k = Int(pairBeginEnds[item].first)
        while k >= 0 {
            if itemPairBegins[k].behavior == behavior && itemPairBegins[k].partner == partner {
                itemPairBegins[k].count += 1
                return
            }
            k = itemPairBegins[k].next
        }
        let added = itemPairBegins.count
        itemPairBegins.append(PairBegins(item: item, partner: partner, behavior: behavior, count: 1))
        let last = Int(pairBeginEnds[item].last)
        if last >= 0 { itemPairBegins[last].next = added } else { pairBeginEnds[item].first = Int32(added) }
        pairBeginEnds[item].last = Int32(added)
    }

    mutating func boundaryBegan(_ a: Int, partner: String) {
        boundaryBegins.append((a, partner))
        perItem[a].open += 1
        perItem[a].touched = true
    }

    mutating func ended(_ a: Int) {
        perItem[a].open = max(0, perItem[a].open - 1)
        perItem[a].touched = true
    }

    /// Folds one tick into the metrics; false when an item's state is not finite or too fast.
    /// `state` reads the state of an item (by item and body index; each recorder reads by what it holds).
    mutating func fold(tick: Int, bodies: [Int?], up: (x: Double, y: Double), speedLimit: Double,
                       state: (_ item: Int, _ body: Int) -> ItemState) -> Bool {
        takeTickEvents()
        guard Self.foldItems(&perItem, &items, tick: tick, bodies: bodies, up: up, speedLimit: speedLimit,
                             tickLength: tickLength, state: state) else { return false }
        foldExtras(tick: tick, bodies: bodies, state: state)
        return true
    }

    /// The tick's contact events into the counts: each item's `begun` of the last tick cleared,
    /// this tick's begun contacts counted per item and partner (a tick without any skips this).
    mutating func takeTickEvents() {
        if anyBegun {
            for i in perItem.indices { perItem[i].begun = 0 }
            anyBegun = false
        }
        if !itemPairBegins.isEmpty || !boundaryBegins.isEmpty { countBegins() }
    }

    /// Whether the world folds more than what every item folds: springs or written metrics.
    var hasExtras: Bool { !springs.isEmpty || written != nil }

    /// The springs' and written metrics' tick, after the items'.
    mutating func foldExtras(tick: Int, bodies: [Int?], state: (_ item: Int, _ body: Int) -> ItemState) {
        for i in springs.indices {
            guard springs[i] != nil, let b = bodies[i] else { continue }
            let other = springs[i]!.target.otherItem.flatMap { o in bodies[o].map { state(o, $0) } }
            springs[i]!.fold(tick: tick, state: state(i, b), other: other)
        }
        if written != nil {
            let items = self.items
            written!.fold(tick: tick, contacts: { items[$0].contacts }, state: { i in bodies[i].map { state(i, $0) } })
        }
    }

    /// Adds the tick's begun contacts to the counts and to each item's `begun`.
    private mutating func countBegins() {
        anyBegun = true
        if !itemPairBegins.isEmpty {
            // Per item and partner, the most any one behavior heard, taken at its first entry
            // (read in place: a copy of the list would make the removeAll below allocate).
            // (An item's entries are linked in the list's order: those before k are its chain's
            // start up to k, those after, the chain after k.)
            for k in itemPairBegins.indices {
                let e = itemPairBegins[k]
                var j = Int(pairBeginEnds[e.item].first), seenBefore = false
                while j != k && !seenBefore { seenBefore = itemPairBegins[j].partner == e.partner; j = itemPairBegins[j].next }
                if seenBefore { continue }
                var n = e.count
                j = e.next
                while j >= 0 { if itemPairBegins[j].partner == e.partner { n = max(n, itemPairBegins[j].count) }; j = itemPairBegins[j].next }
                items[e.item].contacts += n
                perItem[e.item].addContacts(n, partner: e.partner)
                perItem[e.item].begun += n
            }
            for k in itemPairBegins.indices { pairBeginEnds[itemPairBegins[k].item] = (-1, -1) }
            itemPairBegins.removeAll(keepingCapacity: true)
        }
        for (item, partner) in boundaryBegins {
            items[item].contacts += 1
            perItem[item].addContacts(1, partner: partner)
            perItem[item].begun += 1
        }
        boundaryBegins.removeAll(keepingCapacity: true)
    }

    /// The per-item part of `fold`, over the two arrays' storage in place (ItemTickFold's rules).
    private static func foldItems(_ perItem: inout [ItemTrack], _ items: inout [ItemResult], tick: Int, bodies: [Int?],
                                  up: (x: Double, y: Double), speedLimit: Double, tickLength: Double,
                                  state: (_ item: Int, _ body: Int) -> ItemState) -> Bool {
        let surelyWithin = ItemTickFold.surelyWithin(speedLimit)
        return perItem.withUnsafeMutableBufferPointer { tracks in
            for i in tracks.indices {
                let wasTouched = tracks[i].touched
                tracks[i].touched = false
                guard let b = bodies[i] else { continue }
                let s = state(i, b)
                let loop = Loop.limits(tracks[i].loop), flight = tracks[i].flight
                var track = ItemTickFold.Track<Double>(lastX: tracks[i].lastCenter.x, lastY: tracks[i].lastCenter.y, flying: flight != nil,
                                                       flightStart: flight?.start ?? 0, flightApex: flight?.apex ?? 0)
                let o = ItemTickFold.fold(&track,
                                          .init(x: s.center.x, y: s.center.y, vx: s.velocity.dx, vy: s.velocity.dy,
                                                turnFinite: s.angle.isFinite && s.angularVelocity.isFinite, asleep: s.isAsleep),
                                          .init(touched: wasTouched, openZero: tracks[i].open == 0, begun: tracks[i].begun > 0),
                                          .init(loopLowX: loop.lowX, loopLowY: loop.lowY, loopHighX: loop.highX, loopHighY: loop.highY,
                                                upX: up.x, upY: up.y, speedLimit: speedLimit, surelyWithin: surelyWithin))
                if o.failed { return false }
                if o.stillCandidate {
                    guard ItemTickFold.stillStep(&tracks[i].stillTime, x: s.center.x, y: s.center.y, vx: s.velocity.dx, vy: s.velocity.dy,
                                                 tickLength: tickLength) else { return false }
                } else {
                    tracks[i].stillTime = 0
                }
                if o.awake { tracks[i].lastAwakeTick = tick }
                if o.bounced { recordBounce(&items[i], rise: o.rise) }
                tracks[i].lastCenter = (track.lastX, track.lastY)
                tracks[i].flight = track.flying ? (track.flightStart, track.flightApex) : nil
            }
            return true
        }
    }

    /// The results after the last tick: `state` of an item with a body, else where the file
    /// `placed` it.
    /// `ticks`: the run's length in ticks (a paused world stops before it).
    mutating func finish(ticksRun: Int, ticks: Int, tickLength: Double, up: (x: Double, y: Double),
                         state: (Int) -> ItemState?, placed: (Int) -> (center: Point, angle: Double)) -> [ItemResult] {
        // A flight still open when the run ends counts once its apex is behind it (the item is
        // coming down again): the rise is known even though the next contact never came.
        for i in items.indices {
            guard let f = perItem[i].flight, let s = state(i) else { continue }
            if s.center.x * up.x + s.center.y * up.y < f.apex { Self.recordBounce(&items[i], rise: f.apex - f.start) }
            perItem[i].flight = nil
        }
        var out = items
        for i in out.indices where !perItem[i].partnerContacts.isEmpty {
            // Each partner once in the list: the dictionary is made at its size, with no regrowth.
            out[i].contactsByPartner = Dictionary(uniqueKeysWithValues: perItem[i].partnerContacts.lazy.map { ($0.partner, $0.count) })
        }
        for i in springs.indices {
            out[i].spring = springs[i]?.result(ticksRun: ticksRun, tickLength: tickLength)
        }
        if var written {
            let contacts = out.map(\.contacts)
            let values = written.finish(contacts: { contacts[$0] })
            for (track, value) in zip(written.tracks, values) { out[track.metric.item].written.append(value) }
        }
        for i in out.indices {
            // Engine precision (Float) so worlds.csv reads back exactly; −0 folded to 0 so text
            // and statistics do not depend on its sign.
            func stored(_ x: Double) -> Double { let f = Double(Float(x)); return f == 0 ? 0 : f }
            if let s = state(i) {
                out[i].x = stored(s.center.x); out[i].y = stored(s.center.y)
                out[i].angle = stored(s.angle)
                out[i].vx = stored(s.velocity.dx); out[i].vy = stored(s.velocity.dy)
                out[i].angularVelocity = stored(s.angularVelocity)
                // A rest is the first tick of the item's last sleep. One first reached on the
                // run's last tick is no rest the run can confirm (and would read as the run's
                // length, what a rest never reached counts as): the item never rested in the run.
                if s.isAsleep && ticksRun > 0 && perItem[i].lastAwakeTick + 1 < ticks {
                    out[i].restTime = Double(Float(Double(perItem[i].lastAwakeTick + 1) * tickLength))
                }
            } else {
                // An item no behavior acts on stays where the file put it.
                let p = placed(i)
                out[i].x = stored(p.center.x); out[i].y = stored(p.center.y)
                out[i].angle = stored(p.angle)
            }
        }
        return out
    }

    /// Unit vector against gravity (up), in points; gravity nil: none, read as (0, 1).
    static func up(gravity: Vector?) -> (x: Double, y: Double) {
        let g = gravity ?? Vector(dx: 0, dy: 1)
        let length = (g.dx * g.dx + g.dy * g.dy).squareRoot()
        return length > 0 ? (-g.dx / length, -g.dy / length) : (0, -1)
    }

    static func recordBounce(_ item: inout ItemResult, rise: Double) {
        // Stored as the engine's Float precision so worlds.csv reads back exactly.
        let r = Double(Float(rise))
        guard r > 0 && item.bounceHeights.count < MetricsRecorder.maxBounces else { return }
        // Room for every bounce kept at the first, rather than regrowing the list as they come.
        if item.bounceHeights.isEmpty { item.bounceHeights.reserveCapacity(MetricsRecorder.maxBounces) }
        item.bounceHeights.append(r)
    }
}
