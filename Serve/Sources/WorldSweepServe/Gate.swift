import Foundation

/// At most `running` pieces of work at once and `waiting` more queued; past that a request is
/// refused with 503 at once, so a burst of replays cannot pile up without bound.
final class Gate: @unchecked Sendable {
    let limit: Int, waitLimit: Int
    private let lock = NSLock()
    private var running = 0
    private var queue: [CheckedContinuation<Void, Never>] = []

    init(running: Int, waiting: Int) {
        self.limit = running
        self.waitLimit = waiting
    }

    struct Ticket: Sendable {
        let gate: Gate
        func leave() { gate.leave() }
    }

    func enter() async throws(ServeError) -> Ticket {
        switch admit() {
        case .admitted: return Ticket(gate: self)
        case .full: throw ServeError(.serviceUnavailable, "busy: \(limit) running and \(waitLimit) waiting; try again shortly")
        case .wait: break
        }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in admitOrQueue(c) }
        return Ticket(gate: self)
    }

    private enum Admission { case admitted, wait, full }

    private func admit() -> Admission {
        lock.lock(); defer { lock.unlock() }
        if running < limit { running += 1; return .admitted }
        return queue.count < waitLimit ? .wait : .full
    }

    private func admitOrQueue(_ c: CheckedContinuation<Void, Never>) {
        lock.lock()
        if running < limit {
            running += 1
            lock.unlock()
            c.resume()
        } else {
            queue.append(c)
            lock.unlock()
        }
    }

    /// Hands the slot to the first one waiting, if any.
    fileprivate func leave() {
        lock.lock()
        if queue.isEmpty {
            running -= 1
            lock.unlock()
        } else {
            let next = queue.removeFirst()
            lock.unlock()
            next.resume()
        }
    }

    /// `work` on a Dispatch thread once admitted (it blocks: the engine, file reads).
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let ticket = try await enter()
        defer { ticket.leave() }
        return try await Offload.run(work)
    }
}

/// Blocking work off Swift's cooperative threads (one per core), which the server's own I/O needs.
enum Offload {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
