import Foundation
@testable import WorldSweepServe
import XCTest

/// The catalog over a real folder: a finished run, an interrupted one, a set of shards with one
/// missing, and a sweep running in this process while the server reports its progress.
final class ServeCatalogTests: XCTestCase {
    func entry(_ runs: [[String: Any]], _ path: String) -> [String: Any]? { runs.first { $0["path"] as? String == path } }

    func testCatalogListsADoneRunAndAShardSetWithItsMissingShard() throws {
        let server = try Fixture.shared()
        let runs = try server.runs()
        let done = try XCTUnwrap(entry(runs, "done-run"), "\(runs)")
        XCTAssertEqual(done["kind"] as? String, "sweep")
        XCTAssertEqual(done["state"] as? String, "done")
        XCTAssertEqual(done["worlds"] as? Int, 4)
        XCTAssertEqual(done["name"] as? String, "twin-drop")
        XCTAssertNotNil(done["seconds"] as? Double)
        XCTAssertFalse((done["headline"] as? String ?? "").isEmpty, "the report's first finding")
        XCTAssertTrue((done["reports"] as? [String] ?? []).contains("done-run/report.html"))
        XCTAssertEqual(done["parameters"] as? [String], ["bouncy.elasticity", "bouncy.density", "shove.magnitude"])

        let shards = try XCTUnwrap(entry(runs, "sharded"))
        XCTAssertEqual(shards["kind"] as? String, "shards")
        XCTAssertEqual(shards["state"] as? String, "partial")
        let states = try XCTUnwrap(shards["shards"] as? [String: Any])
        XCTAssertEqual(states["count"] as? Int, 3)
        XCTAssertEqual(states["done"] as? [Int], [0, 2])
        XCTAssertEqual(states["missing"] as? [Int], [1])
        XCTAssertEqual(shards["status"] as? String, "shards 2 of 3 done; missing 1")
        XCTAssertEqual(shards["worlds"] as? Int, 6)
        XCTAssertEqual(shards["worldsDone"] as? Int, 4)

        XCTAssertNil(entry(runs, "outside-link"), "a link out of the folder is not followed")
        let page = try server.get("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("<table class=\"catalog\""))
    }

    func testAnInterruptedRunSaysHowToResumeIt() throws {
        let server = try Fixture.shared()
        let halted = Fixture.folder + "/halted"
        try FileManager.default.createDirectory(atPath: halted, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: halted) }
        // A run killed after its rows: everything but summary.json and the report.
        for name in ["run.json", "sweep.yaml", "worlds.csv", "partners.csv", "rows.sum"] {
            try FileManager.default.copyItem(atPath: Fixture.folder + "/done-run/" + name, toPath: halted + "/" + name)
        }
        Thread.sleep(forTimeInterval: 4)   // past the server's 3 s live window
        let entry = try XCTUnwrap(entry(try server.runs(), "halted"))
        XCTAssertEqual(entry["state"] as? String, "interrupted")
        XCTAssertEqual(entry["worldsDone"] as? Int, 4)
        let resume = try XCTUnwrap(entry["resume"] as? String)
        XCTAssertTrue(resume.hasPrefix("worldsweep run ") && resume.hasSuffix(" --resume"), resume)
        XCTAssertTrue(resume.contains("--out \(Fixture.folder)/halted"), resume)
    }

    /// A sweep runs here (40 worlds, four per chunk, one thread) while the test reads the
    /// server's event stream: the run shows as running with its worlds done rising, then done.
    func testARunningSweepsProgressIsPushedAsItAdvances() throws {
        let server = try Fixture.shared()
        let out = Fixture.folder + "/live"
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            Fixture.check(["run"] + smallSweep(elasticities: [0.1, 0.3, 0.5, 0.7, 0.9], pushes: [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4])
                          + ["--out", out, "--quiet", "--threads", "1", "--chunk-size", "4"])
            finished.signal()
        }
        thread.start()
        let fd = try HTTPClient.connect(port: server.port, timeout: 30)
        defer { close(fd) }
        try HTTPClient.send(fd, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var seen: [Int] = [], stream: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(600)
        while seen.count < 3, Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            stream += buffer[0..<n]
            // Each event is written whole: "event: runs\ndata: JSON\n\n".
            while let start = HTTPClient.find(stream, Array("data: ".utf8)),
                  let end = HTTPClient.find(Array(stream[start...]), Array("\n\n".utf8)) {
                let json = Array(stream[(start + 6)..<(start + end)])
                stream.removeFirst(start + end + 2)
                let runs = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]] ?? []
                if let live = entry(runs, "live"), live["state"] as? String == "running", let done = live["worldsDone"] as? Int,
                   done > (seen.last ?? -1) {
                    XCTAssertEqual(live["worlds"] as? Int, 40)
                    seen.append(done)
                }
            }
        }
        XCTAssertGreaterThanOrEqual(seen.count, 3, "worlds done while running, as pushed: \(seen)")
        XCTAssertEqual(seen, seen.sorted())
        XCTAssertEqual(finished.wait(timeout: .now() + 900), .success)
        var state = ""
        for _ in 0..<20 where state != "done" {
            state = entry(try server.runs(), "live")?["state"] as? String ?? ""
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(state, "done")
    }
}

/// A finished tune is listed with its answer (tune.json), its worlds used and its reports.
final class ServeTuneCatalogTests: XCTestCase {
    func testAFinishedTuneShowsItsAnswer() throws {
        let server = try Fixture.shared()
        let out = Fixture.folder + "/tune-bounce"
        Fixture.check(["tune", Repository.root.appendingPathComponent("Sweeps/tune-bounce.yaml").path, "--out", out, "--quiet"])
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/tune.json"))) as? [String: Any])["answer"] as? String
        var tune: [String: Any]?
        for _ in 0..<10 where tune == nil {
            tune = try server.runs().first { $0["path"] as? String == "tune-bounce" && $0["state"] as? String == "done" }
            Thread.sleep(forTimeInterval: 0.5)
        }
        let entry = try XCTUnwrap(tune)
        XCTAssertEqual(entry["kind"] as? String, "tune")
        XCTAssertEqual(entry["headline"] as? String, answer)
        XCTAssertGreaterThan(entry["worldsDone"] as? Int ?? 0, 0)
        XCTAssertTrue((entry["reports"] as? [String] ?? []).contains("tune-bounce/best.yaml"))
        // While it runs, the catalog's headline is the search's progress line, read from its checkpoint.
        let progress = try XCTUnwrap(TuneProgress.read(out))
        XCTAssertEqual(progress.worlds, entry["worldsDone"] as? Int)
        XCTAssertEqual(progress.budget, 2000)
        let line = try XCTUnwrap(progress.line)
        XCTAssertTrue(line.hasPrefix("generation ") && line.contains("/2000 worlds; best bouncy.elasticity "), line)
    }
}
