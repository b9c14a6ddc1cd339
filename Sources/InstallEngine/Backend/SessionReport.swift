/// One thing a session driver said, about a job it declared (by its own key for the job).
public enum SessionReport: Sendable {
    /// A new job and its updates, before any of them starts (rule 22). A second plan with a
    /// key already declared is a protocol error: ignored.
    case plan(job: String, name: String, operation: UpdateOperation, updates: [Update])
    /// Something about an update of a declared job, by its index in the job's plan; the first
    /// `updateStarted` of a job begins the job (rule 27).
    case job(String, DriverReport)
    /// Nothing more runs in this job: its updates that never started end `aborted` (not
    /// started) with `reason` ("host unreachable", "stopped"). A job that never began fails,
    /// unless `notReached`: the driver never came to it, and nothing of it failed.
    case jobEnded(String, reason: String, notReached: Bool = false)
}
