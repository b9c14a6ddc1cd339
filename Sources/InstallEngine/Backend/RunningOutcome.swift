/// What a running piece of work the engine waits for gives it at its end: a running driver
/// (`RunningDriver`) or one update a backend runs (`RunningUpdate`).
public protocol RunningOutcome: Sendable {
    /// Waits until the work has ended: its processes are gone and every report it makes has
    /// been made. Can be awaited by any number of callers.
    var outcome: UpdateRunOutcome { get async }
    /// Calls `handler` once with the outcome, when `outcome` would return (every report has
    /// been made before), on whatever thread ends the work, or at once when it has ended:
    /// `handler` must be quick (the engine's enqueues an input on the job's executor). The
    /// default awaits `outcome` on a task on the engine's pool; a handle that settles an
    /// `OutcomeSlot` passes `handler` to its `whenSettled` and needs no task.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void)
}

extension RunningOutcome {
    public func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        Task.detached(executorPreference: EngineTaskExecutor.shared) { handler(await outcome) }
    }
}
