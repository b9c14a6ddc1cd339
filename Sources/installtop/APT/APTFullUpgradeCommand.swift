import ArgumentParser

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
            the hosts not started are declined and named, exit 1. Without a yes every plan is declined (exit 1).
            """)

    @OptionGroup var options: APTOptions
    @OptionGroup var hosts: HostsOptions

    @Option(help: ArgumentHelp("With --host or --hosts: how many hosts upgrade at once.", valueName: "N"))
    var parallel = 2

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        if hosts.isRemote, options.aptConfig != nil || options.chroot != nil {
            throw ValidationError("--apt-config and --chroot are this machine's: each host's engine upgrades its own system")
        }
    }

    func run() throws {
        if hosts.isRemote {
            throw ExitCode(APTHostsUpgrade(commands: try hosts.sshCommands(), parallel: parallel, yes: options.yes, full: true).run().rawValue)
        }
        throw ExitCode(APTSession(request: .fullUpgrade, options: options).run().rawValue)
    }
}
