/// The payload of `job.completed`: the job's result (the last event of a job but its clean-up).
public struct JobCompletion: Sendable, Hashable {
    public var job: Int
    public var result: InstallationResult

    public init(job: Int, result: InstallationResult) {
        self.job = job
        self.result = result
    }
}
