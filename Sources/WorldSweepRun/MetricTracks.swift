// A world's per-item metrics while it runs (contact counts, bounce heights, rest time, final
// state, blow-ups), folded tick by tick. Two front ends feed it: MetricsRecorder (a live
// animator's delegate calls) and PlanMetricsRecorder (a plan batch's contact records and lanes).

import WorldSweep
import WorldSweepScene

/// A world's per-item metrics while it runs, and the contact events of the current tick.
struct MetricTracks {
    var items: [ItemResult]
    /// Contacts open now per item (every began +1, every ended −1, over all behaviors).
    var open: [Int]
    /// Airborne after a contact: where the centre left (projection on `up`) and the highest since.
    var flight: [(start: Double, apex: Double)?]
    /// The last tick each item was awake (0 = before the first tick).
    var lastAwakeTick: [Int]

    // Events of the current tick (kept between ticks, so a tick allocates nothing).
    /// `behavior` tells the collision behaviors apart (any number unique to each within the world).
    struct PairKey: Hashable { var item: Int; var partner: String; var behavior: Int }
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

    mutating func itemPairBegan(_ a: Int, _ b: Int, names: (String, String), behavior: Int) {
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
    /// `state` reads the item state of a body.
    mutating func fold(tick: Int, bodies: [Int?], up: (x: Double, y: Double), speedLimit: Double,
                       state: (Int) -> ItemState) -> Bool {
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
            let s = state(b)
            let finite = s.center.x.isFinite && s.center.y.isFinite && s.angle.isFinite
                && s.velocity.dx.isFinite && s.velocity.dy.isFinite && s.angularVelocity.isFinite
            let speed = (s.velocity.dx * s.velocity.dx + s.velocity.dy * s.velocity.dy).squareRoot()
            if !finite || !(speed <= speedLimit) { return false }
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

    /// The results after the last tick: `state` of an item with a body, else where the file
    /// `placed` it.
    mutating func finish(ticksRun: Int, tickLength: Double, up: (x: Double, y: Double),
                         state: (Int) -> ItemState?, placed: (Int) -> (center: Point, angle: Double)) -> [ItemResult] {
        // A flight still open when the run ends counts once its apex is behind it (the item is
        // coming down again): the rise is known even though the next contact never came.
        for i in items.indices {
            guard let f = flight[i], let s = state(i) else { continue }
            if s.center.x * up.x + s.center.y * up.y < f.apex { recordBounce(i, rise: f.apex - f.start) }
            flight[i] = nil
        }
        var out = items
        for i in out.indices {
            // Engine precision (Float) so worlds.csv reads back exactly; −0 folded to 0 so text
            // and statistics do not depend on its sign.
            func stored(_ x: Double) -> Double { let f = Double(Float(x)); return f == 0 ? 0 : f }
            if let s = state(i) {
                out[i].x = stored(s.center.x); out[i].y = stored(s.center.y)
                out[i].angle = stored(s.angle)
                out[i].vx = stored(s.velocity.dx); out[i].vy = stored(s.velocity.dy)
                out[i].angularVelocity = stored(s.angularVelocity)
                if s.isAsleep && ticksRun > 0 {
                    out[i].restTime = Double(Float(Double(lastAwakeTick[i] + 1) * tickLength))
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

    mutating func recordBounce(_ i: Int, rise: Double) {
        // Stored as the engine's Float precision so worlds.csv reads back exactly.
        let r = Double(Float(rise))
        if r > 0 && items[i].bounceHeights.count < MetricsRecorder.maxBounces { items[i].bounceHeights.append(r) }
    }
}
