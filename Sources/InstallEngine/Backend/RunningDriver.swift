/// A handle on a running driver.
public protocol RunningDriver: Sendable {
    /// Asks the driver to stop at its next safe point (rule 24): the update it is on finishes
    /// with its real result and no further update starts. There is no grace timer: a safe
    /// point may be minutes away. Returns at once; idempotent.
    func stopAtSafePoint()
    /// Stops the driver now: every process it started, wherever their session (rule 25). A
    /// driver that must repair what it cut (apt: `dpkg --configure -a`) does so before its
    /// `outcome` returns, and says what it left in the cut update's verdict. Returns at once.
    func kill()
    /// Waits until the driver's processes are gone and every report has been made.
    var outcome: UpdateRunOutcome { get async }
    /// Calls `handler` once with the outcome, when `outcome` would return, on whatever thread
    /// ends the driver, or at once when it has ended: `handler` must be quick (the engine's
    /// enqueues an input on the job's executor). The default awaits `outcome` on a task on the
    /// engine's pool; a handle that settles an `OutcomeSlot` passes `handler` to its
    /// `whenSettled` and needs no task.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void)
}

extension RunningDriver {
    public func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        Task.detached(executorPreference: EngineTaskExecutor.shared) { handler(await outcome) }
    }
}
