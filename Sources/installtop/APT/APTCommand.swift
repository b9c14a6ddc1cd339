import ArgumentParser

/// `installtop apt …`: a real apt transaction as one job, each package an update with its own
/// bar (Documentation/APT-JOBS.md).
struct APTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apt",
        abstract: "Install, upgrade or remove packages with apt, one bar per package.",
        discussion: """
            apt is asked for the plan first (a simulation: nothing changes); the monitor shows it \
            as the queued job and asks before it starts (--yes skips the question; off a terminal \
            nothing runs without --yes). Abort (a) lets the package being worked on finish and \
            starts no other; a second abort kills apt and dpkg and repairs dpkg's database. \
            Before dpkg touches a package it upgrades, downgrades or removes, the installed \
            version is kept for undo beside the history, in undo/RUN/ (from apt's archive cache \
            when it holds exactly that version, else rebuilt from the installed files); kept \
            versions are pruned after 90 days, and the oldest runs' beyond 2 GiB in all; \
            --no-history keeps none. `installtop history --jobs` lists the runs. \
            When the machine's engine runs (`installtop serve`, at /run/installtop.sock) as this \
            user, records into a history and acts on the same apt root (no --chroot, and \
            --apt-config and --history-db, when given, the engine's), the job runs in that \
            engine: it plans, asks, keeps the versions and records there, the first line says so, \
            and the job goes on if the terminal closes; the monitor is attached to that engine \
            (q detaches), --plain and --json follow the job alone, and SIGINT aborts it there (a \
            second forces the abort). An engine that does not answer within 6 s is said so, and \
            the job runs here. \
            Exit status: 0 done (or nothing to do), 1 some package failed, or the plan was not \
            confirmed (answered n, or off a terminal without --yes, like apt-get's "Abort."; \
            nothing is recorded then), 2 apt refused the \
            request (unknown package, broken dependencies, a locked database, no permission), \
            3 aborted, 4 done and a reboot is required, 5 dpkg was left broken (the repair after \
            a forced abort did not succeed; the summary names the command that repairs it), \
            7 with --confirm: the run was reverted, not confirmed by its deadline or a check regressed \
            with --revert-on-regression (Documentation/COMMIT-CONFIRMED.md).
            """,
        subcommands: [PackageInstallCommand<APTPackageCommands>.self, PackageUpgradeCommand<APTPackageCommands>.self, APTFullUpgradeCommand.self,
                      PackageRemoveCommand<APTPackageCommands>.self, PackageUndoCommand<APTPackageCommands>.self,
                      APTRepairCommand.self, APTFinishCommand.self, PackageRevertCommand<APTPackageCommands>.self]
    )
}

extension APTCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.transaction }
}
