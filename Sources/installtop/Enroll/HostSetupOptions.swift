import ArgumentParser
import EngineDaemon

/// How `enroll` and `hosts check` act on each host beyond reaching it: as root or through
/// `sudo -n`, in which apt root, and (enroll) how the engine is started.
struct HostSetupOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Run the steps on each host through `sudo -n` (the ssh user needs sudo without a password); without it the ssh user must be root. With the default --remote-command, the board's link is checked as `sudo -n installtop bridge`."))
    var sudo = false

    @Option(help: ArgumentHelp(
        "apt's configuration file on each host, as APT_CONFIG: the package, dpkg's database, the hooks and the installtop that runs are those of the root it names (chroots and tests; as `serve --apt-config`).",
        valueName: "file"))
    var aptConfig: String?

    /// `sudo -n` when asked.
    var privilege: String? { sudo ? "sudo -n" : nil }

    /// The remote command that checks the board's link: `sudo -n installtop bridge` with
    /// `--sudo` and no `--remote-command` of the operator's, else theirs.
    func bridgeCommand(_ command: SSHCommand) -> SSHCommand {
        var bridge = command
        if sudo && command.remoteCommand == SSHCommand.defaultRemoteCommand { bridge.remoteCommand = "sudo -n " + command.remoteCommand }
        return bridge
    }

    /// `command` running `script` with `arguments` on the host instead of the bridge.
    func scriptCommand(_ command: SSHCommand, _ script: String, arguments: [String]) -> SSHCommand {
        var scripted = command
        scripted.remoteCommand = HostSetupScript.commandLine(script, arguments: arguments, privilege: privilege)
        return scripted
    }

    /// `--apt-config` as the scripts take it: empty for the host's own apt.
    var aptConfigArgument: String { aptConfig ?? "" }
}
