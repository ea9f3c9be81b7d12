import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI

/// Valid worlds are not failed: the failure rule judges an item against the boundary where the
/// engine places it (1 pt outside the bounds) and leaves joint-held items to their joints.
@Suite struct ValidWorldTests {
    /// A 0.5 pt circle thrown at the left wall: its centre may pass x = −0.5 (the boundary is at
    /// x = −1, the circle's radius 0.25 pt) and it bounces back; at 1000 pt/s it tunnels (the
    /// engine's own limit for so small an item) and that world is still failed.
    @Test func aTinyItemBouncingOffAWallIsNotFailed() throws {
        let file = try temporaryFile("""
            name: tiny-bounce
            world: {bounds: [320, 568], duration: 1}
            items:
              dot: {center: [20, 100], size: [0.5, 0.5], shape: ellipse}
            behaviors:
              walls: {type: collision, items: [dot], reference_bounds: true}
              props: {type: item, items: [dot], linear_velocity: [-300, 0]}
            sweep:
              parameters:
                props.linear_velocity.x: [-140, -230, -505, -840, -1000]

            """)
        let out = Scratch.directory("tiny-bounce", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"]) == 0)
        let worlds = try CSVTable(path: "\(out)/worlds.csv").records
        for world in worlds.prefix(4) {
            let speed = world["props.linear_velocity.x"]!
            #expect(world["dot.contacts"] != "", "\(speed) pt/s marked failed")
            // It came back: moving right, inside the bounds.
            #expect((Double(world["dot.vx"] ?? "") ?? 0) > 0 && (Double(world["dot.x"] ?? "") ?? -1) > 0, "\(speed): \(world)")
        }
        #expect(worlds[4]["dot.contacts"] == "", "the tunnelling world at 1000 pt/s is no longer failed")
    }

    /// A rod of 20 pt to an anchor 32 pt below the floor holds its item at y = 580, 12 pt beyond
    /// the bounds (568), calm and finite: the joint outweighs the boundary's contact. Not failed.
    @Test func aRodHoldingAnItemBeyondTheBoundsIsNotFailed() throws {
        let file = try temporaryFile("""
            name: held-beyond
            world: {bounds: [320, 568], duration: 1}
            items:
              bob: {center: [160, 540], size: [10, 10]}
            behaviors:
              walls: {type: collision, items: [bob], reference_bounds: true}
              rod: {type: attachment, items: [bob], anchor: [160, 600], length: 20}

            """)
        let out = Scratch.directory("held-beyond", create: false)
        #expect(WorldSweepCommand.execute(["run", file, "--out", out, "--quiet"]) == 0)
        let world = try #require(try CSVTable(path: "\(out)/worlds.csv").records.first)
        #expect(world["bob.y"].flatMap(Double.init) == 580, "\(world)")
        #expect(world["bob.vx"].flatMap(Double.init) == 0 && world["bob.vy"].flatMap(Double.init) == 0, "\(world)")
    }

    /// A name no file system can take as a folder name is refused at validate, and no folder is
    /// made for an --out that cannot be made whole.
    @Test func namesBeyondTheFileSystemsLimitsAreRefusedUpFront() throws {
        let long = String(repeating: "n", count: 300)
        let file = try temporaryFile(tinySweep(name: long))
        let validate = WorldSweepCommand.outcome(["validate", file])
        #expect(validate.code == 2, "\(validate.message ?? "accepted")")
        #expect(validate.message?.contains("expected a 'name' of at most 250 characters") == true, "\(validate.message ?? "")")
        #expect(WorldSweepCommand.execute(["validate", try temporaryFile(tinySweep(name: String(repeating: "n", count: 250)))]) == 0)
        let parent = Scratch.directory("long-out", create: false)
        let run = WorldSweepCommand.outcome(["run", try temporaryFile(tinySweep()), "--out", "\(parent)/runs/\(long)", "--quiet"])
        #expect(run.code == 2, "\(run.message ?? "accepted")")
        #expect(run.message?.contains("is too long") == true, "\(run.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: parent))
    }
}
