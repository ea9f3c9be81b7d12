// Islands and sleep, written once for both engines: Box2D 2.x's island walk (b2World::Solve),
// which also fixes the order each island's contacts are solved in, and the sleep rule
// (b2Island::Solve's end).

/// What the island walk reads of a world and tells it: one world (`PhysicsWorld`'s discrete
/// solve) or one lane of many (`LaneWorld`'s islands stage). The walk's step context: the
/// conformer holds what the stage needs to act on each island.
protocol IslandGraph {
    /// The bodies of a touching contact (an index the walk was given).
    func pair(_ contact: Int) -> BodyPair
    func isStatic(_ body: Int) -> Bool
    /// Whether an island may start at this (moving, unvisited) body: alive and awake.
    func canSeed(_ body: Int) -> Bool
    /// The bodies of joint `joint`.
    func jointBodies(_ joint: Int) -> BodyPair
    /// The walk reached `body` (the caller wakes it).
    mutating func reached(body: Int)
    /// The walk took `contact` into the current island, in the order its solver takes them.
    mutating func took(contact: Int)
    /// The walk took `joint` into the current island, in the order its solver takes them.
    mutating func took(joint: Int)
    /// The current island is complete.
    mutating func endIsland()
}

/// The island walk's scratch, in memory it owns: visited flags, the stack, and each body's
/// contact and joint edges (Box2D's b2ContactEdge / b2JointEdge lists), made once per walk so
/// that a body's edges are read without scanning every contact: the walk is linear in bodies +
/// contacts + joints.
final class IslandWalkScratch {
    let bodyCapacity: Int, contactCapacity: Int, jointCapacity: Int
    let bodyFlag: UnsafeMutablePointer<Bool>, contactFlag: UnsafeMutablePointer<Bool>, jointFlag: UnsafeMutablePointer<Bool>
    let stack: UnsafeMutablePointer<Int32>
    /// Body b's contact edges are `contactEdges[contactEdgeStart[b] ..< contactEdgeStart[b + 1]]`
    /// (positions in the walk's contact list, ascending: newest first); its joint edges likewise
    /// (joint indices, descending: newest first).
    let contactEdgeStart: UnsafeMutablePointer<Int32>, contactEdges: UnsafeMutablePointer<Int32>
    let jointEdgeStart: UnsafeMutablePointer<Int32>, jointEdges: UnsafeMutablePointer<Int32>
    /// The static bodies the current island reached (freed for the next island).
    let islandStatics: UnsafeMutablePointer<Int32>
    private let columns = Columns()
    var byteCount: Int { columns.byteCount }

    init(bodies: Int, contacts: Int, joints: Int) {
        bodyCapacity = bodies; contactCapacity = contacts; jointCapacity = joints
        bodyFlag = columns.make(bodies, false); contactFlag = columns.make(contacts, false); jointFlag = columns.make(joints, false)
        stack = columns.make(bodies, 0); islandStatics = columns.make(bodies, 0)
        contactEdgeStart = columns.make(bodies + 1, 0); contactEdges = columns.make(2 * contacts, 0)
        jointEdgeStart = columns.make(bodies + 1, 0); jointEdges = columns.make(2 * joints, 0)
        columns.expect(Self.bytes(bodies: bodies, contacts: contacts, joints: joints), of: "IslandWalkScratch")
    }

    /// The bytes it allocates, as `init` makes them: the three visited flags, the stack and the
    /// island's statics per body, and the two edge lists with their starts.
    static func bytes(bodies: Int, contacts: Int, joints: Int) -> Int {
        Columns.bytes(Bool.self, bodies) + Columns.bytes(Bool.self, contacts) + Columns.bytes(Bool.self, joints)
            + 2 * Columns.bytes(Int32.self, bodies)
            + 2 * Columns.bytes(Int32.self, bodies + 1) + Columns.bytes(Int32.self, 2 * contacts) + Columns.bytes(Int32.self, 2 * joints)
    }

