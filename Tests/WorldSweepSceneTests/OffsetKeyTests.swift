import Foundation
import Testing
@testable import WorldSweep
@testable import WorldSweepScene

/// Attachment and push offsets as sweep axes, jitter pairs and `--set` keys:
/// `NAME.offset.ITEM.x` / `.y` for each of the behavior's items (points, in the item's frame).
@Suite struct OffsetKeyTests {
    static let behaviors = [
        "  card: {type: attachment, items: [top], anchor: [100, -100], offset: {top: [0, -25]}, frequency: 2}",
        "  shove: {type: push, items: [top, bottom], mode: continuous, magnitude: 1, offset: {bottom: [10, 0]}}",
        "  hinge: {type: attachment, kind: pin, items: [top, bottom], anchor: [100, 25]}",
    ]

    @Test func offsetsAreKeysOfDistanceAttachmentsAndPushes() throws {
        let scene = try parse(minimalScene(adding: Self.behaviors))
        #expect(scene.numericKeys(of: "card")!.suffix(2) == ["offset.top.x", "offset.top.y"])
        #expect(scene.numericKeys(of: "shove") == ["magnitude", "angle", "direction.x", "direction.y",
                                                   "offset.top.x", "offset.top.y", "offset.bottom.x", "offset.bottom.y"])
        // A pin joins at its anchor: it has no offsets.
        #expect(!scene.numericKeys(of: "hinge")!.contains { $0.hasPrefix("offset.") })
        #expect(try scene.value(at: "card.offset.top.y") == -25 && scene.value(at: "card.offset.top.x") == 0)
        #expect(try scene.value(at: "shove.offset.bottom.x") == 10 && scene.value(at: "shove.offset.top.x") == 0)
    }

    @Test func settingAnOffsetMovesWhereTheBehaviorHolds() throws {
        let scene = try parse(minimalScene(adding: Self.behaviors))
        // The unset length is measured when made: top's centre (100, 0) + (0, −25) to the anchor
        // (100, −100) is 75 pt; with the offset set to (0, 0), 100 pt.
        #expect(scene.measuredLength(of: scene.behavior(named: "card")!) == 75)
        let set = try scene.applying([("card.offset.top.y", 0), ("shove.offset.top.y", 7), ("shove.offset.bottom.y", -3)])
        #expect(set.measuredLength(of: set.behavior(named: "card")!) == 100)
        guard case .attachment(let card) = set.behavior(named: "card")!.kind else { Issue.record("kind"); return }
        #expect(card.offset(of: "top") == .zero)
        // The plan's push offsets, parallel to its items: top's new one, bottom's changed in y only.
        guard let offsets = (set.planInput().behaviors[2] as? PlanInput.Push)?.offsets else { Issue.record("plan"); return }
        #expect(offsets == [Offset(horizontal: 0, vertical: 7), Offset(horizontal: 10, vertical: -3)])
    }

    @Test(arguments: [("hinge.offset.top.x", 1.0, "has no numeric key 'offset.top.x'"),
                       ("card.offset.bottom.x", 1, "has no numeric key 'offset.bottom.x'"),
                       ("shove.offset.top.x", 2e6, "'shove.offset.top.x'")] as [(String, Double, String)])
    func badOffsetKeysAndValuesAreRefused(_ path: String, _ value: Double, _ message: String) throws {
        let scene = try parse(minimalScene(adding: Self.behaviors))
        do {
            _ = try scene.applying([(path, value)])
            Issue.record("\(path) = \(value) was accepted")
        } catch {
            #expect(error.message.contains(message), "\(path): \(error.message)")
        }
    }

    @Test func aBadOffsetSweepAxisIsRefusedAtItsPlace() {
        // As a sweep axis, at the axis's line and column.
        expectError(minimalScene(adding: Self.behaviors + ["sweep:", "  parameters:", "    card.offset.bottom.y: [1, 2]"]),
                    at: 15, 5, "attachment behavior 'card' has no numeric key 'offset.bottom.y'")
    }

    @Test func offsetsSweepAndJitterAsPairs() throws {
        let scene = try parse(minimalScene(adding: Self.behaviors + [
            "sweep:", "  parameters:", "    shove.offset.bottom.y: [-10, 10]", "  replicas: 2", "  jitter: {card.offset.top: [2, 0]}"]))
        #expect(scene.worldCount == 4)
        for world in 0..<4 {
            let w = try scene.world(world)
            guard let offsets = (w.planInput().behaviors[2] as? PlanInput.Push)?.offsets else { Issue.record("plan"); return }
            #expect(offsets == [.zero, Offset(horizontal: 10, vertical: world < 2 ? -10 : 10)], "world \(world)")
            // Jitter moves x by at most 2 pt and leaves y.
            let x = try w.value(at: "card.offset.top.x"), y = try w.value(at: "card.offset.top.y")
            #expect(abs(x) <= 2 && y == -25, "world \(world): \(x), \(y)")
        }
        #expect(try Set((0..<4).map { try scene.world($0).value(at: "card.offset.top.x") }).count > 1)
    }
}
