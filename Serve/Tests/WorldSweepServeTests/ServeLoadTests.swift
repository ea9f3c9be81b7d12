import Foundation
import XCTest

/// 2 000 requests from 32 clients at once, each on its own connection: every reply is the right
/// one, and the server's resident memory after them is within 16 MiB of what it was after a
/// warm-up of 256 (it holds nothing per request once answered).
final class ServeLoadTests: XCTestCase {
    func testTwoThousandRequestsFromThirtyTwoClients() throws {
        let server = try ServerProcess(folder: Fixture.folder)
        defer { _ = server.stop() }
        let summary = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.folder + "/done-run/summary.json")))
        let kinds: [(path: String, check: @Sendable (HTTPReply) -> Bool)] = [
            ("/api/runs", { $0.status == 200 && $0.text.contains("\"path\":\"done-run\"") }),
            ("/", { $0.status == 200 && $0.text.contains("catalog") }),
            ("/files/done-run/summary.json", { $0.status == 200 && $0.body == summary }),
            ("/api/sweep?run=done-run", { $0.status == 200 && $0.text.contains("\"worlds\":4") }),
            ("/files/../etc/passwd", { $0.status == 400 }),
            ("/replay?run=done-run", { $0.status == 200 && $0.text.contains("data-run=\"done-run\"") }),
        ]
        let port = server.port
        func load(_ count: Int, clients: Int) -> Int {
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: clients) { client in
                for i in stride(from: client, to: count, by: clients) {
                    let kind = kinds[i % kinds.count]
                    guard let reply = try? HTTPClient.request(port: port, path: kind.path), kind.check(reply) else {
                        failures.add(kind.path)
                        continue
                    }
                }
            }
            return failures.count
        }
        XCTAssertEqual(load(256, clients: 32), 0)
        let warm = try XCTUnwrap(server.residentKB)
        let start = Date()
        XCTAssertEqual(load(2_000, clients: 32), 0, "every request answered correctly")
        let seconds = Date().timeIntervalSince(start)
        let after = try XCTUnwrap(server.residentKB)
        print("load: 2000 requests from 32 clients in \(String(format: "%.1f", seconds)) s; resident memory \(warm) kB after warm-up, \(after) kB after")
        XCTAssertLessThan(after - warm, 16 * 1024, "memory flat: \(warm) kB → \(after) kB")
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    func add(_ p: String) { lock.lock(); paths.append(p); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return paths.count }
}
