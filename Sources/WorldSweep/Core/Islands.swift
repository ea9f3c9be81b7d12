// Islands and sleep, written once for both engines: Box2D 2.x's island walk (b2World::Solve),
// which also fixes the order each island's contacts are solved in, and the sleep rule
// (b2Island::Solve's end).

enum Islands {
    /// Box2D 2.x's depth-first island walk over one world. Seeds are tried in the world's body
    /// list order, newest first (Box2D prepends new bodies: here the highest index first); a
    /// stack takes each body's touching, enabled contacts newest first; a static body ends the
    /// walk there and is freed again after its island, so it may join others. `contacts` holds
    /// the touching, enabled contacts, newest first (each body's own edges are then newest first
    /// too); `contactFlag` is indexed by position in it. Calls `body` for each body as the walk
    /// reaches it (the caller wakes it), `contact` for each contact in the order the island's
    /// solver takes them, `joint` for each joint likewise, and `endIsland` after each island.
    /// Joints (`jointCount` of them, made in index order, so newest first is the highest index)
    /// join islands as contacts do: each body's contact edges first, then its joint edges.
    @inline(__always)
    static func walk(bodyCount: Int, contacts: UnsafeBufferPointer<Int32>, pair: (Int) -> BodyPair,
                     isStatic: (Int) -> Bool, canSeed: (Int) -> Bool,
                     bodyFlag: UnsafeMutablePointer<Bool>, contactFlag: UnsafeMutablePointer<Bool>,
                     stack: UnsafeMutablePointer<Int32>,
                     jointCount: Int = 0, jointBodies: (Int) -> BodyPair = { _ in BodyPair(a: 0, b: 0) },
                     jointFlag: UnsafeMutablePointer<Bool>? = nil, joint: (Int) -> Void = { _ in },
                     body: (Int) -> Void, contact: (Int) -> Void, endIsland: () -> Void) {
        bodyFlag.update(repeating: false, count: bodyCount)
        contactFlag.update(repeating: false, count: contacts.count)
        jointFlag?.update(repeating: false, count: jointCount)
        var seed = bodyCount - 1
        while seed >= 0 {
            defer { seed -= 1 }
            if bodyFlag[seed] || isStatic(seed) || !canSeed(seed) { continue }
            var depth = 1
            stack[0] = Int32(seed)
            bodyFlag[seed] = true
            while depth > 0 {
                depth -= 1
                let b = Int(stack[depth])
                body(b)
                if isStatic(b) { continue }
                for k in contacts.indices where !contactFlag[k] {
                    let ci = Int(contacts[k]), p = pair(ci)
                    guard p.a == b || p.b == b else { continue }
                    contactFlag[k] = true
                    contact(ci)
                    let o = p.a == b ? p.b : p.a
                    if bodyFlag[o] { continue }
                    bodyFlag[o] = true
                    stack[depth] = Int32(o)
                    depth += 1
                }
                guard let jointFlag else { continue }
                for j in stride(from: jointCount - 1, through: 0, by: -1) where !jointFlag[j] {
                    let p = jointBodies(j)
                    guard p.a == b || p.b == b else { continue }
                    jointFlag[j] = true
                    joint(j)
                    let o = p.a == b ? p.b : p.a
                    if bodyFlag[o] { continue }
                    bodyFlag[o] = true
                    stack[depth] = Int32(o)
                    depth += 1
                }
            }
            endIsland()
            // Only this island's static bodies are flagged: freeing every static body frees them.
            for b in 0..<bodyCount where isStatic(b) { bodyFlag[b] = false }
        }
    }
}

/// A body's sleep timer after a sub-step: reset while it moves faster than the sleep tolerances,
/// else advanced by `h` (b2Island::Solve). One world (`Float`) or eight side by side.
@inline(__always)
func sleepTimeAfterStep<L: LaneReal>(_ sleepTime: L, vx: L, vy: L, w: L, h: L) -> L {
    let angular = EngineSettings.angularSleepTolerance, linear = EngineSettings.linearSleepTolerance
    let moving = L.or(L.isGreater(w * w, L(angular * angular)), L.isGreater(vx * vx + vy * vy, L(linear * linear)))
    return L.select(moving, L(0), sleepTime + h)
}

/// Whether an island falls asleep: every body slow for `timeToSleep` (the smallest timer of its
/// moving bodies) and its position correction solved.
@inline(__always)
func islandFallsAsleep<L: LaneReal>(minSleepTime: L, positionSolved: L.Mask) -> L.Mask {
    L.and(L.isGreaterOrEqual(minSleepTime, L(EngineSettings.timeToSleep)), positionSolved)
}
