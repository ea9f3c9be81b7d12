import Testing
@testable import WorldSweep

/// The contact velocity kernel is one implementation: run on eight lanes at once (SIMD8) it gives
/// bitwise what it gives on each lane alone (Float, the single world's path), whatever mix of
/// zero-, one- and two-point contacts the lanes hold.
@Suite struct ContactKernelTests {
    struct Random {
        var state: UInt64
        mutating func next(_ scale: Float = 1) -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * scale
        }
    }

    func randomLane(_ r: inout Random, points: Int) -> (ContactLanes<Float>, VelocityLanes<Float>, VelocityLanes<Float>) {
        func point(_ r: inout Random) -> ContactPointLanes<Float> {
            ContactPointLanes(rAx: r.next(0.3), rAy: r.next(0.3), rBx: r.next(0.3), rBy: r.next(0.3),
                              normalImpulse: abs(r.next(0.5)), tangentImpulse: r.next(0.1),
                              normalMass: abs(r.next(2)) + 0.1, tangentMass: abs(r.next(2)) + 0.1,
                              velocityBias: abs(r.next(1)))
        }
        let angle = r.next(3)
        let (k11, k12, k22) = (abs(r.next(4)) + 2, r.next(1), abs(r.next(4)) + 2)
        let det = 1 / (k11 * k22 - k12 * k12)
        let c = ContactLanes(nx: cosf(angle), ny: sinf(angle), p0: point(&r), p1: point(&r),
                             k11: k11, k12: k12, k22: k22, m11: det * k22, m21: -det * k12, m12: -det * k12, m22: det * k11,
                             friction: abs(r.next(1)), mA: abs(r.next(4)), iA: abs(r.next(40)),
                             mB: points == 0 ? 0 : abs(r.next(4)), iB: abs(r.next(40)),
                             onePoint: points == 1, twoPoints: points == 2)
        let a = VelocityLanes(vx: r.next(3), vy: r.next(3), w: r.next(5))
        let b = VelocityLanes(vx: r.next(3), vy: r.next(3), w: r.next(5))
        return (c, a, b)
    }

    typealias Lane = (ContactLanes<Float>, VelocityLanes<Float>, VelocityLanes<Float>)

    /// Eight single-world constraints and their bodies as the eight lanes of one.
    static func wide(_ lanes: [Lane]) -> (ContactLanes<SIMD8<Float>>, VelocityLanes<SIMD8<Float>>, VelocityLanes<SIMD8<Float>>) {
        typealias V = SIMD8<Float>
        func gather(_ f: (ContactLanes<Float>) -> Float) -> V { V(lanes.map { f($0.0) }) }
        func gatherPoint(_ p: KeyPath<ContactLanes<Float>, ContactPointLanes<Float>>) -> ContactPointLanes<V> {
            ContactPointLanes(rAx: gather { $0[keyPath: p].rAx }, rAy: gather { $0[keyPath: p].rAy },
                              rBx: gather { $0[keyPath: p].rBx }, rBy: gather { $0[keyPath: p].rBy },
                              normalImpulse: gather { $0[keyPath: p].normalImpulse },
                              tangentImpulse: gather { $0[keyPath: p].tangentImpulse },
                              normalMass: gather { $0[keyPath: p].normalMass }, tangentMass: gather { $0[keyPath: p].tangentMass },
                              velocityBias: gather { $0[keyPath: p].velocityBias })
        }
        var one = SIMDMask<SIMD8<Int32>>(), two = SIMDMask<SIMD8<Int32>>()
        for k in 0..<8 { one[k] = lanes[k].0.onePoint; two[k] = lanes[k].0.twoPoints }
        let c = ContactLanes<V>(nx: gather(\.nx), ny: gather(\.ny), p0: gatherPoint(\.p0), p1: gatherPoint(\.p1),
                                k11: gather(\.k11), k12: gather(\.k12), k22: gather(\.k22),
                                m11: gather(\.m11), m21: gather(\.m21), m12: gather(\.m12), m22: gather(\.m22),
                                friction: gather(\.friction), mA: gather(\.mA), iA: gather(\.iA), mB: gather(\.mB), iB: gather(\.iB),
                                onePoint: one, twoPoints: two)
        let a = VelocityLanes(vx: V(lanes.map(\.1.vx)), vy: V(lanes.map(\.1.vy)), w: V(lanes.map(\.1.w)))
        let b = VelocityLanes(vx: V(lanes.map(\.2.vx)), vy: V(lanes.map(\.2.vy)), w: V(lanes.map(\.2.w)))
        return (c, a, b)
    }

    @Test(arguments: [1, 2, 3, 4])
    func eightLanesEqualEightSingleWorlds(seed: UInt64) {
        var r = Random(state: seed)
        let lanes = (0..<8).map { k in randomLane(&r, points: (k + Int(seed)) % 3) }
        var (wide, wa, wb) = Self.wide(lanes)
        for _ in 0..<EngineSettings.velocityIterations { ContactVelocityKernel.solve(&wide, &wa, &wb) }

        var changed = 0
        for k in 0..<8 {
            var (c, a, b) = lanes[k]
            for _ in 0..<EngineSettings.velocityIterations { ContactVelocityKernel.solve(&c, &a, &b) }
            #expect(wa.vx[k] == a.vx && wa.vy[k] == a.vy && wa.w[k] == a.w, "lane \(k) body A")
            #expect(wb.vx[k] == b.vx && wb.vy[k] == b.vy && wb.w[k] == b.w, "lane \(k) body B")
            #expect(wide.p0.normalImpulse[k] == c.p0.normalImpulse && wide.p1.normalImpulse[k] == c.p1.normalImpulse)
            #expect(wide.p0.tangentImpulse[k] == c.p0.tangentImpulse && wide.p1.tangentImpulse[k] == c.p1.tangentImpulse)
            if a.vx != lanes[k].1.vx { changed += 1 }
            // A lane without contact points is left exactly as it was.
            if !lanes[k].0.onePoint && !lanes[k].0.twoPoints {
                #expect(a.vx == lanes[k].1.vx && b.w == lanes[k].2.w)
            }
        }
        #expect(changed > 0)   // the kernel did something
    }

    /// Both bodies' velocities and every impulse hold the same bits in the two solves.
    func expectSameBits(_ one: (ContactLanes<Float>, VelocityLanes<Float>, VelocityLanes<Float>),
                        _ other: (ContactLanes<Float>, VelocityLanes<Float>, VelocityLanes<Float>), _ label: String) {
        let (c, a, b) = one, (cs, as_, bs) = other
        for (x, y) in [(a.vx, as_.vx), (a.vy, as_.vy), (a.w, as_.w), (b.vx, bs.vx), (b.vy, bs.vy), (b.w, bs.w),
                       (c.p0.normalImpulse, cs.p0.normalImpulse), (c.p1.normalImpulse, cs.p1.normalImpulse),
                       (c.p0.tangentImpulse, cs.p0.tangentImpulse), (c.p1.tangentImpulse, cs.p1.tangentImpulse)] {
            #expect(x.bitPattern == y.bitPattern, Comment(rawValue: label))
        }
    }

    /// The kernel leaves out the one-point block where no lane solves one point: on such lanes
    /// it changes nothing, so the bits are those of the whole kernel.
    @Test func leavingOutTheOnePointBlockChangesNothingWithoutOnePointLanes() {
        var r = Random(state: 11)
        var moved = 0
        for k in 0..<500 {
            let (c0, a0, b0) = randomLane(&r, points: k % 4 == 0 ? 0 : 2)
            var (c, a, b) = (c0, a0, b0), (cs, as_, bs) = (c0, a0, b0)
            for _ in 0..<EngineSettings.velocityIterations {
                ContactVelocityKernel.solve(&c, &a, &b, onePointPath: true)
                ContactVelocityKernel.solve(&cs, &as_, &bs, onePointPath: false)
            }
            expectSameBits((c, a, b), (cs, as_, bs), "lane \(k)")
            if a.vx != a0.vx { moved += 1 }
        }
        #expect(moved > 300)   // the two-point lanes did move
        // And where a lane does solve one point, the block matters (the flag is not a no-op).
        var (c, a, b) = randomLane(&r, points: 1)
        var (cs, as_, bs) = (c, a, b)
        ContactVelocityKernel.solve(&c, &a, &b, onePointPath: true)
        ContactVelocityKernel.solve(&cs, &as_, &bs, onePointPath: false)
        #expect(c.p0.normalImpulse != cs.p0.normalImpulse || a.vx != as_.vx)
    }

    /// The kernel may leave out the second point's friction and the two-point block where no
    /// lane solves two points: on one-point and pointless lanes they change nothing, so the bits
    /// are those of the whole kernel, on a single world's contact (which does by default) and on
    /// eight lanes alike.
    @Test func leavingOutTheTwoPointBlockChangesNothingWithoutTwoPointLanes() {
        var r = Random(state: 17)
        var moved = 0
        var lanes: [Lane] = []
        for k in 0..<504 {
            let (c0, a0, b0) = randomLane(&r, points: k % 4 == 0 ? 0 : 1)
            lanes.append((c0, a0, b0))
            var (c, a, b) = (c0, a0, b0), (cs, as_, bs) = (c0, a0, b0)
            for _ in 0..<EngineSettings.velocityIterations {
                ContactVelocityKernel.solve(&c, &a, &b, onePointPath: true, twoPointPath: true)
                ContactVelocityKernel.solve(&cs, &as_, &bs, onePointPath: true, twoPointPath: false)
            }
            expectSameBits((c, a, b), (cs, as_, bs), "lane \(k)")
            // The path taken by default on one world's one-point contact is the short one.
            var (cd, ad, bd) = (c0, a0, b0)
            for _ in 0..<EngineSettings.velocityIterations { ContactVelocityKernel.solve(&cd, &ad, &bd) }
            expectSameBits((c, a, b), (cd, ad, bd), "lane \(k), default path")
            if a.vx != a0.vx { moved += 1 }
        }
        #expect(moved > 300)   // the one-point lanes did move
        // Eight lanes of one-point and pointless contacts: the short path on all eight at once
        // (the rule holds for lanes too, though by default they do not ask for it).
        for group in stride(from: 0, to: lanes.count, by: 8) {
            let eight = Array(lanes[group..<group + 8])
            var (wide, wa, wb) = Self.wide(eight), (full, fa, fb) = Self.wide(eight)
            for _ in 0..<EngineSettings.velocityIterations {
                ContactVelocityKernel.solve(&wide, &wa, &wb, onePointPath: true, twoPointPath: false)
                ContactVelocityKernel.solve(&full, &fa, &fb, onePointPath: true, twoPointPath: true)
            }
            for k in 0..<8 {
                #expect(wa.vx[k].bitPattern == fa.vx[k].bitPattern && wa.w[k].bitPattern == fa.w[k].bitPattern
                        && wb.vy[k].bitPattern == fb.vy[k].bitPattern && wb.w[k].bitPattern == fb.w[k].bitPattern)
                #expect(wide.p0.normalImpulse[k].bitPattern == full.p0.normalImpulse[k].bitPattern
                        && wide.p0.tangentImpulse[k].bitPattern == full.p0.tangentImpulse[k].bitPattern)
            }
        }
        // Where a lane does solve two points, the block matters (the flag is not a no-op).
        var (c, a, b) = randomLane(&r, points: 2)
        var (cs, as_, bs) = (c, a, b)
        ContactVelocityKernel.solve(&c, &a, &b, onePointPath: true, twoPointPath: true)
        ContactVelocityKernel.solve(&cs, &as_, &bs, onePointPath: true, twoPointPath: false)
        #expect(c.p1.normalImpulse != cs.p1.normalImpulse || a.vx != as_.vx)
    }

    /// A body that cannot move (inverse mass and inertia 0: a boundary edge) keeps +0 velocities
    /// under every impulse, so leaving its updates out of warm start and velocity iterations
    /// gives the same bits for the other body and the impulses.
    @Test func leavingOutABodyThatCannotMoveChangesNoBits() {
        var r = Random(state: 23)
        var moved = 0
        for k in 0..<500 {
            var (c0, _, b0) = randomLane(&r, points: k % 3)
            c0.mA = 0; c0.iA = 0
            let a0 = VelocityLanes<Float>(vx: 0, vy: 0, w: 0)
            #expect(!c0.bodyAMoves)
            var (c, a, b) = (c0, a0, b0), (cs, as_, bs) = (c0, a0, b0)
            ContactKernels.warmStart(c, &a, &b, aMoves: true)
            ContactKernels.warmStart(cs, &as_, &bs, aMoves: false)
            for _ in 0..<EngineSettings.velocityIterations {
                ContactVelocityKernel.solve(&c, &a, &b, aMoves: true)
                ContactVelocityKernel.solve(&cs, &as_, &bs, aMoves: false)
            }
            expectSameBits((c, a, b), (cs, as_, bs), "lane \(k)")
            #expect(a.vx.bitPattern == 0 && a.vy.bitPattern == 0 && a.w.bitPattern == 0)   // still +0
            if b.vx != b0.vx { moved += 1 }
        }
        #expect(moved > 200)   // two thirds of the lanes have points; most of those push B
        // Where A can move, it must be updated: the rule says so, and leaving it out would differ.
        var (c, a, b) = randomLane(&r, points: 2)
        #expect(c.bodyAMoves)
        var (cs, as_, bs) = (c, a, b)
        ContactVelocityKernel.solve(&c, &a, &b, aMoves: true)
        ContactVelocityKernel.solve(&cs, &as_, &bs, aMoves: false)
        #expect(a.vx != as_.vx || a.w != as_.w)
        // One lane that can move is enough for eight lanes to count as moving.
        #expect(canMove(invMass: SIMD8<Float>(0, 0, 0, 0, 0, 0, 0, 0.5), invInertia: SIMD8<Float>(repeating: 0)))
        #expect(!canMove(invMass: SIMD8<Float>(repeating: 0), invInertia: SIMD8<Float>(repeating: 0)))
    }
}


