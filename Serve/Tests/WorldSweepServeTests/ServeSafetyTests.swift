import Foundation
import WorldSweepServe
import XCTest

/// The server reads only what lies under its folder, answers only GET and HEAD without bodies,
/// bounds every request, and logs each refusal as one line.
final class ServeSafetyTests: XCTestCase {
    func testPathEscapesAndLinksOutAreRefusedAndLogged() throws {
        let server = try ServerProcess(folder: Fixture.folder)
        let refusals: [(String, Int)] = [
            ("/files/../../../etc/passwd", 400),
            ("/files/done-run/../../../etc/passwd", 400),
            ("/files/%2e%2e/%2e%2e/etc/passwd", 400),
            ("/files/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", 400),
            ("/files/done-run/..%5c..%5cetc", 400),
            ("/files/done-run/%00", 400),
            ("/files/done-run/%zz", 400),
            ("/files/.hidden", 400),
            ("/files/outside-link/hostname", 403),
            ("/files/done-run/no-such-file", 404),
            ("/files/done-run", 404),
        ]
        for (path, status) in refusals {
            let reply = try server.get(path)
            XCTAssertEqual(reply.status, status, "\(path): \(reply.text)")
            XCTAssertFalse(reply.text.contains("root:"), path)
        }
        let summary = try server.get("/files/done-run/summary.json")
        XCTAssertEqual(summary.status, 200)
        XCTAssertEqual(summary.body, Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.folder + "/done-run/summary.json"))))
        XCTAssertEqual(summary.headers["x-content-type-options"], "nosniff")
        let log = server.stop().split(separator: "\n")
        XCTAssertEqual(log.count, refusals.count, "one line per refusal:\n\(log.joined(separator: "\n"))")
        for ((path, status), line) in zip(refusals, log) {
            XCTAssertTrue(line.hasPrefix("worldsweep-serve: \(status) GET \(path)"), String(line))
        }
    }

    func testOversizedAndForeignRequestsAreRefused() throws {
        let server = try Fixture.shared()
        XCTAssertEqual(try server.get("/api/runs?x=" + String(repeating: "a", count: 5000)).status, 414)
        XCTAssertEqual(try server.get("/api/runs", body: String(repeating: "b", count: 10)).status, 413)
        XCTAssertEqual(try server.get("/", body: "x=1", method: "POST").status, 405)
        XCTAssertEqual(try server.get("/files/done-run/run.json", method: "DELETE").status, 405)
        XCTAssertEqual(try server.get("/", headers: ["Host: evil.example"]).status, 403, "a rebound name is refused on loopback")
        XCTAssertEqual(try server.get("/api/runs?" + (0..<70).map { "k\($0)=1" }.joined(separator: "&")).status, 400)
        let reply = try server.get("/files/done-run/" + String(repeating: "x/", count: 600))
        XCTAssertTrue((400..<500).contains(reply.status), "\(reply.status)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: Fixture.folder + "/done-run/run.json"), "nothing was removed")
    }

    func testOnlyLoopbackHostsCountAsLocal() throws {
        XCTAssertTrue(try ServeOptions(arguments: ["runs"]).loopbackOnly)
        XCTAssertTrue(try ServeOptions(arguments: ["--host", "127.0.0.2"]).loopbackOnly)
        XCTAssertFalse(try ServeOptions(arguments: ["--host", "0.0.0.0"]).loopbackOnly)
        XCTAssertThrowsError(try ServeOptions(arguments: ["--port", "70000"]))
        XCTAssertThrowsError(try ServeOptions(arguments: ["a", "b"]))
    }
}
