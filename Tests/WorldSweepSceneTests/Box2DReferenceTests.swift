import Foundation
import Testing
import TestScratch
import WorldSweep
@testable import WorldSweepScene

/// The engine against real Box2D 2.3 (PyPI's float32 box2d 2.3.10, set up as UIKit sets up its
/// engine): the scenes in Tests/Box2DReference/ and the traces scripts/reference/box2d23_stacks.py
/// made of them there. Every item within 0.01 pt, and its angle within 0.01 pt at the box's corner
/// (0.01 / 35.4 pt, the half-diagonal of a 50 × 50 box), after every one of the 300 ticks.
@Suite struct Box2DReferenceTests {
    static let directory = Repository.root.appendingPathComponent("Tests/Box2DReference")
    static let pointTolerance = 0.01
    static let angleTolerance = 0.01 / (25 * 2.0.squareRoot())

    /// (tick, item) → (x, y, angle), as Box2D held them (Float text).
    static func reference(_ name: String) throws -> [String: (x: Double, y: Double, angle: Double)] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".csv"), encoding: .utf8)
        var rows: [String: (x: Double, y: Double, angle: Double)] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            rows["\(f[0]),\(f[1])"] = (Double(Float(f[2])!), Double(Float(f[3])!), Double(Float(f[4])!))
        }
        return rows
    }

    @Test(arguments: ["single-box", "pair", "stack-3", "stack-5", "pyramid-3"])
    func matchesBox2D23(_ name: String) throws {
        let expected = try Self.reference(name)
        let scene = try SceneFile.load(path: Self.directory.appendingPathComponent(name + ".yaml").path)
        let built = scene.makeAnimator()
        #expect(built.tickCount == 300)
        #expect(expected.count == 300 * built.views.count)
        var worst = (distance: 0.0, angle: 0.0, at: "")
        for tick in 1...built.tickCount {
            built.animator.tick(built.tick)
            for view in built.views {
                guard let want = expected["\(tick),\(view.name)"] else {
                    Issue.record("no reference row for tick \(tick), \(view.name)"); return
                }
                let d = max(abs(view.center.x - want.x), abs(view.center.y - want.y))
                let a = abs(view.angle - want.angle)
                if d > worst.distance { worst.distance = d; worst.at = "tick \(tick), \(view.name)" }
                worst.angle = max(worst.angle, a)
            }
        }
        #expect(worst.distance <= Self.pointTolerance, "\(name): \(worst.distance) pt off at \(worst.at)")
        #expect(worst.angle <= Self.angleTolerance, "\(name): angle \(worst.angle) rad off")
    }
}
