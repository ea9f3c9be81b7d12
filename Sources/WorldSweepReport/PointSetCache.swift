// What the analyses read of the points' parameters alone, made once per set of points: the
// decompositions' designs (over every point, and over the points some metrics lack: a partner's
// contact count exists only at the points whose worlds touched that partner, and both items'
// counts of one pair have the same points) and the sensitivity fits' standardized parameters
// (most metrics have every point). Made per metric, the designs were a tenth of a random sweep's
// report (issue 29).
import Foundation

final class PointSetCache<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var made: [[Int]: Value] = [:]
    /// Sets whose value a thread is making now.
    private var making: Set<[Int]> = []

    init() {}

    /// What is made over the points at `indices` (of the summary's points, in order; callers may
    /// file the set of every point under a key of their own, as ReportModel does with [-1]): made by
    /// `make` the first time, then shared. Made outside the lock; a thread that asks while another
    /// makes it waits for that one rather than making it again (two threads on two partner
    /// metrics of one pair each made the same design, 1–3 ms, at the start of every report).
    func value(_ indices: [Int], _ make: () -> Value) -> Value {
        condition.lock()
        while making.contains(indices) { condition.wait() }
        if let known = made[indices] {
            condition.unlock()
            return known
        }
        making.insert(indices)
        condition.unlock()
        let d = make()
        condition.lock()
        made[indices] = d
        making.remove(indices)
        condition.broadcast()
        condition.unlock()
        return d
    }
}
