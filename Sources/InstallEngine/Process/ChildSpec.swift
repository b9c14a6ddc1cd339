/// What to start as a child process: the one spawn description under both the per-update
/// backend and the drivers (Documentation/CHILD-PROCESSES.md).
///
/// The child gets stdin from /dev/null, pipes on stdout, stderr and file descriptor 3
/// (`INSTALLTOP_PROGRESS_FD=3`), and with `controlChannel` a pipe to read on descriptor 4
/// (`INSTALLTOP_CONTROL_FD=4`). It leads its own process group with default signal handling and
/// an empty signal mask. Its environment is installtop's, then `environment`, then the two
/// descriptor variables, each later source replacing a variable of the same name.
public struct ChildSpec: Sendable, Hashable {
    /// An `.argv` command without `/` is looked up in the child's `PATH`; a relative path
    /// resolves against `workingDirectory`; `.shell(s)` runs `/bin/sh -c s`.
    public var command: UpdateCommand
    /// `nil`: installtop's own.
    public var workingDirectory: String?
    /// Added to installtop's environment, replacing variables of the same name.
    public var environment: [String: String]
    /// Whether the child gets a pipe to read on file descriptor 4: a driver's control lines
    /// (`stop`), sent with `ChildProcess.sendControl`.
    public var controlChannel: Bool

    public init(command: UpdateCommand, workingDirectory: String? = nil, environment: [String: String] = [:],
                controlChannel: Bool = false) {
        self.command = command
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.controlChannel = controlChannel
    }
}
