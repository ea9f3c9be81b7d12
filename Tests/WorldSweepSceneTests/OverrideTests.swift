import Testing
import WorldSweep
@testable import WorldSweepScene

@Suite("Overrides (--set NAME.KEY=VALUE)")
struct OverrideTests {
    let scene: SceneFile

    init() throws {
        scene = try parse(minimalScene(adding:
            "  bouncy: {type: item, items: [bottom], elasticity: 0.9}",
            "  shove: {type: push, items: [top], mode: continuous, direction: [3, 4]}",
            "  walls: {type: collision, items: [top, bottom], reference_bounds: true}"))
    }

    @Test func setsItemKeys() throws {
        let changed = try scene.applying([("top.center.x", 5), ("top.center.y", -7), ("bottom.size.width", 20),
                                          ("bottom.size.height", 30), ("top.angle", 0.25)])
        #expect(changed.items[0].center == Point(x: 5, y: -7))
        #expect(changed.items[0].angle == 0.25)
        #expect(changed.items[1].size == Size(width: 20, height: 30))
        #expect(scene.items[0].center == Point(x: 100, y: 0), "the original is unchanged")
    }

    @Test func setsItemBehaviorKeysMakingThemExplicit() throws {
        let changed = try scene.applying([("bouncy.density", 3), ("bouncy.elasticity", 0.5), ("bouncy.linear_velocity.y", -40)])
        #expect(changed.behaviors[1].kind == .item(ItemPropertiesSpec {
            $0.elasticity = 0.5; $0.density = 3; $0.linearVelocity = Vector(dx: 0, dy: -40)
        }))
    }

    @Test func readsDefaultsOfUnsetKeys() throws {
        #expect(try scene.value(at: "bouncy.friction") == 0.2)
        #expect(try scene.value(at: "bouncy.resistance") == 0.1)
        #expect(try scene.value(at: "bouncy.density") == 1)
        #expect(try scene.value(at: "fall.magnitude") == 1)
        #expect(try scene.value(at: "fall.angle") == Double.pi / 2)
        #expect(try scene.value(at: "shove.magnitude") == 5)
        #expect(try scene.value(at: "shove.direction.x") == 3)
    }

    @Test func forceKeysConvertBetweenVectorAndPolar() throws {
        let magnitude = try scene.applying([("shove.magnitude", 10)])
        #expect(try magnitude.value(at: "shove.magnitude") == 10)
        #expect(abs(try magnitude.value(at: "shove.direction.x") - 6) < 1e-12)
        #expect(abs(try magnitude.value(at: "shove.direction.y") - 8) < 1e-12)
        let gravity = try scene.applying([("fall.direction.x", 0.5)])
        guard case .gravity(let spec) = gravity.behaviors[0].kind else { Issue.record("not gravity"); return }
        #expect(spec.force.direction?.dx == 0.5)
        #expect(abs(spec.force.direction!.dy - 1) < 1e-12)
    }

    @Test func unknownNameHasNoLocation() {
        #expect(throws: SceneError(path: "test.yaml", line: 0, column: 0,
                                   message: "unknown parameter 'nope.angle': there is no item or behavior named 'nope'")) {
            try scene.applying([("nope.angle", 1)])
        }
    }

    @Test func unknownKeyPointsAtTheEntity() throws {
        let error = try #require(throws: SceneError.self) { try scene.applying([("bouncy.elastcity", 1)]) }
        #expect(error.location == SceneLocation(line: 10, column: 3))
        #expect(error.message.hasPrefix("unknown parameter 'bouncy.elastcity': item behavior 'bouncy' has no numeric key 'elastcity'"))
        #expect(error.message.hasSuffix("did you mean 'elasticity'?"))
        #expect(error.description.hasPrefix("test.yaml:10:3: error: unknown parameter"))
    }

    @Test func collisionHasNoNumericKeys() throws {
        let error = try #require(throws: SceneError.self) { try scene.applying([("walls.mode", 1)]) }
        #expect(error.message == "unknown parameter 'walls.mode': collision behavior 'walls' has no numeric keys")
        #expect(error.location == SceneLocation(line: 12, column: 3))
    }

    @Test func pathWithoutKey() throws {
        let error = try #require(throws: SceneError.self) { try scene.applying([("top", 1)]) }
        #expect(error.message == "expected a parameter path NAME.KEY (e.g. 'bouncy.elasticity'), got 'top'")
    }

    @Test func valueOutsideTheKeysRange() throws {
        let error = try #require(throws: SceneError.self) { try scene.applying([("top.size.width", -1)]) }
        #expect(error.message == "expected a positive number for 'top.size.width', got -1")
        #expect(error.location == SceneLocation(line: 6, column: 3))
        #expect(throws: SceneError.self) { try scene.applying([("bouncy.friction", .nan)]) }
    }

    @Test func numericKeysPerEntity() {
        #expect(scene.numericKeys(of: "top") == ["center.x", "center.y", "size.width", "size.height", "angle"])
        #expect(scene.numericKeys(of: "fall") == ["magnitude", "angle", "direction.x", "direction.y"])
        #expect(scene.numericKeys(of: "walls") == [])
        #expect(scene.numericKeys(of: "nobody") == nil)
    }

    @Test func parsesAssignments() throws {
        let assignment = try ParameterAssignment.parse("bouncy.elasticity=0.25").get()
        #expect(assignment == ParameterAssignment(path: "bouncy.elasticity", value: 0.25))
        #expect(try ParameterAssignment.parse("top.center.x = -3e2").get().value == -300)
        for bad in ["bouncy.elasticity", "=1", "bouncy=1", "bouncy.elasticity=x", "bouncy.elasticity=nan"] {
            #expect(throws: ParameterAssignmentError.self) { try ParameterAssignment.parse(bad).get() }
        }
    }
}
