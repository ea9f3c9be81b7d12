import Testing
import WorldSweep
@testable import WorldSweepRun
import WorldSweepScene

/// Issue 17: a world whose numbers leave what Float arithmetic carries is flagged failed, never
/// reported as physics. The files validate refuses these values now; scenes made in code can
/// still hold them, and the run must catch what they do, on both engines.
@Suite struct FailureDetectionTests {
    /// The drop scene with one change the validator would refuse.
    private func broken(_ change: (inout SceneFile) -> Void) throws -> SceneFile {
        var s = try scene(dropScene(elasticity: 0.5, ticks: 240))
        change(&s)
        return s
    }

    private func expectFlagged(_ s: SceneFile, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var runner = WorldRunner(scene: s)
        runner.engine = .single
        let single = runner.run(worlds: 0..<1)[0]
        runner.engine = .batched(.simd)
        let batched = runner.run(worlds: 0..<1)[0]
        #expect(single.failed, "\(what): single engine reported \(single.items[0])", sourceLocation: sourceLocation)
        #expect(batched.failed, "\(what): batched engine reported \(batched.items[0])", sourceLocation: sourceLocation)
    }

    @Test func theDropItselfIsPhysics() throws {
        var runner = WorldRunner(scene: try broken { _ in })
        #expect(!runner.run(world: 0).failed)
        runner.engine = .batched(.simd)
        #expect(!runner.run(worlds: 0..<1)[0].failed)
    }

    @Test func anAnchoredItemUnderGravityIsPhysicsToo() throws {
        // Still to the bit under gravity, as an anchored item must be: not a saturated one.
        let anchored = try broken { s in
            guard case .item(var p) = s.behaviors[2].kind else { return }
            p.anchored = true
            s.behaviors[2].kind = .item(p)
        }
        var runner = WorldRunner(scene: anchored)
        let r = runner.run(world: 0)
        #expect(!r.failed && r.items[0].y == 100)
        runner.engine = .batched(.simd)
        #expect(!runner.run(worlds: 0..<1)[0].failed)
    }

    @Test func aDensityPastFloatIsFlagged() throws {
        expectFlagged(try broken { s in
            guard case .item(var p) = s.behaviors[2].kind else { return }
            p.density = 1e39
            s.behaviors[2].kind = .item(p)
        }, "density 1e39")
    }

    @Test func sizesPastFloatAreFlagged() throws {
        expectFlagged(try broken { $0.items[0].size.width = 1e-300 }, "width 1e-300")
        expectFlagged(try broken { $0.items[0].size = Size(width: 1e39, height: 40) }, "width 1e39")
    }

    @Test func forcesPastFloatAreFlagged() throws {
        expectFlagged(try broken { $0.behaviors[0].kind = .gravity(GravitySpec(force: DirectionSpec(magnitude: 1e30))) },
                      "gravity 1e30")
        // Sideways, so gravity alone cannot hide it.
        expectFlagged(try broken { s in
            s.behaviors[0].kind = .gravity(GravitySpec(force: DirectionSpec(magnitude: 0)))
            s.behaviors.append(BehaviorSpec(name: "drive", items: ["box"],
                                            kind: .push(PushSpec(mode: .continuous, force: DirectionSpec(angle: 0, magnitude: 1e30)))))
        }, "continuous push 1e30")
    }

    /// Issue 30: a velocity its position's Float spacing swallows (each sub-step's move under one
    /// spacing) is past the engine's limits; the same item moving fast enough to move is physics.
    @Test func aVelocityItsPositionCannotCarryIsFlagged() throws {
        func farOut(speed: Double) throws -> SceneFile {
            try broken { s in
                s.behaviors[0].kind = .gravity(GravitySpec(force: DirectionSpec(magnitude: 0)))
                s.items[0].center = Point(x: 900_000, y: 100)
                guard case .item(var p) = s.behaviors[2].kind else { return }
                p.linearVelocity = Vector(dx: speed, dy: 0)
                s.behaviors[2].kind = .item(p)
            }
        }
        // 9 000 m out a Float's spacing is 2⁻¹⁰ m; 1 pt/s moves 1/12 000 m a sub-step, 200 pt/s 1/60 m.
        #expect(Float(9_000).ulp == 0x1p-10)
        expectFlagged(try farOut(speed: 1), "1 pt/s at x = 900 000")
        for engine in [SweepEngine.single, .batched(.simd)] {
            var runner = WorldRunner(scene: try farOut(speed: 200))
            runner.engine = engine
            let r = runner.run(worlds: 0..<1)[0]
            #expect(!r.failed && r.items[0].x > 900_000, "200 pt/s at x = 900 000 on \(engine.name)")
        }
    }
}