    /// This scratch if it has room for a walk of this size, else a new one with room (grown by
    /// half again, so a growing world reallocates rarely).
    func withRoom(bodies: Int, contacts: Int, joints: Int) -> IslandWalkScratch {
        if bodies <= bodyCapacity && contacts <= contactCapacity && joints <= jointCapacity { return self }
        func grown(_ need: Int, _ have: Int) -> Int { need <= have ? have : max(need, have + have / 2) }
        return IslandWalkScratch(bodies: grown(bodies, bodyCapacity), contacts: grown(contacts, contactCapacity),
                                 joints: grown(joints, jointCapacity))
    }

    /// Each body's edges in `edges` from `start` (a counting sort): `count` items, item k joining
    /// `ends(k)`, taken in the order `items` gives them.
    @inline(__always)
    fileprivate func makeEdges(bodyCount: Int, start: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<Int32>,
                               items: StrideTo<Int>, ends: (Int) -> BodyPair) {
        start.update(repeating: 0, count: bodyCount + 1)
        for k in items { let p = ends(k); start[p.a + 1] += 1; start[p.b + 1] += 1 }
        for b in 0..<bodyCount { start[b + 1] += start[b] }
        for k in items {
            let p = ends(k)
            edges[Int(start[p.a])] = Int32(k); start[p.a] += 1
            edges[Int(start[p.b])] = Int32(k); start[p.b] += 1
        }
        // Filling moved each start to the next body's: shift them back.
        var b = bodyCount
        while b > 0 { start[b] = start[b - 1]; b -= 1 }
        start[0] = 0
    }
}

enum Islands {
    /// Contacts and joints up to which the walk scans them per body instead of making edge lists.
    static let scanLimit = 16

