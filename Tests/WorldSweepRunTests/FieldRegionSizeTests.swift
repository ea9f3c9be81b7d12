import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepRun
@testable import WorldSweepScene

/// A field's region size as a sweep axis and a `--set` key: `region.radius` of a one-circle region,
/// `region.width` and `region.height` of a one-rectangle region (inverses included); range-checked;
/// refused, saying why, for combined regions and fields without a region.
@Suite struct FieldRegionSizeTests {
    /// Item `a` sits 100 pt right of the circle field's position, `b` 60 pt below the rectangle
    /// field's: inside the region only when the radius is over 100 pt, the height over 120 pt.
    static let regions = """
        name: regions
        world: {bounds: [320, 568], ticks: 30}
        items:
          a: {center: [200, 100], size: [20, 20]}
          b: {center: [100, 360], size: [20, 20]}
        behaviors:
          air: {type: item, items: [a, b], resistance: 0}
          disc: {type: field, kind: linear_gravity, items: [a], position: [100, 100], direction: [0, 1], region: {circle: 50}}
          box: {type: field, kind: linear_gravity, items: [b], position: [100, 300], direction: [1, 0], region: {rectangle: [200, 80]}}
          hole: {type: field, kind: drag, items: [a], region: {inverse: {circle: 20}}}
          both: {type: field, kind: drag, items: [b], region: {union: [{circle: 10}, {rectangle: [5, 5]}]}}
          open: {type: field, kind: drag, items: [b]}
        sweep:
          parameters:
            disc.region.radius: [50, 150]
            box.region.height: [80, 160]
        """

    static func scene() throws -> SceneFile { try SceneFile.parse(yaml: regions, path: "regions.yaml") }

    @Test func sizesReadBackAndSetForCircleRectangleAndInverse() throws {
        let scene = try Self.scene()
        #expect(try scene.value(at: "disc.region.radius") == 50)
        #expect(try scene.value(at: "box.region.width") == 200 && scene.value(at: "box.region.height") == 80)
        #expect(try scene.value(at: "hole.region.radius") == 20)
        #expect(scene.numericKeys(of: "disc")!.contains("region.radius") && !scene.numericKeys(of: "disc")!.contains("region.width"))
        let set = try scene.applying([("disc.region.radius", 75), ("box.region.width", 30), ("hole.region.radius", 5)])
        guard case .field(let disc) = set.behavior(named: "disc")!.kind, case .field(let box) = set.behavior(named: "box")!.kind,
              case .field(let hole) = set.behavior(named: "hole")!.kind else { Issue.record("not fields"); return }
        #expect(disc.region == Region(radius: 75))
        #expect(box.region == Region(size: Size(width: 30, height: 80)))
        // The inverse stays an inverse: only the circle's radius changes.
        #expect(hole.region == Region(radius: 5).inverse())
    }

    @Test(arguments: [
        ("disc.region.radius", 0.0, "positive"), ("box.region.height", -3, "positive"),
        ("disc.region.width", 10, "field 'disc' has a circle region; its size key is 'region.radius'"),
        ("box.region.radius", 10, "its size keys are 'region.width' and 'region.height'"),
        ("both.region.radius", 10, "field 'both' has a combined region"),
        ("open.region.width", 10, "field 'open' has no region"),
    ] as [(String, Double, String)])
    func badSizesAndRegionsWithoutSizesAreRefused(_ key: String, _ value: Double, _ message: String) throws {
        let scene = try Self.scene()
        do {
            _ = try scene.applying([(key, value)])
            Issue.record("\(key) = \(value) was accepted")
        } catch {
            #expect("\(error)".contains(message), "\(key): \(error)")
        }
    }

    @Test(arguments: [
        ("    both.region.radius: [1, 2]\n", 17, 5, "field 'both' has a combined region"),
        ("    hole.region.radius: [5, 0]\n", 17, 25, "positive"),
    ] as [(String, Int, Int, String)])
    func badSweepAxesAreRefusedAtLineAndColumn(_ axis: String, _ line: Int, _ column: Int, _ message: String) {
        let yaml = Self.regions + "\n" + axis
        do {
            _ = try SceneFile.parse(yaml: yaml, path: "f.yaml")
            Issue.record("\(axis) was accepted")
        } catch {
            #expect("\(error)".hasPrefix("f.yaml:\(line):\(column): error: "), "\(error)")
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func sweptSizesDecideWhoIsInsideOnBothEngines() throws {
        let scene = try Self.scene()
        #expect(scene.worldCount == 4)
        var runner = WorldRunner(scene: scene)
        let batched = runner.run(worlds: 0..<4)
        runner.engine = .single
        #expect(runner.run(worlds: 0..<4) == batched)
        for world in batched {
            let radius = world.parameters[0], height = world.parameters[1]
            // Outside its region an item feels nothing and stays put; inside it falls (a: down,
            // b: right) under 100 pt/s² for 0.5 s.
            let a = world.items[0], b = world.items[1]
            #expect((a.y > 100) == (radius > 100) && a.x == 200, "world \(world.world): a at \(a.x), \(a.y)")
            #expect((b.x > 100) == (height > 120) && b.y == 360, "world \(world.world): b at \(b.x), \(b.y)")
        }
    }
}
