import Testing
@testable import WorldSweep

/// Each joint kernel is written once over `LaneReal`: run on eight different joints side by side
/// (SIMD8, Box2D's branches as masks) it must give, lane by lane, the bits it gives on each joint
/// alone (Float, where the masks are plain branches). The eight lanes mix what the branches
/// choose between: static and moving bodies, springs and rods, limits below / above / between /
/// equal / off, motors on and off.
@Suite struct JointKernelTests {
    typealias V = SIMD8<Float>

    nonisolated(unsafe) static let fields: [(WritableKeyPath<JointLanes<Float>, Float>, WritableKeyPath<JointLanes<V>, V>)] = [
        (\.localAnchorAX, \.localAnchorAX), (\.localAnchorAY, \.localAnchorAY), (\.localAnchorBX, \.localAnchorBX),
        (\.localAnchorBY, \.localAnchorBY), (\.referenceAngle, \.referenceAngle), (\.localAxisAX, \.localAxisAX),
        (\.localAxisAY, \.localAxisAY), (\.length, \.length), (\.frequency, \.frequency), (\.dampingRatio, \.dampingRatio),
        (\.lower, \.lower), (\.upper, \.upper), (\.motorSpeed, \.motorSpeed), (\.maxMotor, \.maxMotor),
        (\.impulseX, \.impulseX), (\.impulseY, \.impulseY), (\.impulseZ, \.impulseZ), (\.motorImpulse, \.motorImpulse),
        (\.mA, \.mA), (\.iA, \.iA), (\.mB, \.mB), (\.iB, \.iB),
        (\.localCenterAX, \.localCenterAX), (\.localCenterAY, \.localCenterAY),
        (\.localCenterBX, \.localCenterBX), (\.localCenterBY, \.localCenterBY),
    ]
    nonisolated(unsafe) static let masks: [(WritableKeyPath<JointLanes<Float>, Bool>, WritableKeyPath<JointLanes<V>, SIMDMask<SIMD8<Int32>>>)] = [
        (\.enableLimit, \.enableLimit), (\.enableMotor, \.enableMotor), (\.atLower, \.atLower), (\.atUpper, \.atUpper),
    ]

    static func pack(_ joints: [JointLanes<Float>]) -> JointLanes<V> {
        var j = JointLanes<V>(zero: V(repeating: 0))
        for (f, v) in fields { for l in 0..<8 { j[keyPath: v][l] = joints[l][keyPath: f] } }
        for (f, v) in masks { for l in 0..<8 { j[keyPath: v][l] = joints[l][keyPath: f] } }
        return j
    }