/// Kernels told which manifold kinds their lanes hold compute only those; for the lanes of those
/// kinds the result is bit for bit what computing every kind and picking per lane gives.
@Suite struct ManifoldKindsTests {
    typealias V = SIMD8<Float>
    typealias M = SIMDMask<SIMD8<Int32>>

    /// Eight lanes of random manifolds, lane k of kind `kinds[k]`.
    func lanes(seed: UInt64, kinds: [Manifold.Kind])
        -> (ManifoldLanes<V>, ContactBodiesLanes<V>, PositionLanes<V>, PositionLanes<V>) {
        var r = ContactKernelTests.Random(state: seed)
        func v(_ scale: Float) -> V { V((0..<8).map { _ in r.next(scale) }) }
        var isFaceA = M(), isFaceB = M(), two = M()
        for k in 0..<8 { isFaceA[k] = kinds[k] == .faceA; isFaceB[k] = kinds[k] == .faceB; two[k] = kinds[k] != .circles }
        let angle = v(3)
        let m = ManifoldLanes(isFaceA: isFaceA, isFaceB: isFaceB,
                              localNormalX: V((0..<8).map { cosf(angle[$0]) }), localNormalY: V((0..<8).map { sinf(angle[$0]) }),
                              localPointX: v(0.3), localPointY: v(0.3), point0X: v(0.3), point0Y: v(0.3),
                              point1X: v(0.3), point1Y: v(0.3), hasPoint0: M(repeating: true), hasPoint1: two)
        // Polygon skins are thin; circles are large, so that circle lanes overlap too.
        let radii = V((0..<8).map { kinds[$0] == .circles ? 1.5 : 0.01 })
        let bodies = ContactBodiesLanes(mA: v(2) + 3, iA: v(20) + 30, mB: v(2) + 3, iB: v(20) + 30,
                                        localCenterAX: v(0.1), localCenterAY: v(0.1), localCenterBX: v(0.1), localCenterBY: v(0.1),
                                        radiusA: radii, radiusB: radii)
        let pA = PositionLanes(cx: v(1), cy: v(1), a: v(3)), pB = PositionLanes(cx: v(1), cy: v(1), a: v(3))
        return (m, bodies, pA, pB)
    }

