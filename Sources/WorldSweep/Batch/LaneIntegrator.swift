// The integration rule of `Integrate.swift` applied to every body of every world at once, by two
// back ends behind one interface: plain Swift SIMD (bitwise equal to the single-world rule) and
// BLAS (OpenBLAS through CBLAS, Accelerate on macOS; equal to rounding, as BLAS reassociates).

#if canImport(Accelerate)
import Accelerate
#elseif canImport(COpenBLAS)
import COpenBLAS
#endif

/// Which back end advances the lanes.
public enum LaneIntegrator: String, Sendable, CaseIterable {
    /// Swift SIMD, 8 lanes per instruction; bitwise identical to the single-world engine.
    case simd
    /// CBLAS level-1/2 calls over whole state arrays (element-wise products as diagonal `ssbmv`).
    case blas

    /// One sub-step of velocity: gravity, force, then damping.
    public func integrateVelocities(_ b: inout LaneBodies, h: Float) {
        switch self {
        case .simd: SIMDLanes.integrateVelocities(&b, h: h)
        case .blas: BLASLanes.integrateVelocities(&b, h: h)
        }
    }

    /// One sub-step of position, with the 200 pt translation and π/2 rotation caps.
    public func integratePositions(_ b: inout LaneBodies, h: Float) {
        switch self {
        case .simd: SIMDLanes.integratePositions(&b, h: h)
        case .blas: BLASLanes.integratePositions(&b, h: h)
        }
    }
}

enum SIMDLanes {
    typealias V = SIMD8<Float>

    static func integrateVelocities(_ b: inout LaneBodies, h: Float) {
        let lanes = b.lanes
        for body in 0..<b.bodyCount {
            let base = body * lanes
            var lane = 0
            while lane + V.scalarCount <= lanes {
                let i = base + lane
                let gx = load(b.gravityX, lane), gy = load(b.gravityY, lane)
                let gs = load(b.gravityScale, i), im = load(b.invMass, i)
                // Same operations in the same order as integrateVelocity: bitwise equal.
                var vx = load(b.vx, i) + h * (gs * gx + im * load(b.fx, i))
                var vy = load(b.vy, i) + h * (gs * gy + im * load(b.fy, i))
                var w = load(b.w, i) + h * load(b.invI, i) * load(b.torque, i)
                let ldf = load(b.linearDampingFactor, i)
                vx = ldf * vx
                vy = ldf * vy
                w *= load(b.angularDampingFactor, i)
                store(vx, &b.vx, i); store(vy, &b.vy, i); store(w, &b.w, i)
                lane += V.scalarCount
            }
            for l in lane..<lanes { scalarVelocity(&b, base + l, l, h: h) }
        }
    }

    static func scalarVelocity(_ b: inout LaneBodies, _ i: Int, _ lane: Int, h: Float) {
        var s = BodyVelocity(v: Vec2(b.vx[i], b.vy[i]), w: b.w[i])
        s.v += h * (b.gravityScale[i] * Vec2(b.gravityX[lane], b.gravityY[lane]) + b.invMass[i] * Vec2(b.fx[i], b.fy[i]))
        s.w += h * b.invI[i] * b.torque[i]
        s.v = b.linearDampingFactor[i] * s.v
        s.w *= b.angularDampingFactor[i]
        b.vx[i] = s.v.x; b.vy[i] = s.v.y; b.w[i] = s.w
    }

    static func integratePositions(_ b: inout LaneBodies, h: Float) {
        let n = b.vx.count
        let maxT = EngineSettings.maxTranslation, maxR = EngineSettings.maxRotation
        var i = 0
        while i + V.scalarCount <= n {
            var vx = load(b.vx, i), vy = load(b.vy, i), w = load(b.w, i)
            let tx = h * vx, ty = h * vy
            let t2 = tx * tx + ty * ty
            let tooFar = t2 .> V(repeating: maxT * maxT)
            if any(tooFar) {
                let ratio = V(repeating: 1).replacing(with: maxT / t2.squareRoot(), where: tooFar)
                vx = ratio * vx
                vy = ratio * vy
            }
            let r = h * w
            let tooFast = r * r .> V(repeating: maxR * maxR)
            if any(tooFast) {
                let absR = r.replacing(with: -r, where: r .< 0)
                w = w * V(repeating: 1).replacing(with: maxR / absR, where: tooFast)
            }
            store(load(b.cx, i) + h * vx, &b.cx, i)
            store(load(b.cy, i) + h * vy, &b.cy, i)
            store(load(b.a, i) + h * w, &b.a, i)
            store(vx, &b.vx, i); store(vy, &b.vy, i); store(w, &b.w, i)
            i += V.scalarCount
        }
        while i < n { scalarPosition(&b, i, h: h); i += 1 }
    }

    static func scalarPosition(_ b: inout LaneBodies, _ i: Int, h: Float) {
        var p = BodyPosition(c: Vec2(b.cx[i], b.cy[i]), a: b.a[i])
        var s = BodyVelocity(v: Vec2(b.vx[i], b.vy[i]), w: b.w[i])
        integratePosition(&p, &s, h: h)
        b.cx[i] = p.c.x; b.cy[i] = p.c.y; b.a[i] = p.a
        b.vx[i] = s.v.x; b.vy[i] = s.v.y; b.w[i] = s.w
    }

    @inline(__always) static func load(_ a: [Float], _ i: Int) -> V {
        a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress! + i).loadUnaligned(as: V.self) }
    }

    @inline(__always) static func store(_ v: V, _ a: inout [Float], _ i: Int) {
        a.withUnsafeMutableBufferPointer { UnsafeMutableRawPointer($0.baseAddress! + i).storeBytes(of: v, as: V.self) }
    }
}

