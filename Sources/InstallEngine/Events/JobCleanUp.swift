/// The payload of `job.cleanedUp`: the job left the queue; its results stay in history. A job
/// declined while it awaited confirmation leaves by it too, without a `job.completed` before
/// it: it never ran and has no results.
public struct JobCleanUp: Sendable, Hashable {
    public var job: Int

    public init(job: Int) {
        self.job = job
    }
}
