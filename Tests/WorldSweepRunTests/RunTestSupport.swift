import Foundation
import TestScratch
import Testing
import WorldSweep
@testable import WorldSweepRun
import WorldSweepScene

// What the run tests share: a small sweep, scratch folders, runs and summaries read back.

/// A small sweep: two boxes, 3 × 2 points × 2 replicas with jitter = 12 worlds of 90 ticks.
let smallSweep = """
    name: small
    world: {bounds: [320, 568], ticks: 90}
    items:
      top: {center: [100, 200], size: [50, 50]}
      bottom: {center: [100, 500], size: [50, 50]}
    behaviors:
      fall: {type: gravity, items: [top, bottom]}
      walls:
        type: collision
        items: [top, bottom]
        reference_bounds: true
        boundaries:
          ledge: {from: [0, 300], to: [320, 300]}
      bouncy: {type: item, items: [bottom], elasticity: 0.9}
    sweep:
      parameters:
        bouncy.elasticity: {linspace: [0, 1, 3]}
        fall.magnitude: [1, 2]
      seed: 3
      replicas: 2
      jitter: {top.center: [2, 2]}
    """

func tempDir(_ tag: String = "run") -> String {
    Scratch.directory(tag)
}

func writeScene(_ text: String, in dir: String) -> String {
    let path = "\(dir)/scene.yaml"
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The scene's worlds run one at a time on the single-world engine (what the batched engine must
/// give world by world), and a runner of the same scene on the batched SIMD engine.
func singleWorldsAndBatchedRunner(_ scene: SceneFile) -> (expected: [WorldResult], batched: WorldRunner) {
    var single = WorldRunner(scene: scene)
    single.engine = .single
    var batched = single
    batched.engine = .batched(.simd)
    return ((0..<scene.worldCount).map { single.run(world: $0) }, batched)
}

func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

/// summary.json without its run info (wall time and threads differ from run to run).
func summaryWithoutRun(_ path: String) throws -> SweepSummary {
    var s = try JSONDecoder().decode(SweepSummary.self, from: bytes(path))
    s.run = RunInfo(engine: "", threads: 0, worlds: 0, ticksPerWorld: 0, wallSeconds: 0, worldTicksPerSecond: 0)
    return s
}

/// summary.json's text with the run object cut out (its points, partners, … must match bytewise).
func summaryTextWithoutRun(_ path: String) -> String {
    let text = String(decoding: bytes(path), as: UTF8.self)
    guard let r = text.range(of: "\"run\":{"), let close = text[r.upperBound...].firstIndex(of: "}") else { return text }
    return String(text[..<r.lowerBound] + text[text.index(after: close)...])
}

func runSweep(_ path: String, into dir: String, threads: Int = 1, chunk: Int = 64, resume: Bool = false,
              shard: (Int, Int)? = nil, cancel: CancellationFlag = CancellationFlag(),
              formatsOnCollector: Bool? = nil) throws -> SweepRun.Outcome {
    let scene = try SceneFile.load(path: path)
    let run = SweepRun(scene: scene, fileData: bytes(path), directory: dir)
    var options = SweepRun.Options(threads: threads, chunkSize: chunk, resume: resume, shard: shard.map { (index: $0.0, count: $0.1) },
                                   cancel: cancel)
    options.formatsOnCollector = formatsOnCollector
    return try run.run(options)
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var v = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return v }
    func add(_ n: Int) { lock.lock(); v += n; lock.unlock() }
    func max(_ n: Int) { lock.lock(); v = Swift.max(v, n); lock.unlock() }
}

/// Every world's plan of a sweep file, each built as the runner builds it (the template plus that
/// world's values, then compiled).
func worldPlans(yaml: String, path: String) throws -> [WorldPlan] {
    let scene = try SceneFile.parse(yaml: yaml, path: path)
    let worlds = SweepWorlds(scene)
    return try (0..<scene.worldCount).map { try worlds.world($0).worldPlan() }
}
