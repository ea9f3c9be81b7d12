import Foundation
import WorldSweepCLI
import WorldSweepReport
import WorldSweepRun

/// What the replay page needs of a run before it replays anything: its worlds, ticks and the
/// swept parameters' ranges (the sliders), and the trace command's stem; of a search, the worlds
/// it evaluated and its answer's world.
enum SweepInfo {
    struct Reply: Encodable {
        var run: String
        var name: String
        var worlds: Int
        var ticks: Int
        var tick: Double
        var axes: [ReplaySource.Axis]
        var trace: String
        /// A search's: its worlds are those it evaluated, picked by number; `answer` is the best point's first world.
        var search: Bool
        var answer: Int?
    }

    static func json(run: String, folder: RunsFolder) throws(ServeError) -> String {
        let dir = try folder.folder(run)
        let scene = try ReplaySource.scene(dir)
        let (file, overrides) = try ReplaySource.file(dir)
        let trace = "worldsweep trace " + RunText.shellWord(folder.shown + "/" + folder.relative(file))
            + overrides.arguments.map { " " + RunText.shellWord($0) }.joined()
        var reply = Reply(run: run, name: scene.name, worlds: scene.worldCount, ticks: scene.world.ticks, tick: scene.world.tick,
                          axes: ReplaySource.axes(scene), trace: trace, search: false)
        if scene.tune != nil {
            let searched = try TuneLive.searched(dir, run: run)
            reply.search = true
            reply.worlds = searched.worlds
            reply.axes = []
            reply.answer = searched.best?.world
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(reply) else { throw ServeError(.unprocessableContent, "the sweep's ranges are not finite numbers") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `worldsweep compare` of two finished runs of the folder, as its compare.html page.
enum Compare {
    static func html(_ query: Query, folder: RunsFolder) throws(ServeError) -> String {
        let a = try folder.folder(try query.required("a")), b = try folder.folder(try query.required("b"))
        let limit = try query.integer("limit") ?? ComparisonReport.defaultLimit
        guard (1...500).contains(limit) else { throw ServeError(.badRequest, "limit must be 1 to 500") }
        do {
            // Named as the user named the folder (its path from where the server started), once checked.
            let shown = { (dir: String) in folder.shown + "/" + folder.relative(dir) }
            return ComparisonReport.html(try Comparison.ofRunFolders(shown(a), shown(b)), limit: limit)
        } catch {
            throw ServeError(.unprocessableContent, "cannot compare: \(String(describing: error).prefix(300))")
        }
    }
}
