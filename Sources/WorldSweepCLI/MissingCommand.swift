import ArgumentParser
import WorldSweepRun

/// `worldsweep missing DIR`: the shard indices without a finished run, one per line.
struct MissingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "missing",
        abstract: "List the shards of DIR that have not finished, one index per line.",
        discussion: """
            Exit 0 when every shard is done (nothing listed), 1 when some are missing (their \
            indices on stdout, a count on stderr), 2 for bad input; so `missing && merge` \
            merges only a complete run.

            Examples:
              worldsweep missing runs/big
              worldsweep missing runs/big --of 8    # counts shards never started
              worldsweep missing runs/big --of 8 && worldsweep merge runs/big
            """)

    @Argument(help: "The run folder holding shards/.")
    var directory: String

    @Option(parsing: .unconditional, help: "How many shards there should be (default: as the shard folders say).")
    var of: Int?

    func run() throws {
        let found: Int?
        do {
            try Shards.requireFolder(directory)
            found = try Shards.shardCount(in: directory)
        } catch let e as RunInputError { throw BadInput(e.description) }
        if let of { try CommandLineLimits.check(of, CommandLineLimits.shards, option: "--of") }
        if let of, let found, of != found { throw BadInput("\(directory)/shards holds shards of \(found), not \(of)") }
        guard let count = of ?? found else {
            throw BadInput("\(directory): no shards found; give --of N to list them all as missing")
        }
        // Exactly the shards merge would refuse, so a resubmission of these makes merge succeed.
        let problems: [(index: Int, problem: String)]
        do { problems = try Shards.problems(in: directory, count: count) } catch let e as RunInputError {
            throw BadInput(e.description)
        } catch {
            throw RunFailure(plainText(error))
        }
        for (i, _) in problems { print(i) }
        if let foreign = problems.first(where: { $0.problem.contains(" belongs to another sweep: ") }) {
            throw RunFailure("\(directory): \(foreign.problem)")
        }
        let missing = problems.map(\.index)
        if !missing.isEmpty {
            throw RunFailure("\(directory): \(missing.count) of \(count) shard\(count == 1 ? "" : "s") not finished")
        }
    }
}
