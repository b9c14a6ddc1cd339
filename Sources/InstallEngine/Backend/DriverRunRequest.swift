/// Everything a driver needs to run a job: the plan fixed before it starts (rule 22).
public struct DriverRunRequest: Sendable, Hashable {
    public var updates: [Update]
    public var operation: UpdateOperation
    /// The job's name.
    public var jobName: String

    public init(updates: [Update], operation: UpdateOperation, jobName: String) {
        self.updates = updates
        self.operation = operation
        self.jobName = jobName
    }
}
