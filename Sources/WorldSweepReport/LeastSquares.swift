// Least squares over one matrix for many right-hand sides: the matrix is factored once (LAPACK's
// QR) and each right-hand side solved against the factors, with the bits dgels gives it. A
// sweep's metrics share their points, so they share the matrix of a fit (the standardized
// parameters, the surrogate's terms), where dgels would factor it again for every metric and scan
// it for its largest entry each time. What dgels does, step by step, for a tall full-rank A and
// one column b:
// scale A if its largest |entry| is outside [smlnum, bignum], and b likewise; dgeqrf; dormqr
// (Qᵀb); dtrtrs (R β = Qᵀb); unscale. Here A and b scaled by dgels go to dgels itself (never for
// a sweep's numbers), and the rest runs those three routines with dgels' own workspace size, so
// each takes the path it takes inside dgels.
import COpenBLAS
import Foundation
import WorldSweep

final class LeastSquaresMatrix: @unchecked Sendable {
    /// The matrix by columns, for dgels when a right-hand side needs scaling.
    let columns: [[Double]]
    private let m: Int32, n: Int32
    /// dgels' workspace size for this shape (its own query).
    private let lwork: Int32
    /// A's QR factors as dgeqrf leaves them, and the reflectors' scales; nil when dgels would
    /// scale A (or A is empty or all zero), or dgeqrf failed: then every solve is dgels'.
    private let factors: (a: [Double], tau: [Double])?
    private static let smallest = dlamch("S") / dlamch("P"), largest = 1 / smallest
    /// Copies of `factors.a` that no solve is using. dormqr writes A's diagonal while it works (and
    /// puts it back), so solves on several threads each need a copy; made once per thread, not
    /// once per solve (a 50 000-point sweep's surrogate matrix is megabytes: copied per metric,
    /// the copies were a fifth of the run's page faults).
    private var spareFactors: [[Double]] = []
    private let spareLock = NSLock()

    init(columns: [[Double]]) {
        self.columns = columns
        var m = Int32(columns.first?.count ?? 0), n = Int32(columns.count)
        self.m = m; self.n = n
        // OpenBLAS splits a tall QR over its own threads, and the split changes the rounding
        // (importance.csv's shares differed in the 14th digit between 1 and 2 OpenBLAS threads).
        // The report's numbers may not depend on the cores or on the command that wrote them, so
        // every factoring and solve pins one thread.
        LaneIntegrator.useSingleThreadedBLAS()
        lwork = Self.dgelsWorkspace(m: m, n: n)
        var a = columns.flatMap { $0 }            // column j occupies a[j*m ..< (j+1)*m]
        let largestEntry = a.reduce(0) { max($0, abs($1)) }
        guard m >= n, n > 0, largestEntry >= Self.smallest, largestEntry <= Self.largest, lwork > min(m, n) else {
            factors = nil
            return
        }
        let mn = min(m, n)
        var tau = [Double](repeating: 0, count: Int(mn))
        var work = [Double](repeating: 0, count: Int(lwork - mn)), lw = lwork - mn, lda = m, info: Int32 = 0
        dgeqrf_(&m, &n, &a, &lda, &tau, &work, &lw, &info)
        factors = info == 0 ? (a, tau) : nil
    }

    /// Whether the matrix is factored here (else every solve is dgels').
    var isFactored: Bool { factors != nil }

    /// β minimising ‖A β − b‖, as dgels gives it; nil if A is rank-deficient or β not finite.
    func solve(_ rhs: [Double]) -> [Double]? {
        precondition(rhs.count == Int(m), "one value per row")
        LaneIntegrator.useSingleThreadedBLAS()
        let largestValue = rhs.reduce(0) { max($0, abs($1)) }
        guard let factors, !(largestValue > 0 && largestValue < Self.smallest), largestValue <= Self.largest else {
            return Self.dgels(columns: columns, rhs: rhs, lwork: lwork)
        }
        var m = self.m, n = self.n, k = min(m, n), nrhs: Int32 = 1, lda = m, ldb = max(m, n), info: Int32 = 0
        // dormqr and dtrtrs put A's diagonal back as they found it, but write it meanwhile: each
        // solve works on a copy no other solve holds (`spareFactors`).
        var a = spareLock.withLock { spareFactors.popLast() } ?? factors.a
        var tau = factors.tau
        defer { spareLock.withLock { spareFactors.append(a) } }
        var b = rhs + [Double](repeating: 0, count: Int(ldb) - rhs.count)
        var work = [Double](repeating: 0, count: Int(lwork - k)), lw = lwork - k
        var side = CChar(UInt8(ascii: "L")), trans = CChar(UInt8(ascii: "T"))
        dormqr_(&side, &trans, &m, &nrhs, &k, &a, &lda, &tau, &b, &ldb, &work, &lw, &info)
        guard info == 0 else { return nil }
        var upper = CChar(UInt8(ascii: "U")), notTransposed = CChar(UInt8(ascii: "N")), nonUnit = CChar(UInt8(ascii: "N"))
        dtrtrs_(&upper, &notTransposed, &nonUnit, &n, &nrhs, &a, &lda, &b, &ldb, &info)
        guard info == 0 else { return nil }   // info > 0: A is rank-deficient
        let beta = Array(b.prefix(Int(n)))
        return beta.allSatisfy(\.isFinite) ? beta : nil
    }

    private static func dlamch(_ what: Character) -> Double {
        var c = CChar(UInt8(ascii: what.unicodeScalars.first!))
        return dlamch_(&c)
    }

    /// dgels' optimal workspace for an m × n matrix and one right-hand side.
    private static func dgelsWorkspace(m: Int32, n: Int32) -> Int32 {
        var m = m, n = n, nrhs: Int32 = 1, lda = max(1, m), ldb = max(1, m, n), lwork: Int32 = -1, info: Int32 = 0
        var trans = CChar(UInt8(ascii: "N")), query = 0.0, a = 0.0, b = 0.0
        dgels_(&trans, &m, &n, &nrhs, &a, &lda, &b, &ldb, &query, &lwork, &info)
        return info == 0 ? max(1, Int32(query)) : 1
    }

    /// The whole solve by dgels (scaling included).
    static func dgels(columns: [[Double]], rhs: [Double], lwork: Int32? = nil) -> [Double]? {
        var m = Int32(rhs.count), n = Int32(columns.count), nrhs: Int32 = 1
        var lda = m, ldb = max(m, n)
        var a = columns.flatMap { $0 }
        var b = rhs + [Double](repeating: 0, count: Int(ldb) - rhs.count)
        var info: Int32 = 0
        var trans = CChar(UInt8(ascii: "N"))
        LaneIntegrator.useSingleThreadedBLAS()
        var lw = lwork ?? dgelsWorkspace(m: m, n: n)
        var work = [Double](repeating: 0, count: Int(lw))
        dgels_(&trans, &m, &n, &nrhs, &a, &lda, &b, &ldb, &work, &lw, &info)
        guard info == 0 else { return nil }
        let beta = Array(b.prefix(Int(n)))
        return beta.allSatisfy(\.isFinite) ? beta : nil
    }
}
