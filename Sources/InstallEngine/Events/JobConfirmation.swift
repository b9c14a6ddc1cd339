/// The payload of `job.confirmed`: a job that awaited confirmation was said yes to (`confirm`,
/// the monitor's `y`, a rollout's turn). It now waits in the queue like any other job, or
/// starts at once when its turn has come (its `job.started` follows).
public struct JobConfirmation: Sendable, Hashable {
    public var job: Int

    public init(job: Int) {
        self.job = job
    }
}
