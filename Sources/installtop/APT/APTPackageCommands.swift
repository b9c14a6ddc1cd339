import ArgumentParser
import InstallDrivers

/// apt's part in the package commands every kind has (`PackageCommandKind`): `apt install`,
/// `apt remove` and `apt upgrade` (with `--host`/`--hosts`, a rollout over those hosts' engines,
/// `APTHostsUpgrade`), and the run of apt's own `full-upgrade`.
enum APTPackageCommands: PackageCommandKind {
    typealias UpgradeExtras = HostsRolloutOptions

    static var tool: String { "apt" }

    static var upgradeAbstract: String { "Upgrade every package that can be, installing or removing none (apt-get upgrade)." }

    static var upgradeDiscussion: String {
        """
        With --host NAME (repeatable) or --hosts INVENTORY (and --limit), each host's engine plans \
        the upgrade of its own system and holds it; every plan is printed (`host: N to upgrade …`, \
        then its packages). --yes (or y at a terminal) starts the hosts in order, --parallel at a \
        time, following each to its end; after a host's job fails no new host starts: the hosts not \
        started are declined and named, exit 1. Without a yes every plan is declined (exit 1). With \
        --confirm each host's engine arms its job (checks before and after, the run undone on the host \
        unless confirmed in time); --confirm-by-login keeps each once a fresh ssh login works.
        """
    }

    static var installHelp: String { "The packages." }
    static var installCompletion: CompletionKind? { CompletionSources.package }
    static var removeCompletion: CompletionKind? { CompletionSources.installedPackage }

    static func install(_ packages: [String]) -> PackageRequest { .install(packages) }
    static func remove(_ packages: [String]) -> PackageRequest { .remove(packages) }

    static func runSession(_ request: PackageRequest, options: APTOptions) -> ExitStatus {
        APTSession(request: request, options: options).run()
    }

    static func armedJob(_ request: PackageRequest, options: APTOptions) -> APTArmedJob {
        APTArmedJob(request: request, options: options)
    }

    /// A rollout names no root of this host.
    static func validateUpgrade(_ rollout: HostsRolloutOptions, options: APTOptions) throws {
        try rollout.refuseLocalRoot(options)
    }

    static func upgrade(_ arguments: NoArguments, options: APTOptions, confirmation: ConfirmOptions, extras rollout: HostsRolloutOptions) throws -> ExitStatus {
        if rollout.hosts.isRemote {
            return try rollout.upgrade(options: options, confirmation: confirmation, full: false).run()
        }
        return try run(.upgrade, options: options, confirmation: confirmation)
    }

    static var armableExitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.armable }
}
