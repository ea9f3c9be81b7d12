// What the analyses read of the points' parameters alone, made once per set of points: the
// decompositions' designs over the points some metrics lack (a partner's contact count exists
// only at the points whose worlds touched that partner, and both items' counts of one pair have
// the same points) and the sensitivity fits' standardized parameters (most metrics have every
// point). Made per metric, the designs were a tenth of a random sweep's report (issue 29).
import Foundation

final class PointSetCache<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [[Int]: Value] = [:]

    init() {}

    /// What is made over the points at `indices` (of the summary's points, in order; callers may
    /// file the set of every point under a key of their own, as ReportModel does with [-1]): made by
    /// `make` the first time, then shared. Made outside the lock, so two metrics on two threads
    /// never wait on each other; should both make the same one at once, the two are the same.
    func value(_ indices: [Int], _ make: () -> Value) -> Value {
        lock.lock()
        let known = made[indices]
        lock.unlock()
        if let known { return known }
        let d = make()
        lock.lock()
        made[indices] = made[indices] ?? d
        lock.unlock()
        return d
    }
}
