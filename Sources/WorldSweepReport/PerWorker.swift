// What each worker thread of the report's jobs makes for itself, once.
import WorldSweep

/// A value per worker thread of a ParallelMap, made by that thread the first time it asks (each
/// slot is only touched by its own worker).
final class PerWorker<Value>: @unchecked Sendable {
    /// The slots' memory (freed, the values with it, when this goes).
    private let columns: Columns
    private let slots: UnsafeMutablePointer<Value?>
    private let count: Int
    private let make: (Int) -> Value

    init(_ workers: Int, _ make: @escaping (Int) -> Value) {
        count = max(1, workers)
        columns = Columns()
        slots = columns.make(count, nil)
        self.make = make
    }

    /// Drops every value (once the jobs are done: on another thread, so that freeing them is
    /// not a step of the caller's).
    func clear() {
        for w in 0..<count { slots[w] = nil }
    }

    /// Worker `w`'s value (`ParallelMap`'s worker index).
    func value(_ w: Int) -> Value {
        if let v = slots[w] { return v }
        let v = make(w)
        slots[w] = v
        return v
    }
}
