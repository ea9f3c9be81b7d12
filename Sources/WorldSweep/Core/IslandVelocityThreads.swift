// One big island's velocity passes over threads, the same bits as one contact at a time
// (IslandSolve.swift). Sequential impulses visit the island's contacts in one order, pass after
// pass (the warm start, then each iteration); a contact reads and writes only its own constraint
// and its two bodies' velocities. So every schedule in which each body's updates come in that
// order gives the same bits. The order is cut into runs (parts), each solved in order by one
// thread; a contact of a body that two parts move first waits until the body has had every
// update before it (one count per such body). A body that cannot move (a boundary) is only read:
// x − 0·P and x + 0·P keep its velocity as it is while every impulse is finite and no component
// is −0 (checked first). A non-finite impulse turns a moving body's velocity non-finite for good
// (the updates only add to it); then, as when a part waited too long for another (its thread off
// its core), the passes are run again one contact at a time from the velocities and impulses
// they started with.

import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What sharing one island's velocity passes keeps from island to island (arrays emptied, their
/// storage kept), per contact and per island body.
final class IslandVelocityParts {
    /// The least contacts for an island's velocity passes to be shared between threads.
    static let leastContacts = 256
    /// Parts the order is cut into: each needs a thread of its own at once.
    static let parts = 2
    /// Per contact and side: −2 the body cannot move (only read), −1 it moves and only this
    /// contact's part moves it, else the updates the body has had before this contact in a pass.
    private(set) var waitA: [Int32] = [], waitB: [Int32] = []
    /// Per island body: the contacts that move it (one pass's updates), and which part moved it
    /// first while listing (−1 none yet, `parts`: more than one).
    private(set) var degree: [Int32] = []
    private var movedBy: [Int32] = []
    /// Per island body: updates it has had in the passes so far, for bodies two parts move.
    private var counts: [UpdateCount] = []
    /// What the passes started with, to run them again one contact at a time (see above).
    private var velocitiesBefore: [BodyVelocity] = []
    private var impulsesBefore: [SIMD4<Float>] = []
    /// Set by a part that waited longer than it may: every part stops at its next wait.
    private let abandoned = Atomic<Bool>(false)
    /// Islands whose passes were shared, and those run again one contact at a time (tests read them).
    private(set) var sharedSolves = 0, rerunSolves = 0

    /// One body's count of updates, read and written from either part's thread.
    private final class UpdateCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The contacts of part p of `parts` over `count` contacts: a run of the order.
    @inline(__always) static func part(_ p: Int, of parts: Int, count: Int) -> Range<Int> {
        (p * count / parts)..<((p + 1) * count / parts)
    }

    /// Lists, for `solver`'s contacts over `bodyCount` island bodies, which body each contact waits
    /// for. False (nothing to share) when a body that cannot move has a −0 velocity component.
    func list(_ solver: ContactSolver, _ velocities: UnsafeBufferPointer<BodyVelocity>) -> Bool {
        let m = solver.count, n = velocities.count, parts = Self.parts
        waitA.removeAll(keepingCapacity: true); waitB.removeAll(keepingCapacity: true)
        waitA.reserveCapacity(m); waitB.reserveCapacity(m)
        degree.removeAll(keepingCapacity: true); degree.append(contentsOf: repeatElement(0, count: n))
        movedBy.removeAll(keepingCapacity: true); movedBy.append(contentsOf: repeatElement(-1, count: n))
        let indices = solver.indices, constraints = solver.constraints
        for p in 0..<parts {
            for j in Self.part(p, of: parts, count: m) {
                let ia = Int(indices[j].a), ib = Int(indices[j].b)
                let aMoves = canMove(invMass: constraints[j].mA, invInertia: constraints[j].iA)
                let bMoves = canMove(invMass: constraints[j].mB, invInertia: constraints[j].iB)
                func note(_ body: Int, moves: Bool) -> Bool {
                    guard moves else { return !Self.hasMinusZero(velocities[body]) }
                    degree[body] += 1
                    if movedBy[body] == -1 { movedBy[body] = Int32(p) } else if movedBy[body] != Int32(p) { movedBy[body] = Int32(parts) }
                    return true
                }
                guard note(ia, moves: aMoves), note(ib, moves: bMoves) else { return false }
                // The code filled in below; −2 marks a body that cannot move.
                waitA.append(aMoves ? -1 : -2); waitB.append(bMoves ? -1 : -2)
            }
        }
        // Each shared body's updates before each of its contacts, counted along the order.
        var seen = Array(repeating: Int32(0), count: n)
        for j in 0..<m {
            let ia = Int(indices[j].a), ib = Int(indices[j].b)
            if waitA[j] == -1 && movedBy[ia] == Int32(parts) { waitA[j] = seen[ia]; seen[ia] += 1 }
            if waitB[j] == -1 && movedBy[ib] == Int32(parts) { waitB[j] = seen[ib]; seen[ib] += 1 }
        }
        while counts.count < n { counts.append(UpdateCount()) }
        for i in 0..<n { counts[i].value.store(0, ordering: .relaxed) }
        abandoned.store(false, ordering: .relaxed)
        return true
    }

    @inline(__always) static func hasMinusZero(_ v: BodyVelocity) -> Bool {
        func minusZero(_ x: Float) -> Bool { x == 0 && x.sign == .minus }
        return minusZero(v.v.x) || minusZero(v.v.y) || minusZero(v.w)
    }

