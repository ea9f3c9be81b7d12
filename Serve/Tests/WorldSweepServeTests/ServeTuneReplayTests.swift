import Foundation
import XCTest

/// A search's worlds replayed by the server end where `worldsweep trace FOLDER/sweep.yaml --world N`
/// ends (the command the reply offers, with the search's own `--set`), text for text: any world
/// it evaluated, each replica with its own jitter, and its answer's world.
final class ServeTuneReplayTests: XCTestCase {
    func testASearchsWorldsAndItsAnswerEndWhereTraceEnds() throws {
        let server = try Fixture.shared()
        let out = Fixture.folder + "/tune-replay"
        // Three replicas a point by an override: the folder's sweep.yaml records it, the replay keeps it.
        Fixture.check(["tune", try ServeTuneLiveTests.writeFile(), "--set", "sweep.replicas=3", "--out", out, "--quiet", "--threads", "1"])
        let checkpoint = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/search.json"))) as? [String: Any])
        let points = (checkpoint["generations"] as? [[Any]] ?? []).reduce(0) { $0 + $1.count }
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/tune.json"))) as? [String: Any])
        let bestPoint = try XCTUnwrap((summary["best"] as? [String: Any])?["point"] as? Int)

        let info = try XCTUnwrap(try server.json("/api/sweep?run=tune-replay") as? [String: Any])
        XCTAssertEqual(info["search"] as? Bool, true)
        XCTAssertEqual(info["worlds"] as? Int, points * 3)
        XCTAssertEqual(info["answer"] as? Int, bestPoint * 3)
        XCTAssertEqual((info["axes"] as? [Any])?.count, 0, "a tuned key cannot be --set: no sliders")

        var finals: [Int: [String]] = [:]
        for world in Set([0, 1, 2, bestPoint * 3, bestPoint * 3 + 2, points * 3 / 2 + 1, points * 3 - 1]).sorted() {
            let reply = try XCTUnwrap(try server.json("/api/replay?run=tune-replay&world=\(world)") as? [String: Any])
            let command = try XCTUnwrap(reply["command"] as? String)
            XCTAssertTrue(command.hasPrefix("worldsweep trace \(out)/sweep.yaml --set sweep.replicas=3 "), command)
            XCTAssertTrue(command.hasSuffix(" --world \(world)"), command)
            let final = try XCTUnwrap(reply["final"] as? [String])
            XCTAssertEqual(final, traceEnd(command, items: 1), "world \(world)")
            finals[world] = final
        }
        // Replicas of one point differ by their jitter alone: the replay draws each one's own.
        XCTAssertNotEqual(finals[0], finals[1])
        XCTAssertNotEqual(finals[1], finals[2])

        for (path, status, words) in [("/api/replay?run=tune-replay&world=\(points * 3)", 400, "outside 0..<\(points * 3)"),
                                      ("/api/replay?run=tune-replay&world=-1", 400, "outside"),
                                      ("/api/replay?run=tune-replay&set=bouncy.elasticity=0.5", 400, "by number")] {
            let reply = try server.get(path)
            XCTAssertEqual(reply.status, status, path)
            XCTAssertTrue(reply.text.contains(words), "\(path): \(reply.text)")
        }
        let chart = try XCTUnwrap(try server.json("/api/worlds?run=tune-replay&x=bouncy.elasticity&y=card.bounce1") as? [String: Any])
        XCTAssertEqual((chart["points"] as? [[Double]])?.count, points * 3, "every evaluated world is a dot to click")
    }
}
