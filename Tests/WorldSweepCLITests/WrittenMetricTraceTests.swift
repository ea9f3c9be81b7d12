import Foundation
import Testing
@testable import WorldSweepCLI
import WorldSweepRun
import WorldSweepScene

/// The metrics a file writes (`measure:`) against the same world's `worldsweep trace`: each
/// reduction and event kind is recomputed here from the trace's rows (the whole trajectory kept,
/// as the engine never does) and must match the engine's value bit for bit, on both engines.
@Suite struct WrittenMetricTraceTests {
    /// Two views dropped apart, the lower one bouncy, the upper one pushed sideways so it turns
    /// and slides; the third stays where the file puts it (no behavior acts on it). The world
    /// comes to rest before its end, so the metrics also cover the ticks after a pause.
    static let scene = """
        name: written
        world: {bounds: [320, 568], duration: 6}
        items:
          top:    {center: [60, 30], size: [50, 50]}
          bottom: {center: [220, 50], size: [50, 50]}
          still:  {center: [300, 500], size: [10, 10]}
        behaviors:
          fall:   {type: gravity, items: [top, bottom]}
          walls:  {type: collision, items: [top, bottom], reference_bounds: true}
          bouncy: {type: item, items: [bottom], elasticity: 0.7, density: 2}
          shove:  {type: push, items: [top], mode: instantaneous, magnitude: 0.4, angle: 0.3}
        measure:
          top_max_x:      {item: top, max: x}
          top_min_y:      {item: top, min: y, from: {contact: 2}}
          bottom_mean_vy: {item: bottom, mean: vy, from: 0.5, until: 2}
          top_final_w:    {item: top, final: angular_velocity, until: {contact: 3}}
          top_at_angle:   {item: top, at: angle, time: 1.25}
          bottom_speed:   {item: bottom, max: speed}
          travel:         {item: top, max: distance, to: [60, 30]}
          gap:            {items: [top, bottom], min: distance}
          bottom_first:   {item: bottom, first: y, above: 500}
          bottom_back:    {item: bottom, first: y, below: 530, from: {contact: 1}}
          too_high:    {item: top, first: y, below: -100}
          bottom_cross:   {item: bottom, crossings: y, value: 530}
          bottom_up:      {item: bottom, crossings: vy, value: 0, direction: up}
          bottom_low:     {item: bottom, time_within: y, range: [500, 600]}
          energy:         {item: bottom, max: kinetic_energy}
          energy_late:    {item: top, at: kinetic_energy, time: 5.9}
          still_x:        {item: still, mean: x}
          seven:          {item: top, max: y, from: {contact: 70}}
        """

    /// One row of the state trace: the components as printed (Floats).
    struct State { var x, y, angle, vx, vy, w: Double }

    /// Per tick (1…N), each item's traced state; and per tick, each item's contacts begun so far.
    static func trace(_ scene: SceneFile) -> (states: [[String: State]], contacts: [[String: Int]]) {
        var text = ""
        TraceWorld.trace(scene, ticks: scene.world.ticks, events: false) { text += $0 }
        var states = [[String: State]](repeating: [:], count: scene.world.ticks + 1)
        for line in text.split(separator: "\n").dropFirst() {
            let c = line.split(separator: ",").map(String.init)
            let v = c[3...8].map { Double(Float($0)!) }
            states[Int(c[0])!][c[2]] = State(x: v[0], y: v[1], angle: v[2], vx: v[3], vy: v[4], w: v[5])
        }
        var events = ""
        TraceWorld.trace(scene, ticks: scene.world.ticks, events: true) { events += $0 }
        var begun = [[String: Int]](repeating: [:], count: scene.world.ticks + 1)
        var running: [String: Int] = [:]
        var rows = events.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        rows.reverse()
        for tick in 1...scene.world.ticks {
            while let r = rows.last, Int(r[0]) == tick {
                rows.removeLast()
                guard r[2] == "began" else { continue }
                running[r[3], default: 0] += 1
                if scene.item(named: r[4]) != nil { running[r[4], default: 0] += 1 }
            }
            begun[tick] = running
        }
        return (states, begun)
    }

