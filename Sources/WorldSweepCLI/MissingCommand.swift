import ArgumentParser
import WorldSweepRun

/// `worldsweep missing DIR`: the shard indices without a finished run, one per line.
struct MissingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "missing",
        abstract: "List the shards of DIR that have not finished, one index per line.",
        discussion: """
            Examples:
              worldsweep missing runs/big
              worldsweep missing runs/big --of 8      # also counts shards that never started
            """)

    @Argument(help: "The run folder holding shards/.")
    var directory: String

    @Option(help: "How many shards there should be (default: as the shard folders say).")
    var of: Int?

    func run() throws {
        let found: Int?
        do { found = try Shards.shardCount(in: directory) } catch let e as RunInputError { throw BadInput(e.description) }
        if let of, of < 1 { throw BadInput("--of must be 1 or more, got \(of)") }
        if let of, let found, of != found { throw BadInput("\(directory)/shards holds shards of \(found), not \(of)") }
        guard let count = of ?? found else {
            throw BadInput("\(directory): no shards found; give --of N to list them all as missing")
        }
        for i in Shards.missing(in: directory, count: count) { print(i) }
    }
}
