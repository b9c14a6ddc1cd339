import ArgumentParser

/// `installtop KIND undo JOBRUN` for a package kind: puts back every package a job run
/// changed, from the versions kept for it, as an uninstall job planned and confirmed like any
/// of the kind's jobs (Documentation/UNDO.md). The kind fills in its words (`undoAbstract`,
/// `undoDiscussion`) and how its undo is prepared and run (`undo`), refusals included.
struct PackageUndoCommand<Kind: PackageCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "undo", abstract: Kind.undoAbstract, discussion: Kind.undoDiscussion)
    }

    @Argument(help: ArgumentHelp("The job run to undo (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @OptionGroup var options: Kind.Options

    func run() throws {
        throw ExitCode(Kind.undo(jobRun, options: options).rawValue)
    }
}

extension PackageUndoCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { Kind.undoExitStatuses }
}