enum BLASLanes {
    /// y ← α · diag(d) · x + β · y, the element-wise product BLAS offers (banded, bandwidth 0).
    @inline(__always)
    static func diagonalProduct(_ n: Int, _ alpha: Float, _ d: UnsafePointer<Float>, _ x: UnsafePointer<Float>,
                                _ beta: Float, _ y: UnsafeMutablePointer<Float>) {
        cblas_ssbmv(CblasColMajor, CblasUpper, blasInt(n), 0, alpha, d, 1, x, 1, beta, y, 1)
    }

    static func blasInt(_ n: Int) -> Int32 { Int32(n) }

    static func integrateVelocities(_ b: inout LaneBodies, h: Float) {
        let n = b.vx.count, lanes = b.lanes
        var tmp = [Float](repeating: 0, count: n)
        for (velocity, force, gravity) in [(\LaneBodies.vx, \LaneBodies.fx, \LaneBodies.gravityX),
                                           (\LaneBodies.vy, \LaneBodies.fy, \LaneBodies.gravityY)] {
            tmp.withUnsafeMutableBufferPointer { t in
                // tmp = invMass ∘ F, then += gravityScale ∘ g per body row (g is per world).
                diagonalProduct(n, 1, b.invMass, b[keyPath: force], 0, t.baseAddress!)
                b[keyPath: gravity].withUnsafeBufferPointer { g in
                    b.gravityScale.withUnsafeBufferPointer { gs in
                        for body in 0..<b.bodyCount {
                            diagonalProduct(lanes, 1, gs.baseAddress! + body * lanes, g.baseAddress!, 1,
                                            t.baseAddress! + body * lanes)
                        }
                    }
                }
                // v += h · tmp, then v = damping ∘ v.
                cblas_saxpy(blasInt(n), h, t.baseAddress!, 1, &b[keyPath: velocity], 1)
                diagonalProduct(n, 1, b.linearDampingFactor, b[keyPath: velocity], 0, t.baseAddress!)
            }
            b[keyPath: velocity] = tmp
        }
        tmp.withUnsafeMutableBufferPointer { t in
            diagonalProduct(n, h, b.invI, b.torque, 0, t.baseAddress!)
            cblas_saxpy(blasInt(n), 1, t.baseAddress!, 1, &b.w, 1)
            diagonalProduct(n, 1, b.angularDampingFactor, b.w, 0, t.baseAddress!)
        }
        b.w = tmp
    }

    static func integratePositions(_ b: inout LaneBodies, h: Float) {
        // The caps are comparisons, which BLAS has none of: a Swift pass applies them (rarely
        // changing anything), then BLAS moves every body.
        let maxT = EngineSettings.maxTranslation, maxR = EngineSettings.maxRotation
        for i in 0..<b.vx.count {
            let tx = h * b.vx[i], ty = h * b.vy[i]
            let t2 = tx * tx + ty * ty
            if t2 > maxT * maxT {
                let ratio = maxT / t2.squareRoot()
                b.vx[i] = ratio * b.vx[i]; b.vy[i] = ratio * b.vy[i]
            }
            let r = h * b.w[i]
            if r * r > maxR * maxR { b.w[i] *= maxR / abs(r) }
        }
        let n = blasInt(b.vx.count)
        cblas_saxpy(n, h, b.vx, 1, &b.cx, 1)
        cblas_saxpy(n, h, b.vy, 1, &b.cy, 1)
        cblas_saxpy(n, h, b.w, 1, &b.a, 1)
    }
}

extension LaneIntegrator {
    /// Keeps OpenBLAS single-threaded: the scheduler already runs one worker per core, and
    /// OpenBLAS's own threads on top of those oversubscribe the cores.
    public static func useSingleThreadedBLAS() {
        #if canImport(COpenBLAS) && !canImport(Accelerate)
        openblas_set_num_threads(1)
        #endif
    }

    /// Which kernels the BLAS library picked for this CPU (OpenBLAS's core name), for reports.
    public static var blasDescription: String {
        #if canImport(Accelerate)
        return "Accelerate"
        #elseif canImport(COpenBLAS)
        if let name = openblas_get_corename() { return "OpenBLAS (\(String(cString: name)))" }
        return "OpenBLAS"
        #else
        return "none"
        #endif
    }

    /// Body-sub-steps per second of this back end over `lanes` worlds of `bodies` bodies,
    /// the median of `repeats` timings of `subSteps` sub-steps each.
    public func measureThroughput(bodies: Int, lanes: Int, subSteps: Int, repeats: Int = 5) -> Double {
        var state = LaneBodies(bodyCount: bodies, lanes: lanes)
        for i in 0..<(bodies * lanes) {
            state.invMass[i] = 4; state.invI[i] = 100; state.gravityScale[i] = 1
            state.vx[i] = Float(i % 7) * 0.1; state.vy[i] = Float(i % 5) * 0.1
            state.linearDampingFactor[i] = dampingFactor(0.1, h: EngineSettings.subStep)
            state.angularDampingFactor[i] = dampingFactor(0.1, h: EngineSettings.subStep)
        }
        for l in 0..<lanes { state.gravityY[l] = 10 }
        var timings: [Double] = []
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<subSteps {
                integrateVelocities(&state, h: EngineSettings.subStep)
                integratePositions(&state, h: EngineSettings.subStep)
            }
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        timings.sort()
        // Keep the result alive so the loops are not optimized away.
        if state.cy.reduce(0, +).isNaN { return 0 }
        return Double(bodies * lanes * subSteps) / timings[timings.count / 2]
    }
}

import Dispatch
