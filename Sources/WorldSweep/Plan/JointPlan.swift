import Foundation

// Attachments and snaps compiled into Box2D joints: which joint, between which bodies (the
// structure worlds of one sweep share), and its definition in engine units (the numbers that may
// differ per world: anchors, length, frequency, damping, limits, friction). An anchor is a static
// ground body of its own at the anchor point (one per anchor attachment or snap, as UIKit's snap
// has its own anchor body): moving the anchor moves that body, and no other joint notices.

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

/// A joint's definition in engine units (metres, radians, Hz, N, N·m).
struct JointDefinition: Sendable, Equatable {
    var localAnchorA = Vec2.zero, localAnchorB = Vec2.zero
    var referenceAngle: Float = 0
    var localAxisA = Vec2(1, 0)
    var length: Float = 0
    var frequency: Float = 0, dampingRatio: Float = 0
    var lower: Float = 0, upper: Float = 0
    var enableLimit = false, enableMotor = false
    var maxMotor: Float = 0

    /// The joint's lane form with no impulses yet.
    func makeLanes() -> JointLanes<Float> {
        var j = JointLanes<Float>(zero: 0)
        j.localAnchorAX = localAnchorA.x; j.localAnchorAY = localAnchorA.y
        j.localAnchorBX = localAnchorB.x; j.localAnchorBY = localAnchorB.y
        j.referenceAngle = referenceAngle
        j.localAxisAX = localAxisA.x; j.localAxisAY = localAxisA.y
        j.length = length; j.frequency = frequency; j.dampingRatio = dampingRatio
        j.lower = lower; j.upper = upper; j.enableLimit = enableLimit; j.enableMotor = enableMotor
        j.motorSpeed = 0; j.maxMotor = maxMotor
        return j
    }

    /// Sets the numbers a behavior may change while running (length, spring, limits, friction)
    /// on a joint that keeps its geometry and impulses.
    func updateSettings(of j: inout JointLanes<Float>) {
        j.length = length; j.frequency = frequency; j.dampingRatio = dampingRatio
        j.lower = lower; j.upper = upper; j.enableLimit = enableLimit; j.enableMotor = enableMotor; j.maxMotor = maxMotor
    }
}

extension WorldPlan {
    /// Points to metres.
    static func metres(_ p: Point) -> Vec2 { Vec2(Float(p.x), Float(p.y)).dividedBy(EngineSettings.pointsPerMetre) }
    static func metres(_ o: Offset) -> Vec2 { Vec2(Float(o.horizontal), Float(o.vertical)).dividedBy(EngineSettings.pointsPerMetre) }