    /// Part p's contacts through every pass (pass 0 the warm start, then `iterations`), waiting
    /// on and counting the shared bodies' updates; it stops where a wait is longer than
    /// `longestWait` nanoseconds or another part stopped.
    func solvePart(_ p: Int, iterations: Int, longestWait: UInt64, constraints: UnsafeMutablePointer<ContactLanes<Float>>,
                   indices: UnsafePointer<ContactBodyIndices>, velocities: UnsafeMutablePointer<BodyVelocity>) {
        let m = waitA.count, range = Self.part(p, of: Self.parts, count: m)
        waitA.withUnsafeBufferPointer { waitA in
            waitB.withUnsafeBufferPointer { waitB in
                degree.withUnsafeBufferPointer { degree in
                    counts.withUnsafeBufferPointer { counts in
                        for pass in 0...iterations {
                            for j in range {
                                let ia = Int(indices[j].a), ib = Int(indices[j].b), wa = Int(waitA[j]), wb = Int(waitB[j])
                                let expectA = pass * Int(degree[ia]) + wa, expectB = pass * Int(degree[ib]) + wb
                                if wa >= 0 && !awaitCount(counts[ia], expectA, longestWait) { return }
                                if wb >= 0 && !awaitCount(counts[ib], expectB, longestWait) { return }
                                let va = velocities[ia], vb = velocities[ib]
                                var a = VelocityLanes(vx: va.v.x, vy: va.v.y, w: va.w), b = VelocityLanes(vx: vb.v.x, vy: vb.v.y, w: vb.w)
                                if pass == 0 {
                                    ContactKernels.warmStart(constraints[j], &a, &b)
                                } else {
                                    ContactVelocityKernel.solve(&constraints[j], &a, &b)
                                }
                                if wa != -2 { velocities[ia] = BodyVelocity(v: Vec2(a.vx, a.vy), w: a.w) }
                                if wb != -2 { velocities[ib] = BodyVelocity(v: Vec2(b.vx, b.vy), w: b.w) }
                                if wa >= 0 { counts[ia].value.store(expectA + 1, ordering: .releasing) }
                                if wb >= 0 { counts[ib].value.store(expectB + 1, ordering: .releasing) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Waits until an island body has had `count` updates (another part's, all before this
    /// one); false, the passes abandoned, after `longestWait` nanoseconds or when another part
    /// abandoned them.
    @inline(__always) private func awaitCount(_ updates: UpdateCount, _ count: Int, _ longestWait: UInt64) -> Bool {
        if updates.value.load(ordering: .acquiring) == count { return true }
        let start = DispatchTime.now().uptimeNanoseconds
        var spins = 0
        while updates.value.load(ordering: .acquiring) != count {
            spins += 1
            if spins < 64 { continue }
            spins = 0
            if abandoned.load(ordering: .relaxed) { return false }
            if DispatchTime.now().uptimeNanoseconds - start > longestWait {
                abandoned.store(true, ordering: .relaxed)
                return false
            }
            sched_yield()
        }
        return true
    }

    /// Keeps the velocities and the constraints' impulses the passes start from.
    func keep(_ solver: ContactSolver, _ velocities: [BodyVelocity]) {
        velocitiesBefore.removeAll(keepingCapacity: true); velocitiesBefore.append(contentsOf: velocities)
        impulsesBefore.removeAll(keepingCapacity: true)
        for c in solver.constraints {
            impulsesBefore.append(SIMD4(c.p0.normalImpulse, c.p0.tangentImpulse, c.p1.normalImpulse, c.p1.tangentImpulse))
        }
    }

    /// Whether the shared passes ran to the end and left every moving body's velocity finite
    /// (then each impulse was, and the bodies that cannot move kept theirs); if not, the kept
    /// start put back.
    func finishedFinite(_ solver: inout ContactSolver, _ velocities: inout [BodyVelocity]) -> Bool {
        let finite = !abandoned.load(ordering: .relaxed) && velocities.indices.allSatisfy { k in
            degree[k] == 0 || (velocities[k].v.x.isFinite && velocities[k].v.y.isFinite && velocities[k].w.isFinite)
        }
        if finite { sharedSolves += 1; return true }
        velocities = velocitiesBefore
        for (i, kept) in impulsesBefore.enumerated() {
            solver.constraints[i].p0.normalImpulse = kept[0]; solver.constraints[i].p0.tangentImpulse = kept[1]
            solver.constraints[i].p1.normalImpulse = kept[2]; solver.constraints[i].p1.tangentImpulse = kept[3]
        }
        rerunSolves += 1
        return false
    }
}

extension PhysicsWorld {
    /// The warm start and the velocity iterations of an island without joints, shared between
    /// `threads` when it is big enough and they are free at once; false (nothing done) otherwise,
    /// for the caller to run them one contact at a time.
    func solveVelocitiesSharing(_ solver: inout ContactSolver, _ velocities: inout [BodyVelocity], threads: WorldThreads,
                                parts: IslandVelocityParts) -> Bool {
        guard threads.count >= IslandVelocityParts.parts, solver.count >= IslandVelocityParts.leastContacts else { return false }
        let listed = velocities.withUnsafeBufferPointer { parts.list(solver, $0) }
        guard listed else { return false }
        parts.keep(solver, velocities)
        let iterations = EngineSettings.velocityIterations, longestWait = threads.longestWaitNanoseconds
        let indices = solver.indices
        let ran = indices.withUnsafeBufferPointer { indices in
            solver.constraints.withUnsafeMutableBufferPointer { constraints in
                velocities.withUnsafeMutableBufferPointer { velocities in
                    threads.runTogether(parts: IslandVelocityParts.parts) { p in
                        parts.solvePart(p, iterations: iterations, longestWait: longestWait, constraints: constraints.baseAddress!,
                                        indices: indices.baseAddress!, velocities: velocities.baseAddress!)
                    }
                }
            }
        }
        guard ran else { return false }
        stagesSplit += 1
        return parts.finishedFinite(&solver, &velocities)
    }
}
