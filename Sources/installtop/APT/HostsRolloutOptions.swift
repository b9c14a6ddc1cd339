import ArgumentParser

/// The options of a rollout from the command line (`apt upgrade` and `apt full-upgrade` with
/// `--host`/`--hosts`): the hosts, and how many upgrade at once.
struct HostsRolloutOptions: ParsableArguments {
    @OptionGroup var hosts: HostsOptions

    @Option(help: ArgumentHelp("With --host or --hosts: how many hosts upgrade at once.", valueName: "N"))
    var parallel = 2

    @Flag(help: "With --confirm and --host or --hosts: keep each host's run once a fresh ssh login to it works and none of its checks regressed; a host not kept stops the rollout.")
    var confirmByLogin = false

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        if confirmByLogin && !hosts.isRemote { throw ValidationError("--confirm-by-login is for --host and --hosts (with --confirm)") }
    }

    /// The rollout of `full` (`apt full-upgrade`) over the hosts, armed by `confirmation`.
    func upgrade(options: APTOptions, confirmation: ConfirmOptions, full: Bool) throws -> APTHostsUpgrade {
        let confirm = try confirmation.request
        if confirmByLogin && confirm == nil { throw ValidationError("--confirm-by-login goes with --confirm") }
        return APTHostsUpgrade(commands: try hosts.sshCommands(), parallel: parallel, yes: options.yes, full: full, confirm: confirm,
                               confirmByLogin: confirmByLogin)
    }

    /// Refuses this machine's root options for a rollout: each host's engine upgrades its own system.
    func refuseLocalRoot(_ options: APTOptions) throws {
        if hosts.isRemote, options.aptConfig != nil || options.chroot != nil {
            throw ValidationError("--apt-config and --chroot are this machine's: each host's engine upgrades its own system")
        }
    }
}
