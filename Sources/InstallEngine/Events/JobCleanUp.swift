/// The payload of `job.cleanedUp`: the job left the queue; its results stay in history.
public struct JobCleanUp: Sendable, Hashable {
    public var job: Int

    public init(job: Int) {
        self.job = job
    }
}
