// What the report's jobs share, made once by whichever job asks first: the analyses' designs per
// set of points (over every point, and over the points some metrics lack: a partner's contact
// count exists only at the points whose worlds touched that partner, and both items' counts of one
// pair have the same points, so the designs are not made per metric), the sensitivity fits'
// standardized parameters, and the extreme worlds' replays.
import Foundation

final class MadeOnce<Key: Hashable, Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var made: [Key: Value] = [:]
    /// Keys whose value a thread is making now.
    private var making: Set<Key> = []

    init() {}

    /// The value for `key`: made by `make` the first time, then shared. Made outside the lock; a
    /// thread that asks while another makes it waits for that one rather than making it again
    /// (two threads on two partner metrics of one pair would each make the same design at the
    /// start of every report).
    func value(_ key: Key, _ make: () -> Value) -> Value {
        condition.lock()
        while making.contains(key) { condition.wait() }
        if let known = made[key] {
            condition.unlock()
            return known
        }
        making.insert(key)
        condition.unlock()
        let d = make()
        condition.lock()
        made[key] = d
        making.remove(key)
        condition.broadcast()
        condition.unlock()
        return d
    }

    /// The values for `keys`, made together by one call of `make` (given the keys not yet made,
    /// in order, it returns their values in that order), then shared as `value` shares them; a
    /// thread asking for one of them meanwhile waits.
    func values(_ keys: [Key], _ make: ([Key]) -> [Value]) {
        condition.lock()
        let missing = keys.filter { made[$0] == nil && !making.contains($0) }
        missing.forEach { making.insert($0) }
        condition.unlock()
        guard !missing.isEmpty else { return }
        let values = make(missing)
        precondition(values.count == missing.count, "a value per key")
        condition.lock()
        for (key, value) in zip(missing, values) {
            made[key] = value
            making.remove(key)
        }
        condition.broadcast()
        condition.unlock()
    }
}
