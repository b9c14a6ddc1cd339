/// How one host's engine is reached: `ssh -o BatchMode=yes [options] -- HOST REMOTE-COMMAND`,
/// the remote command (`installtop bridge` by default) joining its stdin and stdout to the
/// engine's socket on that host. `ssh` is the operator's, found in `PATH`, with their
/// configuration, agent and known_hosts; `BatchMode=yes` comes first so that nothing can
/// override it and nothing ever prompts.
public struct SSHCommand: Sendable, Hashable {
    /// `installtop bridge`: what runs on the host unless the operator says otherwise.
    public static let defaultRemoteCommand = "installtop bridge"

    /// The host's name as the operator wrote it, in messages, and ssh's destination.
    public var host: String
    /// More arguments for ssh, before the destination, in order: `-p 2222`, `-o
    /// HostName=10.0.0.5`, `-F FILE`. For each setting ssh takes the first value it meets.
    public var options: [String]
    /// The command line ssh asks the host's shell to run.
    public var remoteCommand: String
    /// The ssh program: a name looked up in `PATH`, or a path.
    public var program: String

    public init(host: String, options: [String] = [], remoteCommand: String = SSHCommand.defaultRemoteCommand, program: String = "ssh") {
        self.host = host
        self.options = options
        self.remoteCommand = remoteCommand
        self.program = program
    }

    /// The argv of an interactive shell on the host (the board's `s`): `ssh -t [options] --
    /// HOST`, the same options and destination as the engine's link, with a terminal (`-t`)
    /// and no remote command, so the host starts the user's login shell. Not in batch mode: ssh
    /// may ask for a password or a passphrase on that terminal, as it does for the operator
    /// at a prompt.
    public var shellArguments: [String] {
        [program, "-t"] + options + ["--", host]
    }

    /// The argv to start: `--` before the destination, so a host name starting with `-` is a
    /// name, never an option.
    public var arguments: [String] {
        [program, "-o", "BatchMode=yes"] + options + ["--", host, remoteCommand]
    }
}
