/// Everything a backend needs to start one update.
public struct UpdateRunRequest: Sendable, Hashable {
    public var update: Update
    public var operation: UpdateOperation
    /// The command chosen for `operation`.
    public var command: UpdateCommand
    /// The job's name, for `INSTALLTOP_JOB`.
    public var jobName: String
    /// How the child's file descriptor 3 is read.
    public var channelFormat: ChannelFormat
    /// Whether the child gets a pipe to read on file descriptor 4 (`INSTALLTOP_CONTROL_FD`): a
    /// driver's control lines (`stop`), sent with `ProcessRunningUpdate.sendControl`.
    public var controlChannel: Bool

    public init(update: Update, operation: UpdateOperation, command: UpdateCommand, jobName: String,
                channelFormat: ChannelFormat = .progressLines, controlChannel: Bool = false) {
        self.update = update
        self.operation = operation
        self.command = command
        self.jobName = jobName
        self.channelFormat = channelFormat
        self.controlChannel = controlChannel
    }
}
