// How a push acts on a body, written once for the animator (one world's `Body`) and the batch
// (a body of one lane, `LaneBody`): a continuous push adds its force every tick unless it is
// zero, an instantaneous one its impulse, at the push's point in the body's frame.

/// A body a push can act on.
protocol PushTarget {
    /// Body.applyForce at a point in the body's frame.
    mutating func applyForce(_ f: Vec2, atLocalPoint localPoint: Vec2)
    /// Body.applyImpulse at a point in the body's frame.
    mutating func applyImpulse(_ p: Vec2, atLocalPoint localPoint: Vec2)
}

extension PushBehavior.Mode {
    /// A push of this mode with `vector` on `target`, at `localPoint` in its frame.
    @inline(__always) func act<Target: PushTarget>(_ vector: Vec2, atLocalPoint localPoint: Vec2, on target: inout Target) {
        switch self {
        case .continuous:
            if vector != .zero { target.applyForce(vector, atLocalPoint: localPoint) }
        case .instantaneous:
            target.applyImpulse(vector, atLocalPoint: localPoint)
        }
    }
}

extension Body: PushTarget {
    mutating func applyForce(_ f: Vec2, atLocalPoint localPoint: Vec2) { applyForce(f, at: xf.apply(localPoint)) }
    mutating func applyImpulse(_ p: Vec2, atLocalPoint localPoint: Vec2) { applyImpulse(p, at: xf.apply(localPoint)) }
}

/// Body `body` of lane `lane` of a batch, as a push's target.
struct LaneBody: PushTarget {
    // Strong: each call through an unowned(unsafe) reference retained and released the lanes
    // (one pair per push and world each tick); the caller's own reference keeps this one free.
    let world: LaneWorld
    let body: Int, lane: Int

    init(_ world: LaneWorld, body: Int, lane: Int) { self.world = world; self.body = body; self.lane = lane }

    func applyForce(_ f: Vec2, atLocalPoint localPoint: Vec2) {
        world.applyForce(f, atLocalPoint: localPoint, body: body, lane: lane)
    }
    func applyImpulse(_ p: Vec2, atLocalPoint localPoint: Vec2) {
        world.applyImpulse(p, atLocalPoint: localPoint, body: body, lane: lane)
    }
}
