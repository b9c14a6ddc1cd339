import ArgumentParser

/// `installtop KIND revert RUN [--due]` for a package kind: reverts a commit-confirmed run now
/// (its undo from the kept versions, recorded `reverted` with why), or with `--due` only when
/// its deadline has passed or a check regressed and the run asked for a revert then: what the
/// engine runs at a deadline (Documentation/COMMIT-CONFIRMED.md). The kind fills in its words
/// (`revertAbstract`, `revertDiscussion`) and its name, which the history's run must carry: a
/// run of another kind is refused.
struct PackageRevertCommand<Kind: PackageCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "revert", abstract: Kind.revertAbstract, discussion: Kind.revertDiscussion)
    }

    @Argument(help: ArgumentHelp("The armed run (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @Flag(help: "Only when due: its deadline has passed, or a check regressed and --revert-on-regression was asked.")
    var due = false

    @OptionGroup var options: Kind.Options

    func run() throws {
        let run = options.run
        throw ExitCode(RevertCommandRun(tool: Kind.tool, jobRun: jobRun, due: due, history: run.history, json: run.json).run().rawValue)
    }
}

extension PackageRevertCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { Kind.revertExitStatuses }
}
