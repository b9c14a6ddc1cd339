/// The payload of `job.started`: the job left the queue and its first update is about to start.
public struct JobStart: Sendable, Hashable {
    /// The job's number.
    public var job: Int

    public init(job: Int) {
        self.job = job
    }
}
