import Testing
@testable import WorldSweep

/// A behavior type's plan value compiles itself (`PlanBehavior`): a value declared outside the
/// engine's plan files adds its part to the plan with no switch there knowing it.
@Suite("Plan behaviors")
struct PlanBehaviorTests {
    /// A test-only behavior type: its item driven, tied by a rigid distance joint to a ground body
    /// at `anchor`, `length` points long.
    struct Tether: PlanBehavior, Equatable {
        var item: Int
        var anchor: Point
        var length: Double
        var items: [Int] { [item] }
        var drive: PlanItemDrive { .driven }

        func compile(into plan: inout PlanCompilation, index: Int) {
            let ground = plan.ground(at: anchor, behavior: index)
            var d = JointDefinition()
            d.length = Float(length) / EngineSettings.pointsPerMetre
            plan.joints.append(JointPlan(kind: .distance, bodyA: ground, bodyB: plan.body(ofItem: item), collideConnected: false,
                                         behavior: index, part: 0, definition: d))
        }
    }

    static let item = PlanInput.Item(center: Point(x: 100, y: 100), size: Size(width: 20, height: 20), angle: 0, boundsType: .rectangle,
                                     path: [])

    @Test("its compile runs in behavior order: the ground body after the boundary edges, its joint, its item driven")
    func compilesItself() throws {
        let walls = PlanInput.Collision(items: [0], mode: .everything, segments: [
            PlanInput.Segment(identifier: nil, from: Point(x: 0, y: 0), to: Point(x: 200, y: 0)),
            PlanInput.Segment(identifier: nil, from: Point(x: 200, y: 0), to: Point(x: 200, y: 200)),
        ])
        let tether = Tether(item: 0, anchor: Point(x: 100, y: 50), length: 50)
        let plan = WorldPlan(compiling: PlanInput(referenceBounds: Size(width: 200, height: 200), items: [Self.item],
                                                  behaviors: [walls, tether], gravity: nil))
        // Body 0 the item, 1 and 2 the edges, 3 the tether's ground at (100, 50) pt = (1, 0.5) m.
        #expect(plan.bodies.count == 4)
        #expect(plan.bodies[1].boundary != nil && plan.bodies[2].boundary != nil)
        #expect(plan.bodies[3].anchorOf == 1 && plan.bodies[3].position == Vec2(1, 0.5))
        let joint = try #require(plan.joints.first)
        #expect(plan.joints.count == 1 && joint.kind == .distance && joint.bodyA == 3 && joint.bodyB == 0 && joint.behavior == 1)
        #expect(joint.definition.length == 0.5)
        // Driven: time of impact against boundaries, no gravity scale (it does not fall).
        let material = try #require(plan.bodies[0].material)
        #expect(material.usesTOI && material.gravityScale == 0)
        // Joined bodies do not collide; the item still meets its walls.
        #expect(plan.contactPartners(0, 3) == nil && plan.contactPartners(0, 1) != nil)
    }

    @Test("plan inputs compare by their behaviors' values and types")
    func equality() {
        let a = PlanInput(referenceBounds: Size(width: 200, height: 200), items: [Self.item],
                          behaviors: [Tether(item: 0, anchor: Point(x: 1, y: 2), length: 3)], gravity: nil)
        var b = a
        #expect(a == b)
        b.behaviors = [Tether(item: 0, anchor: Point(x: 1, y: 2), length: 4)]
        #expect(a != b)
        b.behaviors = [PlanInput.Other(items: [0])]
        #expect(a != b)
    }
}
