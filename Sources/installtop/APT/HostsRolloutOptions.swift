import ArgumentParser

/// The options of a rollout from the command line (`apt upgrade` and `apt full-upgrade` with
/// `--host`/`--hosts`): the hosts, and how many upgrade at once.
struct HostsRolloutOptions: ParsableArguments {
    @OptionGroup var hosts: HostsOptions

    @Option(help: ArgumentHelp("With --host or --hosts: how many hosts upgrade at once.", valueName: "N"))
    var parallel = 2

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
    }

    /// Refuses this machine's root options for a rollout: each host's engine upgrades its own system.
    func refuseLocalRoot(_ options: APTOptions) throws {
        if hosts.isRemote, options.aptConfig != nil || options.chroot != nil {
            throw ValidationError("--apt-config and --chroot are this machine's: each host's engine upgrades its own system")
        }
    }
}