    static let every: ManifoldKinds = [.faceA, .faceB, .circles]
    static let mixes: [[Manifold.Kind]] = [
        (0..<8).map { [Manifold.Kind.faceA, .faceB, .circles][$0 % 3] },
        Array(repeating: .faceA, count: 8),
        Array(repeating: .faceB, count: 8),
        (0..<8).map { $0 % 2 == 0 ? Manifold.Kind.faceA : .circles },
    ]

    /// Lane k of a and b holds the same bits.
    func same(_ a: V, _ b: V, _ k: Int) -> Bool { a[k].bitPattern == b[k].bitPattern }
    func same(_ a: PositionLanes<V>, _ b: PositionLanes<V>, _ k: Int) -> Bool {
        same(a.cx, b.cx, k) && same(a.cy, b.cy, k) && same(a.a, b.a, k)
    }

    @Test(arguments: [1, 2, 3])
    func restrictedKindsGiveTheSameBits(seed: UInt64) {
        let subsets: [ManifoldKinds] = [.faceA, .faceB, .circles, [.faceA, .faceB], [.faceA, .circles]]
        var movedKinds: ManifoldKinds = []
        for (mixIndex, kinds) in Self.mixes.enumerated() {
            let (m, bodies, pA, pB) = lanes(seed: seed &+ UInt64(mixIndex), kinds: kinds)
            for subset in subsets {
                var active = M()
                for k in 0..<8 { active[k] = subset.contains(ManifoldKinds(kinds[k])) }
                let xfA = TransformLanes(pA, localCenterX: bodies.localCenterAX, localCenterY: bodies.localCenterAY)
                let xfB = TransformLanes(pB, localCenterX: bodies.localCenterBX, localCenterY: bodies.localCenterBY)
                let narrow = ContactKernels.worldManifold(m, kinds: subset, xfA, bodies.radiusA, xfB, bodies.radiusB)
                let wide = ContactKernels.worldManifold(m, kinds: Self.every, xfA, bodies.radiusA, xfB, bodies.radiusB)
                for k in 0..<8 where active[k] {
                    #expect(same(narrow.nx, wide.nx, k) && same(narrow.ny, wide.ny, k))
                    #expect(same(narrow.p0x, wide.p0x, k) && same(narrow.p0y, wide.p0y, k))
                    if kinds[k] != .circles {   // a circle manifold has no second point
                        #expect(same(narrow.p1x, wide.p1x, k) && same(narrow.p1y, wide.p1y, k))
                    }
                }
                var nA = pA, nB = pB, wA = pA, wB = pB
                let start = V(repeating: 0)
                let baumgarte = V(repeating: EngineSettings.baumgarte)
                let narrowSep = ContactKernels.correctPositions(m, kinds: subset, bodies, mA: bodies.mA, iA: bodies.iA, mB: bodies.mB, iB: bodies.iB,
                                                                baumgarte: baumgarte, &nA, &nB, minSeparation: start, active: active)
                let wideSep = ContactKernels.correctPositions(m, kinds: Self.every, bodies, mA: bodies.mA, iA: bodies.iA, mB: bodies.mB, iB: bodies.iB,
                                                              baumgarte: baumgarte, &wA, &wB, minSeparation: start, active: active)
                // Inactive lanes are untouched either way, so every lane must agree.
                for k in 0..<8 {
                    #expect(same(narrowSep, wideSep, k), "lane \(k) of \(kinds)")
                    #expect(same(nA, wA, k) && same(nB, wB, k), "lane \(k) of \(kinds)")
                }
                for k in 0..<8 where active[k] && nA.cx[k] != pA.cx[k] { movedKinds.insert(ManifoldKinds(kinds[k])) }
            }
        }
        // Not vacuous: lanes of every kind were overlapping and got corrected.
        #expect(movedKinds == Self.every)
    }