    /// Box2D 2.x's depth-first island walk over one world. Seeds are tried in the world's body
    /// list order, newest first (Box2D prepends new bodies: here the highest index first); a
    /// stack takes each body's touching, enabled contacts newest first; a static body ends the
    /// walk there and is freed again after its island, so it may join others. `contacts` holds
    /// the touching, enabled contacts, newest first (each body's own edges are then newest first
    /// too). Joints (`jointCount` of them, made in index order, so newest first is the highest
    /// index) join islands as contacts do: each body's contact edges first, then its joint edges.
    /// `graph` hears each body, contact and joint as the walk takes it, and each island's end.
    @inline(__always)
    static func walk<Graph: IslandGraph>(_ graph: inout Graph, bodyCount: Int, contacts: UnsafeBufferPointer<Int32>,
                                         jointCount: Int, scratch: IslandWalkScratch) {
        let bodyFlag = scratch.bodyFlag, contactFlag = scratch.contactFlag, jointFlag = scratch.jointFlag
        let stack = scratch.stack, statics = scratch.islandStatics
        let edgeStart = scratch.contactEdgeStart, edges = scratch.contactEdges
        let jointEdgeStart = scratch.jointEdgeStart, jointEdges = scratch.jointEdges
        bodyFlag.update(repeating: false, count: bodyCount)
        contactFlag.update(repeating: false, count: contacts.count)
        jointFlag.update(repeating: false, count: jointCount)
        // A small world reads a body's edges by scanning every contact and joint in list order,
        // which meets them in the order the edge lists hold them (contacts ascending, joints
        // descending): the same walk, without making the lists, which for a few contacts cost
        // more than the scans (twin-drop's lanes); beyond `scanLimit` the lists keep it linear.
        let scans = contacts.count + jointCount <= Islands.scanLimit
        if !scans {
            scratch.makeEdges(bodyCount: bodyCount, start: edgeStart, edges: edges,
                              items: stride(from: 0, to: contacts.count, by: 1), ends: { graph.pair(Int(contacts[$0])) })
            if jointCount > 0 {
                scratch.makeEdges(bodyCount: bodyCount, start: jointEdgeStart, edges: jointEdges,
                                  items: stride(from: jointCount - 1, to: -1, by: -1), ends: { graph.jointBodies($0) })
            }
        }
        var seed = bodyCount - 1
        while seed >= 0 {
            defer { seed -= 1 }
            if bodyFlag[seed] || graph.isStatic(seed) || !graph.canSeed(seed) { continue }
            var depth = 1, staticCount = 0
            stack[0] = Int32(seed)
            bodyFlag[seed] = true
            /// Puts `o` on the stack unless the island has it already.
            @inline(__always) func reach(_ o: Int) {
                if bodyFlag[o] { return }
                bodyFlag[o] = true
                if graph.isStatic(o) { statics[staticCount] = Int32(o); staticCount += 1 }
                stack[depth] = Int32(o)
                depth += 1
            }
            while depth > 0 {
                depth -= 1
                let b = Int(stack[depth])
                graph.reached(body: b)
                if graph.isStatic(b) { continue }
                /// Takes contact `k` (a position in `contacts`) of body b unless an island has it.
                @inline(__always) func takeContact(_ k: Int) {
                    if contactFlag[k] { return }
                    contactFlag[k] = true
                    let ci = Int(contacts[k]), p = graph.pair(ci)
                    graph.took(contact: ci)
                    reach(p.a == b ? p.b : p.a)
                }
                /// Takes joint j of body b unless an island has it.
                @inline(__always) func takeJoint(_ j: Int) {
                    if jointFlag[j] { return }
                    jointFlag[j] = true
                    let p = graph.jointBodies(j)
                    graph.took(joint: j)
                    reach(p.a == b ? p.b : p.a)
                }
                if scans {
                    for k in 0..<contacts.count {
                        let p = graph.pair(Int(contacts[k]))
                        if p.a == b || p.b == b { takeContact(k) }
                    }
                    var j = jointCount - 1
                    while j >= 0 {
                        let p = graph.jointBodies(j)
                        if p.a == b || p.b == b { takeJoint(j) }
                        j -= 1
                    }
                    continue
                }
                for e in Int(edgeStart[b])..<Int(edgeStart[b + 1]) { takeContact(Int(edges[e])) }
                guard jointCount > 0 else { continue }
                for e in Int(jointEdgeStart[b])..<Int(jointEdgeStart[b + 1]) { takeJoint(Int(jointEdges[e])) }
            }
            graph.endIsland()
            // Only this island's static bodies are flagged: freeing them lets the next island take them.
            for s in 0..<staticCount { bodyFlag[Int(statics[s])] = false }
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

/// Body.setAwake(false), written once for a body and for lanes of them: a body put to sleep keeps
/// no velocity and no force, and its sleep timer restarts (`asleep`: the lanes that fall asleep).
@inline(__always)
func fallAsleep<L: LaneReal>(_ asleep: L.Mask, sleepTime: inout L, vx: inout L, vy: inout L, w: inout L,
                             fx: inout L, fy: inout L, torque: inout L) {
    let zero = L(0)
    sleepTime = L.select(asleep, zero, sleepTime)
    vx = L.select(asleep, zero, vx); vy = L.select(asleep, zero, vy); w = L.select(asleep, zero, w)
    fx = L.select(asleep, zero, fx); fy = L.select(asleep, zero, fy); torque = L.select(asleep, zero, torque)
}

/// How a body's awake flag is kept: a `Bool` in one world, 0 / −1 in the lanes' columns.
protocol AwakeFlag {
    static var awakeValue: Self { get }
    var isAwake: Bool { get }
}
extension Bool: AwakeFlag {
    static var awakeValue: Bool { true }
    var isAwake: Bool { self }
}
extension Int32: AwakeFlag {
    static var awakeValue: Int32 { -1 }
    var isAwake: Bool { self != 0 }
}

/// Body.setAwake(true), written once for a body and a lane's: a sleeping body wakes with its
/// sleep timer restarted. Says whether it was asleep.
@inline(__always) func wakeUp<Flag: AwakeFlag>(_ awake: inout Flag, sleepTime: inout Float) -> Bool {
    if awake.isAwake { return false }
    awake = .awakeValue
    sleepTime = 0
    return true
}

/// Whether an island falls asleep: every body slow for `timeToSleep` (the smallest timer of its
/// moving bodies) and its position correction solved.
@inline(__always)
func islandFallsAsleep<L: LaneReal>(minSleepTime: L, positionSolved: L.Mask) -> L.Mask {
    L.and(L.isGreaterOrEqual(minSleepTime, L(EngineSettings.timeToSleep)), positionSolved)
}
