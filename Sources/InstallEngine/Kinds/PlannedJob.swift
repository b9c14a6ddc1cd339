/// One job as `JobPlanner` made it ready for the queue.
public enum PlannedJob: Sendable {
    /// A job for `JobQueue.submit`: a manifest's commands (`driver` `nil`), or a kind's
    /// updates with the driver that runs them.
    case job(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, driver: (any JobDriver)?)
    /// A session for `JobQueue.submitSession`, whose jobs its driver declares.
    case session(any SessionDriver)
    /// The kind's planner found nothing to do (`apt upgrade` with everything current); the
    /// reason reads `apt upgrade: nothing to do`.
    case nothingToDo(reason: String)
}
