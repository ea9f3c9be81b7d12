// The decompositions' designs over the points that some metrics lack: a partner's contact count
// exists only at the points whose worlds touched that partner, and both items' counts of one pair
// (top.contacts.bottom, bottom.contacts.top) have the same points. A design reads only the
// points' parameters, so one made per set of points serves every metric with that set; made per
// metric, these were a tenth of a random sweep's report (issue 29).
import Foundation

final class SubsetDesigns: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [[Int]: Decomposition.Design] = [:]

    init() {}

    /// The design over the points at `indices` (of the summary's points, in order): made by `make`
    /// the first time, then shared. Made outside the lock, so two metrics on two threads never
    /// wait on each other; should both make the same one at once, the two are the same.
    func design(_ indices: [Int], _ make: () -> Decomposition.Design) -> Decomposition.Design {
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
