import Testing
@testable import WorldSweepScene
import WorldSweep

/// `SceneFile.ruleProblem` walks items and behaviors by index (it once resolved every key by name,
/// quadratic in the items): it must still name the item or behavior whose value is past its rule,
/// when that one sits among many, and pass a scene whose values all hold.
@Suite struct RuleProblemTests {
    static func pile(_ count: Int) throws -> SceneFile {
        let names = (0..<count).map { "b\($0)" }
        let items = names.enumerated().map { "  \($1): {center: [\(20 + 20 * ($0 % 10)), \(20 + 20 * ($0 / 10))], size: [10, 10]}" }
        let yaml = """
            name: pile
            world: {bounds: [400, 400], ticks: 10}
            items:
            \(items.joined(separator: "\n"))
            behaviors:
              fall: {type: gravity, items: [\(names.joined(separator: ", "))]}
              bouncy: {type: item, items: [\(names.joined(separator: ", "))], elasticity: 0.5}
            """
        return try SceneFile.parse(yaml: yaml, path: "pile.yaml")
    }

    @Test func aParsedSceneHasNoProblem() throws {
        #expect(try Self.pile(200).ruleProblem() == nil)
    }

    @Test func namesTheItemPastItsRule() throws {
        var scene = try Self.pile(200)
        scene.items[137].size.width = 1e39
        let problem = try #require(scene.ruleProblem())
        #expect(problem.contains("'b137.size.width'"), "\(problem)")
    }

    @Test func namesTheBehaviorPastItsRule() throws {
        var scene = try Self.pile(50)
        scene.behaviors[0].kind = .gravity(GravitySpec(force: DirectionSpec(magnitude: 1e30)))
        let problem = try #require(scene.ruleProblem())
        #expect(problem.contains("'fall.magnitude'"), "\(problem)")
    }
}
