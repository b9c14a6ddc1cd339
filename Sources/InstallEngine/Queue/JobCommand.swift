/// What a job can be told, whoever tells it: the monitor's keys, a daemon client's line, the
/// `abort` and `cleanup` commands. `JobQueue` carries each out (refusals are `JobCommandError`s).
public enum JobCommand: Sendable, Hashable {
    /// `JobQueue.abort(job:force:)`: graceful first (rule 11); `force`, or a second one, kills (rule 12).
    case abort(job: Int, force: Bool)
    /// `JobQueue.abortAll(force:)`.
    case abortAll(force: Bool)
    /// `JobQueue.cleanUp(job:)`: waits for the job to complete, then removes it from the queue.
    case cleanUp(job: Int)
    /// `JobQueue.retry(job:)`: the failed and aborted updates as a new job.
    case retry(job: Int)
    /// `JobQueue.confirm(job:)`: a job that awaits confirmation may start.
    case confirm(job: Int)
    /// `JobQueue.decline(job:)`: a job that awaits confirmation leaves the queue without
    /// running and without results (the operator said no to its plan).
    case decline(job: Int)
}
