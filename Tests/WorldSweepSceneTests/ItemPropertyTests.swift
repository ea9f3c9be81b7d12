import Testing
import WorldSweep
@testable import WorldSweepScene

/// The item-property table: unset keys read as the shipping engine's values (docs/semantics.md:
/// elasticity 0.2, friction 0.2, density 1, resistance 0.1, angular resistance 0.1, charge 0 —
/// not Apple's documented 0, 0, 1, 0), through sweep paths and through the API alike.
@Suite struct ItemPropertyTests {
    static let unsetScene = minimalScene(adding: "  plain: {type: item, items: [top]}")

    @Test(arguments: [("elasticity", 0.2), ("friction", 0.2), ("density", 1.0), ("resistance", 0.1),
                      ("angular_resistance", 0.1), ("charge", 0.0), ("angular_velocity", 0.0),
                      ("linear_velocity.x", 0.0), ("linear_velocity.y", 0.0)] as [(String, Double)])
    func unsetKeysReadAsTheEngineUsesThem(_ key: String, _ engineValue: Double) throws {
        let scene = try parse(Self.unsetScene)
        #expect(try scene.value(at: "plain.\(key)") == engineValue)
    }

    @Test func theAPIDefaultsAreTheSame() {
        let behavior = DynamicItemBehavior(items: [])
        #expect(behavior.elasticity == 0.2 && behavior.friction == 0.2 && behavior.density == 1)
        #expect(behavior.resistance == 0.1 && behavior.angularResistance == 0.1 && behavior.charge == 0)
        #expect(behavior.allowsRotation && !behavior.isAnchored)
    }

    @Test func setKeysRoundTripAndAPairKeepsItsOtherPart() throws {
        var scene = try parse(Self.unsetScene)
        try scene.setValue(0.7, at: "plain.friction")
        try scene.setValue(-30, at: "plain.linear_velocity.y")
        #expect(try scene.value(at: "plain.friction") == 0.7)
        guard case .item(let p) = scene.behavior(named: "plain")!.kind else { Issue.record("not an item behavior"); return }
        #expect(p.linearVelocity == Vector(dx: 0, dy: -30) && p.friction == 0.7 && p.elasticity == nil)
    }

    @Test func flagsAreNotSweepable() throws {
        let scene = try parse(Self.unsetScene)
        #expect(!scene.numericKeys(of: "plain")!.contains("anchored"))
        #expect(scene.numericKeys(of: "plain")! == ["elasticity", "friction", "density", "resistance", "angular_resistance",
                                                    "charge", "angular_velocity", "linear_velocity.x", "linear_velocity.y"])
    }
}
