import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepRun
import WorldSweepScene

/// The world plan: a scene compiles to the plan its animator compiles from live behaviors, the
/// animator's world is the plan's world, and a sweep run from plans (the batched path) is the
/// per-world animator run world by world, bit for bit.
@Suite struct WorldPlanTests {
    static let sweepsDirectory = BatchAgreementTests.sweepsDirectory

    /// A scene with every kind of behavior and the cases the translation must get right: an item
    /// pair in two collision behaviors, an item no behavior acts on, an item first seen in a later
    /// behavior, an anchored item, a boundary path, velocities added, both push modes with
    /// offsets, gravity by direction then by angle (the later wins), an ellipse and a path item.
    static let everyKind = """
        name: every-kind
        world: {bounds: [320, 568], ticks: 150}
        items:
          idle: {center: [300, 20], size: [10, 10]}
          a: {center: [60, 100], size: [40, 40]}
          b: {center: [98, 100], size: [30, 50], angle: 0.2, shape: ellipse}
          c: {center: [200, 60], size: [36, 36], shape: ellipse}
          post: {center: [160, 300], size: [80, 20]}
          wedge: {center: [250, 150], size: [40, 40], shape: path, path: [[-20, 20], [20, 20], [0, -20]]}
        behaviors:
          early: {type: gravity, items: [a], direction: [0.1, 1]}
          fall: {type: gravity, items: [a, b, c, wedge], angle: 1.4, magnitude: 1.2}
          walls:
            type: collision
            items: [a, b, c, post, wedge]
            reference_bounds: true
            boundaries:
              ramp: {path: [[0, 400], [160, 520], [0, 520]]}
              step: {from: [200, 450], to: [320, 450]}
          pair: {type: collision, items: [b, a], mode: items}
          anchor: {type: item, items: [post], anchored: true}
          material: {type: item, items: [a, b, c, wedge], elasticity: 0.6, friction: 0.3, linear_velocity: [20, -40], angular_velocity: 0.5}
          later: {type: item, items: [c], elasticity: 0.9, allows_rotation: false}
          flick: {type: push, items: [b], mode: instantaneous, magnitude: 0.3, angle: 3.0, offset: {b: [5, 10]}}
          drive: {type: push, items: [c, a], mode: continuous, direction: [0.05, -0.02], offset: {c: [0, -5]}}
        sweep:
          parameters:
            material.elasticity: [0.1, 0.7]
            fall.magnitude: [0.8, 1.5]
            flick.magnitude: [0.1, 0.9]
        """

    /// Every attachment kind and shape (an anchor rod with an offset, an item–item spring, pin,
    /// sliding between items and on an anchor, weld, rope) and a snap, swept over their keys.
    static let everyJoint = """
        name: joints
        world: {bounds: [320, 568], ticks: 30}
        items:
          a: {center: [60, 100], size: [40, 40], angle: 0.3}
          b: {center: [140, 120], size: [30, 50]}
          c: {center: [220, 200], size: [36, 36]}
          d: {center: [260, 300], size: [36, 36]}
        behaviors:
          fall: {type: gravity, items: [a, b, c, d]}
          walls: {type: collision, items: [a, b, c, d], reference_bounds: true}
          rod: {type: attachment, items: [a], anchor: [60, 20], offset: {a: [5, -10]}}
          spring: {type: attachment, items: [a, b], offset: {b: [0, 10]}, frequency: 2, damping: 0.4}
          hinge: {type: attachment, kind: pin, items: [b, c], anchor: [180, 160], range: [-0.5, 0.5], friction_torque: 0.2}
          rail: {type: attachment, kind: sliding, items: [c, d], anchor: [240, 250], axis: [1, 1], range: [-20, 30]}
          weld: {type: attachment, kind: fixed, items: [a, d], anchor: [160, 200], frequency: 3}
          rope: {type: attachment, kind: limit, items: [b, d], offset: {d: [-5, 0]}, length: 150}
          track: {type: attachment, kind: sliding, items: [d], anchor: [260, 350], axis: [0, 1]}
          snap: {type: snap, items: [c], point: [200, 400], damping: 0.3}
        sweep:
          parameters:
            spring.frequency: [1, 4]
            rod.length: [50, 90]
            rail.range.min: [-10, 5]
            snap.point.x: [100, 250]
          jitter: {hinge.anchor: [3, 3]}
        """

