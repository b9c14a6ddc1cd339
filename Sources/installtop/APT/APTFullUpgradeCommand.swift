import ArgumentParser
import InstallDrivers

/// `installtop apt full-upgrade`; with `--host`/`--hosts`, a rollout over those hosts' engines
/// (`APTHostsUpgrade`), as `apt upgrade --hosts` and the board's `D`.
struct APTFullUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "full-upgrade", abstract: "Upgrade everything, installing and removing packages as needed (apt-get dist-upgrade).",
        discussion: """
            With --host NAME (repeatable) or --hosts INVENTORY (and --limit), each host's engine plans \
            the full upgrade of its own system and holds it; every plan is printed (`host: N to upgrade …`, \
            then its packages, removals first). --yes (or y at a terminal) starts the hosts in order, \
            --parallel at a time, following each to its end; after a host's job fails no new host starts: \
            the hosts not started are declined and named, exit 1. Without a yes every plan is declined (exit 1). With \
            --confirm each host's engine arms its job (checks before and after, the run undone on the host \
            unless confirmed in time); --confirm-by-login keeps each once a fresh ssh login works.
            """)

    @OptionGroup var options: APTOptions
    @OptionGroup var confirmation: ConfirmOptions
    @OptionGroup var rollout: HostsRolloutOptions

    func validate() throws {
        try rollout.refuseLocalRoot(options)
    }

    func run() throws {
        if rollout.hosts.isRemote {
            throw ExitCode(try rollout.upgrade(options: options, confirmation: confirmation, full: true).run().rawValue)
        }
        throw ExitCode(try APTPackageCommands.run(.fullUpgrade, options: options, confirmation: confirmation).rawValue)
    }
}

extension APTFullUpgradeCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.armable }
}
