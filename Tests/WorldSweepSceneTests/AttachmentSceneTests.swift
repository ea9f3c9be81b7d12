import Testing
import WorldSweep
@testable import WorldSweepScene

// Line numbers refer to `minimalScene` (see SceneErrorTests); added lines start at 10.

/// `type: attachment` and `type: snap`: what the file says, what the plan and the live behaviors
/// get, the keys they sweep and set, and every refusal at its line and column.
@Suite struct AttachmentSceneTests {
    @Test func anchorSpringReadsIntoThePlanAndTheLiveBehavior() throws {
        let scene = try parse(minimalScene(adding:
            "  card: {type: attachment, items: [top], anchor: [100, -100], offset: {top: [0, -25]}, frequency: 2, damping: 0.3}"))
        guard case .attachment(let a) = scene.behaviors[1].kind else { Issue.record("not an attachment"); return }
        #expect(a.kind == .distance && a.anchor == Point(x: 100, y: -100) && a.frequency == 2 && a.damping == 0.3 && a.length == nil)
        // Unset length: measured as made, from the top's attachment point (100, −25) to the anchor: 75 pt.
        #expect(try scene.value(at: "card.length") == 75)
        let input = scene.planInput()
        guard let planned = input.behaviors[1] as? PlanInput.Attachment else { Issue.record("not planned"); return }
        #expect(planned == PlanInput.Attachment(kind: .distance, items: [0], offsets: [Offset(horizontal: 0, vertical: -25)],
                                                anchor: Point(x: 100, y: -100), length: 75, damping: 0.3, frequency: 2))
        // The live behavior the animator describes is the same attachment.
        let built = scene.makeAnimator()
        let live = try #require(built.behavior(named: "card") as? AttachmentBehavior)
        #expect(live.kind == .distance && live.length == 75 && live.frequency == 2 && live.damping == 0.3
                && live.anchorPoint == Point(x: 100, y: -100) && live.attachedBehaviorType == .anchor)
    }

    @Test func kindsBetweenItemsUseUIKitsFactories() throws {
        let scene = try parse(minimalScene(adding:
            "  hinge: {type: attachment, kind: pin, items: [top, bottom], anchor: [100, 25], range: [-0.5, 0.5], friction_torque: 2}",
            "  rail: {type: attachment, kind: sliding, items: [top, bottom], anchor: [100, 25], axis: [0, 1], range: [1, 2]}",
            "  weld: {type: attachment, kind: fixed, items: [top, bottom], anchor: [100, 25], frequency: 3}",
            "  rope: {type: attachment, kind: limit, items: [top, bottom], offset: {bottom: [10, 0]}, length: 80}",
            "  snap: {type: snap, items: [top], point: [200, 300], damping: 0.2}"))
        let built = scene.makeAnimator()
        let hinge = try #require(built.behavior(named: "hinge") as? AttachmentBehavior)
        #expect(hinge.kind == .pin && hinge.attachmentRange == FloatRange(minimum: -0.5, maximum: 0.5) && hinge.frictionTorque == 2)
        let rail = try #require(built.behavior(named: "rail") as? AttachmentBehavior)
        // UIKit resets a sliding range that does not hold 0 to infinite; the plan does the same.
        #expect(rail.kind == .sliding && rail.attachmentRange.isInfinite && rail.axisOfTranslation == Vector(dx: 0, dy: 1))
        guard let planned = scene.planInput().behaviors[2] as? PlanInput.Attachment else { Issue.record("not planned"); return }
        #expect(planned.range.isInfinite && planned.axis == Vector(dx: 0, dy: 1))
        #expect((built.behavior(named: "weld") as? AttachmentBehavior)?.kind == .fixed)
        let rope = try #require(built.behavior(named: "rope") as? AttachmentBehavior)
        #expect(rope.kind == .limit && rope.length == 80)
        let snap = try #require(built.behavior(named: "snap") as? SnapBehavior)
        #expect(snap.snapPoint == Point(x: 200, y: 300) && snap.damping == 0.2)
        #expect(scene.planInput().behaviors[5] as? PlanInput.Snap == PlanInput.Snap(item: 0, point: Point(x: 200, y: 300), damping: 0.2))
        // `item: NAME` for a snap, as UISnapBehavior(item:snapTo:) takes it.
        let single = try parse(minimalScene(adding: "  s: {type: snap, item: bottom, point: [1, 2]}"))
        #expect(single.behaviors[1].items == ["bottom"])
        // A snap's damping defaults to UIKit's 0.5.
        let plain = try parse(minimalScene(adding: "  s: {type: snap, items: [top], point: [0, 0]}"))
        #expect(try plain.value(at: "s.damping") == 0.5)
    }

    @Test func everyNumericKeyIsASweepAxisAndASetKey() throws {
        let scene = try parse(minimalScene(adding:
            "  card: {type: attachment, items: [top], anchor: [100, -100], frequency: 2}",
            "  hinge: {type: attachment, kind: pin, items: [top, bottom], anchor: [100, 25]}",
            "  rail: {type: attachment, kind: sliding, items: [bottom], anchor: [0, 0], axis: [1, 0]}",
            "  snap: {type: snap, items: [top], point: [200, 300]}"))
        #expect(scene.numericKeys(of: "card") == ["anchor.x", "anchor.y", "length", "damping", "frequency", "offset.top.x", "offset.top.y"])
        #expect(scene.numericKeys(of: "hinge") == ["anchor.x", "anchor.y", "range.min", "range.max", "friction_torque"])
        #expect(scene.numericKeys(of: "rail") == ["anchor.x", "anchor.y", "axis.x", "axis.y", "range.min", "range.max", "friction_torque"])
        #expect(scene.numericKeys(of: "snap") == ["point.x", "point.y", "damping"])
        let set = try scene.applying([("card.frequency", 3), ("card.length", 120), ("card.anchor.y", -50), ("snap.point.x", 10),
                                      ("snap.damping", 0.9), ("hinge.range.max", 1), ("hinge.range.min", -1)])
        guard case .attachment(let card) = set.behaviors[1].kind, case .snap(let snap) = set.behaviors[4].kind,
              case .attachment(let hinge) = set.behaviors[2].kind else { Issue.record("kinds"); return }
        #expect(card.frequency == 3 && card.length == 120 && card.anchor == Point(x: 100, y: -50))
        #expect(snap.point == Point(x: 10, y: 300) && snap.damping == 0.9)
        #expect(hinge.range == FloatRange(minimum: -1, maximum: 1))
        // A set length is a set length: the plan no longer measures it (nor makes a pin of it).
        guard let planned = set.planInput().behaviors[1] as? PlanInput.Attachment else { Issue.record("plan"); return }
        #expect(planned.length == 120 && planned.lengthIsSet)
        // Ranges and the rules between keys hold for --set as in the file.
        #expect(throws: SceneError.self) { try scene.applying([("card.frequency", -1)]) }
        #expect(throws: SceneError.self) { try scene.applying([("hinge.range.min", 2), ("hinge.range.max", 1)]) }
        #expect(throws: SceneError.self) { try scene.applying([("rail.axis.x", 0)]) }
        // Numbers Float cannot carry through the joint's arithmetic: a frequency whose 2πf
        // vanishes, an axis that normalizes to nothing.
        #expect(throws: SceneError.self) { try scene.applying([("card.frequency", 1e-300)]) }
        #expect(throws: SceneError.self) { try scene.applying([("card.frequency", 1e5)]) }
        #expect(throws: SceneError.self) { try scene.applying([("rail.axis.y", 1e-300)]) }
        #expect(throws: SceneError.self) { try scene.applying([("hinge.length", 1)]) }
        // A sweep over frequency × damping, jitter on the anchor as a pair.
        let swept = try parse(minimalScene(adding:
            "  card: {type: attachment, items: [top], anchor: [100, -100], frequency: 2}",
            "sweep:",
            "  parameters:",
            "    card.frequency: {values: [1, 2, 4]}",
            "    card.damping: {linspace: [0, 1, 3]}",
            "  replicas: 2",
            "  jitter: {card.anchor: [1, 1]}"))
        #expect(swept.worldCount == 18)
        let world = try swept.world(5)   // point 2 (frequency 1, damping 1), replica 1
        guard case .attachment(let w) = world.behaviors[1].kind else { Issue.record("world"); return }
        #expect(w.frequency == 1 && w.damping == 1)
        #expect(abs(w.anchor!.x - 100) <= 1 && abs(w.anchor!.y + 100) <= 1 && w.anchor != Point(x: 100, y: -100))
    }

    @Test func refusalsSayWhereAndWhat() {
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top]}"), at: 10, 3,
                    "missing required key 'anchor' in attachment behavior 'a'")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: pin, items: [top], anchor: [0, 0]}"), at: 10, 31,
                    "a pin attachment joins two items")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: rod, items: [top], anchor: [0, 0]}"), at: 10, 31,
                    "expected one of distance, pin, sliding, fixed, limit for 'kind' of attachment behavior 'a', got \"rod\"")
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top, bottom], anchor: [0, 0]}"), at: 10, 47,
                    "'anchor' is for an item on an anchor")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: pin, items: [top, bottom]}"), at: 10, 3,
                    "missing required key 'anchor'", "where a pin attachment joins its two items")
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top], anchor: [0, 0], range: [0, 1]}"), at: 10, 55,
                    "'range' applies to pin and sliding attachments, not distance")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: pin, items: [top, bottom], anchor: [0, 0], range: [1, -1]}"), at: 10, 81,
                    "expected 'range' [min, max] with min ≤ max")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: pin, items: [top, bottom], anchor: [0, 0], frequency: 1}"), at: 10, 74,
                    "'frequency' applies to distance and fixed attachments, not pin")
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top], anchor: [0, 0], frequency: -1}"), at: 10, 66,
                    "expected a non-negative number for 'frequency', got -1")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: sliding, items: [top], anchor: [0, 0]}"), at: 10, 3,
                    "missing required key 'axis'")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: sliding, items: [top], anchor: [0, 0], axis: [0, 0]}"), at: 10, 76,
                    "expected a non-zero 'axis'")
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top], anchor: [0, 0], axis: [0, 1]}"), at: 10, 55,
                    "'axis' applies to sliding attachments only")
        expectError(minimalScene(adding: "  a: {type: attachment, items: [top], anchor: [0, 0], offset: {bottom: [1, 1]}}"), at: 10, 64,
                    "sets an offset for 'bottom', which is not one of its items (top)")
        expectError(minimalScene(adding: "  a: {type: attachment, kind: pin, items: [top, bottom], anchor: [0, 0], offset: {top: [1, 1]}}"), at: 10, 74,
                    "'offset' applies to distance and limit attachments")
        expectError(minimalScene(adding: "  s: {type: snap, items: [top, bottom], point: [0, 0]}"), at: 10, 26,
                    "expected exactly one item in 'items' of snap behavior 's'")
        expectError(minimalScene(adding: "  s: {type: snap, items: [top]}"), at: 10, 3, "missing required key 'point' in snap behavior 's'")
        expectError(minimalScene(adding: "  s: {type: snap, point: [0, 0]}"), at: 10, 3, "missing required key 'items' in snap behavior 's' (or 'item')")
        expectError(minimalScene(adding: "  s: {type: snap, item: top, items: [top], point: [0, 0]}"), at: 10, 30,
                    "give either 'item' or 'items' in snap behavior 's', not both")
        expectError(minimalScene(adding: "  s: {type: snap, item: topp, point: [0, 0]}"), at: 10, 25, "names unknown item 'topp'")
        expectError(minimalScene(adding: "  s: {type: snap, items: [top], point: [0, 0], stiffness: 1}"), at: 10, 48,
                    "unknown key 'stiffness' in snap behavior 's' (expected one of: type, items, item, point, damping)")
        expectError(minimalScene(adding: "  s: {type: snap, items: [top], point: [0, 0], damping: -0.1}"), at: 10, 57,
                    "expected a non-negative number for 'damping'")
    }
}
