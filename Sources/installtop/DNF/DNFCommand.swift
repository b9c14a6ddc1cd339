import ArgumentParser

/// `installtop dnf …`: a real dnf transaction as one job, each package an update with its own
/// bar (Documentation/DNF-JOBS.md).
struct DNFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dnf",
        abstract: "Install, upgrade or remove packages with dnf, one bar per package.",
        discussion: """
            dnf is asked for the plan first (its own resolution, through dnf's Python API: nothing \
            is fetched or changed); the monitor shows it as the queued job and asks before it \
            starts (--yes skips the question; off a terminal nothing runs without --yes). Abort \
            (a) before rpm's transaction stops at once and installs nothing; once rpm runs, the \
            stop waits for the transaction's end, because rpm cannot be cut safely, and a second \
            abort is refused for the same reason. Every package's result is read from the rpm \
            database at the end. --installroot DIR (with --releasever) acts on another root: its \
            etc/dnf/dnf.conf and etc/yum.repos.d are read and its rpm database, dnf's caches and \
            logs are kept inside it; on a system whose packages dpkg manages, dnf jobs need it. \
            Exit status: 0 done (or nothing to do), 1 some package failed, or the plan was not \
            confirmed, 2 dnf refused the request (unknown package, a dependency problem, a \
            repository it cannot read, dnf's lock held, no permission), 3 aborted, 4 done and a \
            reboot is required (dnf's needs-restarting rule: kernel, glibc, systemd…), 7 with \
            --confirm: the run was reverted, not confirmed by its deadline or a check regressed with \
            --revert-on-regression (Documentation/COMMIT-CONFIRMED.md).
            """,
        subcommands: [PackageInstallCommand<DNFPackageCommands>.self, PackageUpgradeCommand<DNFPackageCommands>.self, PackageRemoveCommand<DNFPackageCommands>.self, PackageUndoCommand<DNFPackageCommands>.self, PackageRevertCommand<DNFPackageCommands>.self]
    )
}

extension DNFCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.transaction }
}
