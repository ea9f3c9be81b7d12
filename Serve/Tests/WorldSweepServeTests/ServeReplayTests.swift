import Foundation
import XCTest

/// A replay (simulated by the server on the engine's lanes) ends exactly where `worldsweep trace`
/// ends: the reply's final state equals the trace's last rows, text for text (the shortest Float
/// text, so bit for bit), running the very command the reply offers.
final class ServeReplayTests: XCTestCase {
    func replay(_ query: String) throws -> [String: Any] {
        try XCTUnwrap(try Fixture.shared().json("/api/replay?run=done-run&" + query) as? [String: Any])
    }

    func testAWorldByNumberEndsWhereTraceEnds() throws {
        for world in 0..<4 {
            let reply = try replay("world=\(world)")
            let command = try XCTUnwrap(reply["command"] as? String)
            XCTAssertTrue(command.hasSuffix("--world \(world)"), command)
            XCTAssertTrue(command.contains("\(Fixture.folder)/done-run/sweep.yaml"), command)
            let final = try XCTUnwrap(reply["final"] as? [String])
            XCTAssertEqual(final, traceEnd(command, items: 2), "world \(world)")
            // The animation's last frame is the final state's position and angle.
            let frames = try XCTUnwrap(reply["frames"] as? [[NSNumber]])
            XCTAssertEqual(frames.count, reply["ticksRun"] as? Int)
            let last = try XCTUnwrap(frames.last).map { Float(truncating: $0) }
            for (i, row) in final.enumerated() {
                let f = row.split(separator: ",").dropFirst().prefix(3).map { Float(String($0))! }
                XCTAssertEqual(Array(last[(3 * i)..<(3 * i + 3)]), f)
            }
        }
    }

    func testSweptValuesEndWhereTraceWithThoseSetsEnds() throws {
        let reply = try replay("set=bouncy.elasticity=0.55&set=shove.magnitude=0.35")
        let command = try XCTUnwrap(reply["command"] as? String)
        XCTAssertTrue(command.contains("--set bouncy.elasticity=0.55") && command.contains("--set shove.magnitude=0.35"), command)
        XCTAssertEqual(try XCTUnwrap(reply["final"] as? [String]), traceEnd(command, items: 2))
        let contacts = try XCTUnwrap(reply["contacts"] as? [[String: Any]])
        XCTAssertFalse(contacts.isEmpty, "the views land: contacts began")
        let metrics = try XCTUnwrap((reply["metrics"] as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertEqual(metrics.count, 2)
    }

    func testReplayRequestsOutsideTheRunAreRefused() throws {
        let server = try Fixture.shared()
        let refusals: [(String, Int, String)] = [
            ("/api/replay?run=done-run&world=4", 400, "outside 0..<4"),
            ("/api/replay?run=done-run&set=bouncy.elasticity=0.9", 400, "outside the swept range [0.2, 0.8]"),
            ("/api/replay?run=done-run&set=bouncy.friction=0.5", 400, "not swept"),
            ("/api/replay?run=done-run&world=1&ticks=0", 400, "ticks must be"),
            ("/api/replay?run=done-run&world=1&ticks=100000000", 400, "ticks must be"),
            ("/api/replay?run=done-run&world=x", 400, "whole number"),
            ("/api/replay?run=../done-run&world=1", 400, "not allowed"),
            ("/api/replay?run=nothing&world=1", 404, "not in"),
            ("/api/replay?run=done-run", 400, "give world=N"),
        ]
        for (path, status, words) in refusals {
            let reply = try server.get(path)
            XCTAssertEqual(reply.status, status, path)
            XCTAssertTrue(reply.text.contains(words), "\(path): \(reply.text)")
            XCTAssertEqual(reply.text.split(separator: "\n").count, 1, "one line")
        }
    }

    func testTheChartGivesEachWorldsValuesFromWorldsCSV() throws {
        let server = try Fixture.shared()
        let table = try XCTUnwrap(try server.json("/api/worlds?run=done-run&x=bouncy.elasticity&y=shove.magnitude") as? [String: Any])
        let points = try XCTUnwrap(table["points"] as? [[Double]])
        // The grid 0.2, 0.8 × 0, 1 with the last axis fastest, world by world.
        XCTAssertEqual(points, [[0, 0.2, 0], [1, 0.2, 1], [2, 0.8, 0], [3, 0.8, 1]])
        XCTAssertEqual(try server.get("/api/worlds?run=done-run&x=nothing&y=world").status, 400)
        XCTAssertEqual(try server.get("/api/worlds?run=sharded").status, 404, "shards are not merged: no worlds.csv")
    }

    func testCompareShowsTheCompareCommandsPage() throws {
        let reply = try Fixture.shared().get("/compare?a=done-run&b=done-run")
        XCTAssertEqual(reply.status, 200)
        XCTAssertTrue(reply.text.contains("no difference"), reply.text.prefix(400).description)
        XCTAssertTrue(reply.text.contains("\(Fixture.folder)/done-run"), "the runs named by the served folder's path")
        XCTAssertEqual(try Fixture.shared().get("/compare?a=done-run&b=../x").status, 400)
    }
}
