/// What a `JobMachine` asks its runner to do after an input. The runner performs the actions
/// in the order given; the machine never does I/O, sleeps or reads a clock itself.
public enum JobAction: Sendable {
    /// Deliver a progress callback (rule 8) with the snapshot taken when the change happened.
    /// Only produced while the machine `reportsProgress`.
    case notify(InstallationProgressChangedArgs)
    /// Start the child of update `index`, once every callback notified so far has been
    /// delivered (the update is announced, and recorded in history, before its child exists).
    /// Answer with `updateLaunched(at:)`, then `updateEnded(at:…)`.
    case startUpdate(index: Int)
    /// Start the job's driver, which runs every update of the job and reports their lifecycles.
    /// Answer with `driverReported` for each of its reports, then `driverEnded`.
    case startDriver
    /// Ask what runs to stop gracefully: SIGTERM to the running child's process group, or for a
    /// driver a stop at its next safe point (rule 24).
    case terminate
    /// Stop what runs now: SIGKILL to the child's process group, or to every process of the
    /// driver (rules 12 and 25).
    case kill
    /// Call `timerFired(_:)` after `delay`.
    case schedule(JobTimer, after: Duration)
    /// Forget a scheduled timer; it may still fire, and is then ignored.
    case cancel(JobTimer)
    /// The job has completed with this result: wake those waiting for it and deliver the
    /// completed callback after every progress callback (rule 9).
    /// Boxed (`indirect`): once per job, and every other action, copied once per event, stays small.
    indirect case complete(InstallationResult)
}
