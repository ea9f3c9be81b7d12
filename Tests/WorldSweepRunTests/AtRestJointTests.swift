import Testing
import WorldSweep
@testable import WorldSweepRun
import WorldSweepScene

/// Issue 30, item 1: an item held still by an attachment, a rail, a weld or a snap is physics,
/// not lost precision. Each scene below starts in its equilibrium: nothing may mark it failed, and
/// the world reports every metric (a failed world's cells are all empty).
@Suite struct AtRestJointTests {
    /// Gravity on `sign`, one extra item and behavior line per case.
    private static func scene(items: String, behaviors: String, ticks: Int = 240) -> String {
        """
        name: at-rest
        world: {bounds: [320, 568], ticks: \(ticks)}
        items:
        \(items)
        behaviors:
          fall: {type: gravity, items: [sign]}
        \(behaviors)
        """
    }

    /// (what, file, where the sign's centre must stay: exactly on x, within 1 pt on y).
    static let cases: [(String, String, x: Double, y: Double)] = [
        ("pendulum straight below its anchor",
         scene(items: "  sign: {center: [160, 300], size: [40, 40]}",
               behaviors: "  rod: {type: attachment, items: [sign], anchor: [160, 100]}"), 160, 300),
        ("horizontal sliding rail at rest",
         scene(items: "  sign: {center: [160, 300], size: [40, 40]}",
               behaviors: "  rail: {type: attachment, kind: sliding, items: [sign], anchor: [160, 300], axis: [1, 0]}"), 160, 300),
        ("sign welded to an anchored wall",
         scene(items: "  wall: {center: [160, 100], size: [200, 20]}\n  sign: {center: [160, 140], size: [60, 60]}",
               behaviors: "  weld: {type: attachment, kind: fixed, items: [wall, sign], anchor: [160, 110]}\n"
                   + "  hold: {type: item, items: [wall], anchored: true}"), 160, 140),
        ("pin to an anchored wall at the item's own centre",
         scene(items: "  wall: {center: [160, 100], size: [200, 20]}\n  sign: {center: [160, 300], size: [40, 40]}",
               behaviors: "  pin: {type: attachment, kind: pin, items: [wall, sign], anchor: [160, 300]}\n"
                   + "  hold: {type: item, items: [wall], anchored: true}"), 160, 300),
        ("distance attachment of length 0 at the item's centre",
         scene(items: "  sign: {center: [160, 300], size: [40, 40]}",
               behaviors: "  rod: {type: attachment, items: [sign], anchor: [160, 300]}"), 160, 300),
        ("snap at its point, no gravity",
         scene(items: "  sign: {center: [160, 300], size: [40, 40]}",
               behaviors: "  snap: {type: snap, items: [sign], point: [160, 300]}\n  off: {type: gravity, items: [sign], magnitude: 0}")
             .replacingOccurrences(of: "  fall: {type: gravity, items: [sign]}\n", with: ""), 160, 300),
    ]

    @Test(arguments: 0..<cases.count)
    func isPhysicsOnBothEngines(_ k: Int) throws {
        let (what, yaml, x, y) = Self.cases[k]
        let file = try SceneFile.parse(yaml: yaml, path: "at-rest.yaml")
        let sign = file.items.firstIndex { $0.name == "sign" }!
        var runner = WorldRunner(scene: file)
        for engine in [SweepEngine.single, .batched(.simd)] {
            runner.engine = engine
            let r = runner.run(worlds: 0..<1)[0]
            #expect(!r.failed, "\(what) on \(engine.name): marked failed")
            let item = r.items[sign]
            // Nothing pushes it sideways: x stays to the bit; the joint holds y (within a point of sag).
            #expect(item.x == x && abs(item.y - y) < 1, "\(what) on \(engine.name): at (\(item.x), \(item.y))")
            #expect(item.vx.isFinite && item.vy.isFinite && abs(item.vx) < 1 && abs(item.vy) < 1, "\(what) on \(engine.name)")
            // Its state cells are written (a failed world leaves every metric cell empty).
            let layout = CSVLayout(scene: file)
            let header = layout.header.split(separator: ","), cells = layout.row(r).dropLast().split(separator: ",", omittingEmptySubsequences: false)
            for column in ["x", "y", "angle", "vx", "vy", "angular_velocity"] {
                let k = try #require(header.firstIndex { $0 == "sign.\(column)" })
                #expect(!cells[k].isEmpty, "\(what) on \(engine.name): sign.\(column) empty")
            }
        }
    }
}
