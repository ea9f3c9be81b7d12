import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepScene

/// Two boxes of a random sweep with jitter and replicas: every world differs from every other,
/// so a replay of the wrong world (or without its jitter) cannot match by accident.
private let jitteredSweep = """
    name: jittered
    world: {bounds: [320, 568], duration: 1.5}
    items:
      top:    {center: [120, 60], size: [40, 40]}
      bottom: {center: [150, 200], size: [50, 50]}
    behaviors:
      fall:   {type: gravity, items: [top, bottom]}
      walls:  {type: collision, items: [top, bottom], reference_bounds: true}
      bouncy: {type: item, items: [bottom], elasticity: 0.6}
      shove:  {type: push, items: [top], mode: continuous, magnitude: 0.2, angle: 0}
    sweep:
      kind: random
      samples: 12
      seed: 7
      parameters:
        bouncy.elasticity: {uniform: [0.1, 0.95]}
        shove.magnitude: {uniform: [0, 0.6]}
      replicas: 3
      jitter: {top.center: [6, 4], bottom.angle: 0.3}
    """

/// The last tick's rows of a state trace, by item: x, y, angle, vx, vy, angular_velocity as printed.
private func finalStates(_ rows: [[String]]) -> [String: [String]] {
    let lastTick = rows.dropFirst().map { $0[0] }.last!
    var states: [String: [String]] = [:]
    for row in rows.dropFirst() where row[0] == lastTick { states[row[2]] = Array(row[3...8]) }
    return states
}

private func traceRows(_ path: String, world: TraceWorld.WorldSelection?) throws -> [[String]] {
    let scene = try TraceWorld.scene(file: path, overrides: [], world: world)
    var out = ""
    TraceWorld.trace(scene, ticks: scene.world.ticks, events: false) { out += $0 }
    return out.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
}

@Suite struct TraceWorldTests {
    @Test func traceOfAWorldEndsInThatWorldsRowOfWorldsCSV() throws {
        let file = try temporaryFile(jitteredSweep, name: "jittered.yaml")
        let out = Scratch.directory("trace-world", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet", "--threads", "2"]) == 0)
        let lines = try String(contentsOfFile: "\(out)/worlds.csv", encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 36)
        // Random worlds, from a fixed seed so a failure replays.
        var rng = SeededNumbers(0x18_05)
        var picked = Set<Int>()
        while picked.count < 8 { picked.insert(Int(rng.next() % 36)) }
        var distinctFinalX = Set<String>()
        for world in picked.sorted() {
            let row = rows[world]
            #expect(row[0] == "\(world)")
            let states = finalStates(try traceRows(file, world: .world(world)))
            for item in ["top", "bottom"] {
                let expected = ["x", "y", "angle", "vx", "vy", "angular_velocity"].map { row[header.firstIndex(of: "\(item).\($0)")!] }
                #expect(states[item] == expected, "world \(world), \(item)")
            }
            distinctFinalX.insert(states["top"]![0])
            // --point P --replica R names the same world.
            let point = Int(row[1])!, replica = Int(row[2])!
            #expect(finalStates(try traceRows(file, world: .point(point, replica: replica))) == states)
        }
        // The worlds really differ: a replay that ignored the selection would fail above.
        #expect(distinctFinalX.count == picked.count)
    }

    @Test func jitterIsPartOfTheReplay() throws {
        // World 1 is point 0's second replica: same swept values as world 0, other jitter.
        let file = try temporaryFile(jitteredSweep, name: "jittered.yaml")
        let w0 = try TraceWorld.scene(file: file, overrides: [], world: .world(0))
        let w1 = try TraceWorld.scene(file: file, overrides: [], world: .world(1))
        let plain = try TraceWorld.scene(file: file, overrides: [])
        let center = { (s: SceneFile) in try s.value(at: "top.center.x") }
        #expect(try center(w0) != center(w1))
        #expect(try center(plain) == 120)
        #expect(abs(try center(w1) - 120) <= 6)
        #expect(try w0.value(at: "bouncy.elasticity") == w1.value(at: "bouncy.elasticity"))
    }

    @Test func selectionsOutsideTheSweepAreBadInput() throws {
        let file = try temporaryFile(jitteredSweep, name: "jittered.yaml")
        for arguments in [["--world", "36"], ["--world", "-1"], ["--point", "12"], ["--point", "0", "--replica", "3"],
                          ["--world", "1", "--point", "0"], ["--replica", "1"]] {
            #expect(WorldSweepCommand.execute(["trace", file] + arguments) == 2, "\(arguments)")
        }
        #expect(throws: BadInput.self) { try TraceWorld.scene(file: file, overrides: [], world: .world(36)) }
        #expect(try TraceWorld.selection(world: nil, point: 4, replica: nil) == .point(4, replica: 0))
        #expect(try TraceWorld.selection(world: nil, point: nil, replica: nil) == nil)
    }
}