    /// Checks that `scene`'s plan is the one its animator compiled (item indices compared by name:
    /// the scene numbers items in file order, the animator in order of first appearance).
    func expectSamePlan(_ scene: SceneFile, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fromScene = scene.worldPlan()
        let built = scene.makeAnimator()
        _ = built.animator.preparedWorld()   // configures from the behaviors
        let animatorPlan = try #require(built.animator.plan, sourceLocation: sourceLocation)
        let sceneNames = scene.items.map(\.name), animatorNames = built.animator.items.map { built.name(of: $0)! }
        #expect(fromScene.bodies.count == animatorPlan.bodies.count, sourceLocation: sourceLocation)
        for (s, a) in zip(fromScene.bodies, animatorPlan.bodies) {
            #expect(s.shape == a.shape && s.position == a.position && s.angle == a.angle, sourceLocation: sourceLocation)
            #expect(s.material == a.material && s.boundary == a.boundary, sourceLocation: sourceLocation)
            #expect(s.item.map { sceneNames[$0] } == a.item.map { animatorNames[$0] }, sourceLocation: sourceLocation)
        }
        #expect(fromScene.rule == animatorPlan.rule, sourceLocation: sourceLocation)
        #expect(fromScene.allowedPairs == animatorPlan.allowedPairs, sourceLocation: sourceLocation)
        #expect(fromScene.pushes == animatorPlan.pushes, sourceLocation: sourceLocation)
        #expect(fromScene.gravity == animatorPlan.gravity, sourceLocation: sourceLocation)
        #expect(fromScene.velocityChanges == animatorPlan.velocityChanges, sourceLocation: sourceLocation)
        // Joints name bodies, numbered alike when the items first appear in file order.
        #expect(fromScene.joints == animatorPlan.joints, sourceLocation: sourceLocation)
        func named(_ partners: WorldPlan.ContactPartners, _ names: [String]) -> String {
            switch partners {
            case let .items(a, b, listeners): "\(names[a])-\(names[b]) heard by \(listeners)"
            case let .boundary(item, behavior, identifier): "\(names[item]) on \(behavior)/\(identifier ?? "bounds")"
            }
        }
        func partners(_ plan: WorldPlan) -> [WorldPlan.ContactPartners?] { plan.allowedPairs.map { plan.contactPartners($0.a, $0.b) } }
        #expect(partners(fromScene).map { named($0!, sceneNames) } == partners(animatorPlan).map { named($0!, animatorNames) },
                sourceLocation: sourceLocation)
        for (i, name) in sceneNames.enumerated() {
            let animatorItem = animatorNames.firstIndex(of: name)
            #expect(fromScene.bodyOfItem[i] == animatorItem.flatMap { animatorPlan.bodyOfItem[$0] }, "\(name)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["twin-drop.yaml", "ledge-squares.yaml", "push-offset.yaml", "spinner.yaml", "million-drops.yaml",
                      "radial-gravity.yaml", "pendulum.yaml", "spring-card.yaml", "spring-hang.yaml", "snap.yaml"])
    func aSceneCompilesToThePlanItsAnimatorUses(_ name: String) throws {
        let scene = try SceneFile.load(path: "\(Self.sweepsDirectory)/\(name)")
        for world in Set([0, scene.worldCount / 2, scene.worldCount - 1]).sorted() {
            try expectSamePlan(try scene.world(world))
        }
    }

    @Test func everyKindOfBehaviorCompilesAlike() throws {
        let scene = try SceneFile.parse(yaml: Self.everyKind, path: "every-kind.yaml")
        let plan = scene.worldPlan()
        // The counts the rules give by hand: items a, b, c, post, wedge have bodies (idle none);
        // edges: 4 bounds + 3 ramp + 1 step; pairs: walls' 10 item pairs and 5 × 8 item–edge
        // pairs, and pair's a–b again (no new pair, a second listener).
        #expect(plan.bodyOfItem.map { $0 != nil } == [false, true, true, true, true, true])
        #expect(plan.bodyCount == 5 + 8)
        #expect(plan.allowedPairs.count == 10 + 5 * 8)
        #expect(plan.contactPartners(plan.bodyOfItem[1]!, plan.bodyOfItem[2]!) == .items(1, 2, listeners: [2, 3]))
        #expect(plan.contactPartners(plan.bodyOfItem[2]!, plan.bodyOfItem[1]!) == .items(1, 2, listeners: [2, 3]))
        // The gravity behavior added last sets gravity: 1.2 × (cos 1.4, sin 1.4) × 10 m/s².
        #expect(plan.gravity == Vec2(Float(cos(1.4) * 1.2) * 10, Float(sin(1.4) * 1.2) * 10))
        for world in 0..<scene.worldCount { try expectSamePlan(try scene.world(world)) }
    }

    /// Every world of `scene` on the plan path, in batches that are not a multiple of the lane
    /// width, checked world by world against the per-world animator (`--engine single`); the
    /// batched results, for further checks.
    func batchedResultsMatchingTheAnimator(_ scene: SceneFile) -> [WorldResult] {
        var single = WorldRunner(scene: scene)
        single.engine = .single
        let expected = (0..<scene.worldCount).map { single.run(world: $0) }
        let got = single.runBatched([0, 1, 2], integrator: .simd) + single.runBatched(Array(3..<scene.worldCount), integrator: .simd)
        #expect(expected.count == got.count)
        for (e, g) in zip(expected, got) {
            #expect(e.world == g.world && e.failed == g.failed && e.parameters == g.parameters)
            for (i, (ie, ig)) in zip(e.items, g.items).enumerated() where ie != ig {
                Issue.record("world \(e.world), item \(scene.items[i].name): \(ig) instead of \(ie)")
            }
        }
        return got
    }

    /// Every attachment kind and shape and a snap: the scene's plan (ScenePlan's values) is the
    /// one the live behaviors (SceneBuilder through UIKit's initializers and factories) compile
    /// to, joints included, in every world of a sweep over their keys.
    @Test func attachmentsAndSnapsCompileAlike() throws {
        let scene = try SceneFile.parse(yaml: Self.everyJoint, path: "every-joint.yaml")
        #expect(scene.worldPlan().joints.count == 7 + 4)   // a snap is four springs
        for world in 0..<scene.worldCount { try expectSamePlan(try scene.world(world)) }
    }

    /// The same sweep on the batched engine, world by world the animator's, spring metrics included.
    @Test func attachmentsAndSnapsRunAsTheAnimatorRunsThem() throws {
        let scene = try SceneFile.parse(yaml: Self.everyJoint, path: "every-joint.yaml")
        let got = batchedResultsMatchingTheAnimator(scene)
        // a swings on its rod and c snaps: both have spring metrics; b (an item–item spring) too.
        #expect(got.allSatisfy { !$0.failed && $0.items[0].spring != nil && $0.items[1].spring != nil && $0.items[2].spring != nil })
    }

    /// The animator's world before its first step is the plan's world, body by body.
    @Test func theAnimatorsWorldIsThePlansWorld() throws {
        let scene = try SceneFile.parse(yaml: Self.everyKind, path: "every-kind.yaml")
        let built = try scene.world(5).makeAnimator()
        let animatorWorld = built.animator.preparedWorld()
        let planWorld = try scene.world(5).worldPlan().makeWorld()
        #expect(animatorWorld.rule == planWorld.rule)
        #expect(animatorWorld.gravity == planWorld.gravity)
        #expect(animatorWorld.bodies.count == planWorld.bodies.count)
        for (a, p) in zip(animatorWorld.bodies, planWorld.bodies) {
            #expect(a.shape == p.shape && a.isStatic == p.isStatic && a.usesTOI == p.usesTOI)
            #expect(a.invMass == p.invMass && a.invI == p.invI && a.gravityScale == p.gravityScale)
            #expect(a.restitution == p.restitution && a.friction == p.friction)
            #expect(a.linearDamping == p.linearDamping && a.angularDamping == p.angularDamping)
            #expect(a.sweep.c == p.sweep.c && a.sweep.a == p.sweep.a && a.xf.p == p.xf.p)
            #expect(a.v == p.v && a.w == p.w && a.awake == p.awake)
        }
    }

    /// The plan path against the per-world animator (`--engine single`, the reference), world by
    /// world and bit for bit, on a scene with every kind of behavior, in batches that are not a
    /// multiple of the lane width.
    @Test func everyKindRunsAsTheAnimatorRunsIt() throws {
        let scene = try SceneFile.parse(yaml: Self.everyKind, path: "every-kind.yaml")
        let got = batchedResultsMatchingTheAnimator(scene)
        // The anchored item rests when an island that holds it falls asleep (Box2D puts an
        // island's static bodies to sleep with it); the lanes once never did, and it had no rest time.
        let post = try #require(scene.items.firstIndex { $0.name == "post" })
        #expect(got.contains { $0.items[post].restTime != nil })
        // Not a scene where nothing happens: contacts with partners of each kind were counted.
        let partners = Set(got.flatMap { $0.items.flatMap { $0.contactsByPartner.keys } })
        #expect(partners.isSuperset(of: ["a", "b", "bounds", "ramp"]), "\(partners)")
        #expect(!got.contains { $0.failed })
    }

    /// A swept size that turns an ellipse into a circle in some worlds changes shapes, not the
    /// structure: those worlds still share one batch (the lanes take each lane's own shape), and
    /// each is the animator's world, bit for bit. Plans of different structure do not share one.
    @Test func sweptShapesShareABatchDifferentStructuresDoNot() throws {
        let scene = try SceneFile.parse(yaml: """
            name: oval
            world: {bounds: [320, 568], ticks: 120}
            items:
              e: {center: [100, 300], size: [40, 30], shape: ellipse}
            behaviors:
              spin: {type: push, items: [e], mode: instantaneous, magnitude: 0.4, angle: 0.3, offset: {e: [0, 8]}}
              walls: {type: collision, items: [e], reference_bounds: true}
            sweep:
              parameters:
                e.size.height: [30, 40, 50]
            """, path: "oval.yaml")
        let plans = try (0..<scene.worldCount).map { try scene.world($0).worldPlan() }
        // World 1 is a circle (40 × 40), the others polygons.
        #expect(plans.map { $0.bodies[0].shape.kind } == [.polygon, .circle, .polygon])
        let batch = try PlanBatch(plans)
        #expect(batch.count == 3)
        var single = WorldRunner(scene: scene)
        single.engine = .single
        let expected = (0..<scene.worldCount).map { single.run(world: $0) }
        #expect(single.runBatched(Array(0..<scene.worldCount), integrator: .simd) == expected)
        #expect(expected.allSatisfy { $0.items[0].contacts > 0 })

        let other = try SceneFile.parse(yaml: Self.everyKind, path: "every-kind.yaml").worldPlan()
        #expect(throws: BatchStructureError.self) { try PlanBatch([plans[0], other]) }
    }
}
