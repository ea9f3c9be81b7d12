import Foundation
import Testing
import TestScratch
@testable import WorldSweep

/// Attachments against real Box2D 2.3 (PyPI's float32 box2d 2.3.10, set up as the engine sets up
/// UIKit's attachments): the scenes of Tests/Box2DReference/joints/scenes.json, built here with
/// AttachmentBehavior on a DynamicAnimator, against the traces scripts/reference/box2d23_joints.py
/// made of them. Every item within 0.01 pt, and its angle within 0.01 pt at a 50 × 50 box's
/// corner (as Box2DReferenceTests), after every one of the 300 ticks.
@Suite struct JointReferenceTests {
    static let directory = Repository.root.appendingPathComponent("Tests")
        .appendingPathComponent("Box2DReference").appendingPathComponent("joints")
    static let pointTolerance = 0.01
    static let angleTolerance = 0.01 / (25 * 2.0.squareRoot())

    struct Scenes: Decodable { var scenes: [Scene] }
    struct Scene: Decodable {
        struct Item: Decodable { var name: String; var center: [Double]; var size: [Double]; var gravity: Bool?; var anchored: Bool? }
        struct Attachment: Decodable {
            var kind: String; var items: [String]; var offsets: [[Double]]?; var anchor: [Double]?; var axis: [Double]?
            var frequency: Double?; var damping: Double?; var range: [Double]?; var friction: Double?
        }
        var name: String; var items: [Item]; var attachments: [Attachment]
    }

    static func scene(_ name: String) throws -> Scene {
        let data = try Data(contentsOf: directory.appendingPathComponent("scenes.json"))
        return try JSONDecoder().decode(Scenes.self, from: data).scenes.first { $0.name == name }!
    }

    /// The scene's animator: one item behavior (no damping) holding every item in order, so the
    /// bodies come in that order; anchored items, gravity, then the attachments in order.
    static func build(_ scene: Scene) -> (DynamicAnimator, [View]) {
        let views = scene.items.map {
            View(name: $0.name, center: Point($0.center[0], $0.center[1]), size: Size(width: $0.size[0], height: $0.size[1]))
        }
        func view(_ name: String) -> View { views.first { $0.name == name }! }
        let animator = DynamicAnimator(referenceBounds: Size(width: 320, height: 568))
        let materials = DynamicItemBehavior(items: views)
        materials.resistance = 0
        materials.angularResistance = 0
        animator.addBehavior(materials)
        let anchored = scene.items.filter { $0.anchored == true }.map { view($0.name) }
        if !anchored.isEmpty {
            let hold = DynamicItemBehavior(items: anchored)
            hold.isAnchored = true
            animator.addBehavior(hold)
        }
        let falling = scene.items.filter { $0.gravity == true }.map { view($0.name) }
        if !falling.isEmpty { animator.addBehavior(GravityBehavior(items: falling)) }
        for a in scene.attachments {
            let items = a.items.map(view)
            let offsets = (a.offsets ?? Array(repeating: [0, 0], count: items.count)).map { Offset(horizontal: $0[0], vertical: $0[1]) }
            let anchor = a.anchor.map { Point($0[0], $0[1]) } ?? .zero
            let attachment: AttachmentBehavior
            switch (a.kind, items.count) {
            case ("distance", 1): attachment = AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedToAnchor: anchor)
            case ("distance", _):
                attachment = AttachmentBehavior(item: items[0], offsetFromCenter: offsets[0], attachedTo: items[1], offsetFromCenter: offsets[1])
            case ("pin", _): attachment = .pinAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case ("sliding", _):
                attachment = .slidingAttachment(with: items[0], attachmentAnchor: anchor, axisOfTranslation: Vector(dx: a.axis![0], dy: a.axis![1]))
            case ("fixed", _): attachment = .fixedAttachment(with: items[0], attachedTo: items[1], attachmentAnchor: anchor)
            case ("limit", _):
                attachment = .limitAttachment(with: items[0], offsetFromCenter: offsets[0], attachedTo: items[1], offsetFromCenter: offsets[1])
            default: fatalError("unknown attachment \(a.kind)")
            }
            if let f = a.frequency { attachment.frequency = f }
            if let d = a.damping { attachment.damping = d }
            if let r = a.range { attachment.attachmentRange = FloatRange(minimum: r[0], maximum: r[1]) }
            if let f = a.friction { attachment.frictionTorque = f }
            animator.addBehavior(attachment)
        }
        return (animator, views)
    }

    @Test(arguments: ["pendulum", "spring", "chain-3", "pin-chain-3", "sliding", "weld", "rope"])
    func matchesBox2D23(_ name: String) throws {
        let scene = try Self.scene(name)
        let text = try String(contentsOf: Self.directory.appendingPathComponent(name + ".csv"), encoding: .utf8)
        var expected: [String: (x: Double, y: Double, angle: Double)] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            expected["\(f[0]),\(f[1])"] = (Double(Float(f[2])!), Double(Float(f[3])!), Double(Float(f[4])!))
        }
        let (animator, views) = Self.build(scene)
        #expect(expected.count == 300 * views.count)
        var worst = (distance: 0.0, angle: 0.0, at: ""), travelled = 0.0
        for tick in 1...300 {
            animator.tick(1.0 / 60.0)
            for view in views {
                guard let want = expected["\(tick),\(view.name)"] else { Issue.record("no row for tick \(tick), \(view.name)"); return }
                let d = max(abs(view.center.x - want.x), abs(view.center.y - want.y))
                if d > worst.distance { worst.distance = d; worst.at = "tick \(tick), \(view.name)" }
                worst.angle = max(worst.angle, abs(view.angle - want.angle))
                let start = scene.items.first { $0.name == view.name }!.center
                travelled = max(travelled, hypot(want.x - start[0], want.y - start[1]))
            }
        }
        print("\(name): worst \(worst.distance) pt at \(worst.at), angle \(worst.angle) rad")
        #expect(travelled > 10, "\(name): the reference hardly moves")
        #expect(worst.distance <= Self.pointTolerance, "\(name): \(worst.distance) pt off at \(worst.at)")
        #expect(worst.angle <= Self.angleTolerance, "\(name): angle \(worst.angle) rad off")
    }
}
