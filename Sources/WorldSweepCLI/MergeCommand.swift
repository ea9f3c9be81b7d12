import ArgumentParser
import WorldSweepReport
import WorldSweepRun

/// `worldsweep merge DIR`: joins DIR/shards/*-of-N into DIR's worlds.csv, summary.json and report.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shards of DIR into worlds.csv, summary.json and the report.",
        discussion: """
            Safe to re-run. Fails (exit 1) naming the missing shards if any are missing. \
            `worldsweep missing` exits 1 while shards are missing, so `missing && merge` merges \
            only a complete run (and lists what is left otherwise).

            Examples:
              worldsweep merge runs/big
              worldsweep missing runs/big --of 8 && worldsweep merge runs/big
            """)

    @Argument(help: "The run folder holding shards/.")
    var directory: String

    func run() throws {
        let merged: Shards.Merged
        // One process at a time in the run folder and in each shard folder merge reads.
        var locks: [FolderLock] = []
        defer { for lock in locks { lock.release() } }
        do {
            try Shards.requireFolder(directory)
            locks.append(try FolderLock(directory))
            if let count = try Shards.shardCount(in: directory) {
                for index in 0..<count where OutputFolder.isFolder(SweepRun.shardFolder(directory, index: index, count: count)) {
                    locks.append(try FolderLock(SweepRun.shardFolder(directory, index: index, count: count)))
                }
            }
            merged = try Shards.merge(directory: directory)
        } catch let error as RunInputError {
            throw BadInput(error.description)
        } catch {
            throw RunFailure(plainText(error))
        }
        do {
            try ReportWriter.write(summary: merged.summary, sample: merged.sample, to: directory)
        } catch {
            throw RunFailure("\(directory): the report could not be written: \(plainText(error))")
        }
        // Merge simulates nothing, so it gives no rate: each shard's `done` file has its own.
        let run = merged.summary.run
        print("merged \(run.worlds) world\(run.worlds == 1 ? "" : "s") from \(merged.shards) shard\(merged.shards == 1 ? "" : "s")")
        RunCommand.printFiles(summary: merged.summary, directory: directory)
    }
}