    /// The joints of the attachments and snaps among the input's behaviors, adding a static ground body to
    /// `bodies` for each anchor.
    static func compileJoints(_ input: PlanInput, bodies: inout [BodyPlan], bodyOfItem: [Int?]) -> [JointPlan] {
        var joints: [JointPlan] = []
        func ground(at point: Point, behavior: Int) -> Int {
            bodies.append(BodyPlan(shape: .circle(center: .zero, radius: 0), position: metres(point), angle: 0,
                                   material: nil, item: nil, boundary: nil, anchorOf: behavior))
            return bodies.count - 1
        }
        /// A world point in a body's frame, as the body stands in the plan (b2Body::GetLocalPoint).
        func local(_ p: Point, _ body: Int) -> Vec2 {
            Transform(p: bodies[body].position, q: Rot(bodies[body].angle)).applyInverse(metres(p))
        }
        for (k, behavior) in input.behaviors.enumerated() {
            switch behavior {
            case .attachment(let a):
                let items = a.items.map { bodyOfItem[$0]! }
                var d = JointDefinition()
                let onAnchor = items.count == 1
                let (bodyA, bodyB) = onAnchor ? (ground(at: a.anchor, behavior: k), items[0]) : (items[0], items[1])
                d.referenceAngle = bodies[bodyB].angle - bodies[bodyA].angle
                var kind: JointKind
                switch a.kind {
                case .distance:
                    // A short anchor attachment, never given a length or a spring, is a pin (UIKit).
                    if onAnchor && a.length < 1 && a.frequency == 0 && !a.lengthIsSet {
                        kind = .revolute
                        d.localAnchorB = local(a.anchor, bodyB)
                    } else {
                        kind = .distance
                        d.localAnchorA = onAnchor ? .zero : metres(a.offsets[0])
                        d.localAnchorB = metres(a.offsets[onAnchor ? 0 : 1])
                        d.length = Float(a.length) / EngineSettings.pointsPerMetre
                        d.frequency = Float(a.frequency); d.dampingRatio = Float(a.damping)
                    }
                case .limit:
                    kind = .rope
                    d.localAnchorA = onAnchor ? .zero : metres(a.offsets[0])
                    d.localAnchorB = metres(a.offsets[onAnchor ? 0 : 1])
                    d.length = Float(a.length) / EngineSettings.pointsPerMetre
                case .pin, .fixed, .sliding:
                    kind = a.kind == .pin ? .revolute : a.kind == .fixed ? .weld : .prismatic
                    d.localAnchorA = onAnchor ? .zero : local(a.anchor, bodyA)
                    d.localAnchorB = local(a.anchor, bodyB)
                    if a.kind == .fixed { d.frequency = Float(a.frequency); d.dampingRatio = Float(a.damping) }
                    if a.kind == .sliding {
                        let axis = Rot(bodies[bodyA].angle).applyInverse(Vec2(Float(a.axis.dx), Float(a.axis.dy)))
                        d.localAxisA = axis.normalized
                    }
                }
                if kind == .revolute || kind == .prismatic {
                    // Pin: radians; sliding: points along the axis.
                    let scale: Float = kind == .revolute ? 1 : EngineSettings.pointsPerMetre
                    d.enableLimit = !a.range.isInfinite
                    d.lower = Float(a.range.minimum) / scale; d.upper = Float(a.range.maximum) / scale
                    d.enableMotor = a.frictionTorque > 0
                    d.maxMotor = Float(a.frictionTorque)
                }
                joints.append(JointPlan(kind: kind, bodyA: bodyA, bodyB: bodyB,
                                        collideConnected: kind == .distance && !onAnchor, behavior: k, part: 0, definition: d))
            case .snap(let s):
                let item = bodyOfItem[s.item]!
                let anchor = ground(at: s.point, behavior: k)
                let size = input.items[s.item].size
                let hw = Float(size.width) / 2, hh = Float(size.height) / 2, reach = Float(SnapBehavior.springLength)
                // Corner (−w/2, −h/2) pulled along −x and −y, corner (+w/2, +h/2) along +x and +y.
                let corners: [(corner: Vec2, beyond: Vec2)] = [
                    (Vec2(-hw, -hh), Vec2(-hw - reach, -hh)), (Vec2(-hw, -hh), Vec2(-hw, -hh - reach)),
                    (Vec2(hw, hh), Vec2(hw + reach, hh)), (Vec2(hw, hh), Vec2(hw, hh + reach)),
                ]
                for (part, c) in corners.enumerated() {
                    var d = JointDefinition()
                    d.localAnchorA = c.beyond.dividedBy(EngineSettings.pointsPerMetre)
                    d.localAnchorB = c.corner.dividedBy(EngineSettings.pointsPerMetre)
                    d.length = reach / EngineSettings.pointsPerMetre
                    d.frequency = Float(SnapBehavior.springFrequency)
                    d.dampingRatio = Float(s.damping)
                    joints.append(JointPlan(kind: .distance, bodyA: anchor, bodyB: item, collideConnected: false,
                                            behavior: k, part: part, definition: d))
                }
            default:
                continue
            }
        }
        return joints
    }
}
