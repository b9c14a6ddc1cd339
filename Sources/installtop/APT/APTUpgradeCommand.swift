import ArgumentParser
import InstallDrivers

/// `installtop apt upgrade`; with `--host`/`--hosts`, a rollout over those hosts' engines
/// (`APTHostsUpgrade`).
struct APTUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Upgrade every package that can be, installing or removing none (apt-get upgrade).",
        discussion: """
            With --host NAME (repeatable) or --hosts INVENTORY (and --limit), each host's engine plans \
            the upgrade of its own system and holds it; every plan is printed (`host: N to upgrade …`, \
            then its packages). --yes (or y at a terminal) starts the hosts in order, --parallel at a \
            time, following each to its end; after a host's job fails no new host starts: the hosts not \
            started are declined and named, exit 1. Without a yes every plan is declined (exit 1). With \
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
            throw ExitCode(try rollout.upgrade(options: options, confirmation: confirmation, full: false).run().rawValue)
        }
        throw ExitCode(try APTPackageCommands.run(.upgrade, options: options, confirmation: confirmation).rawValue)
    }
}

extension APTUpgradeCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.armable }
}