    /// Position correction against a body that cannot move: leaving its updates out gives the
    /// same bits for the other body and the separation, and the fixed body stays put.
    @Test(arguments: [1, 2, 3])
    func correctionAgainstABodyThatCannotMoveGivesTheSameBits(seed: UInt64) {
        var moved = 0
        for (mixIndex, kinds) in Self.mixes.enumerated() {
            var (m, bodies, pA, pB) = lanes(seed: seed &+ 7 &* UInt64(mixIndex), kinds: kinds)
            bodies.mA = V(repeating: 0); bodies.iA = V(repeating: 0)
            pA.cx[0] = 0; pA.cy[1] = 0   // +0 positions too (a boundary's)
            let baumgarte = V(repeating: EngineSettings.baumgarte), start = V(repeating: 0), all = M(repeating: true)
            var fA = pA, fB = pB, sA = pA, sB = pB
            let full = ContactKernels.correctPositions(m, kinds: Self.every, bodies, mA: bodies.mA, iA: bodies.iA, mB: bodies.mB, iB: bodies.iB,
                                                       baumgarte: baumgarte, &fA, &fB, minSeparation: start, active: all, aMoves: true)
            let skip = ContactKernels.correctPositions(m, kinds: Self.every, bodies, mA: bodies.mA, iA: bodies.iA, mB: bodies.mB, iB: bodies.iB,
                                                       baumgarte: baumgarte, &sA, &sB, minSeparation: start, active: all, aMoves: false)
            for k in 0..<8 {
                #expect(same(full, skip, k) && same(fA, sA, k) && same(fB, sB, k), "lane \(k) of \(kinds)")
                #expect(same(sA, pA, k))
                if fB.cx[k] != pB.cx[k] { moved += 1 }
            }
        }
        #expect(moved > 0)
    }
}

#if canImport(Glibc)
import Glibc
#endif
