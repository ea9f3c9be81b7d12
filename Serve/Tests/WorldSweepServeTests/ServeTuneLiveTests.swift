import Foundation
import WorldSweepRun
import WorldSweepScene
import XCTest

/// A tune searching while the server watches: its convergence (the best so far after each
/// generation) and its best point are pushed as the search records them, then its answer.
final class ServeTuneLiveTests: XCTestCase {
    /// A card dropped onto the floor; the search maximizes its first bounce over elasticity (and
    /// friction, which a straight drop never feels): 10 generations of 6 points × 2 replicas.
    static let file = """
    name: tune-live
    world:
      bounds: [320, 568]
      duration: 2
    items:
      card: {center: [160, 100], size: [60, 40]}
    behaviors:
      fall: {type: gravity, items: [card]}
      floor: {type: collision, items: [card], mode: boundaries, reference_bounds: true}
      bouncy: {type: item, items: [card], elasticity: 0.5, friction: 0.5, allows_rotation: false}
    sweep:
      replicas: 2
      seed: 3
      jitter: {card.center: [0, 4]}
    tune:
      parameters:
        bouncy.elasticity: {min: 0.3, max: 0.9}
        bouncy.friction: {min: 0, max: 1}
      want:
        card.bounce1: maximize
      population: 6
      budget: 120
      seed: 2

    """

    static func writeFile() throws -> String {
        let path = Repository.scratch() + "/tune-live.yaml"
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Reads `event: tune` messages from an open stream until `stop` says enough (or 120 s pass).
    static func follow(_ fd: Int32, until stop: ([String: Any]) -> Bool) throws {
        var stream: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return }
            stream += buffer[0..<n]
            while let start = HTTPClient.find(stream, Array("data: ".utf8)),
                  let end = HTTPClient.find(Array(stream[start...]), Array("\n\n".utf8)) {
                let json = Array(stream[(start + 6)..<(start + end)])
                stream.removeFirst(start + end + 2)
                if try stop(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] ?? [:]) { return }
            }
        }
    }

    func testARunningTunesConvergenceIsPushedAsItAdvances() throws {
        let server = try Fixture.shared()
        let file = try Self.writeFile()
        let out = Fixture.folder + "/tune-live"
        let finished = DispatchSemaphore(value: 0)
        // The search runs here, a generation every 0.8 s at least (its progress call waits), so the
        // server, which looks once a second, sees it advance; it writes what `worldsweep tune` writes.
        Thread {
            do {
                let scene = try SceneFile.load(path: file)
                let search = TuneSearch(scene: scene, fileData: try Data(contentsOf: URL(fileURLWithPath: file)), directory: out)
                let outcome = try search.run(.init(threads: 1, progress: { _ in Thread.sleep(forTimeInterval: 0.8) }))
                precondition(outcome.completed)
            } catch {
                preconditionFailure("the search failed: \(error)")
            }
            finished.signal()
        }.start()
        let started = Date()
        while !FileManager.default.fileExists(atPath: out + "/sweep.yaml"), Date().timeIntervalSince(started) < 60 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let fd = try HTTPClient.connect(port: server.port, timeout: 30)
        defer { close(fd) }
        try HTTPClient.send(fd, "GET /api/tune/events?run=tune-live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var pushed: [[String: Any]] = []
        try Self.follow(fd) { tune in
            let count = (tune["generations"] as? [Any])?.count ?? 0
            if tune["state"] as? String == "running", count > ((pushed.last?["generations"] as? [Any])?.count ?? 0) {
                pushed.append(tune)
            }
            return pushed.count >= 4
        }
        XCTAssertGreaterThanOrEqual(pushed.count, 4, "a running search's generations, as pushed: \(pushed.map { ($0["generations"] as? [Any])?.count ?? 0 })")
        XCTAssertEqual(finished.wait(timeout: .now() + 300), .success)
        // The command finishes it as after Ctrl-C: the recorded generations replay, the report is written.
        Fixture.check(["tune", file, "--out", out, "--resume", "--quiet", "--threads", "1"])

        var final: [String: Any] = [:]
        for _ in 0..<20 where final["state"] as? String != "done" {
            final = try server.json("/api/tune?run=tune-live") as? [String: Any] ?? [:]
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(final["state"] as? String, "done")
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/tune.json"))) as? [String: Any])
        XCTAssertEqual(final["answer"] as? String, summary["answer"] as? String)
        XCTAssertTrue(Set(final["reports"] as? [String] ?? []).isSuperset(of: ["tune-live/report.html", "tune-live/best.yaml", "tune-live/tune.json"]))
        XCTAssertEqual(final["budget"] as? Int, 120)
        XCTAssertEqual(final["parameters"] as? [String], ["bouncy.elasticity", "bouncy.friction"])

        // By hand from the checkpoint: a maximized metric's best so far is the largest replica
        // mean among the points evaluated up to that generation (the first such on a tie).
        let checkpoint = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/search.json"))) as? [String: Any])
        let generations = try XCTUnwrap(checkpoint["generations"] as? [[[String: Any]]])
        let rows = try XCTUnwrap(final["generations"] as? [[String: Any]])
        XCTAssertEqual(rows.count, generations.count)
        XCTAssertGreaterThanOrEqual(rows.count, 6)
        var best: (mean: Double, values: [Double], point: Int)?, worlds = 0
        for (g, evaluations) in generations.enumerated() {
            for e in evaluations {
                let mean = try XCTUnwrap((e["means"] as? [Double])?.first, "every replica bounces")
                XCTAssertEqual((e["counts"] as? [Int])?.first, 2)
                worlds += e["replicas"] as? Int ?? 0
                if best == nil || mean > best!.mean { best = (mean, e["values"] as? [Double] ?? [], e["point"] as? Int ?? -1) }
            }
            XCTAssertEqual(rows[g]["generation"] as? Int, g)
            XCTAssertEqual(rows[g]["worlds"] as? Int, worlds)
            XCTAssertEqual(rows[g]["objective"] as? Double, best?.mean, "generation \(g)")
        }
        let answer = try XCTUnwrap(final["best"] as? [String: Any])
        XCTAssertEqual(answer["values"] as? [Double], best?.values)
        XCTAssertEqual(answer["point"] as? Int, best?.point)
        XCTAssertEqual(answer["world"] as? Int, (best?.point ?? 0) * 2)
        // The page's convergence is the tune report's, row for row.
        let reported = try XCTUnwrap(summary["convergence"] as? [[String: Any]])
        XCTAssertEqual(reported.map { $0["best"] as? String }, rows.map { $0["best"] as? String })
        // What was pushed while it ran: the same rows, as far as the search had gone.
        for tune in pushed {
            let seen = try XCTUnwrap(tune["generations"] as? [[String: Any]])
            XCTAssertEqual(seen.map { $0["objective"] as? Double }, rows.prefix(seen.count).map { $0["objective"] as? Double })
        }
        let page = try server.get("/tune?run=tune-live")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("id=\"convergence\""))
        XCTAssertEqual(try server.get("/api/tune?run=done-run").status, 404, "a sweep is not a search")
    }
}
