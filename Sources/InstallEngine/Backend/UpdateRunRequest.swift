/// Everything a backend needs to start one update.
public struct UpdateRunRequest: Sendable, Hashable {
    public var update: Update
    public var operation: UpdateOperation
    /// The command chosen for `operation`.
    public var command: UpdateCommand
    /// The job's name, for `INSTALLTOP_JOB`.
    public var jobName: String

    public init(update: Update, operation: UpdateOperation, command: UpdateCommand, jobName: String) {
        self.update = update
        self.operation = operation
        self.command = command
        self.jobName = jobName
    }
}
