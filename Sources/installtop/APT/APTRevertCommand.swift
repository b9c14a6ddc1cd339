import ArgumentParser

/// `installtop apt revert RUN [--due]`: reverts a commit-confirmed run now (its undo from the
/// kept versions, recorded `reverted` with why), or with `--due` only when its deadline has
/// passed or a check regressed and the run asked for a revert then: what the engine runs at a
/// deadline (Documentation/COMMIT-CONFIRMED.md).
struct APTRevertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Revert a commit-confirmed (--confirm) run now: its undo from the kept versions.",
        discussion: """
            Acts on the apt root the armed job acted on, whatever --apt-config says, and waits while \
            another transaction holds dpkg's lock. A run being confirmed at the same moment is decided \
            by the history, once: the confirmation before the deadline wins, after it the revert. \
            Where systemd runs, the run's revert timer is stopped when the revert ends, and after a \
            revert the services the job restarted are restarted again (systemctl try-restart). \
            Exit status: 7 reverted, 0 with --due when nothing is due yet, 1 refused (not armed, \
            confirmed or reverted already, being reverted by another process) or the undo failed \
            (the run is then recorded expired, with why), 2 invalid usage.
            """)

    @Argument(help: ArgumentHelp("The armed run (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @Flag(help: "Only when due: its deadline has passed, or a check regressed and --revert-on-regression was asked.")
    var due = false

    @OptionGroup var options: APTOptions

    func run() throws {
        throw ExitCode(RevertCommandRun(tool: "apt", jobRun: jobRun, due: due, history: options.run.history, json: options.run.json).run().rawValue)
    }
}

extension APTRevertCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.revert }
}
