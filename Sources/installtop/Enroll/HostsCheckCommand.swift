import ArgumentParser
import EngineDaemon

/// `installtop hosts check`: per host, what it lacks or has otherwise than this machine.
struct HostsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say per host what it lacks for the board: installtop at this version, a running engine, the hooks.",
        discussion: """
            Each selected host is reached with the operator's ssh (as `attach --hosts`), at most \
            \(hostsAtOnce) at a time, and a shell script there asks dpkg, the installed installtop, \
            systemctl and the engine's socket (\(SystemdUnit.socketPath)); when the engine answers, the \
            board's own link (ssh and --remote-command) is tried too. Nothing is changed. Each host is \
            `ready`, `unreachable` with ssh's words, or gets a line per thing it lacks (no installtop, \
            another version, no engine answering with the unit's state, the board's link failing, no \
            hooks) with the command that fixes it, commonly `installtop enroll --host NAME`.
            """
    )

    /// As `status`: enough to overlap the waits on ssh, bounded for a big inventory.
    static let hostsAtOnce = 8

    @OptionGroup var hosts: HostsOptions
    @OptionGroup var setup: HostSetupOptions

    @Flag(help: "Print one JSON document, {\"hosts\":[…]}: each host with host, reachable, ready, installtop, engine, hooks and problems (or error).")
    var json = false

    func validate() throws {
        guard hosts.isRemote else { throw ValidationError("give the hosts to check: --host NAME or --hosts INVENTORY") }
    }

    func run() throws {
        let commands = try hosts.sshCommands()
        let setup = self.setup
        let enroll = EnrollCommandLine(reaching: hosts, setup: setup)
        let checks = BoundedWorkers.map(commands, width: Self.hostsAtOnce) { command in
            HostCheck.run(command, options: setup, enroll: enroll.command(forHost: command.host))
        }
        if json {
            StandardOutput.stdout.line(HostsCheckReport.json(checks))
        } else {
            StandardOutput.stdout.write(HostsCheckReport.text(checks, sanitizer: TextEnvironment.sanitizer))
        }
        if !checks.allSatisfy(\.isReady) { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

extension HostsCheckCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] {
        [
            (ExitStatus.succeeded.rawValue, "every host is ready: installtop at this version, its engine answering (also over the board's link), the hooks installed"),
            (ExitStatus.failed.rawValue, "some host lacks something or differs (each is named with its fix), or was unreachable"),
            (ExitStatus.invalidUsage.rawValue, "invalid usage (no host given, an inventory that cannot be read, a --limit that matches no host)"),
        ]
    }
}
