import ArgumentParser

/// `worldsweep completion SHELL`: the shell completion script, as a command one can find in the
/// help (swift-argument-parser's own `--generate-completion-script` is hidden from it).
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Install it where your shell looks: for bash, \
            ~/.local/share/bash-completion/completions/worldsweep (or source it from ~/.bashrc); \
            for zsh, a file named _worldsweep in a folder on $fpath; for fish, \
            ~/.config/fish/completions/worldsweep.fish. The same script comes from \
            `worldsweep --generate-completion-script SHELL`.

            Examples:
              dir=~/.local/share/bash-completion/completions
              mkdir -p $dir && worldsweep completion bash > $dir/worldsweep
              worldsweep completion zsh > ~/.zfunc/_worldsweep
              worldsweep completion fish > ~/.config/fish/completions/worldsweep.fish
            """)

    @Argument(help: ArgumentHelp("bash, zsh or fish.", valueName: "SHELL"))
    var shell: String

    func run() throws {
        guard let kind = CompletionShell(rawValue: shell) else {
            throw BadInput("completion: no script for '\(shell)'; give bash, zsh or fish")
        }
        print(WorldSweepCommand.completionScript(for: kind))
    }
}
