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
    public func integrateVelocities(_ b: LaneBodies, h: Float) {
        switch self {
        case .simd: SIMDLanes.integrateVelocities(b, h: h)
        case .blas: BLASLanes.integrateVelocities(b, h: h)
        }
    }

    /// One sub-step of position, with the 200 pt translation and π/2 rotation caps.
    public func integratePositions(_ b: LaneBodies, h: Float) {
        switch self {
        case .simd: SIMDLanes.integratePositions(b, h: h)
        case .blas: BLASLanes.integratePositions(b, h: h)
        }
    }
}

/// The rule of `Integrate.swift` (`integrateVelocityLanes`, `integratePositionLanes`) run on 8
/// worlds per instruction, and on single lanes for the remainder: one implementation, so the
/// result is bitwise the single world's.
enum SIMDLanes {
    typealias V = SIMD8<Float>

    static func integrateVelocities(_ b: LaneBodies, h: Float) {
        let lanes = b.lanes
        for body in 0..<b.movingBodyCount {
            let base = body * lanes
            var lane = 0
            while lane + V.scalarCount <= lanes {
                let i = base + lane
                var vx = loadLanes(b.vx, i), vy = loadLanes(b.vy, i), w = loadLanes(b.w, i)
                integrateVelocityLanes(vx: &vx, vy: &vy, w: &w, gx: loadLanes(b.gravityX, lane), gy: loadLanes(b.gravityY, lane),
                                       gravityScale: loadLanes(b.gravityScale, i), invMass: loadLanes(b.invMass, i),
                                       fx: loadLanes(b.fx, i), fy: loadLanes(b.fy, i), invI: loadLanes(b.invI, i),
                                       torque: loadLanes(b.torque, i),
                                       linearDampingFactor: loadLanes(b.linearDampingFactor, i),
                                       angularDampingFactor: loadLanes(b.angularDampingFactor, i), h: V(h))
                storeLanes(vx, b.vx, i); storeLanes(vy, b.vy, i); storeLanes(w, b.w, i)
                lane += V.scalarCount
            }
            for l in lane..<lanes {
                let i = base + l
                integrateVelocityLanes(vx: &b.vx[i], vy: &b.vy[i], w: &b.w[i], gx: b.gravityX[l], gy: b.gravityY[l],
                                       gravityScale: b.gravityScale[i], invMass: b.invMass[i], fx: b.fx[i], fy: b.fy[i],
                                       invI: b.invI[i], torque: b.torque[i],
                                       linearDampingFactor: b.linearDampingFactor[i],
                                       angularDampingFactor: b.angularDampingFactor[i], h: h)
            }
        }
    }

    static func integratePositions(_ b: LaneBodies, h: Float) {
        let n = b.movingCount
        var i = 0
        while i + V.scalarCount <= n {
            var cx = loadLanes(b.cx, i), cy = loadLanes(b.cy, i), a = loadLanes(b.a, i)
            var vx = loadLanes(b.vx, i), vy = loadLanes(b.vy, i), w = loadLanes(b.w, i)
            integratePositionLanes(cx: &cx, cy: &cy, a: &a, vx: &vx, vy: &vy, w: &w, h: V(h))
            storeLanes(cx, b.cx, i); storeLanes(cy, b.cy, i); storeLanes(a, b.a, i)
            storeLanes(vx, b.vx, i); storeLanes(vy, b.vy, i); storeLanes(w, b.w, i)
            i += V.scalarCount
        }
        while i < n {
            integratePositionLanes(cx: &b.cx[i], cy: &b.cy[i], a: &b.a[i], vx: &b.vx[i], vy: &b.vy[i], w: &b.w[i], h: h)
            i += 1
        }
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

    static func integrateVelocities(_ b: LaneBodies, h: Float) {
        let n = b.movingCount, lanes = b.lanes
        let t = b.scratch
        for (velocity, force, gravity) in [(b.vx, b.fx, b.gravityX), (b.vy, b.fy, b.gravityY)] {
            // t = invMass ∘ F, then += gravityScale ∘ g per body row (g is per world).
            diagonalProduct(n, 1, b.invMass, force, 0, t)
            for body in 0..<b.movingBodyCount {
                diagonalProduct(lanes, 1, b.gravityScale + body * lanes, gravity, 1, t + body * lanes)
            }
            // v += h · t, then v = damping ∘ v.
            cblas_saxpy(blasInt(n), h, t, 1, velocity, 1)
            diagonalProduct(n, 1, b.linearDampingFactor, velocity, 0, t)
            cblas_scopy(blasInt(n), t, 1, velocity, 1)
        }
        diagonalProduct(n, h, b.invI, b.torque, 0, t)
        cblas_saxpy(blasInt(n), 1, t, 1, b.w, 1)
        diagonalProduct(n, 1, b.angularDampingFactor, b.w, 0, t)
        cblas_scopy(blasInt(n), t, 1, b.w, 1)
    }

    static func integratePositions(_ b: LaneBodies, h: Float) {
        // The caps are comparisons, which BLAS has none of: a Swift pass applies them (rarely
        // changing anything), then BLAS moves every body.
        let maxT = EngineSettings.maxTranslation, maxR = EngineSettings.maxRotation
        for i in 0..<b.movingCount {
            let tx = h * b.vx[i], ty = h * b.vy[i]
            let t2 = tx * tx + ty * ty
            if t2 > maxT * maxT {
                let ratio = maxT / t2.squareRoot()
                b.vx[i] = ratio * b.vx[i]; b.vy[i] = ratio * b.vy[i]
            }
            let r = h * b.w[i]
            if r * r > maxR * maxR { b.w[i] *= maxR / abs(r) }
        }
        let n = blasInt(b.movingCount)
        cblas_saxpy(n, h, b.vx, 1, b.cx, 1)
        cblas_saxpy(n, h, b.vy, 1, b.cy, 1)
        cblas_saxpy(n, h, b.w, 1, b.a, 1)
    }
}

extension LaneIntegrator {
    /// Keeps OpenBLAS single-threaded: the scheduler already runs one worker per core, and
    /// OpenBLAS's own threads on top of those oversubscribe the cores. The report's least squares
    /// calls it too: how OpenBLAS splits a solve over threads changes its rounding. Only a count
    /// other than one is changed: setting it when the thread pool is down starts the pool again,
    /// and its threads spin for ~0.1 s of a core (at the start of a run, beside the workers).
    public static func useSingleThreadedBLAS() {
        #if canImport(COpenBLAS) && !canImport(Accelerate)
        if openblas_get_num_threads() != 1 { openblas_set_num_threads(1) }
        #endif
    }

    /// Pins OpenBLAS to one thread and ends the thread pool it starts when it is loaded, before
    /// anything has called it. Those threads spin on sched_yield for about 0.1 s of a core before
    /// they sleep, in every process (worldsweep's included, where nothing uses them: the engine and
    /// the report both pin one thread). Called once, first thing in the executable.
    public static func endBLASThreadPool() {
        #if canImport(COpenBLAS) && !canImport(Accelerate)
        openblas_set_num_threads(1)
        _ = blas_thread_shutdown_()
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
        let state = LaneBodies(bodyCount: bodies, lanes: lanes)
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
                integrateVelocities(state, h: EngineSettings.subStep)
                integratePositions(state, h: EngineSettings.subStep)
            }
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        timings.sort()
        // Keep the result alive so the loops are not optimized away.
        if UnsafeBufferPointer(start: state.cy, count: state.count).reduce(0, +).isNaN { return 0 }
        return Double(bodies * lanes * subSteps) / timings[timings.count / 2]
    }
}

import Dispatch
