/// What `JobQueue.perform` did beyond carrying the command out.
public enum JobCommandOutcome: Sendable {
    /// Done (an abort, a confirmation), or under way (a clean-up, which reports when it ends).
    case done
    /// A retry queued this job.
    case requeued(JobDescriptor)
}
