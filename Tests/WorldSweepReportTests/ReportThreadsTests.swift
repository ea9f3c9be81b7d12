#if canImport(COpenBLAS) && !canImport(Accelerate)
import COpenBLAS
#endif
import Foundation
import TestScratch
import Testing
import WorldSweepRun
import WorldSweepScene
@testable import WorldSweepReport

/// The report spreads its per-metric work and its three files over the run's threads (issue 29):
/// what it writes may not depend on how many.
@Suite struct ReportThreadsTests {
    /// Every file byte for byte the same at 1, 2 and 5 threads, on a grid sweep with replicas
    /// (slices, pair maps, noise) and on a random sweep of one replica per point (binned views).
    @Test(arguments: ["grid", "random"])
    func theFilesAreTheSameAtAnyThreadCount(kind: String) throws {
        let (summary, worlds): (SweepSummary, [WorldResult])
        if kind == "grid" {
            (summary, worlds) = ReportGrid.grid
        } else {
            var rng = Rand(4)
            let combos = (0..<3000).map { _ in [rng.next(), rng.next(), rng.next()] }
            (summary, worlds) = Fixture.make(name: "random", names: ["bouncy.elasticity", "bouncy.density", "shove.magnitude"],
                                             combos: combos, replicas: 1, kind: "random", items: ["top", "bottom"], seed: 3)
        }
        var pages: [[String: Data]] = []
        for threads in [1, 2, 5] {
            let dir = Scratch.directory("report-threads-\(kind)-\(threads)")
            try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(200))), to: dir, threads: threads)
            var files: [String: Data] = [:]
            for name in ["report.html", "report.md", ImportanceCSV.fileName] {
                let data = try #require(FileManager.default.contents(atPath: dir + "/" + name))
                files[name] = data
            }
            pages.append(files)
        }
        #expect(pages[0]["report.html"]!.count > 10_000)
        #expect(pages[1] == pages[0])
        #expect(pages[2] == pages[0])
    }

    /// The shares in importance.csv come from least squares on 3 000 points, a size OpenBLAS
    /// splits over its own threads, which changes the rounding. The report pins one thread, so
    /// the files are the same whatever OpenBLAS was set to before (`merge` and `report` never set
    /// it; `run` does). Fails without the pin on a machine with two cores or more.
    @Test func theFilesDoNotDependOnOpenBLASThreads() throws {
        #if canImport(COpenBLAS) && !canImport(Accelerate)
        var rng = Rand(4)
        let combos = (0..<3000).map { _ in [rng.next(), rng.next(), rng.next()] }
        let (summary, worlds) = Fixture.make(name: "random", names: ["bouncy.elasticity", "bouncy.density", "shove.magnitude"],
                                             combos: combos, replicas: 1, kind: "random", items: ["top", "bottom"], seed: 3)
        var files: [Data] = []
        for blasThreads: Int32 in [1, 2, 1] {
            openblas_set_num_threads(blasThreads)
            let dir = Scratch.directory("report-blas-\(blasThreads)")
            try ReportWriter.write(summary: summary, sample: WorldSample(Array(worlds.prefix(200))), to: dir, threads: 1)
            files.append(try #require(FileManager.default.contents(atPath: dir + "/" + ImportanceCSV.fileName)))
        }
        #expect(files[0].count > 1_000)
        #expect(files[1] == files[0])
        #expect(files[2] == files[0])
        #endif
    }

    /// The views made ahead over the threads are the ones made when asked.
    @Test func cachedViewsAreTheViewsMadeWhenAsked() throws {
        let (summary, _) = ReportGrid.grid
        let model = ReportModel(summary: summary, sample: WorldSample(), threads: 3)
        #expect(!model.sliceCache.isEmpty && !model.pairCache.isEmpty)
        for (column, slices) in model.sliceCache {
            for (j, cached) in slices.enumerated() {
                let fresh = SweepViews.slice(points: summary.points, parameter: j, column: column, .builtIn, binned: model.binned, runSeconds: model.runSeconds)
                #expect(cached.levels.map { [$0.x, $0.mean, $0.min, $0.max, Double($0.points), $0.never ?? -1] }
                        == fresh.levels.map { [$0.x, $0.mean, $0.min, $0.max, Double($0.points), $0.never ?? -1] })
                #expect(cached.dots.map { [$0.x, $0.y] } == fresh.dots.map { [$0.x, $0.y] })
            }
        }
    }

    /// With the extreme worlds replayed (the writer's first jobs, drawn by a section near the
    /// page's end), the files are still the same at 1, 2 and 5 threads, and the page draws them.
    @Test func replayedPagesAreTheSameAtAnyThreadCount() throws {
        let dir = Scratch.directory("report-threads-replay")
        let path = dir + "/tiny.yaml"
        try Data(tinySweep(ticks: 60, boxY: 300, elasticity: "{range: [0.1, 0.9, 0.1]}").utf8).write(to: URL(fileURLWithPath: path))
        let scene = try SceneFile.load(path: path)
        let outcome = try SweepRun(scene: scene, fileData: try Data(contentsOf: URL(fileURLWithPath: path)), directory: dir + "/run")
            .run(.init(threads: 1))
        let summary = try #require(outcome.summary)
        var pages: [[String: Data]] = []
        for threads in [1, 2, 5] {
            let out = dir + "/report-\(threads)"
            try ReportWriter.write(summary: summary, sample: outcome.sample, to: out, replay: WorldReplay(scene: scene, file: path), threads: threads)
            var files: [String: Data] = [:]
            for name in ["report.html", "report.md", ImportanceCSV.fileName] {
                let data = try #require(FileManager.default.contents(atPath: out + "/" + name))
                files[name] = data
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasSuffix(".tmp") })
            pages.append(files)
        }
        let html = String(decoding: pages[0]["report.html"]!, as: UTF8.self)
        #expect(html.contains("The extreme worlds, replayed") && html.contains("animateMotion"))
        #expect(pages[1] == pages[0])
        #expect(pages[2] == pages[0])
    }

    /// Sections delivered in any order from several threads are written in page order, each once;
    /// the file appears only when every section is in.
    /// The part the writer starts early is the parallel-coordinates section, wherever the views
    /// before it put it.
    @Test func theEarlyPartIsTheParallelCoordinates() {
        let model = ReportModel(summary: ReportGrid.grid.0, sample: WorldSample())
        let parts = HTMLReport.parts(model)
        #expect(parts[HTMLReport.parallelPart(model)](model).hasPrefix("<section id=\"parallel\">"))
        #expect(parts.count > HTMLReport.parallelPart(model) + 1)
    }

    @Test func pageSectionsAreWrittenInOrder() throws {
        let dir = Scratch.directory("report-page-in-order")
        let path = dir + "/page.html"
        let sections = (0..<40).map { "<section \($0)>" + String(repeating: "x", count: $0 * 997) + "</section>\n" }
        let page = try ReportWriter.PageInOrder(path: path, sections: sections.count)
        // Delivered back to front in pieces, over four threads.
        let order = (0..<sections.count).reversed().map { $0 }
        _ = ParallelMap.map(order.count, threads: 4) { k -> Bool in
            usleep(UInt32((k % 5) * 200))
            try? page.deliver(order[k], sections[order[k]])
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try page.finish()
        #expect(FileManager.default.contents(atPath: path) == Data(sections.joined().utf8))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}
