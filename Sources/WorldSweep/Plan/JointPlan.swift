import Foundation

// A joint as the plan holds it: which joint, between which bodies (the structure worlds of one
// sweep share), and its definition in engine units (the numbers that may differ per world:
// anchors, length, frequency, damping, limits, friction). Attachments and snaps compile into
// these (their `PlanBehavior.compile`); an anchor is a static ground body of its own at the anchor
// point (one per anchor attachment or snap, as UIKit's snap has its own anchor body): moving the
// anchor moves that body, and no other joint notices.

/// A joint as the plan describes it.
struct JointPlan: Sendable, Equatable {
    var kind: JointKind
    var bodyA: Int, bodyB: Int
    /// Whether the two bodies may still collide (UIKit: only item–item distance attachments).
    var collideConnected: Bool
    /// The behavior it comes from (an index into the input's behaviors) and its place there
    /// (a snap makes four).
    var behavior: Int, part: Int
    var definition: JointDefinition
}

extension WorldPlan {
    /// Points to metres.
    static func metres(_ p: Point) -> Vec2 { Vec2(Float(p.x), Float(p.y)).dividedBy(EngineSettings.pointsPerMetre) }
    static func metres(_ o: Offset) -> Vec2 { Vec2(Float(o.horizontal), Float(o.vertical)).dividedBy(EngineSettings.pointsPerMetre) }
}
