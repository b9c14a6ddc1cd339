/// A handle on one update a backend is running.
public protocol RunningUpdate: Sendable {
    /// Asks the update to stop gracefully (SIGTERM to its process group). Returns at once;
    /// idempotent; a no-op once the update has ended.
    func terminate()
    /// Stops the update now (SIGKILL to its process group). Returns at once; idempotent.
    func kill()
    /// Waits until the update has ended: the child exited, what was left of its process group
    /// was killed, every child reaped and its output drained. Every reporter call has happened
    /// before this returns. Can be awaited by any number of callers.
    var outcome: UpdateRunOutcome { get async }
    /// Calls `handler` once with the outcome, when `outcome` would return (every reporter call
    /// has happened before), on whatever thread ends the update, or at once when it has ended:
    /// `handler` must be quick (the engine's enqueues an input on the job's executor). The
    /// default awaits `outcome` on a task on the engine's pool; a handle that settles an
    /// `OutcomeSlot` passes `handler` to its `whenSettled` and needs no task.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void)
}

extension RunningUpdate {
    public func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        Task.detached(executorPreference: EngineTaskExecutor.shared) { handler(await outcome) }
    }
}