    /// The metric as its definition reads, from the stored trace.
    static func expected(_ m: WrittenMetric, scene: SceneFile, trace: (states: [[String: State]], contacts: [[String: Int]])) -> Double? {
        let ticks = scene.world.ticks, dt = scene.world.tick
        let name = scene.items[m.item].name
        let (mass, inertia) = scene.worldPlan().massAndInertia(ofItem: m.item)
        func q(_ k: Int) -> Double {
            let s = trace.states[k][name]!
            switch m.quantity {
            case .x: return s.x
            case .y: return s.y
            case .angle: return s.angle
            case .vx: return s.vx
            case .vy: return s.vy
            case .angularVelocity: return s.w
            case .speed: return (s.vx * s.vx + s.vy * s.vy).squareRoot()
            case .distance:
                let p = m.other.map { o in trace.states[k][scene.items[o].name]! }.map { ($0.x, $0.y) } ?? (m.point!.x, m.point!.y)
                let dx = s.x - p.0, dy = s.y - p.1
                return (dx * dx + dy * dy).squareRoot()
            case .kineticEnergy:
                let vx = s.vx / 100, vy = s.vy / 100
                return 0.5 * mass * (vx * vx + vy * vy) + 0.5 * inertia * s.w * s.w
            }
        }
        func contacts(_ k: Int) -> Int { trace.contacts[k][name] ?? 0 }
        func firstTick(_ edge: WrittenMetric.Edge?, default d: Int) -> Int? {
            switch edge {
            case nil: return d
            case .time(let t)?: return (1...ticks).first { Double($0) * dt >= t - 1e-6 * dt }
            case .contact(let n)?: return (1...ticks).first { contacts($0) >= n }
            }
        }
        // The window's ticks.
        // A window whose opening event never comes, or that closes before it opens, is empty.
        let from = firstTick(m.from, default: 1) ?? ticks + 1
        var until = ticks
        switch m.until {
        case .time(let t)?: until = (1...ticks).last { Double($0) * dt <= t + 1e-6 * dt }!
        case .contact(let n)?: until = (1...ticks).first { contacts($0) >= n } ?? ticks
        case nil: break
        }
        let window = from <= until ? Array(from...until) : []
        let values = window.map(q)
        func crossed(_ p: Double, _ v: Double, _ value: Double, _ d: WrittenMetric.Direction) -> Bool {
            let up = p < value && v >= value, down = p >= value && v < value
            return d == .up ? up : d == .down ? down : up || down
        }
        let value: Double?
        switch m.measure {
        case .max: value = values.max()
        case .min: value = values.min()
        case .mean: value = values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        case .final: value = values.last
        case .at(let t): value = q(min(ticks, max(1, Int((t / dt).rounded()))))
        case .first(let v, let d): value = zip(window.dropFirst(), zip(values, values.dropFirst())).first { crossed($1.0, $1.1, v, d) }.map { Double($0.0) * dt }
        case .crossings(let v, let d): value = Double(zip(values, values.dropFirst()).filter { crossed($0, $1, v, d) }.count)
        case .timeWithin(let lo, let hi): value = Double(values.filter { $0 >= lo && $0 <= hi }.count) * dt
        }
        return value.map { Double(Float($0)) == 0 ? 0 : Double(Float($0)) }
    }

    @Test(arguments: [SweepEngine.batched(.simd), .single])
    func everyKindMatchesTheTrace(engine: SweepEngine) throws {
        let scene = try SceneFile.parse(yaml: Self.scene, path: "written.yaml")
        var runner = WorldRunner(scene: scene)
        runner.engine = engine
        let result = try #require(runner.run(worlds: 0..<1).first)
        #expect(!result.failed)
        let trace = Self.trace(scene)
        let declarations = scene.writtenDeclarations
        var kinds: Set<String> = []
        for m in scene.measures {
            let k = declarations[m.item].firstIndex { $0.name == m.name }!
            let got = result.items[m.item].written[k]
            let want = Self.expected(m, scene: scene, trace: trace)
            #expect(got == want, "\(m.name): engine \(String(describing: got)), trace \(String(describing: want))")
            kinds.insert(m.measure.key)
        }
        #expect(kinds == ["max", "min", "mean", "final", "at", "first", "crossings", "time_within"])
        // The scene exercises what it says: a first time reached and one never reached, a window
        // an event opens and one it never opens, crossings that happen, a world that pauses.
        func value(_ name: String) -> Double? {
            let m = scene.measures.first { $0.name == name }!
            return result.items[m.item].written[declarations[m.item].firstIndex { $0.name == name }!]
        }
        #expect(value("bottom_first") != nil && value("bottom_back") != nil && value("too_high") == nil && value("seven") == nil)
        #expect(value("top_min_y") != nil, "the top view lands twice")
        #expect((value("bottom_cross") ?? 0) >= 2 && (value("bottom_up") ?? 0) >= 1, "\(String(describing: value("bottom_cross"))) \(String(describing: value("bottom_up")))")
        #expect(value("still_x") == 300)
        let paused = trace.states.last!["top"]!
        #expect(paused.vx == 0 && paused.vy == 0, "the world comes to rest before its end")
    }

    @Test func bothEnginesAgreeWorldByWorld() throws {
        let sweep = Self.scene + "\n" + """
            sweep:
              parameters:
                bouncy.elasticity: {values: [0.2, 0.5, 0.8]}
                shove.magnitude: {values: [0, 0.3, 0.6]}
            """
        let scene = try SceneFile.parse(yaml: sweep, path: "written.yaml")
        var batched = WorldRunner(scene: scene), single = WorldRunner(scene: scene)
        batched.engine = .batched(.simd); single.engine = .single
        let a = batched.run(worlds: 0..<scene.worldCount), b = single.run(worlds: 0..<scene.worldCount)
        #expect(a == b)
        #expect(a.allSatisfy { $0.items[0].written.count == 9 })
    }
}
