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
}
