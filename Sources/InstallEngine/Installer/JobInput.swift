import TextBasics

/// Something that changes a job's state, enqueued on the job's executor (`JobRunner`) and
/// performed there in the order it came: whoever makes it (the process poller, a driver's
/// report queue, the monitor's key, the reactor's timers, the callback queue) only enqueues,
/// except that a child's end and a launch may be performed by the thread that makes them when
/// nothing else waits for it or for the engine's pool (`JobRunner.submitRunningHere`).
enum JobInput: Sendable {
    /// Start the job (once, from `UpdateInstaller.begin`).
    case start
    /// A report of the child of update `index`.
    case report(UpdateReport, index: Int)
    /// Reports the job's driver made together: applied one after another in one step, so a
    /// progress callback that the next one of the same update supersedes is not delivered.
    case driverReports([DriverReport])
    /// `requestAbort` (rules 10–13).
    case abort(force: Bool)
    /// Every callback queued before update `index`'s start has been delivered: its child starts.
    case launch(index: Int)
    /// The child of update `index` has ended; `markerBefore` is the reboot marker as it was
    /// before the child started.
    case updateEnded(index: Int, outcome: UpdateRunOutcome, markerBefore: FileFingerprint)
    /// The job's driver has ended (its reporter said so, or its outcome came).
    case driverEnded(UpdateRunOutcome)
    /// A timer the machine scheduled has fired.
    case timerFired(JobTimer)
}