    /// A small deterministic generator (the lanes must differ, not be random).
    struct Numbers { var state: UInt32
        mutating func next(_ low: Float, _ high: Float) -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return low + (high - low) * Float(state >> 8) / Float(1 << 24)
        }
    }

    static func bits(_ a: Float, _ b: Float) -> Bool { a.bitPattern == b.bitPattern }

    @Test(arguments: [JointKind.distance, .revolute, .prismatic, .weld, .rope])
    func lanesGiveEachJointsOwnBits(_ kind: JointKind) {
        var n = Numbers(state: 7)
        var joints: [JointLanes<Float>] = [], pA: [PositionLanes<Float>] = [], pB: [PositionLanes<Float>] = []
        var vA: [VelocityLanes<Float>] = [], vB: [VelocityLanes<Float>] = []
        for l in 0..<8 {
            var j = JointLanes<Float>(zero: 0)
            let staticA = l % 3 == 0
            j.takeBodies(mA: staticA ? 0 : n.next(0.5, 4), iA: staticA ? 0 : n.next(1, 20), mB: n.next(0.5, 4), iB: l == 5 ? 0 : n.next(1, 20),
                         localCenterA: (n.next(-0.01, 0.01), 0), localCenterB: (0, n.next(-0.01, 0.01)))
            j.localAnchorAX = n.next(-0.2, 0.2); j.localAnchorAY = n.next(-0.2, 0.2)
            j.localAnchorBX = n.next(-0.2, 0.2); j.localAnchorBY = n.next(-0.2, 0.2)
            j.referenceAngle = n.next(-0.3, 0.3)
            let axis = Vec2(n.next(0.2, 1), n.next(-1, 1)).normalized
            j.localAxisAX = axis.x; j.localAxisAY = axis.y
            j.length = n.next(0.3, 1.5)
            j.frequency = l % 2 == 0 ? 0 : n.next(0.5, 5); j.dampingRatio = n.next(0, 1)
            // Limits: lanes below, above, between, equal and off.
            let base = n.next(-0.5, 0.5)
            switch l % 4 {
            case 0: (j.lower, j.upper) = (base + 0.6, base + 1.2)
            case 1: (j.lower, j.upper) = (base - 1.2, base - 0.6)
            case 2: (j.lower, j.upper) = (-2, 2)
            default: (j.lower, j.upper) = (base, base)
            }
            j.enableLimit = l != 6
            j.enableMotor = l % 3 != 1; j.maxMotor = n.next(0, 2)
            j.impulseX = n.next(-0.1, 0.1); j.impulseY = n.next(-0.1, 0.1); j.impulseZ = n.next(-0.1, 0.1)
            j.motorImpulse = n.next(-0.05, 0.05)
            j.atLower = l % 5 == 0; j.atUpper = l % 5 == 1 || l == 3
            joints.append(j)
            pA.append(PositionLanes(cx: n.next(-1, 1), cy: n.next(-1, 1), a: n.next(-0.5, 0.5)))
            pB.append(PositionLanes(cx: n.next(-1, 1), cy: n.next(-1, 1), a: n.next(-0.5, 0.5)))
            vA.append(staticA ? VelocityLanes(vx: 0, vy: 0, w: 0) : VelocityLanes(vx: n.next(-2, 2), vy: n.next(-2, 2), w: n.next(-3, 3)))
            vB.append(VelocityLanes(vx: n.next(-2, 2), vy: n.next(-2, 2), w: n.next(-3, 3)))
        }
        var lanes = Self.pack(joints)
        func packP(_ p: [PositionLanes<Float>]) -> PositionLanes<V> {
            PositionLanes(cx: V(p.map(\.cx)), cy: V(p.map(\.cy)), a: V(p.map(\.a)))
        }
        func packV(_ v: [VelocityLanes<Float>]) -> VelocityLanes<V> {
            VelocityLanes(vx: V(v.map(\.vx)), vy: V(v.map(\.vy)), w: V(v.map(\.w)))
        }
        var lpA = packP(pA), lpB = packP(pB), lvA = packV(vA), lvB = packV(vB)
        let h: Float = 1 / 120
        var okays: [[Bool]] = Array(repeating: [], count: 8), laneOkays: [SIMDMask<SIMD8<Int32>>] = []
        // Two sub-steps (the second warm-starts from the first), each: set-up, 8 iterations,
        // a position integration and 3 passes.
        for step in 0..<2 {
            let ratio: Float = step == 0 ? 0.75 : 1
            for l in 0..<8 {
                JointKernels.initVelocity(kind, &joints[l], pA[l], pB[l], &vA[l], &vB[l], h: h, dtRatio: ratio)
                for _ in 0..<8 { JointKernels.solveVelocity(kind, &joints[l], &vA[l], &vB[l], h: h) }
                pA[l].cx += h * vA[l].vx; pA[l].cy += h * vA[l].vy; pA[l].a += h * vA[l].w
                pB[l].cx += h * vB[l].vx; pB[l].cy += h * vB[l].vy; pB[l].a += h * vB[l].w
                for _ in 0..<3 { okays[l].append(JointKernels.solvePosition(kind, joints[l], &pA[l], &pB[l])) }
            }
            JointKernels.initVelocity(kind, &lanes, lpA, lpB, &lvA, &lvB, h: V(repeating: h), dtRatio: V(repeating: ratio))
            for _ in 0..<8 { JointKernels.solveVelocity(kind, &lanes, &lvA, &lvB, h: V(repeating: h)) }
            lpA.cx += h * lvA.vx; lpA.cy += h * lvA.vy; lpA.a += h * lvA.w
            lpB.cx += h * lvB.vx; lpB.cy += h * lvB.vy; lpB.a += h * lvB.w
            for _ in 0..<3 { laneOkays.append(JointKernels.solvePosition(kind, lanes, &lpA, &lpB)) }
        }
        var moved = 0
        for l in 0..<8 {
            let same = Self.bits(vA[l].vx, lvA.vx[l]) && Self.bits(vA[l].vy, lvA.vy[l]) && Self.bits(vA[l].w, lvA.w[l])
                && Self.bits(vB[l].vx, lvB.vx[l]) && Self.bits(vB[l].vy, lvB.vy[l]) && Self.bits(vB[l].w, lvB.w[l])
                && Self.bits(pA[l].cx, lpA.cx[l]) && Self.bits(pA[l].a, lpA.a[l]) && Self.bits(pB[l].cx, lpB.cx[l])
                && Self.bits(pB[l].cy, lpB.cy[l]) && Self.bits(pB[l].a, lpB.a[l])
            #expect(same, "\(kind) lane \(l): \(vB[l]) vs (\(lvB.vx[l]), \(lvB.vy[l]), \(lvB.w[l]))")
            for (f, v) in Self.fields { #expect(Self.bits(joints[l][keyPath: f], lanes[keyPath: v][l]), "\(kind) lane \(l): \(f)") }
            for (f, v) in Self.masks { #expect(joints[l][keyPath: f] == lanes[keyPath: v][l], "\(kind) lane \(l): \(f)") }
            #expect(okays[l] == laneOkays.map { $0[l] }, "\(kind) lane \(l): okay")
            if joints[l].impulseX != 0 || joints[l].impulseY != 0 { moved += 1 }
        }
        #expect(moved > 4, "\(kind): the joints hardly acted")
    }
}
